//! Apache Iceberg tables (format v2) without Arrow (feature `iceberg`): table metadata JSON,
//! manifest lists and manifests in Avro, and a file-system catalog whose commits are atomic
//! (put-if-absent of the next metadata file), over a local folder or an object store.
//!
//! Inside:
//! - `metadata.rs`: the table metadata JSON (format v2) as serde structs, read and checked.
//! - `manifest.rs`: manifests (Avro `manifest_entry` files with the spec's field ids), written
//!   and read back; `manifest_list.rs`: a snapshot's manifest list, likewise.

#[allow(dead_code)] // used by the committer (next commits)
pub(crate) mod manifest;
pub(crate) mod manifest_list;
#[allow(dead_code)]
pub(crate) mod metadata;

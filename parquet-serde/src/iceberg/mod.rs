//! Apache Iceberg tables (format v2) without Arrow (feature `iceberg`): table metadata JSON,
//! manifest lists and manifests in Avro, and a file-system catalog whose commits are atomic
//! (put-if-absent of the next metadata file), over a local folder or an object store.
//!
//! Inside:
//! - `metadata.rs`: the table metadata JSON (format v2) as serde structs, read and checked.
//! - `manifest.rs`: manifests (Avro `manifest_entry` files with the spec's field ids), written
//!   and read back; `manifest_list.rs`: a snapshot's manifest list, likewise.
//! - `schema.rs`: the Iceberg schema JSON of a Parquet schema with field ids, and the type
//!   of each field id of a schema read back;
//! - `field_ids.rs`: field ids for a schema written to a table (kept, taken from the
//!   table's schema by name path, or assigned);
//! - `literal.rs`: Iceberg values and their single-value binary form (manifest bounds);
//! - `metrics.rs`: a data file's metrics from its footer, by field id;
//! - `partition.rs`: partition specs (identity, day, hour) and a file's partition tuple.

// The committer (ice-table) and the reader (ice-read) use these as they land.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod field_ids;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod literal;
#[allow(dead_code)]
pub(crate) mod manifest;
#[allow(dead_code)]
pub(crate) mod manifest_list;
#[allow(dead_code)]
pub(crate) mod metadata;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod metrics;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod partition;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod schema;

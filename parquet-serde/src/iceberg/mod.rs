//! Apache Iceberg tables (format v2) without Arrow (feature `iceberg`): table metadata JSON,
//! manifest lists and manifests in Avro, and a file-system catalog whose commits are atomic
//! (put-if-absent of the next metadata file), over a local folder or an object store.
//!
//! [`IcebergTable`] commits data files (from a [`LogWriter`](crate::logs::LogWriter)'s
//! `on_finished` hook, from a folder, or through the object-store shipper) as append
//! snapshots; see its docs for the rules (metrics, partitions, field ids, exactly-once,
//! concurrency).
//!
//! Inside:
//! - `catalog.rs`: the file-system table: `metadata/v{N}.metadata.json` created with
//!   put-if-absent, `version-hint.text`, unique names for manifests and lists;
//!   `commit.rs`: one commit's manifest entries, manifests, list and metadata;
//!   `table.rs`: [`IcebergTable`], the committer.
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

pub(crate) mod catalog;
pub(crate) mod commit;
mod table;

#[doc(no_inline)]
pub use crate::table::CommitReport;
pub use table::IcebergTable;

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

#[cfg(test)]
mod interop_tests;

//! Delta Lake tables without Arrow (feature `delta`): the transaction log under `_delta_log/`
//! read and written as JSON lines and Parquet checkpoints, over a local folder or an object
//! store.
//!
//! [`DeltaTable`] commits data files (from a [`LogWriter`](crate::logs::LogWriter)'s
//! `on_finished` hook, from a folder, or through the object-store shipper), removes them,
//! writes checkpoints and vacuums; see its docs for the rules (stats, protocol, schema,
//! exactly-once, concurrency).
//!
//! Inside:
//! - `action.rs`: the log's actions (`add`, `remove`, `metaData`, `protocol`, `txn`,
//!   `commitInfo`) as serde structs, one JSON line each.
//! - `log_store.rs`: the names of the log's files; the storage (listing, reading, and the
//!   put-if-absent that makes a commit atomic) is shared with Iceberg in `crate::table`.
//! - `snapshot.rs`: the table at a version: the log replayed from the newest checkpoint into
//!   the live files, the protocol, the metadata and each application's last transaction
//!   version.
//!
//! Reading a table (`Dataset::open` on a Delta root):
//! - `checkpoint.rs`: classic Parquet checkpoints (single and multi-part) read back into
//!   actions, and the newest complete one at or below a version.
//! - `protocol.rs`: whether this crate can read a table: its reader version and features.
//! - `schema.rs`: the top-level fields of the table schema (`schemaString`) and their types.
//! - `stats.rs`: an `add`'s `stats` JSON (numRecords, minValues, maxValues, nullCount).
//!
//! Writing a table ([`DeltaTable`]):
//! - `schema_from_parquet.rs`: the Delta schema string of a Parquet schema;
//!   `stats_from_footer.rs`: an `add`'s stats from the footer; `commit.rs`: the actions of one
//!   commit; `checkpoint_write.rs`: Parquet checkpoints and `_last_checkpoint`; `table.rs`:
//!   [`DeltaTable`], the committer.

pub(crate) mod action;
pub(crate) mod checkpoint;
mod checkpoint_write;
mod commit;
pub(crate) mod log_store;
pub(crate) mod protocol;
pub(crate) mod schema;
mod schema_from_parquet;
pub(crate) mod snapshot;
pub(crate) mod stats;
mod stats_from_footer;
mod table;

#[doc(no_inline)]
pub use crate::table::CommitReport;
pub use table::DeltaTable;

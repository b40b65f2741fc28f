//! Delta Lake tables without Arrow (feature `delta`): the transaction log under `_delta_log/`
//! read and written as JSON lines and Parquet checkpoints, over a local folder or an object
//! store.
//!
//! - `action.rs`: the log's actions (`add`, `remove`, `metaData`, `protocol`, `txn`,
//!   `commitInfo`) as serde structs, one JSON line each.
//! - `log_store.rs`: where the log lives: listing, reading, and the put-if-absent that makes a
//!   commit atomic (a local folder here; an object store beside it).
//! - `checkpoint.rs`: classic Parquet checkpoints (single and multi-part) read back into
//!   actions, and the newest complete one at or below a version.
//! - `protocol.rs`: whether this crate can read a table: its reader version and features.
//! - `schema.rs`: the top-level fields of the table schema (`schemaString`) and their types.
//! - `stats.rs`: an `add`'s `stats` JSON (numRecords, minValues, maxValues, nullCount).
//! - `snapshot.rs`: the table at a version: the log replayed into the live files, the protocol,
//!   the metadata and each application's last transaction version.

#![allow(dead_code)] // the skeleton the committer and the table reader build on

pub(crate) mod action;
pub(crate) mod checkpoint;
pub(crate) mod log_store;
pub(crate) mod protocol;
pub(crate) mod schema;
pub(crate) mod snapshot;
pub(crate) mod stats;

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
//! - `log_store.rs`: where the log lives: listing, reading, and the put-if-absent that makes a
//!   commit atomic (a local folder here; an object store in `object_log_store.rs`).
//! - `snapshot.rs`: the table at a version: the log replayed into the live files, the protocol,
//!   the metadata and each application's last transaction version.
//! - `schema.rs`: the Delta schema string of a Parquet schema; `stats.rs`: an `add`'s stats
//!   from the footer; `commit.rs`: the actions of one commit; `checkpoint.rs`: Parquet
//!   checkpoints; `table.rs`: [`DeltaTable`], the committer.

#![allow(dead_code)] // the skeleton the committer and the table reader build on

pub(crate) mod action;
mod checkpoint;
mod commit;
pub(crate) mod log_store;
#[cfg(feature = "object_store")]
mod object_log_store;
mod schema;
pub(crate) mod snapshot;
mod stats;
mod table;

pub use table::{CommitReport, DeltaTable};

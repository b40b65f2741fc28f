//! Reading a Parquet file whose bytes are fetched asynchronously (an object store, an
//! `AsyncRead + AsyncSeek`): the footer first, then a plan of the byte ranges the
//! projection and the predicate need, fetched (coalesced) a row group ahead of the
//! synchronous reader that assembles the rows. Shared by the `object_store` and `tokio`
//! features; the public faces are `store` and `stream`.

mod file;
mod open;
mod plan;
mod runtime;
mod source;

pub use file::{FetchStats, RemoteFile};
pub use open::RemoteOptions;
pub(crate) use open::{open, ReadRequest};
#[cfg(feature = "object_store")]
pub(crate) use runtime::wait;
pub(crate) use runtime::Runtime;
pub(crate) use source::{BoxFuture, RangeSource};

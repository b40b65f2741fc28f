//! [`RangeSource`]: where a remote file's bytes come from.

use std::ops::Range;

use bytes::Bytes;

use crate::error::Result;

/// A boxed future that can be spawned on a runtime.
pub(crate) type BoxFuture<T> = futures::future::BoxFuture<'static, T>;

/// Fetches byte ranges of one file. The futures own what they need (`'static`), so that
/// they run as tasks of a runtime while the reader waits on another thread.
pub(crate) trait RangeSource: Send + Sync + 'static {
    /// The file's last `n` bytes (all of it when shorter) and the file's length.
    fn tail(&self, n: u64) -> BoxFuture<Result<(Bytes, u64)>>;

    /// The bytes of `range`, exactly (a short answer is an error).
    fn range(&self, range: Range<u64>) -> BoxFuture<Result<Bytes>>;

    /// The file, for error messages (an object path, "async reader").
    fn describe(&self) -> String;
}

/// Checks that a fetch of `range` returned all of it.
pub(crate) fn check_len(bytes: &Bytes, range: &Range<u64>) -> Result<()> {
    let want = range.end - range.start;
    if bytes.len() as u64 != want {
        return Err(crate::Error::corrupt(format!(
            "fetch of bytes {}..{} returned {} bytes, not {want}",
            range.start,
            range.end,
            bytes.len()
        ))
        .with_offset(range.start));
    }
    Ok(())
}

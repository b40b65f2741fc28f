//! What the table committers share (features `delta`, `iceberg`): the [`CommitReport`] of
//! a commit, the storage with put-if-absent that makes commits atomic (a local folder, or an
//! object store with feature `object_store`), and the retry loop of a writer that lost the
//! race for the next version.
//!
//! The committers themselves are [`DeltaTable`](crate::delta::DeltaTable) (feature `delta`)
//! and `IcebergTable` (feature `iceberg`).

pub(crate) mod local_files;
#[cfg(feature = "object_store")]
pub(crate) mod object_store;
pub(crate) mod store;

use std::time::Duration;

use crate::error::{Error, ErrorKind, Result};

/// What one commit call of a table committer did (a Delta table's
/// [`DeltaTable`](crate::delta::DeltaTable), an Iceberg table's `IcebergTable`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CommitReport {
    /// The version written: the Delta log version, the number `N` of the Iceberg metadata
    /// file `metadata/vN.metadata.json`; `None` when there was nothing to commit.
    pub version: Option<u64>,
    /// The Iceberg snapshot written (`None` for Delta, or when nothing was committed).
    pub snapshot_id: Option<i64>,
    /// Files added.
    pub added: usize,
    /// Files removed.
    pub removed: usize,
    /// Files skipped because the table already holds them (or removed them earlier), or,
    /// for a removal, because the table does not hold them.
    pub already_committed: usize,
    /// Times another writer took the version first and the commit was retried.
    pub retries: u32,
}

/// How many times a commit is retried when other writers keep taking the next version.
pub(crate) const MAX_ATTEMPTS: u32 = 10_000;

/// Runs `attempt(n)` (n = 0, 1, ...) until it returns `Some`: `None` means another writer
/// took the version this attempt tried to write, so the next attempt reads the table again.
/// Waits a little longer after each lost race (up to 20 ms); gives up after
/// [`MAX_ATTEMPTS`] with an error naming the table (`location`).
pub(crate) fn retry_commit<T>(
    location: String,
    mut attempt: impl FnMut(u32) -> Result<Option<T>>,
) -> Result<T> {
    for n in 0..MAX_ATTEMPTS {
        if let Some(done) = attempt(n)? {
            return Ok(done);
        }
        std::thread::sleep(Duration::from_millis(u64::from(n.min(20))));
    }
    Err(Error::new(
        ErrorKind::Io,
        format!(
            "{location}: gave up committing after {MAX_ATTEMPTS} attempts (other writers took \
             every version)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_until_an_attempt_lands() {
        let mut seen = Vec::new();
        let got = retry_commit("t".into(), |n| {
            seen.push(n);
            Ok((n == 2).then_some(n))
        })
        .unwrap();
        assert_eq!((got, seen), (2, vec![0, 1, 2]));
        let err = retry_commit::<()>("t".into(), |_| Err(Error::corrupt("bad"))).unwrap_err();
        assert!(err.to_string().contains("bad"), "{err}");
    }
}

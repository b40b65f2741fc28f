//! An object in an [`ObjectStore`] as a [`RangeSource`]: ranged GETs.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt};

use crate::error::{Error, ErrorKind, Result};
use crate::remote::{BoxFuture, RangeSource};

/// One object of a store.
#[derive(Debug, Clone)]
pub(crate) struct ObjectSource {
    pub store: Arc<dyn ObjectStore>,
    pub path: Path,
}

/// An object store error as an I/O error naming the object ([`ErrorKind::NotFound`] for
/// a missing one).
pub(crate) fn store_error(e: object_store::Error, path: &Path) -> Error {
    let kind = match &e {
        object_store::Error::InvalidPath { .. } => ErrorKind::InvalidArgument,
        object_store::Error::NotImplemented { .. } => ErrorKind::Unsupported,
        object_store::Error::NotFound { .. } => ErrorKind::NotFound,
        _ => ErrorKind::Io,
    };
    Error::new(kind, format!("object store, {path}: {e}")).with_source(e)
}

impl RangeSource for ObjectSource {
    fn tail(&self, n: u64) -> BoxFuture<Result<(Bytes, u64)>> {
        let (store, path) = (Arc::clone(&self.store), self.path.clone());
        Box::pin(async move {
            let options = GetOptions::new().with_range(Some(GetRange::Suffix(n)));
            let got = store
                .get_opts(&path, options)
                .await
                .map_err(|e| store_error(e, &path))?;
            let (size, range) = (got.meta.size, got.range.clone());
            let bytes = got.bytes().await.map_err(|e| store_error(e, &path))?;
            if range.end != size || bytes.len() as u64 != range.end - range.start {
                return Err(Error::corrupt(format!(
                    "{path}: the last {n} bytes came back as bytes {}..{} ({} bytes) of an object of {size}",
                    range.start,
                    range.end,
                    bytes.len()
                )));
            }
            Ok((bytes, size))
        })
    }

    fn range(&self, range: Range<u64>) -> BoxFuture<Result<Bytes>> {
        let (store, path) = (Arc::clone(&self.store), self.path.clone());
        Box::pin(async move {
            store
                .get_range(&path, range.clone())
                .await
                .map_err(|e| store_error(e, &path).with_offset(range.start))
        })
    }

    fn describe(&self) -> String {
        format!("{}/{}", self.store, self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::{wait, Runtime};

    #[test]
    fn a_missing_object_is_not_found() {
        let source = ObjectSource {
            store: Arc::new(object_store::memory::InMemory::new()),
            path: Path::from("missing.parquet"),
        };
        let runtime = Runtime::owned().unwrap();
        let err = wait(&runtime, source.tail(8)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        assert!(
            err.to_string()
                .starts_with("not found: object store, missing.parquet: "),
            "{err}"
        );
        let err = wait(&runtime, source.range(0..4)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
    }
}

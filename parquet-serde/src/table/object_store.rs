//! A table under a prefix of an `ObjectStore` (feature `object_store`, with `delta` or
//! `iceberg`).
//!
//! Commits are created with `PutMode::Create`. object_store 0.14's S3 client sends it as a
//! PUT with `If-None-Match: *` (its default `S3ConditionalPut::ETagMatch`; AWS S3 honours
//! it since 2024, and so does moto 5.2); an existing key answers 412 and becomes
//! `AlreadyExists`, that is "another writer took this version" (a Delta commit, an Iceberg
//! metadata file). A store that answers
//! `NotImplemented` (S3 with conditional puts disabled, HTTP/WebDAV stores) cannot commit
//! safely and is refused with an error naming it.

use std::sync::Arc;

use futures::TryStreamExt;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload};

use super::store::TableStore;
use crate::error::{Error, ErrorKind, Result};
use crate::remote::{wait, Runtime};

/// A table at `prefix` in `store`.
pub(crate) struct ObjectTableStore {
    store: Arc<dyn ObjectStore>,
    prefix: Path,
    runtime: Runtime,
}

impl ObjectTableStore {
    pub(crate) fn new(store: Arc<dyn ObjectStore>, prefix: Path, runtime: Runtime) -> Self {
        ObjectTableStore {
            store,
            prefix,
            runtime,
        }
    }

    fn key(&self, relative: &str) -> Path {
        let mut key = self.prefix.clone();
        for part in relative.split('/').filter(|p| !p.is_empty()) {
            key = key.clone().join(part);
        }
        key
    }

    fn error(&self, e: object_store::Error, what: &str, key: &Path) -> Error {
        let kind = match e {
            object_store::Error::NotFound { .. } => ErrorKind::Io,
            object_store::Error::NotImplemented { .. } => ErrorKind::Unsupported,
            _ => ErrorKind::Io,
        };
        Error::new(kind, format!("{what} {}/{key}: {e}", self.store)).with_source(e)
    }
}

impl TableStore for ObjectTableStore {
    fn list(&self, dir: &str) -> Result<Vec<String>> {
        let store = Arc::clone(&self.store);
        let dir = self.key(dir);
        let listed = wait(&self.runtime, {
            let dir = dir.clone();
            async move {
                let metas: Vec<_> = store.list(Some(&dir)).try_collect().await.map_err(|e| {
                    Error::new(ErrorKind::Io, format!("listing {dir}: {e}")).with_source(e)
                })?;
                Ok(metas)
            }
        })?;
        Ok(listed
            .into_iter()
            .filter_map(|m| m.location.filename().map(str::to_string))
            .collect())
    }

    fn read(&self, path: &str) -> Result<Vec<u8>> {
        let store = Arc::clone(&self.store);
        let key = self.key(path);
        let k = key.clone();
        let outcome = wait(&self.runtime, async move {
            let got = match store.get(&k).await {
                Ok(got) => got.bytes().await,
                Err(e) => Err(e),
            };
            Ok(got.map(|b| b.to_vec()))
        })?;
        outcome.map_err(|e| self.error(e, "reading", &key))
    }

    fn put_if_absent(&self, path: &str, bytes: &[u8]) -> Result<bool> {
        let store = Arc::clone(&self.store);
        let key = self.key(path);
        let k = key.clone();
        let payload = PutPayload::from(bytes.to_vec());
        let outcome = wait(&self.runtime, async move {
            let opts = PutOptions {
                mode: PutMode::Create,
                ..Default::default()
            };
            Ok(store.put_opts(&k, payload, opts).await)
        })?;
        match outcome {
            Ok(_) => Ok(true),
            Err(object_store::Error::AlreadyExists { .. }) => Ok(false),
            Err(e @ object_store::Error::NotImplemented { .. }) => Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "{}: the store cannot create an object only if it is absent \
                     (PutMode::Create: {e}), so commits could overwrite each other; \
                     use a store with conditional puts (S3 with If-None-Match, GCS, Azure, \
                     a local folder)",
                    self.describe()
                ),
            )
            .with_source(e)),
            Err(e) => Err(self.error(e, "committing", &key)),
        }
    }

    fn put(&self, path: &str, bytes: &[u8]) -> Result<()> {
        let store = Arc::clone(&self.store);
        let key = self.key(path);
        let k = key.clone();
        let payload = PutPayload::from(bytes.to_vec());
        let outcome = wait(
            &self.runtime,
            async move { Ok(store.put(&k, payload).await) },
        )?;
        outcome
            .map(|_| ())
            .map_err(|e| self.error(e, "writing", &key))
    }

    fn delete(&self, path: &str) -> Result<()> {
        let store = Arc::clone(&self.store);
        let key = self.key(path);
        let k = key.clone();
        let outcome = wait(&self.runtime, async move { Ok(store.delete(&k).await) })?;
        match outcome {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.error(e, "deleting", &key)),
        }
    }

    fn describe(&self) -> String {
        if self.prefix.as_ref().is_empty() {
            format!("{}", self.store)
        } else {
            format!("{}/{}", self.store, self.prefix)
        }
    }
}

//! Apache Iceberg tables (format v2) without Arrow (feature `iceberg`): table metadata JSON,
//! manifest lists and manifests in Avro, and a file-system catalog whose commits are atomic
//! (put-if-absent of the next metadata file), over a local folder or an object store.
//!
//! Inside: (filled in by the modules as they land)

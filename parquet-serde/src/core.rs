//! The Parquet core: everything below the typed API, for programs that work with columns,
//! pages and file metadata rather than with rows of a Rust type.
//!
//! # When you need it
//!
//! Most programs never do: the crate root reads and writes `Vec<T>` for any serde type, with
//! every option of the file layout in [`WriterOptions`](crate::WriterOptions). Reach for `core`
//! when you
//!
//! - build or inspect a schema at run time ([`schema::Schema`], [`schema::SchemaNode`], the
//!   message-type text form), or read a footer without reading rows
//!   ([`file::FileReader::metadata`]);
//! - write or read column chunks as values plus definition/repetition levels
//!   ([`file::FileWriter`], [`file::FileReader`], [`column::ColumnBatch`]): the Dremel level
//!   streams themselves (see also [`shred`]);
//! - walk pages, indexes and Bloom filters ([`page::PageReader`], [`file::PageIndex`],
//!   [`bloom::Sbbf`]);
//! - encrypt or decrypt files, with explicit keys or a KMS ([`encryption`], [`keytools`]);
//! - encode, decode, compress or decompress buffers with one Parquet encoding or codec
//!   ([`encoding`], [`compression`]), or read and write the Thrift structures of
//!   `parquet.thrift` ([`format`](mod@format)).
//!
//! # Layers
//!
//! Each module knows only the ones below it:
//!
//! ```text
//! file        magic, row groups, footer, FileWriter / FileReader, ChunkReader, options
//!  column     column chunks: values + levels, statistics, page index, Bloom filters
//!   page      one page: levels + values -> compress -> encrypt -> header + CRC, and back
//!    encoding / compression / encryption / bloom      pure functions over byte slices
//!     format  the Thrift compact protocol and the parquet.thrift structures
//! schema      schema tree, logical types, column descriptors, ParquetSchema
//! values      plain containers of column values (one buffer per column, no per-value allocation)
//! geo         WKB of GEOMETRY / GEOGRAPHY values: validation, bounding boxes, statistics
//! ```
//!
//! ```
//! use parquet_serde::core::file::FileReader;
//!
//! #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
//! struct Row { id: i64, name: String }
//!
//! let bytes = parquet_serde::to_vec(&[Row { id: 1, name: "a".into() }])?;
//! let reader = FileReader::new(bytes)?;
//! assert_eq!(reader.metadata().file.num_rows, 1);
//! println!("{}", reader.schema());
//! # Ok::<(), parquet_serde::Error>(())
//! ```

#[path = "bloom/mod.rs"]
pub mod bloom;
#[path = "column/mod.rs"]
pub mod column;
#[path = "compression/mod.rs"]
pub mod compression;
#[path = "encoding/mod.rs"]
pub mod encoding;
#[path = "encryption/mod.rs"]
pub mod encryption;
#[path = "file/mod.rs"]
pub mod file;
#[path = "format/mod.rs"]
pub mod format;
#[path = "geo/mod.rs"]
pub mod geo;
#[path = "keytools/mod.rs"]
pub mod keytools;
#[path = "page/mod.rs"]
pub mod page;
#[path = "schema/mod.rs"]
pub mod schema;
#[path = "values/mod.rs"]
pub mod values;

pub use crate::ser::shred;

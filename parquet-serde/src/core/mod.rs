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
//!   streams themselves (see also [`shred`](crate::shred), which gives a typed row's level
//!   streams);
//! - walk pages, indexes and Bloom filters ([`page::PageReader`], [`file::PageIndex`],
//!   [`bloom::Sbbf`]);
//! - encrypt or decrypt files, with explicit keys or a KMS ([`encryption`], [`keytools`]);
//! - compress buffers with one Parquet codec ([`compression`]).
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
//!     format  the Thrift compact protocol and the parquet.thrift structures (private)
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
//! assert_eq!(reader.metadata().num_rows(), 1);
//! println!("{}", reader.schema());
//! # Ok::<(), parquet_serde::Error>(())
//! ```

pub mod bloom;
pub mod column;
pub mod compression;
pub(crate) mod encoding;
pub mod encryption;
pub mod file;
pub(crate) mod format;
pub mod geo;
#[cfg(feature = "keytools")]
pub mod keytools;
pub mod page;
pub mod schema;
pub mod values;

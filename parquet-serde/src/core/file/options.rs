//! Reader and writer options.

use crate::core::bloom::BloomFilterOptions;
use crate::core::column::{CdcOptions, ColumnWriterOptions, DataPageVersion};
use crate::core::compression::Compression;
use crate::core::encryption::{FileDecryptionProperties, FileEncryptionProperties};
use crate::core::format::Encoding;
use crate::core::page::PageReaderOptions;
use crate::core::schema::Schema;
use crate::error::{Error, Result};

/// Options of a reader.
///
/// ```
/// use parquet_serde::core::encryption::FileDecryptionProperties;
/// use parquet_serde::ReadOptions;
/// let keys = FileDecryptionProperties::builder()
///     .footer_key(b"0123456789012345".to_vec())
///     .build()
///     .unwrap();
/// let options = ReadOptions::default().decryption(keys);
/// # let _ = options;
/// ```
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Verify page CRC32 checksums where present (default true).
    pub(crate) verify_checksums: bool,
    /// Largest decompressed page accepted, in bytes (default 1 GiB).
    pub(crate) max_page_size: usize,
    /// Keys and AAD prefix for encrypted files (default none: plaintext files, and the
    /// plaintext columns of encrypted files with a plaintext footer).
    pub(crate) decryption: Option<FileDecryptionProperties>,
    /// Threads the typed reader may use, the calling thread included (default: the
    /// machine's parallelism, at most [`MAX_DEFAULT_THREADS`]). With more than one,
    /// `from_slice` and its siblings decompress and decode pages, and build owned
    /// strings, on helper threads while the calling thread assembles rows; the row
    /// iterator (`Reader`) decodes the first row group's columns on that many threads and
    /// the next row group ahead, on a background thread, while handing out the rows of
    /// the one before (two row groups in memory), or, with
    /// [`batch_rows`](ReadOptions::batch_rows), each window's columns on that many threads;
    /// a filtered `Reader` decodes each matched row group's columns on that many threads.
    /// `1` does everything on the calling thread.
    pub(crate) threads: usize,
    /// Rows a [`Reader`](crate::Reader) decodes at once, at most (default none: whole row
    /// groups). See [`batch_rows`](Self::batch_rows).
    pub(crate) batch_rows: Option<usize>,
    /// External column chunks (`file_path`): the file being read, whose folder their paths
    /// are relative to, and whether absolute paths and paths leaving that folder are allowed.
    pub(crate) external: super::external::ExternalFiles,
}

/// The most threads a reader or writer uses by default.
pub(crate) const MAX_DEFAULT_THREADS: usize = 4;

/// The default of [`ReadOptions::threads`] and [`WriterOptions::threads`]: the machine's
/// available parallelism, at most [`MAX_DEFAULT_THREADS`].
pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_DEFAULT_THREADS)
}

/// The options a reference holds (cloned): the `_with` read functions take options by value
/// or by reference.
impl From<&ReadOptions> for ReadOptions {
    fn from(options: &ReadOptions) -> Self {
        options.clone()
    }
}

impl Default for ReadOptions {
    fn default() -> Self {
        let p = PageReaderOptions::default();
        ReadOptions {
            verify_checksums: p.verify_checksums,
            max_page_size: p.max_page_size,
            decryption: None,
            threads: default_threads(),
            batch_rows: None,
            external: Default::default(),
        }
    }
}

impl ReadOptions {
    /// Turns checksum verification on or off.
    pub fn verify_checksums(mut self, on: bool) -> Self {
        self.verify_checksums = on;
        self
    }

    /// Sets the largest decompressed page accepted, in bytes.
    pub fn max_page_size(mut self, bytes: usize) -> Self {
        self.max_page_size = bytes;
        self
    }

    /// Sets the keys (or key retriever) and AAD prefix for reading encrypted files.
    pub fn decryption(mut self, properties: FileDecryptionProperties) -> Self {
        self.decryption = Some(properties);
        self
    }

    /// Sets the threads the typed reader may use, the calling thread included (`0` is
    /// taken as `1`).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Sets the rows a [`Reader`](crate::Reader) decodes at once, at most (`0` is taken as
    /// `1`; by default a whole row group). Its [batches](crate::Reader::next_batch) then
    /// hold at most that many rows of a row group (the last ones of a row group fewer), and
    /// its rows come from windows of that many: memory holds one window's values instead
    /// of a row group's, in buffers the allocator hands back warm, which reads large row
    /// groups faster. Each window's columns are decoded on up to
    /// [`threads`](Self::threads) threads, but no window ahead: a row group of at most that
    /// many rows is decoded whole, as without this option (the next one ahead, when worth
    /// it). A [filtered](crate::Reader::filter) reader decodes the selected rows of each
    /// row group at once, whatever this says.
    ///
    /// ```
    /// # fn main() -> parquet_serde::Result<()> {
    /// use parquet_serde::{ReadOptions, Reader};
    /// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    /// struct Log { message: String }
    /// let logs: Vec<Log> = (0..10).map(|i| Log { message: format!("event {i}") }).collect();
    /// let bytes = parquet_serde::to_vec(&logs)?; // one row group of 10 rows
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Borrowed<'a> {
    ///     message: &'a str,
    /// }
    /// let options = ReadOptions::default().batch_rows(4);
    /// let reader = Reader::<_, Borrowed>::with_options(&bytes[..], options)?;
    /// let mut sizes = Vec::new();
    /// for batch in reader.batches() {
    ///     let batch = batch?;
    ///     let rows: Vec<Borrowed> = batch.rows()?;
    ///     assert_eq!(rows[0].message, format!("event {}", batch.first_row()));
    ///     sizes.push(rows.len());
    /// }
    /// assert_eq!(sizes, [4, 4, 2]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = Some(rows.max(1));
        self
    }

    /// The path of the file being read. A column chunk whose `file_path` names another file
    /// is read from that file, resolved relative to this one's folder (`from_path` and
    /// `Reader::from_path` set it; a reader over bytes or an open file has no folder, and
    /// such chunks are an error).
    pub fn file_location(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.external.location = Some(path.into());
        self
    }

    /// Allows external column chunks (`file_path`) at absolute paths or at paths that leave
    /// the folder of the file being read (`..`). Off by default: a file from elsewhere must
    /// not make the reader open files of its choosing.
    pub fn allow_external_paths(mut self, allow: bool) -> Self {
        self.external.allow_any_path = allow;
        self
    }

    /// The page-level options these read options imply.
    pub(crate) fn page_options(&self) -> PageReaderOptions {
        PageReaderOptions {
            verify_checksums: self.verify_checksums,
            max_page_size: self.max_page_size,
        }
    }
}

/// Which statistics a writer stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum StatisticsLevel {
    /// No statistics.
    None,
    /// min/max/null_count per column chunk.
    Chunk,
    /// Per column chunk and per page: in the ColumnIndex when the page index is on (the
    /// default), else in every data page header.
    #[default]
    Page,
}

impl std::str::FromStr for StatisticsLevel {
    type Err = crate::Error;

    /// `none`, `chunk` or `page`.
    fn from_str(s: &str) -> crate::Result<Self> {
        match s {
            "none" => Ok(StatisticsLevel::None),
            "chunk" => Ok(StatisticsLevel::Chunk),
            "page" => Ok(StatisticsLevel::Page),
            _ => Err(crate::Error::invalid_argument(format!(
                "statistics level {s:?}: expected none, chunk or page"
            ))),
        }
    }
}

/// A declared sort key of the rows written, stored as `sorting_columns` of every row
/// group. The writer records it; it does not sort or check. Set with
/// [`WriterOptions::sorting_column`], read with [`WriterOptions::sorting_columns`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SortKey {
    /// Dotted path of the leaf column.
    pub column: String,
    /// Sorted descending rather than ascending.
    pub descending: bool,
    /// Nulls come before the values.
    pub nulls_first: bool,
}

/// Per-column settings that override the file-wide ones (set with
/// [`WriterOptions::column`]); unset ones (`None`) take the file-wide setting.
///
/// ```
/// use parquet_serde::options::{ColumnOverrides, StatisticsLevel};
/// use parquet_serde::{Compression, WriterOptions};
/// let message = ColumnOverrides::default()
///     .compression(Compression::Zstd(9))
///     .dictionary(false)
///     .statistics(StatisticsLevel::Chunk);
/// let options = WriterOptions::default().column("message", message);
/// assert_eq!(options.column_options("message").compression, Compression::Zstd(9));
/// assert!(!options.column_options("message").dictionary);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ColumnOverrides {
    /// Codec for this column.
    pub compression: Option<Compression>,
    /// Dictionary encoding on or off.
    pub dictionary: Option<bool>,
    /// Statistics for this column.
    pub statistics: Option<StatisticsLevel>,
    /// Value encoding for this column. Unless `dictionary` is also set, a value encoding
    /// turns the dictionary off for the column, and `RLE_DICTIONARY` turns it on.
    pub encoding: Option<Encoding>,
    /// Let the writer choose the encoding of this column from its data.
    pub auto_encoding: Option<bool>,
    /// Bloom filter for this column.
    pub bloom_filter: Option<BloomFilterOptions>,
}

impl ColumnOverrides {
    /// Sets the codec of the column.
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = Some(compression);
        self
    }

    /// Turns dictionary encoding on or off for the column.
    pub fn dictionary(mut self, on: bool) -> Self {
        self.dictionary = Some(on);
        self
    }

    /// Sets the statistics of the column.
    pub fn statistics(mut self, level: StatisticsLevel) -> Self {
        self.statistics = Some(level);
        self
    }

    /// Sets the value encoding of the column (see [`WriterOptions::column_encoding`]).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = Some(encoding);
        self
    }

    /// Lets the writer choose the column's encoding from its data, or not.
    pub fn auto_encoding(mut self, on: bool) -> Self {
        self.auto_encoding = Some(on);
        self
    }

    /// Writes a Bloom filter for the column.
    pub fn bloom_filter(mut self, options: BloomFilterOptions) -> Self {
        self.bloom_filter = Some(options);
        self
    }

    /// Fills the settings this one leaves unset from `other`.
    pub fn or(self, other: ColumnOverrides) -> Self {
        ColumnOverrides {
            compression: self.compression.or(other.compression),
            dictionary: self.dictionary.or(other.dictionary),
            statistics: self.statistics.or(other.statistics),
            encoding: self.encoding.or(other.encoding),
            auto_encoding: self.auto_encoding.or(other.auto_encoding),
            bloom_filter: self.bloom_filter.or(other.bloom_filter),
        }
    }
}

/// Options of a writer: codec, page and row group sizes, page format, dictionary,
/// statistics, key-value metadata, and per-column overrides by dotted column path.
///
/// Set with the chained methods; read the settings a column is written with, file-wide ones
/// and its overrides combined, with [`column_options`](Self::column_options).
///
/// ```
/// use parquet_serde::{Compression, WriterOptions};
/// let options = WriterOptions::default()
///     .compression(Compression::Zstd(3))
///     .row_group_rows(100_000)
///     .page_size(256 * 1024)
///     .key_value_metadata("origin", "example")
///     .column_compression("message", Compression::Gzip(6));
/// assert_eq!(options.column_options("message").compression, Compression::Gzip(6));
/// assert_eq!(options.column_options("ts").compression, Compression::Zstd(3));
/// ```
#[derive(Debug, Clone)]
pub struct WriterOptions {
    /// Default codec (Snappy).
    pub(crate) compression: Compression,
    /// Dictionary encoding (on).
    pub(crate) dictionary: bool,
    /// Largest dictionary page in bytes before falling back to PLAIN (1 MiB).
    pub(crate) dictionary_page_size_limit: usize,
    /// Target data page size in bytes before compression (1 MiB).
    pub(crate) page_size: usize,
    /// Most rows in a data page (20,000).
    pub(crate) page_row_limit: usize,
    /// Data page format (v1).
    pub(crate) data_page_version: DataPageVersion,
    /// Statistics (per chunk and per page).
    pub(crate) statistics: StatisticsLevel,
    /// Page index: OffsetIndex, and ColumnIndex with page statistics (on).
    pub(crate) page_index: bool,
    /// SizeStatistics and level histograms (on).
    pub(crate) size_statistics: bool,
    /// Longest byte-string min/max in statistics, in bytes (64); longer bounds are
    /// shortened and marked inexact. `None` never shortens.
    pub(crate) statistics_truncate_length: Option<usize>,
    /// The declared sort order of the rows (none).
    pub(crate) sorting_columns: Vec<SortKey>,
    /// CRC32 on every page (on).
    pub(crate) checksums: bool,
    /// Target row group size in bytes, as buffered before compression (128 MiB).
    pub(crate) row_group_size: usize,
    /// Most rows in a row group (1,048,576).
    pub(crate) row_group_rows: usize,
    /// Key-value metadata written in the footer.
    pub(crate) key_value_metadata: Vec<(String, Option<String>)>,
    /// Per-column overrides, by dotted column path.
    pub(crate) columns: Vec<(String, ColumnOverrides)>,
    /// VARIANT groups to shred, by dotted path, with the `typed_value` schema of each:
    /// see [`shred_variant`](Self::shred_variant).
    pub(crate) variant_shredding: Vec<(String, crate::core::schema::SchemaNode)>,
    /// Let the writer choose each column's encoding from its data (on): see
    /// [`auto_encoding`](Self::auto_encoding).
    pub(crate) auto_encoding: bool,
    /// Parquet modular encryption of the file (none): see [`encryption`](Self::encryption).
    pub(crate) encryption: Option<FileEncryptionProperties>,
    /// Threads the typed writer may use, the calling thread included (default: the
    /// machine's parallelism, at most [`MAX_DEFAULT_THREADS`]): see
    /// [`threads`](Self::threads).
    pub(crate) threads: usize,
    /// FLOAT, DOUBLE and FLOAT16 statistics in IEEE 754 total order (off): see
    /// [`float_total_order`](Self::float_total_order).
    pub(crate) float_total_order: bool,
    /// INT96 statistics in chronological order (on): see
    /// [`int96_timestamp_order`](Self::int96_timestamp_order).
    pub(crate) int96_order: bool,
    /// Content-defined chunking of data pages (off): see
    /// [`content_defined_chunking`](Self::content_defined_chunking).
    pub(crate) content_defined_chunking: Option<CdcOptions>,
    /// A change the writers make to the schema before writing (none): field ids for an
    /// Iceberg table (`iceberg::field_ids::field_id_hook`). Not a public option.
    pub(crate) schema_hook: Option<SchemaHook>,
}

/// A change of the schema before writing (see [`WriterOptions::apply_schema_hook`]):
/// options with the same hook (the same `Arc`) are equal.
#[derive(Clone)]
#[cfg_attr(not(feature = "iceberg"), allow(dead_code))] // set by iceberg/ only
pub(crate) struct SchemaHook(
    pub(crate) std::sync::Arc<dyn Fn(Schema) -> Result<Schema> + Send + Sync>,
);

impl std::fmt::Debug for SchemaHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SchemaHook")
    }
}

impl PartialEq for SchemaHook {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl PartialEq for WriterOptions {
    fn eq(&self, other: &Self) -> bool {
        // Destructured so that a new field cannot be forgotten here.
        let WriterOptions {
            compression,
            dictionary,
            dictionary_page_size_limit,
            page_size,
            page_row_limit,
            data_page_version,
            statistics,
            page_index,
            size_statistics,
            statistics_truncate_length,
            sorting_columns,
            checksums,
            row_group_size,
            row_group_rows,
            key_value_metadata,
            columns,
            variant_shredding,
            auto_encoding,
            encryption,
            threads,
            float_total_order,
            int96_order,
            content_defined_chunking,
            schema_hook,
        } = self;
        *compression == other.compression
            && *dictionary == other.dictionary
            && *dictionary_page_size_limit == other.dictionary_page_size_limit
            && *page_size == other.page_size
            && *page_row_limit == other.page_row_limit
            && *data_page_version == other.data_page_version
            && *statistics == other.statistics
            && *page_index == other.page_index
            && *size_statistics == other.size_statistics
            && *statistics_truncate_length == other.statistics_truncate_length
            && *sorting_columns == other.sorting_columns
            && *checksums == other.checksums
            && *row_group_size == other.row_group_size
            && *row_group_rows == other.row_group_rows
            && *key_value_metadata == other.key_value_metadata
            && *columns == other.columns
            && *variant_shredding == other.variant_shredding
            && *auto_encoding == other.auto_encoding
            && *threads == other.threads
            && *float_total_order == other.float_total_order
            && *int96_order == other.int96_order
            && *content_defined_chunking == other.content_defined_chunking
            && *schema_hook == other.schema_hook
            && match (encryption, &other.encryption) {
                (None, None) => true,
                (Some(a), Some(b)) => same_encryption(a, b),
                _ => false,
            }
    }
}

/// Whether two encryption settings are the same (keys included).
fn same_encryption(a: &FileEncryptionProperties, b: &FileEncryptionProperties) -> bool {
    a.algorithm() == b.algorithm()
        && a.footer_key() == b.footer_key()
        && a.footer_key_metadata() == b.footer_key_metadata()
        && a.encrypted_footer() == b.encrypted_footer()
        && a.columns() == b.columns()
        && a.aad_prefix() == b.aad_prefix()
        && a.store_aad_prefix() == b.store_aad_prefix()
}

/// The options a reference holds (cloned): the `_with` write functions take options by value
/// or by reference.
impl From<&WriterOptions> for WriterOptions {
    fn from(options: &WriterOptions) -> Self {
        options.clone()
    }
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            compression: Compression::Snappy,
            dictionary: true,
            dictionary_page_size_limit: 1 << 20,
            page_size: 1 << 20,
            page_row_limit: 20_000,
            data_page_version: DataPageVersion::V1,
            statistics: StatisticsLevel::Page,
            page_index: true,
            size_statistics: true,
            statistics_truncate_length: Some(64),
            sorting_columns: Vec::new(),
            checksums: true,
            row_group_size: 128 << 20,
            row_group_rows: 1 << 20,
            key_value_metadata: Vec::new(),
            columns: Vec::new(),
            variant_shredding: Vec::new(),
            auto_encoding: true,
            encryption: None,
            threads: default_threads(),
            float_total_order: false,
            int96_order: true,
            content_defined_chunking: None,
            schema_hook: None,
        }
    }
}

impl WriterOptions {
    /// Writes the statistics of FLOAT, DOUBLE and FLOAT16 columns (chunk statistics and the
    /// ColumnIndex) in IEEE 754 total order, declared as `IEEE_754_TOTAL_ORDER` in the
    /// footer's `column_orders` (parquet-format 2.13), as arrow-rs 60 writes them; off by
    /// default: `TYPE_ORDER`. In total order -0.0 sorts below +0.0 and each bound is kept
    /// as it is, and a page or chunk of only NaNs gets the least and greatest NaN as its
    /// bounds (in `TYPE_ORDER` it has none, and a page of only NaNs costs the column its
    /// ColumnIndex). `nan_count` is written in both orders; in total order the ColumnIndex
    /// also gets its per-page `nan_counts`, as arrow-rs 60 writes (the same statistics and
    /// ColumnIndex byte for byte, tests/arrow_rs_files.rs).
    ///
    /// Off by default because a reader that does not know the order loses the statistics:
    /// pyarrow 26 shows no min/max for such a column and prunes nothing with it, where it
    /// prunes with `TYPE_ORDER` statistics (DuckDB 2.0 prunes with both; the table of
    /// readers is checked by tests/column_order_readers.rs).
    ///
    /// ```
    /// use parquet_serde::core::file::{FileReader, WriterOptions};
    ///
    /// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    /// struct Row {
    ///     x: f64,
    /// }
    /// let rows = [Row { x: -0.0 }, Row { x: f64::NAN }, Row { x: 2.5 }];
    /// let mut bytes = Vec::new();
    /// parquet_serde::to_writer_with(&mut bytes, &rows, WriterOptions::default().float_total_order(true))?;
    /// let file = FileReader::new(bytes)?;
    /// let md = file.metadata();
    /// assert_eq!(md.column_order_name(0), Some("IEEE_754_TOTAL_ORDER"));
    /// let stats = md.column_statistics(0, 0).unwrap();
    /// assert_eq!(stats.nan_count, Some(1));
    /// assert!(stats.min.unwrap().as_f64().unwrap().is_sign_negative()); // -0.0 itself
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn float_total_order(mut self, on: bool) -> Self {
        self.float_total_order = on;
        self
    }

    /// Writes min/max statistics and a ColumnIndex for INT96 columns (legacy timestamps),
    /// in chronological order declared as `INT96_TIMESTAMP_ORDER` in the footer (Julian day,
    /// then nanoseconds of the day, each compared signed), as parquet-format asks of writers
    /// that give INT96 statistics and as arrow-rs 60 writes. On by default: no reader loses
    /// anything by it (in `TYPE_ORDER` an INT96 column has no min/max at all, and pyarrow 26
    /// ignores the new order), and DuckDB 2.0 prunes with it. Off: INT96 columns get only
    /// null counts, in `TYPE_ORDER`. A chunk with a value whose nanoseconds of the day are
    /// not within a day gets no min/max (the order would not be the order of the instants).
    ///
    /// ```
    /// use parquet_serde::core::column::{ColumnBatch, Scalar};
    /// use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
    /// use parquet_serde::core::values::{ColumnValues, Int96};
    ///
    /// let write = |options: WriterOptions| -> parquet_serde::Result<Vec<u8>> {
    ///     let schema = "message m { required int96 at; }".parse()?;
    ///     let mut w = FileWriter::new(Vec::new(), schema, options)?;
    ///     let mut c = w.column_writer(0)?;
    ///     let at = vec![Int96::from_nanos(5), Int96::from_nanos(-1)];
    ///     c.write(&ColumnBatch { values: ColumnValues::Int96(at), def_levels: vec![], rep_levels: vec![] })?;
    ///     w.write_row_group(vec![c.close()?])?;
    ///     Ok(w.close()?.0)
    /// };
    /// let file = FileReader::new(write(WriterOptions::default())?)?;
    /// assert_eq!(file.metadata().column_order_name(0), Some("INT96_TIMESTAMP_ORDER"));
    /// let stats = file.metadata().column_statistics(0, 0).unwrap();
    /// assert_eq!((stats.min, stats.max), (Some(Scalar::Int(-1)), Some(Scalar::Int(5))));
    /// let old = FileReader::new(write(WriterOptions::default().int96_timestamp_order(false))?)?;
    /// assert_eq!(old.metadata().column_order_name(0), Some("TYPE_ORDER"));
    /// assert_eq!(old.metadata().column_statistics(0, 0).unwrap().min, None);
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn int96_timestamp_order(mut self, on: bool) -> Self {
        self.int96_order = on;
        self
    }

    /// Cuts data pages where the values say (content-defined chunking), not only at the
    /// page size, so that after rows are inserted or deleted most pages of the new file are
    /// byte for byte pages of the old one, which content-addressed storage keeps once
    /// (`None`: off, the default). Pages of the same values are cut where pyarrow
    /// (`use_content_defined_chunking`) and arrow-rs cut them, with the same gear hash
    /// tables and the same defaults ([`CdcOptions::default`]: 256 KiB to 1 MiB of levels and
    /// values). Pages are still cut at [`page_size`](Self::page_size) and
    /// [`page_row_limit`](Self::page_row_limit) too. Readers need nothing: the pages are
    /// ordinary pages.
    ///
    /// ```
    /// use parquet_serde::core::column::CdcOptions;
    /// use parquet_serde::WriterOptions;
    /// let options = WriterOptions::default().content_defined_chunking(CdcOptions::default());
    /// assert_eq!(
    ///     options.column_options("x").content_defined_chunking,
    ///     Some(CdcOptions::default())
    /// );
    /// ```
    pub fn content_defined_chunking(mut self, options: impl Into<Option<CdcOptions>>) -> Self {
        self.content_defined_chunking = options.into();
        self
    }

    /// Sets the threads the typed writer may use, the calling thread included (`0` is
    /// taken as `1`). With more than one, column chunks are encoded and compressed on
    /// helper threads while the calling thread shreds rows; the file is the same
    /// byte for byte whatever the count.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Sets the default codec.
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// Turns dictionary encoding on or off for every column.
    pub fn dictionary(mut self, on: bool) -> Self {
        self.dictionary = on;
        self
    }

    /// Sets the dictionary page size limit in bytes.
    pub fn dictionary_page_size_limit(mut self, bytes: usize) -> Self {
        self.dictionary_page_size_limit = bytes.max(1);
        self
    }

    /// Sets the target data page size in bytes.
    pub fn page_size(mut self, bytes: usize) -> Self {
        self.page_size = bytes.max(1);
        self
    }

    /// Sets the most rows in a data page.
    pub fn page_row_limit(mut self, rows: usize) -> Self {
        self.page_row_limit = rows.max(1);
        self
    }

    /// Sets the data page format.
    pub fn data_page_version(mut self, version: DataPageVersion) -> Self {
        self.data_page_version = version;
        self
    }

    /// Sets which statistics are written.
    pub fn statistics(mut self, level: StatisticsLevel) -> Self {
        self.statistics = level;
        self
    }

    /// Turns the page index on or off.
    pub fn page_index(mut self, on: bool) -> Self {
        self.page_index = on;
        self
    }

    /// Turns size statistics (byte-array sizes, level histograms) on or off.
    pub fn size_statistics(mut self, on: bool) -> Self {
        self.size_statistics = on;
        self
    }

    /// Sets the longest byte-string min/max written (`None`: never shortened).
    pub fn statistics_truncate_length(mut self, bytes: Option<usize>) -> Self {
        self.statistics_truncate_length = bytes.map(|b| b.max(1));
        self
    }

    /// Declares that rows are sorted by the column at the dotted `path` (after the keys
    /// declared before): recorded as `sorting_columns` of every row group.
    pub fn sorting_column(
        mut self,
        path: impl Into<String>,
        descending: bool,
        nulls_first: bool,
    ) -> Self {
        self.sorting_columns.push(SortKey {
            column: path.into(),
            descending,
            nulls_first,
        });
        self
    }

    /// Sets the statistics of one column.
    pub fn column_statistics(mut self, path: impl Into<String>, level: StatisticsLevel) -> Self {
        self.column_entry(path).statistics = Some(level);
        self
    }

    /// Writes a Bloom filter for the column at the dotted `path`.
    ///
    /// ```
    /// use parquet_serde::core::bloom::BloomFilterOptions;
    /// use parquet_serde::WriterOptions;
    /// let o = WriterOptions::default().bloom_filter("request_id", BloomFilterOptions::new(100_000, 0.01));
    /// assert_eq!(o.column_options("request_id").bloom_filter.unwrap().ndv, Some(100_000));
    /// assert!(o.column_options("ts").bloom_filter.is_none());
    /// ```
    pub fn bloom_filter(mut self, path: impl Into<String>, options: BloomFilterOptions) -> Self {
        self.column_entry(path).bloom_filter = Some(options);
        self
    }

    /// Shreds the VARIANT column at the dotted `path` (an unshredded VARIANT group of the
    /// rows' schema: a `Variant` field, or one marked `#[parquet(variant)]`) by `typed`, the
    /// schema of the values to shred (its name is not used), as
    /// `#[parquet(variant(shred = "Type"))]` does from a Rust type: what matches `typed`
    /// goes to `typed_value` columns (statistics, encodings and pruning of their own), the
    /// rest stays in `value`. [`shred_variant_as`](Self::shred_variant_as) takes the schema
    /// from a Rust type. Writing fails if `path` is not an unshredded VARIANT group.
    pub fn shred_variant(
        mut self,
        path: impl Into<String>,
        typed: crate::core::schema::SchemaNode,
    ) -> Self {
        let path = path.into();
        self.variant_shredding.retain(|(p, _)| *p != path);
        self.variant_shredding.push((path, typed));
        self
    }

    /// [`shred_variant`](Self::shred_variant) with the schema of `T`.
    ///
    /// ```
    /// use parquet_serde::variant::Variant;
    /// use parquet_serde::{ParquetSchema, WriterOptions};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, ParquetSchema)]
    /// struct Event { id: u64, attrs: Variant }
    /// #[derive(ParquetSchema)]
    /// struct Attrs { status: i64, route: String }
    ///
    /// let options = WriterOptions::default().shred_variant_as::<Attrs>("attrs");
    /// let attrs = Variant::from(&serde_json::json!({"status": 500, "route": "/", "x": 1}));
    /// let bytes = parquet_serde::to_vec_with(&[Event { id: 1, attrs }], options)?;
    /// let text = parquet_serde::core::file::FileReader::new(bytes)?.schema().to_string();
    /// assert!(text.contains("optional group typed_value {"), "{text}");
    /// assert!(text.contains("optional int64 typed_value (INTEGER(64,true));"), "{text}");
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn shred_variant_as<T: crate::core::schema::ParquetSchema>(
        self,
        path: impl Into<String>,
    ) -> Self {
        let typed = T::parquet_node(
            "typed_value",
            &crate::core::schema::typed::FieldAttrs::default(),
        );
        self.shred_variant(path, typed)
    }

    /// `schema` with the VARIANT groups named by [`shred_variant`](Self::shred_variant)
    /// shredded.
    pub(crate) fn shred_variants(&self, schema: Schema) -> Result<Schema> {
        if self.variant_shredding.is_empty() {
            return Ok(schema);
        }
        let mut root = schema.into_root();
        for (path, typed) in &self.variant_shredding {
            root = crate::core::schema::typed::shred_variant_at(root, path, typed.clone())?;
        }
        Schema::new(root).map_err(|e| e.context("the schema with its VARIANT columns shredded"))
    }

    /// The schema a file of rows shaped by `schema` is written with: its VARIANT columns
    /// shredded ([`shred_variant`](Self::shred_variant)), then the schema hook applied. The
    /// one definition for the writer and for the log journal that recovery rebuilds the
    /// file from.
    pub(crate) fn file_schema(&self, schema: Schema) -> Result<Schema> {
        let schema = self.shred_variants(schema)?;
        self.apply_schema_hook(schema)
    }

    /// `schema` changed by the schema hook, if one is set (field ids for an Iceberg
    /// table); unchanged otherwise, so files written for other purposes are as before.
    pub(crate) fn apply_schema_hook(&self, schema: Schema) -> Result<Schema> {
        match &self.schema_hook {
            None => Ok(schema),
            Some(hook) => (hook.0)(schema),
        }
    }

    /// Turns page checksums on or off.
    pub fn checksums(mut self, on: bool) -> Self {
        self.checksums = on;
        self
    }

    /// Sets the target row group size in bytes.
    pub fn row_group_size(mut self, bytes: usize) -> Self {
        self.row_group_size = bytes.max(1);
        self
    }

    /// Sets the most rows in a row group.
    pub fn row_group_rows(mut self, rows: usize) -> Self {
        self.row_group_rows = rows.max(1);
        self
    }

    /// Adds a key-value pair to the footer.
    pub fn key_value_metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.key_value_metadata
            .push((key.into(), Some(value.into())));
        self
    }

    /// Adds a key-value metadata entry whose value may be absent (the footer's `KeyValue`
    /// allows a key without a value).
    pub fn key_value_metadata_entry(
        mut self,
        key: impl Into<String>,
        value: Option<String>,
    ) -> Self {
        self.key_value_metadata.push((key.into(), value));
        self
    }

    /// Encrypts the file (Parquet modular encryption) as `properties` say: uniformly with the
    /// footer key, or the listed columns with their own keys (or the footer key) and the
    /// others in plaintext; with an encrypted footer (`PARE`) or a signed plaintext one
    /// (`PAR1`, readable by readers without keys for the plaintext columns). `None` writes a
    /// plaintext file.
    ///
    /// ```
    /// use parquet_serde::core::encryption::FileEncryptionProperties;
    /// use parquet_serde::core::schema::Schema;
    /// use parquet_serde::WriterOptions;
    /// let props = FileEncryptionProperties::builder(b"0123456789012345".to_vec())
    ///     .column_key("ssn", b"1234567890123450".to_vec(), Some(b"key1".to_vec()))
    ///     .build()?;
    /// let options = WriterOptions::default().encryption(props);
    /// let schema: Schema = "message m { required int64 id; optional binary ssn (STRING); }".parse()?;
    /// assert!(options.validate(&schema).is_ok());
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn encryption(mut self, properties: impl Into<Option<FileEncryptionProperties>>) -> Self {
        self.encryption = properties.into();
        self
    }

    /// Overrides settings for the column at the dotted `path`.
    pub fn column(mut self, path: impl Into<String>, overrides: ColumnOverrides) -> Self {
        let path = path.into();
        self.columns.retain(|(p, _)| *p != path);
        self.columns.push((path, overrides));
        self
    }

    fn column_entry(&mut self, path: impl Into<String>) -> &mut ColumnOverrides {
        let path = path.into();
        let i = match self.columns.iter().position(|(p, _)| *p == path) {
            Some(i) => i,
            None => {
                self.columns.push((path, ColumnOverrides::default()));
                self.columns.len() - 1
            }
        };
        &mut self.columns[i].1
    }

    /// Sets the codec of one column.
    pub fn column_compression(mut self, path: impl Into<String>, compression: Compression) -> Self {
        self.column_entry(path).compression = Some(compression);
        self
    }

    /// Turns dictionary encoding on or off for one column.
    pub fn column_dictionary(mut self, path: impl Into<String>, on: bool) -> Self {
        self.column_entry(path).dictionary = Some(on);
        self
    }

    /// Lets the writer choose every column's encoding from its data (columns with an
    /// encoding of their own keep it): the dictionary while it pays (dictionary and indices
    /// under 3/4 of PLAIN), then the smallest after compression of PLAIN and the candidates
    /// for the type: DELTA_BINARY_PACKED for integers (sorted or narrow ones such as
    /// timestamps), BYTE_STREAM_SPLIT for floats when compressing, DELTA_LENGTH_BYTE_ARRAY
    /// and DELTA_BYTE_ARRAY for byte arrays (string and blob columns only); RLE for
    /// booleans. Every choice is read by pyarrow, DuckDB, arrow-rs and parquet-java (Spark
    /// reads the DELTA encodings from 3.3 on).
    ///
    /// On by default: high-cardinality columns skip the dictionary that would not pay and
    /// the smaller encodings leave less to compress. On the log records of
    /// `shared/tools/compare-arrow`, files come out 10-16% smaller than with the
    /// dictionary-then-PLAIN of other writers, and writing takes about a fifth less CPU.
    /// Off writes the dictionary with a PLAIN fallback only, for readers older than these
    /// encodings.
    pub fn auto_encoding(mut self, on: bool) -> Self {
        self.auto_encoding = on;
        self
    }

    /// Sets the value encoding of one column (see [`Encoding`]; ALP is
    /// `"ALP".parse::<Encoding>()`). The dictionary is off for the
    /// column unless [`column_dictionary`](Self::column_dictionary) turns it on (then
    /// `encoding` is the fallback once the dictionary is full); `RLE_DICTIONARY` means the
    /// dictionary with a PLAIN fallback. Writing fails when the encoding does not fit the
    /// column's physical type ([`validate`](Self::validate) checks that up front).
    ///
    /// `"GROUP_VAR_INT".parse::<Encoding>()` (INT32 and INT64: groups of 4 or 5 values, each
    /// in the fewest little-endian bytes, behind a header of their byte counts) is written
    /// only for a column that asks for it, and no other reader reads it: parquet.thrift
    /// lists it as never used. This library reads it back.
    ///
    /// ```
    /// use parquet_serde::core::column::Encoding;
    /// use parquet_serde::WriterOptions;
    /// let gvi: Encoding = "GROUP_VAR_INT".parse()?;
    /// assert_eq!(gvi.to_string(), "GROUP_VAR_INT");
    /// let rows = vec![(1i64,), (300,), (-5,)];
    /// let bytes = parquet_serde::to_vec_with(&rows, WriterOptions::default().column_encoding("0", gvi))?;
    /// let back: Vec<(i64,)> = parquet_serde::from_slice(&bytes)?;
    /// assert_eq!(back, rows);
    /// let options = WriterOptions::default()
    ///     .column_encoding("ts", Encoding::DeltaBinaryPacked)
    ///     .column_encoding("latency", Encoding::ByteStreamSplit);
    /// let ts = options.column_options("ts");
    /// assert_eq!(ts.encoding, Some(Encoding::DeltaBinaryPacked));
    /// assert!(!ts.dictionary);
    /// // An encoding of its own turns the writer's choice off for the column.
    /// assert!(!ts.auto_encoding);
    /// assert!(options.column_options("host").dictionary);
    /// assert!(options.column_options("host").auto_encoding);
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn column_encoding(mut self, path: impl Into<String>, encoding: Encoding) -> Self {
        self.column_entry(path).encoding = Some(encoding);
        self
    }

    /// The encryption settings, if the file is to be encrypted.
    pub fn encryption_properties(&self) -> Option<&FileEncryptionProperties> {
        self.encryption.as_ref()
    }

    /// The declared sort keys, in order.
    pub fn sorting_columns(&self) -> &[SortKey] {
        &self.sorting_columns
    }

    /// The overrides set for the column at the dotted `path`, if any.
    pub fn column_overrides(&self, path: &str) -> Option<&ColumnOverrides> {
        self.columns.iter().find(|(p, _)| p == path).map(|(_, o)| o)
    }

    /// Turns the writer's choice of encoding on or off for one column.
    pub fn column_auto_encoding(mut self, path: impl Into<String>, on: bool) -> Self {
        self.column_entry(path).auto_encoding = Some(on);
        self
    }

    /// Checks the per-column overrides against `schema`: every path names a leaf column,
    /// and every encoding fits that column's physical type; so does every column the
    /// encryption properties list.
    ///
    /// ```
    /// use parquet_serde::core::column::Encoding;
    /// use parquet_serde::core::schema::Schema;
    /// use parquet_serde::WriterOptions;
    /// let schema: Schema = "message m { required double x; }".parse()?;
    /// let bad = WriterOptions::default().column_encoding("x", Encoding::DeltaBinaryPacked);
    /// assert_eq!(
    ///     bad.validate(&schema).unwrap_err().to_string(),
    ///     "invalid argument: encoding DELTA_BINARY_PACKED does not fit physical type DOUBLE \
    ///      (it encodes INT32, INT64) (column x)"
    /// );
    /// assert!(WriterOptions::default().column_encoding("y", Encoding::Plain).validate(&schema).is_err());
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn validate(&self, schema: &Schema) -> Result<()> {
        for (path, o) in &self.columns {
            let Some(c) = schema
                .columns()
                .iter()
                .find(|c| c.path.to_string() == *path)
            else {
                return Err(Error::invalid_argument(format!(
                    "options name column {path}, which is not a leaf column of the schema"
                )));
            };
            if let Some(e) = o.encoding {
                crate::core::column::check_encoding(e, c.physical_type)
                    .map_err(|err| err.with_column(path.clone()))?;
            }
        }
        if let Some(e) = &self.encryption {
            super::write_crypto::check_columns(e, schema)?;
        }
        Ok(())
    }

    /// The settings of the column at the dotted `path`, overrides applied.
    pub fn column_options(&self, path: &str) -> ColumnWriterOptions {
        let o = self.columns.iter().find(|(p, _)| p == path).map(|(_, o)| o);
        let statistics = o.and_then(|o| o.statistics).unwrap_or(self.statistics);
        let encoding = o.and_then(|o| o.encoding);
        let dictionary = match (o.and_then(|o| o.dictionary), encoding) {
            (Some(on), _) => on,
            (None, Some(e)) => matches!(e, Encoding::RleDictionary | Encoding::PlainDictionary),
            (None, None) => self.dictionary,
        };
        ColumnWriterOptions {
            compression: o.and_then(|o| o.compression).unwrap_or(self.compression),
            dictionary,
            encoding,
            // A column given an encoding of its own is written with it (and its dictionary
            // setting) as asked, unless it turns the choice back on itself.
            auto_encoding: o
                .and_then(|o| o.auto_encoding)
                .unwrap_or(self.auto_encoding && encoding.is_none()),
            dictionary_page_size_limit: self.dictionary_page_size_limit,
            data_page_size: self.page_size,
            data_page_row_limit: self.page_row_limit,
            data_page_version: self.data_page_version,
            statistics: statistics != StatisticsLevel::None,
            page_statistics: statistics == StatisticsLevel::Page,
            page_index: self.page_index,
            size_statistics: self.size_statistics && statistics != StatisticsLevel::None,
            statistics_truncate_length: self.statistics_truncate_length,
            bloom_filter: o.and_then(|o| o.bloom_filter),
            checksums: self.checksums,
            float_total_order: self.float_total_order,
            int96_order: self.int96_order,
            content_defined_chunking: self.content_defined_chunking,
        }
    }
}

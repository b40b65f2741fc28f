//! [`ValueWriter`]: dynamic rows ([`Value`] trees, JSON text,
//! `serde_json::Value`s) written against a [`Schema`] given at run time.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::core::file::ParquetMetaData;
use crate::core::file::{PendingFile, WriterOptions};
use crate::core::schema::Schema;
use crate::error::{Error, Result};
use crate::ser::{shred_json, shred_value, Writer};

use super::Value;

/// Writes rows whose shape is known only at run time to a Parquet file: [`Value`] trees,
/// JSON objects as text, or `serde_json::Value`s, each shredded by the [`Schema`] given
/// to [`new`](Self::new) (parsed from message-type text, built from
/// [`SchemaNode`](crate::core::schema::SchemaNode)s, read from another file, or inferred by
/// [`SchemaInferrer`](crate::record::SchemaInferrer)). Underneath is the typed [`Writer`](crate::Writer):
/// the same shredder, column writers, row groups, threads and bounded memory.
///
/// How values fit the schema:
///
/// | value | column |
/// |---|---|
/// | a group (`Value::Group`, a JSON object) | a group, by field name in any order (absent fields are nulls), or a MAP (names as keys) |
/// | `Value::Map` | a MAP, or a group when its keys are strings |
/// | a list (`Value::List`, a JSON array) | a LIST (3-level) |
/// | `Null`, JSON `null` | a null: the field must be `optional` |
/// | integers | integer columns in range, decimals (unscaled), FLOAT / DOUBLE (converted) |
/// | floats | FLOAT / DOUBLE |
/// | strings | text and bytes columns, and the columns that take text: TIMESTAMP (RFC 3339), DATE, TIME, DECIMAL, UUID |
/// | `Timestamp`, `Time`, `Date`, `Int96` | TIMESTAMP / TIME / DATE columns, converted to the column's unit |
/// | `Decimal` | DECIMAL columns at their scale (digits would be lost: an error) |
/// | `Bytes`, `Uuid` | BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY of that length, UUID |
/// | anything | a column annotated JSON: JSON text (a `Value::String` is taken as the text itself; from JSON input a string keeps its quotes) |
/// | anything | a VARIANT group: the value as a Variant (shredded into `typed_value` where the group has one); a `null` makes an optional group null |
///
/// A row that does not fit is refused with an [`ErrorKind::Data`](crate::ErrorKind::Data)
/// error naming the field path and the row number (counted from 0); nothing of it is
/// written and the writer stays usable.
///
/// ```
/// use parquet_serde::core::schema::Schema;
/// use parquet_serde::record::{ValueWriter, Value};
/// use parquet_serde::WriterOptions;
///
/// let schema: Schema = "message log {
///     required int64 id;
///     optional binary level (STRING);
///     optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
/// }".parse()?;
/// let mut writer = ValueWriter::new(Vec::new(), schema, WriterOptions::default())?;
/// writer.write(&Value::Group(vec![
///     ("id".into(), Value::Int(1)),
///     ("tags".into(), Value::List(vec![Value::String("db".into())])),
/// ]))?;
/// writer.write_json_slice(br#"{"level": "warn", "id": 2, "tags": []}"#)?;
/// let err = writer.write_json_slice(br#"{"id": "three"}"#).unwrap_err();
/// assert!(err.to_string().contains("id"), "{err}");
/// let bytes = writer.into_inner()?;
///
/// let rows: Vec<Value> = parquet_serde::from_slice(&bytes)?;
/// assert_eq!(rows[1].get("level"), Some(&Value::String("warn".into())));
/// assert_eq!(rows[0].get("level"), Some(&Value::Null));
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct ValueWriter<W: Write> {
    inner: Writer<W, Value>,
}

impl ValueWriter<BufWriter<File>> {
    /// A writer to a new file at `path`, written through a temporary file in the same
    /// directory and renamed to `path` by [`close`](Self::close): a failed or abandoned
    /// write leaves `path` as it was.
    pub fn from_path(
        path: impl AsRef<Path>,
        schema: Schema,
        options: WriterOptions,
    ) -> Result<Self> {
        let (pending, file) = PendingFile::create(path.as_ref())?;
        let mut writer = Self::new(BufWriter::with_capacity(1 << 16, file), schema, options)?;
        writer.inner.set_pending(pending);
        Ok(writer)
    }
}

impl<W: Write> ValueWriter<W> {
    /// A writer of rows shaped by `schema` to `sink`. Fails with
    /// [`ErrorKind::Schema`](crate::ErrorKind::Schema) or
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) when the schema has a
    /// layout rows cannot be written to (a bare `repeated` field, a 2-level LIST, INT96).
    pub fn new(sink: W, schema: Schema, options: WriterOptions) -> Result<Self> {
        Ok(ValueWriter {
            inner: Writer::with_schema(sink, schema, false, options)?,
        })
    }

    /// Writes one row: a [`Value::Group`] (or a `Value::Map` with string keys).
    pub fn write(&mut self, row: &Value) -> Result<()> {
        self.inner
            .write_with(|sh| sh.shred_with(|sh, entry| shred_value(sh, entry, 0, row)))
    }

    /// Writes rows in order; stops at the first row that fails (the rows before it are
    /// kept).
    ///
    /// ```
    /// use parquet_serde::record::{Value, ValueWriter};
    /// use parquet_serde::WriterOptions;
    ///
    /// let schema = "message m { required int64 id; optional double score; }".parse()?;
    /// let rows = vec![
    ///     Value::Group(vec![("id".into(), Value::Int(1)), ("score".into(), Value::Int(3))]),
    ///     Value::Group(vec![("id".into(), Value::Int(2))]),
    /// ];
    /// let mut writer = ValueWriter::new(Vec::new(), schema, WriterOptions::default())?;
    /// writer.write_all(&rows)?;
    /// let bytes = writer.into_inner()?;
    /// let back: Vec<Value> = parquet_serde::from_slice(&bytes)?;
    /// assert_eq!(back[0].get("score"), Some(&Value::Double(3.0)));
    /// assert_eq!(back[1].get("score"), Some(&Value::Null));
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn write_all(&mut self, rows: &[Value]) -> Result<()> {
        rows.iter().try_for_each(|row| self.write(row))
    }

    /// Writes one row given as the text of a JSON object (surrounding whitespace allowed),
    /// shredded straight from the parser. Invalid JSON is an
    /// [`ErrorKind::Data`](crate::ErrorKind::Data) error with the parser's message.
    pub fn write_json_slice(&mut self, json: &[u8]) -> Result<()> {
        self.inner.write_with(|sh| {
            sh.shred_with(|sh, entry| {
                let mut de = serde_json::Deserializer::from_slice(json);
                shred_json(sh, entry, 0, &mut de)?;
                de.end()
                    .map_err(|e| Error::data(format!("invalid JSON: {e}")).with_source(e))
            })
        })
    }

    /// Writes one row given as a `serde_json::Value` object.
    pub fn write_json_value(&mut self, row: &serde_json::Value) -> Result<()> {
        self.inner
            .write_with(|sh| sh.shred_with(|sh, entry| shred_json(sh, entry, 0, row)))
    }

    /// Ends the current row group (if it has rows) and writes it out.
    pub fn flush_row_group(&mut self) -> Result<()> {
        self.inner.flush_row_group()
    }

    /// Rows written so far.
    pub fn num_rows(&self) -> u64 {
        self.inner.num_rows()
    }

    /// Bytes written to the sink so far.
    pub fn bytes_written(&self) -> u64 {
        self.inner.bytes_written()
    }

    /// The schema being written.
    pub fn schema(&self) -> &Schema {
        self.inner.schema()
    }

    /// Writes the last row group and the footer; returns the sink.
    pub fn into_inner(self) -> Result<W> {
        self.inner.into_inner()
    }

    /// Writes the last row group and the footer (and, for [`from_path`](Self::from_path),
    /// renames the file into place); returns the sink and the file metadata.
    pub fn close(self) -> Result<(W, ParquetMetaData)> {
        self.inner.close()
    }
}

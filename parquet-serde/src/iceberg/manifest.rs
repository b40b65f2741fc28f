//! Manifests: Avro object container files of `manifest_entry` records, one per data file
//! added, kept or deleted by a snapshot (the Iceberg spec, "Manifests", format v2).
//!
//! The Avro schema carries the spec's field ids (`field-id`, `element-id`, int-keyed maps as
//! arrays of `k{id}_v{id}` records with `logicalType: map`), and the file metadata the keys
//! readers look for: `schema`, `schema-id`, `partition-spec`, `partition-spec-id`,
//! `format-version`, `content`. Reading takes any writer's manifest of that shape (fields are
//! found by name), checks every count, and names the file in every error.

use std::collections::BTreeMap;

use apache_avro::types::Value;
use apache_avro::{Codec, DeflateSettings, Schema};

use super::literal::Literal;
use super::partition::PartitionSpec;
use super::schema::PrimitiveType;
use crate::error::{Error, Result};

/// `status` of a manifest entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryStatus {
    Existing = 0,
    Added = 1,
    Deleted = 2,
}

/// The Avro type of a partition value of type `ty`; `None` for a type this crate does not
/// write in a partition tuple.
fn avro_type(ty: PrimitiveType) -> Option<String> {
    use PrimitiveType as P;
    Some(match ty {
        P::Boolean => r#""boolean""#.into(),
        P::Int => r#""int""#.into(),
        P::Long => r#""long""#.into(),
        P::Float => r#""float""#.into(),
        P::Double => r#""double""#.into(),
        P::Date => r#"{"type": "int", "logicalType": "date"}"#.into(),
        P::Time => r#"{"type": "long", "logicalType": "time-micros"}"#.into(),
        P::Timestamp => {
            r#"{"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": false}"#.into()
        }
        P::Timestamptz => {
            r#"{"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": true}"#.into()
        }
        P::String => r#""string""#.into(),
        P::Binary => r#""bytes""#.into(),
        P::Decimal { .. } | P::Uuid | P::Fixed(_) => return None,
    })
}

/// A partition value as the Avro value of a field of type `ty` (a nullable union).
fn partition_to_avro(v: &Option<Literal>, ty: PrimitiveType) -> Result<Value> {
    use PrimitiveType as P;
    let Some(v) = v else {
        return Ok(Value::Union(0, Box::new(Value::Null)));
    };
    let inner = match (v, ty) {
        (Literal::Boolean(b), P::Boolean) => Value::Boolean(*b),
        (Literal::Int(v), P::Int) => Value::Int(*v),
        (Literal::Int(v) | Literal::Date(v), P::Date) => Value::Date(*v),
        (Literal::Long(v), P::Long) => Value::Long(*v),
        (Literal::Long(v) | Literal::Time(v), P::Time) => Value::TimeMicros(*v),
        (Literal::Long(v) | Literal::Timestamp(v) | Literal::Timestamptz(v), P::Timestamp)
        | (Literal::Long(v) | Literal::Timestamp(v) | Literal::Timestamptz(v), P::Timestamptz) => {
            Value::TimestampMicros(*v)
        }
        (Literal::Float(v), P::Float) => Value::Float(*v),
        (Literal::Double(v), P::Double) => Value::Double(*v),
        (Literal::String(s), P::String) => Value::String(s.clone()),
        (Literal::Binary(b), P::Binary) => Value::Bytes(b.clone()),
        (v, ty) => {
            return Err(Error::internal(format!(
                "partition value {v:?} written as {ty}"
            )))
        }
    };
    Ok(Value::Union(1, Box::new(inner)))
}

/// A partition value read back (its type from the Avro value).
fn partition_from_avro(v: &Value) -> Option<Option<Literal>> {
    Some(Some(match unwrap_union(v) {
        Value::Null => return Some(None),
        Value::Boolean(b) => Literal::Boolean(*b),
        Value::Int(v) => Literal::Int(*v),
        Value::Date(v) => Literal::Date(*v),
        Value::Long(v) => Literal::Long(*v),
        Value::TimeMicros(v) => Literal::Time(*v),
        Value::TimestampMicros(v) | Value::LocalTimestampMicros(v) => Literal::Timestamptz(*v),
        Value::Float(v) => Literal::Float(*v),
        Value::Double(v) => Literal::Double(*v),
        Value::String(s) => Literal::String(s.clone()),
        Value::Bytes(b) => Literal::Binary(b.clone()),
        _ => return None,
    }))
}

/// A data file as a manifest lists it (`data_file`, field 2).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct DataFile {
    /// 0: data (1 and 2 are delete files, which this crate does not write).
    pub(crate) content: i32,
    /// The full URI (`file:///t/data/x.parquet`, `s3://b/t/x.parquet`).
    pub(crate) file_path: String,
    /// `PARQUET`.
    pub(crate) file_format: String,
    /// In the order of the partition spec's fields.
    pub(crate) partition: Vec<Option<Literal>>,
    pub(crate) record_count: i64,
    pub(crate) file_size_in_bytes: i64,
    pub(crate) column_sizes: BTreeMap<i32, i64>,
    pub(crate) value_counts: BTreeMap<i32, i64>,
    pub(crate) null_value_counts: BTreeMap<i32, i64>,
    pub(crate) nan_value_counts: BTreeMap<i32, i64>,
    /// Single-value serialization of each column's bounds, keyed by field id.
    pub(crate) lower_bounds: BTreeMap<i32, Vec<u8>>,
    pub(crate) upper_bounds: BTreeMap<i32, Vec<u8>>,
    pub(crate) split_offsets: Option<Vec<i64>>,
    pub(crate) sort_order_id: Option<i32>,
}

/// One `manifest_entry`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ManifestEntry {
    pub(crate) status: EntryStatus,
    /// `None`: inherited from the manifest list (the snapshot that added the manifest).
    pub(crate) snapshot_id: Option<i64>,
    /// `None`: inherited (the manifest's sequence number), as for a new entry.
    pub(crate) sequence_number: Option<i64>,
    pub(crate) file_sequence_number: Option<i64>,
    pub(crate) data_file: DataFile,
}

/// What a manifest holds, for its manifest list entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct ManifestCounts {
    pub(crate) added_files: i32,
    pub(crate) existing_files: i32,
    pub(crate) deleted_files: i32,
    pub(crate) added_rows: i64,
    pub(crate) existing_rows: i64,
    pub(crate) deleted_rows: i64,
}

fn int_map(name: &str, id: i32, key: i32, value: i32, ty: &str) -> String {
    format!(
        r#"{{"name": "{name}", "field-id": {id}, "default": null, "type": ["null", {{"type": "array", "logicalType": "map", "items": {{"type": "record", "name": "k{key}_v{value}", "fields": [{{"name": "key", "type": "int", "field-id": {key}}}, {{"name": "value", "type": "{ty}", "field-id": {value}}}]}}}}]}}"#
    )
}

/// The Avro schema of `manifest_entry` for a partition spec whose fields have `types`.
/// (the schema's text, as written to the file header, and parsed).
pub(crate) fn entry_schema(
    spec: &PartitionSpec,
    types: &[PrimitiveType],
) -> Result<(String, Schema)> {
    let names = partition_names(spec);
    let partition_fields: Vec<String> = spec
        .fields
        .iter()
        .zip(types)
        .zip(&names)
        .map(|((f, ty), name)| {
            let avro = avro_type(*ty).ok_or_else(|| {
                Error::unsupported(format!(
                    "partition field `{}` of type {ty}: not one this crate writes",
                    f.name
                ))
            })?;
            Ok(format!(
                r#"{{"name": "{name}", "field-id": {}, "default": null, "type": ["null", {avro}]}}"#,
                f.field_id
            ))
        })
        .collect::<Result<_>>()?;
    let text = format!(
        r#"{{"type": "record", "name": "manifest_entry", "fields": [
  {{"name": "status", "field-id": 0, "type": "int"}},
  {{"name": "snapshot_id", "field-id": 1, "default": null, "type": ["null", "long"]}},
  {{"name": "sequence_number", "field-id": 3, "default": null, "type": ["null", "long"]}},
  {{"name": "file_sequence_number", "field-id": 4, "default": null, "type": ["null", "long"]}},
  {{"name": "data_file", "field-id": 2, "type": {{"type": "record", "name": "r2", "fields": [
    {{"name": "content", "field-id": 134, "type": "int"}},
    {{"name": "file_path", "field-id": 100, "type": "string"}},
    {{"name": "file_format", "field-id": 101, "type": "string"}},
    {{"name": "partition", "field-id": 102, "type": {{"type": "record", "name": "r102", "fields": [{partition}]}}}},
    {{"name": "record_count", "field-id": 103, "type": "long"}},
    {{"name": "file_size_in_bytes", "field-id": 104, "type": "long"}},
    {column_sizes},
    {value_counts},
    {null_value_counts},
    {nan_value_counts},
    {lower_bounds},
    {upper_bounds},
    {{"name": "key_metadata", "field-id": 131, "default": null, "type": ["null", "bytes"]}},
    {{"name": "split_offsets", "field-id": 132, "default": null, "type": ["null", {{"type": "array", "element-id": 133, "items": "long"}}]}},
    {{"name": "equality_ids", "field-id": 135, "default": null, "type": ["null", {{"type": "array", "element-id": 136, "items": "int"}}]}},
    {{"name": "sort_order_id", "field-id": 140, "default": null, "type": ["null", "int"]}}
  ]}}}}
]}}"#,
        partition = partition_fields.join(", "),
        column_sizes = int_map("column_sizes", 108, 117, 118, "long"),
        value_counts = int_map("value_counts", 109, 119, 120, "long"),
        null_value_counts = int_map("null_value_counts", 110, 121, 122, "long"),
        nan_value_counts = int_map("nan_value_counts", 137, 138, 139, "long"),
        lower_bounds = int_map("lower_bounds", 125, 126, 127, "bytes"),
        upper_bounds = int_map("upper_bounds", 128, 129, 130, "bytes"),
    );
    let schema = Schema::parse_str(&text)
        .map_err(|e| Error::internal(format!("the manifest_entry Avro schema: {e}")))?;
    Ok((text, schema))
}

/// The Avro names of a spec's partition fields: valid and distinct.
fn partition_names(spec: &PartitionSpec) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(spec.fields.len());
    for f in &spec.fields {
        let mut name = avro_name(&f.name);
        if names.contains(&name) {
            name = format!("{name}_{}", f.field_id);
        }
        names.push(name);
    }
    names
}

/// A partition field's name as an Avro name (letters, digits, `_`; not starting with a
/// digit): readers find partition fields by id, the name only has to be valid.
fn avro_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

fn opt_long(v: Option<i64>) -> Value {
    match v {
        None => Value::Union(0, Box::new(Value::Null)),
        Some(v) => Value::Union(1, Box::new(Value::Long(v))),
    }
}

fn map_value<T: Clone>(map: &BTreeMap<i32, T>, wrap: impl Fn(T) -> Value) -> Value {
    let items = map
        .iter()
        .map(|(k, v)| {
            Value::Record(vec![
                ("key".into(), Value::Int(*k)),
                ("value".into(), wrap(v.clone())),
            ])
        })
        .collect();
    Value::Union(1, Box::new(Value::Array(items)))
}

fn entry_value(e: &ManifestEntry, types: &[PrimitiveType], names: &[String]) -> Result<Value> {
    let d = &e.data_file;
    if d.partition.len() != types.len() {
        return Err(Error::internal(format!(
            "{}: a partition tuple of {} values for a spec of {} fields",
            d.file_path,
            d.partition.len(),
            types.len()
        )));
    }
    let partition = d
        .partition
        .iter()
        .zip(types)
        .zip(names)
        .map(|((v, ty), name)| Ok((name.clone(), partition_to_avro(v, *ty)?)))
        .collect::<Result<Vec<_>>>()?;
    let data_file = Value::Record(vec![
        ("content".into(), Value::Int(d.content)),
        ("file_path".into(), Value::String(d.file_path.clone())),
        ("file_format".into(), Value::String(d.file_format.clone())),
        ("partition".into(), Value::Record(partition)),
        ("record_count".into(), Value::Long(d.record_count)),
        (
            "file_size_in_bytes".into(),
            Value::Long(d.file_size_in_bytes),
        ),
        (
            "column_sizes".into(),
            map_value(&d.column_sizes, Value::Long),
        ),
        (
            "value_counts".into(),
            map_value(&d.value_counts, Value::Long),
        ),
        (
            "null_value_counts".into(),
            map_value(&d.null_value_counts, Value::Long),
        ),
        (
            "nan_value_counts".into(),
            map_value(&d.nan_value_counts, Value::Long),
        ),
        (
            "lower_bounds".into(),
            map_value(&d.lower_bounds, Value::Bytes),
        ),
        (
            "upper_bounds".into(),
            map_value(&d.upper_bounds, Value::Bytes),
        ),
        (
            "key_metadata".into(),
            Value::Union(0, Box::new(Value::Null)),
        ),
        (
            "split_offsets".into(),
            match &d.split_offsets {
                None => Value::Union(0, Box::new(Value::Null)),
                Some(o) => Value::Union(
                    1,
                    Box::new(Value::Array(o.iter().map(|v| Value::Long(*v)).collect())),
                ),
            },
        ),
        (
            "equality_ids".into(),
            Value::Union(0, Box::new(Value::Null)),
        ),
        (
            "sort_order_id".into(),
            match d.sort_order_id {
                None => Value::Union(0, Box::new(Value::Null)),
                Some(v) => Value::Union(1, Box::new(Value::Int(v))),
            },
        ),
    ]);
    Ok(Value::Record(vec![
        ("status".into(), Value::Int(e.status as i32)),
        ("snapshot_id".into(), opt_long(e.snapshot_id)),
        ("sequence_number".into(), opt_long(e.sequence_number)),
        (
            "file_sequence_number".into(),
            opt_long(e.file_sequence_number),
        ),
        ("data_file".into(), data_file),
    ]))
}

/// The bytes of a manifest of `entries`, written for `spec` (whose fields' value types are
/// `types`) and the table schema `schema` (JSON, with its `schema-id`).
pub(crate) fn write_manifest(
    entries: &[ManifestEntry],
    spec: &PartitionSpec,
    types: &[PrimitiveType],
    schema: &serde_json::Value,
) -> Result<Vec<u8>> {
    let (text, avro) = entry_schema(spec, types)?;
    let schema_id = schema.get("schema-id").cloned().unwrap_or(0.into());
    let spec_fields = serde_json::to_string(&spec.fields).unwrap_or_default();
    let meta = [
        ("schema", schema.to_string()),
        ("schema-id", schema_id.to_string()),
        ("partition-spec", spec_fields),
        ("partition-spec-id", spec.spec_id.to_string()),
        ("format-version", "2".to_string()),
        ("content", "data".to_string()),
    ];
    let names = partition_names(spec);
    let values = entries
        .iter()
        .map(|e| entry_value(e, types, &names))
        .collect::<Result<Vec<_>>>()?;
    write_container(&text, &avro, &meta, values, "a manifest")
}

/// An Avro object container file (deflate) of `values`, its header written here with the
/// schema `text` as given: apache-avro would write its own rendering of the parsed schema,
/// which drops the `logicalType: map` of the int-keyed maps that Iceberg readers need.
pub(crate) fn write_container(
    text: &str,
    schema: &Schema,
    meta: &[(&str, String)],
    values: Vec<Value>,
    what: &str,
) -> Result<Vec<u8>> {
    fn long(out: &mut Vec<u8>, v: i64) {
        let mut z = ((v << 1) ^ (v >> 63)) as u64;
        loop {
            let b = (z & 0x7f) as u8;
            z >>= 7;
            if z == 0 {
                out.push(b);
                break;
            }
            out.push(b | 0x80);
        }
    }
    fn bytes(out: &mut Vec<u8>, b: &[u8]) {
        long(out, b.len() as i64);
        out.extend_from_slice(b);
    }
    let marker = unique_marker();
    let mut out = b"Obj\x01".to_vec();
    let codec = Codec::Deflate(DeflateSettings::default());
    let mut entries: Vec<(&str, &[u8])> =
        vec![("avro.schema", text.as_bytes()), ("avro.codec", b"deflate")];
    entries.extend(meta.iter().map(|(k, v)| (*k, v.as_bytes())));
    long(&mut out, entries.len() as i64);
    for (k, v) in entries {
        bytes(&mut out, k.as_bytes());
        bytes(&mut out, v);
    }
    long(&mut out, 0);
    out.extend_from_slice(&marker);
    let fail = |e: apache_avro::Error| Error::internal(format!("writing {what}: {e}"));
    let mut w = apache_avro::Writer::builder()
        .schema(schema)
        .writer(out)
        .codec(codec)
        .marker(marker)
        .has_header(true)
        .build()
        .map_err(fail)?;
    for v in values {
        w.append_value(v).map_err(fail)?;
    }
    w.into_inner().map_err(fail)
}

/// A sync marker different in every file (readers only need it to repeat within one).
fn unique_marker() -> [u8; 16] {
    let id = super::catalog::unique_id().replace('-', "");
    let mut out = [0u8; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&id[2 * i..2 * i + 2], 16).unwrap_or(0);
    }
    out
}

/// The counts of a manifest's entries, for its manifest list entry.
pub(crate) fn counts(entries: &[ManifestEntry]) -> ManifestCounts {
    let mut c = ManifestCounts::default();
    for e in entries {
        let rows = e.data_file.record_count;
        match e.status {
            EntryStatus::Added => {
                c.added_files += 1;
                c.added_rows += rows;
            }
            EntryStatus::Existing => {
                c.existing_files += 1;
                c.existing_rows += rows;
            }
            EntryStatus::Deleted => {
                c.deleted_files += 1;
                c.deleted_rows += rows;
            }
        }
    }
    c
}

/// A manifest read back: its entries and its file metadata.
#[derive(Debug, Clone)]
pub(crate) struct Manifest {
    pub(crate) entries: Vec<ManifestEntry>,
    /// `partition-spec-id` of the file metadata (0 when absent).
    pub(crate) spec_id: i32,
    /// `content` of the file metadata: `data` or `deletes`.
    pub(crate) content: String,
}

/// Reads a manifest; every error names `file`.
pub(crate) fn read_manifest(bytes: &[u8], file: &str) -> Result<Manifest> {
    let (values, meta) = read_container(bytes, file)?;
    let meta_str = |k: &str| meta.get(k).map(|v| String::from_utf8_lossy(v).into_owned());
    let spec_id = match meta_str("partition-spec-id") {
        None => 0,
        Some(s) => s.trim().parse::<i32>().map_err(|_| {
            Error::corrupt(format!("{file}: partition-spec-id `{s}` is not a number"))
        })?,
    };
    let content = meta_str("content").unwrap_or_else(|| "data".into());
    let mut entries = Vec::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        entries.push(
            entry_from_value(v)
                .map_err(|what| Error::corrupt(format!("{file}: manifest entry {i}: {what}")))?,
        );
    }
    Ok(Manifest {
        entries,
        spec_id,
        content,
    })
}

/// The user metadata of an Avro object container file.
pub(crate) type AvroMetadata = BTreeMap<String, Vec<u8>>;

/// The records and the user metadata of an Avro object container file.
pub(crate) fn read_container(bytes: &[u8], file: &str) -> Result<(Vec<Value>, AvroMetadata)> {
    let corrupt =
        |e: apache_avro::Error| Error::corrupt(format!("{file}: not a valid Avro file: {e}"));
    let reader = apache_avro::Reader::new(bytes).map_err(corrupt)?;
    let meta: AvroMetadata = reader
        .user_metadata()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut values = Vec::new();
    for v in reader {
        values.push(v.map_err(corrupt)?);
    }
    Ok((values, meta))
}

pub(crate) fn unwrap_union(v: &Value) -> &Value {
    match v {
        Value::Union(_, inner) => inner,
        v => v,
    }
}

/// The fields of a record, by name.
pub(crate) struct Fields<'a>(pub(crate) &'a [(String, Value)]);

impl<'a> Fields<'a> {
    pub(crate) fn of(v: &'a Value, what: &str) -> std::result::Result<Fields<'a>, String> {
        match unwrap_union(v) {
            Value::Record(f) => Ok(Fields(f)),
            _ => Err(format!("{what} is not a record")),
        }
    }

    /// The field `name`, `None` when absent or null.
    pub(crate) fn get(&self, name: &str) -> Option<&'a Value> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| unwrap_union(v))
            .filter(|v| !matches!(v, Value::Null))
    }

    pub(crate) fn long(&self, name: &str) -> std::result::Result<Option<i64>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Long(v)) => Ok(Some(*v)),
            Some(Value::Int(v)) => Ok(Some(i64::from(*v))),
            Some(v) => Err(format!("{name} is {v:?}, not a number")),
        }
    }

    pub(crate) fn int(&self, name: &str) -> std::result::Result<Option<i32>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Int(v)) => Ok(Some(*v)),
            Some(v) => Err(format!("{name} is {v:?}, not an int")),
        }
    }

    /// A required count: present and not negative.
    pub(crate) fn count(&self, name: &str) -> std::result::Result<i64, String> {
        match self.long(name)? {
            Some(v) if v >= 0 => Ok(v),
            Some(v) => Err(format!("{name} is negative ({v})")),
            None => Err(format!("{name} is missing")),
        }
    }

    pub(crate) fn string(&self, name: &str) -> std::result::Result<&'a str, String> {
        match self.get(name) {
            Some(Value::String(s)) => Ok(s),
            Some(v) => Err(format!("{name} is {v:?}, not a string")),
            None => Err(format!("{name} is missing")),
        }
    }

    pub(crate) fn bytes(&self, name: &str) -> std::result::Result<Option<&'a [u8]>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bytes(b)) | Some(Value::Fixed(_, b)) => Ok(Some(b)),
            Some(v) => Err(format!("{name} is {v:?}, not bytes")),
        }
    }

    pub(crate) fn boolean(&self, name: &str) -> std::result::Result<Option<bool>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Boolean(b)) => Ok(Some(*b)),
            Some(v) => Err(format!("{name} is {v:?}, not a boolean")),
        }
    }
}

fn read_map<T>(
    f: &Fields<'_>,
    name: &str,
    value: impl Fn(&Value) -> Option<T>,
) -> std::result::Result<BTreeMap<i32, T>, String> {
    let mut out = BTreeMap::new();
    let items = match f.get(name) {
        None => return Ok(out),
        Some(Value::Array(items)) => items,
        Some(v) => return Err(format!("{name} is {v:?}, not a map")),
    };
    for item in items {
        let kv = Fields::of(item, name)?;
        let key = kv
            .int("key")?
            .ok_or_else(|| format!("{name}: a key is null"))?;
        let v = kv
            .get("value")
            .and_then(&value)
            .ok_or_else(|| format!("{name}: the value of key {key} is of the wrong type"))?;
        out.insert(key, v);
    }
    Ok(out)
}

fn count_map(f: &Fields<'_>, name: &str) -> std::result::Result<BTreeMap<i32, i64>, String> {
    let map = read_map(f, name, |v| match v {
        Value::Long(v) => Some(*v),
        Value::Int(v) => Some(i64::from(*v)),
        _ => None,
    })?;
    if let Some((k, v)) = map.iter().find(|(_, v)| **v < 0) {
        return Err(format!("{name}: the count of field {k} is negative ({v})"));
    }
    Ok(map)
}

fn bytes_map(f: &Fields<'_>, name: &str) -> std::result::Result<BTreeMap<i32, Vec<u8>>, String> {
    read_map(f, name, |v| match v {
        Value::Bytes(b) => Some(b.clone()),
        _ => None,
    })
}

fn entry_from_value(v: &Value) -> std::result::Result<ManifestEntry, String> {
    let f = Fields::of(v, "the entry")?;
    let status = match f.int("status")? {
        Some(0) => EntryStatus::Existing,
        Some(1) => EntryStatus::Added,
        Some(2) => EntryStatus::Deleted,
        other => return Err(format!("status {other:?} is not 0, 1 or 2")),
    };
    let d = Fields::of(
        f.get("data_file").ok_or("data_file is missing")?,
        "data_file",
    )?;
    let partition = match d.get("partition") {
        None => Vec::new(),
        Some(p) => Fields::of(p, "partition")?
            .0
            .iter()
            .map(|(name, v)| {
                partition_from_avro(v)
                    .ok_or_else(|| format!("partition field {name} has an unsupported type"))
            })
            .collect::<std::result::Result<_, _>>()?,
    };
    let split_offsets = match d.get("split_offsets") {
        None => None,
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .map(|v| match v {
                    Value::Long(v) => Ok(*v),
                    _ => Err("split_offsets holds a non-long".to_string()),
                })
                .collect::<std::result::Result<_, _>>()?,
        ),
        Some(_) => return Err("split_offsets is not an array".into()),
    };
    let seq = |name: &str| -> std::result::Result<Option<i64>, String> {
        match f.long(name)? {
            Some(v) if v < 0 => Err(format!("{name} is negative ({v})")),
            v => Ok(v),
        }
    };
    Ok(ManifestEntry {
        status,
        snapshot_id: f.long("snapshot_id")?,
        sequence_number: seq("sequence_number")?,
        file_sequence_number: seq("file_sequence_number")?,
        data_file: DataFile {
            content: d.int("content")?.unwrap_or(0),
            file_path: d.string("file_path")?.to_string(),
            file_format: d.string("file_format")?.to_string(),
            partition,
            record_count: d.count("record_count")?,
            file_size_in_bytes: d.count("file_size_in_bytes")?,
            column_sizes: count_map(&d, "column_sizes")?,
            value_counts: count_map(&d, "value_counts")?,
            null_value_counts: count_map(&d, "null_value_counts")?,
            nan_value_counts: count_map(&d, "nan_value_counts")?,
            lower_bounds: bytes_map(&d, "lower_bounds")?,
            upper_bounds: bytes_map(&d, "upper_bounds")?,
            split_offsets,
            sort_order_id: d.int("sort_order_id")?,
        },
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::iceberg::partition::{PartitionField, Transform};

    pub(crate) fn spec() -> (PartitionSpec, Vec<PrimitiveType>) {
        (
            PartitionSpec {
                spec_id: 0,
                fields: vec![
                    PartitionField {
                        source_id: 2,
                        field_id: 1000,
                        name: "k".into(),
                        transform: Transform::Identity,
                    },
                    PartitionField {
                        source_id: 1,
                        field_id: 1001,
                        name: "ts_hour".into(),
                        transform: Transform::Hour,
                    },
                ],
            },
            vec![PrimitiveType::String, PrimitiveType::Int],
        )
    }

    pub(crate) fn entry(path: &str, status: EntryStatus) -> ManifestEntry {
        ManifestEntry {
            status,
            snapshot_id: Some(7),
            sequence_number: Some(1),
            file_sequence_number: Some(1),
            data_file: DataFile {
                content: 0,
                file_path: path.into(),
                file_format: "PARQUET".into(),
                partition: vec![Some(Literal::String("a".into())), Some(Literal::Int(9))],
                record_count: 3,
                file_size_in_bytes: 1234,
                column_sizes: [(1, 10), (2, 20)].into(),
                value_counts: [(1, 3), (2, 3)].into(),
                null_value_counts: [(1, 0), (2, 1)].into(),
                nan_value_counts: BTreeMap::new(),
                lower_bounds: [(1, 5i64.to_le_bytes().to_vec())].into(),
                upper_bounds: [(1, 9i64.to_le_bytes().to_vec())].into(),
                split_offsets: Some(vec![4]),
                sort_order_id: None,
            },
        }
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "struct", "schema-id": 0, "fields": [
            {"id": 1, "name": "ts", "required": false, "type": "timestamptz"},
            {"id": 2, "name": "k", "required": false, "type": "string"}]})
    }

    /// The `avro.schema` of a file's header, as written.
    pub(crate) fn meta_schema(bytes: &[u8]) -> Vec<u8> {
        let mut reader = apache_avro::Reader::new(bytes).unwrap();
        let _ = reader.next();
        // apache-avro does not give the raw header: find it by its key.
        let at = bytes.windows(11).position(|w| w == b"avro.schema").unwrap() + 11;
        let (mut len, mut shift, mut i) = (0u64, 0, at);
        loop {
            let b = bytes[i];
            len |= u64::from(b & 0x7f) << shift;
            shift += 7;
            i += 1;
            if b < 0x80 {
                break;
            }
        }
        let len = (len >> 1) as usize;
        bytes[i..i + len].to_vec()
    }

    fn sample_bytes() -> Vec<u8> {
        let (spec, types) = spec();
        let entries = vec![
            entry("file:///t/a.parquet", EntryStatus::Added),
            entry("file:///t/b.parquet", EntryStatus::Deleted),
        ];
        write_manifest(&entries, &spec, &types, &schema()).unwrap()
    }

    #[test]
    fn round_trips_with_field_ids_and_metadata() {
        let (spec, types) = spec();
        let mut entries = vec![
            entry("file:///t/a.parquet", EntryStatus::Added),
            entry("file:///t/b.parquet", EntryStatus::Deleted),
        ];
        entries[1].data_file.partition = vec![None, None];
        entries[1].sequence_number = None;
        entries[1].data_file.split_offsets = None;
        let bytes = write_manifest(&entries, &spec, &types, &schema()).unwrap();
        let back = read_manifest(&bytes, "m0.avro").unwrap();
        assert_eq!(back.entries, entries);
        assert_eq!(back.spec_id, 0);
        assert_eq!(back.content, "data");
        let c = counts(&back.entries);
        assert_eq!((c.added_files, c.deleted_files, c.added_rows), (1, 1, 3));

        let reader = apache_avro::Reader::new(&bytes[..]).unwrap();
        let meta = reader.user_metadata();
        for key in [
            "schema",
            "schema-id",
            "partition-spec",
            "partition-spec-id",
            "format-version",
            "content",
        ] {
            assert!(meta.contains_key(key), "{key}");
        }
        let spec_json: serde_json::Value = serde_json::from_slice(&meta["partition-spec"]).unwrap();
        assert_eq!(spec_json[1]["field-id"], 1001);
        // The header's schema keeps the field ids readers resolve by.
        let header = String::from_utf8(meta_schema(&bytes)).unwrap();
        let header: serde_json::Value = serde_json::from_str(&header).unwrap();
        let header = header.to_string();
        for needle in [
            r#""field-id":102"#,
            r#""field-id":1001"#,
            r#""element-id":133"#,
            r#""name":"k117_v118""#,
            r#""logicalType":"map""#,
            r#""field-id":140"#,
        ] {
            assert!(header.contains(needle), "{needle} not in {header}");
        }
    }

    #[test]
    fn corrupt_manifests_are_errors_naming_the_file() {
        let bytes = sample_bytes();
        let mut cases: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
        for i in 0..bytes.len() {
            for x in [0x01, 0x80, 0xff] {
                let mut c = bytes.clone();
                c[i] ^= x;
                cases.push(c);
            }
        }
        for case in cases {
            if let Err(e) = read_manifest(&case, "metadata/m-1.avro") {
                assert!(e.to_string().contains("metadata/m-1.avro"), "{e}");
            }
        }
    }
}

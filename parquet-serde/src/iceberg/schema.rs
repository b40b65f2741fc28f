//! The Iceberg schema (format v2, the JSON form of the table metadata's `schemas`) of a
//! Parquet schema whose nodes carry field ids, and back: an Iceberg schema's primitive type
//! per field id (what a reader needs to decode a manifest's bounds).
//!
//! Parquet → Iceberg v2 types:
//!
//! | Parquet | Iceberg |
//! |---|---|
//! | BOOLEAN | `boolean` |
//! | INT32, INTEGER(8/16/32, signed), INTEGER(8/16, unsigned) | `int` |
//! | INT64, INTEGER(64, signed), INTEGER(32, unsigned) | `long` |
//! | FLOAT, DOUBLE | `float`, `double` |
//! | DECIMAL(P, S) on any physical type, P ≤ 38 | `decimal(P,S)` |
//! | DATE | `date` |
//! | TIME(MICROS) | `time` |
//! | TIMESTAMP(MILLIS or MICROS, UTC / local) | `timestamptz` / `timestamp` (readers widen millis) |
//! | BYTE_ARRAY STRING, ENUM, JSON | `string` |
//! | BYTE_ARRAY (none, BSON) | `binary` |
//! | FIXED_LEN_BYTE_ARRAY(16) UUID | `uuid` |
//! | FIXED_LEN_BYTE_ARRAY(L) | `fixed[L]` |
//! | group (struct), LIST, MAP | `struct`, `list` (`element-id`), `map` (`key-id`, `value-id`) |
//!
//! What v2 cannot hold is an [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported)
//! error naming the column: INTEGER(64, unsigned) (no lossless type pyiceberg reads: a
//! `decimal(20,0)` column stored as INT64 is not read by it), TIMESTAMP(NANOS) and
//! TIME(NANOS) (`timestamp_ns` is Iceberg v3), TIME(MILLIS), INT96, FLOAT16, INTERVAL,
//! VARIANT, GEOMETRY/GEOGRAPHY (v3), the UNKNOWN (null) type, bare repeated fields (a
//! repeated field outside a LIST or MAP has no node for the list's own id), and a MAP
//! without a value column.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Map, Value as Json};

use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::{GroupShape, NodeKind, Repetition, Schema, SchemaNode};
use crate::error::{Error, Result};

/// An Iceberg schema (format v2), serialized exactly as pyiceberg reads and writes it:
/// `{"type": "struct", "schema-id": 0, "identifier-field-ids": [], "fields": [...]}`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct IcebergSchema {
    /// The schema's id in the table metadata (`schema-id`).
    pub schema_id: i32,
    /// The row identifier's fields (`identifier-field-ids`; empty for log tables).
    pub identifier_field_ids: Vec<i32>,
    /// The top-level fields.
    pub fields: Vec<NestedField>,
}

/// A field of a struct: `{"id": 1, "name": "ts", "required": true, "type": "timestamptz"}`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NestedField {
    /// The field id.
    pub id: i32,
    /// The field's name.
    pub name: String,
    /// Whether a value is always present.
    pub required: bool,
    /// The field's type.
    pub field_type: IcebergType,
    /// The field's documentation (`doc`), if any.
    pub doc: Option<String>,
}

/// An Iceberg type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum IcebergType {
    /// A primitive type (a JSON string such as `"long"`, `"decimal(9,2)"`, `"fixed[16]"`).
    Primitive(PrimitiveType),
    /// `{"type": "struct", "fields": [...]}`.
    Struct(Vec<NestedField>),
    /// `{"type": "list", "element-id": .., "element": .., "element-required": ..}`.
    List {
        /// The element's field id.
        element_id: i32,
        /// Whether every element is present.
        element_required: bool,
        /// The element's type.
        element: Box<IcebergType>,
    },
    /// `{"type": "map", "key-id": .., "key": .., "value-id": .., "value": ..,
    /// "value-required": ..}` (keys are always required).
    Map {
        /// The key's field id.
        key_id: i32,
        /// The key's type.
        key: Box<IcebergType>,
        /// The value's field id.
        value_id: i32,
        /// Whether every value is present.
        value_required: bool,
        /// The value's type.
        value: Box<IcebergType>,
    },
}

/// An Iceberg primitive type of format v2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PrimitiveType {
    /// `boolean`.
    Boolean,
    /// `int`: 32-bit signed.
    Int,
    /// `long`: 64-bit signed.
    Long,
    /// `float`: IEEE 754 single.
    Float,
    /// `double`: IEEE 754 double.
    Double,
    /// `decimal(P,S)`, P ≤ 38.
    Decimal {
        /// Precision (digits).
        precision: u32,
        /// Scale (digits after the point).
        scale: u32,
    },
    /// `date`: days since 1970-01-01.
    Date,
    /// `time`: microseconds since midnight.
    Time,
    /// `timestamp`: microseconds since 1970-01-01 00:00, no time zone.
    Timestamp,
    /// `timestamptz`: microseconds since 1970-01-01 00:00 UTC.
    Timestamptz,
    /// `string`: UTF-8.
    String,
    /// `uuid`: 16 bytes.
    Uuid,
    /// `fixed[L]`: L bytes.
    Fixed(u32),
    /// `binary`: any bytes.
    Binary,
}

impl fmt::Display for PrimitiveType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrimitiveType::Boolean => f.write_str("boolean"),
            PrimitiveType::Int => f.write_str("int"),
            PrimitiveType::Long => f.write_str("long"),
            PrimitiveType::Float => f.write_str("float"),
            PrimitiveType::Double => f.write_str("double"),
            PrimitiveType::Decimal { precision, scale } => {
                write!(f, "decimal({precision},{scale})")
            }
            PrimitiveType::Date => f.write_str("date"),
            PrimitiveType::Time => f.write_str("time"),
            PrimitiveType::Timestamp => f.write_str("timestamp"),
            PrimitiveType::Timestamptz => f.write_str("timestamptz"),
            PrimitiveType::String => f.write_str("string"),
            PrimitiveType::Uuid => f.write_str("uuid"),
            PrimitiveType::Fixed(len) => write!(f, "fixed[{len}]"),
            PrimitiveType::Binary => f.write_str("binary"),
        }
    }
}

impl std::str::FromStr for PrimitiveType {
    type Err = Error;

    /// Parses a type string as the spec writes it (spaces inside parentheses allowed, as
    /// pyiceberg and Java accept them).
    fn from_str(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t {
            "boolean" => PrimitiveType::Boolean,
            "int" => PrimitiveType::Int,
            "long" => PrimitiveType::Long,
            "float" => PrimitiveType::Float,
            "double" => PrimitiveType::Double,
            "date" => PrimitiveType::Date,
            "time" => PrimitiveType::Time,
            "timestamp" => PrimitiveType::Timestamp,
            "timestamptz" => PrimitiveType::Timestamptz,
            "string" => PrimitiveType::String,
            "uuid" => PrimitiveType::Uuid,
            "binary" => PrimitiveType::Binary,
            _ => {
                if let Some(inner) = t.strip_prefix("decimal(").and_then(|r| r.strip_suffix(')')) {
                    let (p, sc) = inner
                        .split_once(',')
                        .ok_or_else(|| Error::schema(format!("bad Iceberg type `{s}`")))?;
                    let precision: u32 = p
                        .trim()
                        .parse()
                        .map_err(|_| Error::schema(format!("bad Iceberg type `{s}`")))?;
                    let scale: u32 = sc
                        .trim()
                        .parse()
                        .map_err(|_| Error::schema(format!("bad Iceberg type `{s}`")))?;
                    if !(1..=38).contains(&precision) || scale > precision {
                        return Err(Error::schema(format!("bad Iceberg type `{s}`")));
                    }
                    PrimitiveType::Decimal { precision, scale }
                } else if let Some(len) = t.strip_prefix("fixed[").and_then(|r| r.strip_suffix(']'))
                {
                    let len: u32 = len
                        .trim()
                        .parse()
                        .map_err(|_| Error::schema(format!("bad Iceberg type `{s}`")))?;
                    if len == 0 || len > i32::MAX as u32 {
                        return Err(Error::schema(format!("bad Iceberg type `{s}`")));
                    }
                    PrimitiveType::Fixed(len)
                } else {
                    return Err(Error::unsupported(format!(
                        "Iceberg type `{s}` is not a format v2 type this library reads"
                    )));
                }
            }
        })
    }
}

/// Deepest nesting of types accepted when reading a schema (hostile metadata).
const MAX_DEPTH: usize = 64;

impl IcebergType {
    fn to_json(&self) -> Json {
        match self {
            IcebergType::Primitive(p) => Json::String(p.to_string()),
            IcebergType::Struct(fields) => {
                json!({"type": "struct", "fields": fields.iter().map(NestedField::to_json).collect::<Vec<_>>()})
            }
            IcebergType::List {
                element_id,
                element_required,
                element,
            } => json!({
                "type": "list",
                "element-id": element_id,
                "element": element.to_json(),
                "element-required": element_required,
            }),
            IcebergType::Map {
                key_id,
                key,
                value_id,
                value_required,
                value,
            } => json!({
                "type": "map",
                "key-id": key_id,
                "key": key.to_json(),
                "value-id": value_id,
                "value": value.to_json(),
                "value-required": value_required,
            }),
        }
    }

    fn from_json(v: &Json, depth: usize) -> Result<Self> {
        if depth > MAX_DEPTH {
            return Err(Error::corrupt(format!(
                "Iceberg schema nested deeper than {MAX_DEPTH} levels"
            )));
        }
        if let Json::String(s) = v {
            return Ok(IcebergType::Primitive(s.parse()?));
        }
        let obj = v.as_object().ok_or_else(|| {
            Error::corrupt(format!("an Iceberg type is not a string or object: {v}"))
        })?;
        match obj.get("type").and_then(Json::as_str) {
            Some("struct") => Ok(IcebergType::Struct(fields_from_json(obj, depth)?)),
            Some("list") => Ok(IcebergType::List {
                element_id: id_at(obj, "element-id")?,
                element_required: bool_at(obj, "element-required")?,
                element: Box::new(IcebergType::from_json(member(obj, "element")?, depth + 1)?),
            }),
            Some("map") => Ok(IcebergType::Map {
                key_id: id_at(obj, "key-id")?,
                key: Box::new(IcebergType::from_json(member(obj, "key")?, depth + 1)?),
                value_id: id_at(obj, "value-id")?,
                value_required: bool_at(obj, "value-required")?,
                value: Box::new(IcebergType::from_json(member(obj, "value")?, depth + 1)?),
            }),
            other => Err(Error::corrupt(format!(
                "an Iceberg nested type has type {other:?}, not struct, list or map"
            ))),
        }
    }

    /// The primitive type, `None` for a nested type.
    pub(crate) fn as_primitive(&self) -> Option<PrimitiveType> {
        match self {
            IcebergType::Primitive(p) => Some(*p),
            _ => None,
        }
    }
}

fn member<'a>(obj: &'a Map<String, Json>, key: &str) -> Result<&'a Json> {
    obj.get(key)
        .ok_or_else(|| Error::corrupt(format!("an Iceberg type has no `{key}`")))
}

fn id_at(obj: &Map<String, Json>, key: &str) -> Result<i32> {
    member(obj, key)?
        .as_i64()
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| Error::corrupt(format!("Iceberg `{key}` is not a 32-bit integer")))
}

fn bool_at(obj: &Map<String, Json>, key: &str) -> Result<bool> {
    member(obj, key)?
        .as_bool()
        .ok_or_else(|| Error::corrupt(format!("Iceberg `{key}` is not a boolean")))
}

fn fields_from_json(obj: &Map<String, Json>, depth: usize) -> Result<Vec<NestedField>> {
    let fields = member(obj, "fields")?
        .as_array()
        .ok_or_else(|| Error::corrupt("Iceberg struct `fields` is not an array"))?;
    fields
        .iter()
        .map(|f| NestedField::from_json(f, depth + 1))
        .collect()
}

impl NestedField {
    fn to_json(&self) -> Json {
        let mut m = Map::new();
        m.insert("id".into(), json!(self.id));
        m.insert("name".into(), json!(self.name));
        m.insert("required".into(), json!(self.required));
        m.insert("type".into(), self.field_type.to_json());
        if let Some(doc) = &self.doc {
            m.insert("doc".into(), json!(doc));
        }
        Json::Object(m)
    }

    fn from_json(v: &Json, depth: usize) -> Result<Self> {
        let obj = v
            .as_object()
            .ok_or_else(|| Error::corrupt("an Iceberg struct field is not an object"))?;
        let name = member(obj, "name")?
            .as_str()
            .ok_or_else(|| Error::corrupt("an Iceberg field's `name` is not a string"))?
            .to_string();
        let id = id_at(obj, "id").map_err(|e| e.context(format!("field `{name}`")))?;
        let required =
            bool_at(obj, "required").map_err(|e| e.context(format!("field `{name}`")))?;
        let field_type = IcebergType::from_json(member(obj, "type")?, depth)
            .map_err(|e| e.context(format!("field `{name}`")))?;
        let doc = obj.get("doc").and_then(Json::as_str).map(str::to_string);
        Ok(NestedField {
            id,
            name,
            required,
            field_type,
            doc,
        })
    }
}

impl IcebergSchema {
    /// The JSON object of the schema (as in the metadata's `schemas` array).
    pub(crate) fn to_json(&self) -> Json {
        json!({
            "type": "struct",
            "schema-id": self.schema_id,
            "identifier-field-ids": self.identifier_field_ids,
            "fields": self.fields.iter().map(NestedField::to_json).collect::<Vec<_>>(),
        })
    }

    /// Reads a schema object; unknown members are ignored, a missing `schema-id` is 0 (as
    /// in v1 metadata). Errors are [`Corrupt`](crate::ErrorKind::Corrupt) (or
    /// [`Unsupported`](crate::ErrorKind::Unsupported) for a type beyond v2) naming the
    /// field.
    pub(crate) fn from_json(v: &Json) -> Result<Self> {
        let obj = v
            .as_object()
            .ok_or_else(|| Error::corrupt("an Iceberg schema is not a JSON object"))?;
        if let Some(t) = obj.get("type") {
            if t.as_str() != Some("struct") {
                return Err(Error::corrupt(format!(
                    "an Iceberg schema has type {t}, not \"struct\""
                )));
            }
        }
        let schema_id = match obj.get("schema-id") {
            None => 0,
            Some(_) => id_at(obj, "schema-id")?,
        };
        let identifier_field_ids = match obj.get("identifier-field-ids") {
            None | Some(Json::Null) => Vec::new(),
            Some(Json::Array(ids)) => ids
                .iter()
                .map(|i| {
                    i.as_i64()
                        .and_then(|v| i32::try_from(v).ok())
                        .ok_or_else(|| {
                            Error::corrupt("Iceberg `identifier-field-ids` holds a non-integer")
                        })
                })
                .collect::<Result<_>>()?,
            Some(_) => {
                return Err(Error::corrupt(
                    "Iceberg `identifier-field-ids` is not an array",
                ))
            }
        };
        Ok(IcebergSchema {
            schema_id,
            identifier_field_ids,
            fields: fields_from_json(obj, 0)?,
        })
    }

    /// Every field id of the schema (struct fields, list elements, map keys and values)
    /// with its type, in a pre-order walk.
    pub(crate) fn types_by_id(&self) -> BTreeMap<i32, &IcebergType> {
        let mut out = BTreeMap::new();
        fn walk<'a>(t: &'a IcebergType, out: &mut BTreeMap<i32, &'a IcebergType>) {
            match t {
                IcebergType::Primitive(_) => {}
                IcebergType::Struct(fields) => {
                    for f in fields {
                        out.insert(f.id, &f.field_type);
                        walk(&f.field_type, out);
                    }
                }
                IcebergType::List {
                    element_id,
                    element,
                    ..
                } => {
                    out.insert(*element_id, element);
                    walk(element, out);
                }
                IcebergType::Map {
                    key_id,
                    key,
                    value_id,
                    value,
                    ..
                } => {
                    out.insert(*key_id, key);
                    walk(key, out);
                    out.insert(*value_id, value);
                    walk(value, out);
                }
            }
        }
        for f in &self.fields {
            out.insert(f.id, &f.field_type);
            walk(&f.field_type, &mut out);
        }
        out
    }

    /// The primitive type of every primitive field id (what a manifest's bounds are
    /// decoded by).
    pub(crate) fn primitive_types_by_id(&self) -> BTreeMap<i32, PrimitiveType> {
        self.types_by_id()
            .into_iter()
            .filter_map(|(id, t)| t.as_primitive().map(|p| (id, p)))
            .collect()
    }

    /// The field ids by name path (`["spans", "element", "name"]`: list elements are
    /// `element`, map keys and values `key` and `value`), every nested field included.
    pub(crate) fn ids_by_path(&self) -> BTreeMap<Vec<String>, i32> {
        let mut out = BTreeMap::new();
        let mut path = Vec::new();
        fn walk(t: &IcebergType, path: &mut Vec<String>, out: &mut BTreeMap<Vec<String>, i32>) {
            let mut visit = |name: &str, id: i32, t: &IcebergType, path: &mut Vec<String>| {
                path.push(name.to_string());
                out.insert(path.clone(), id);
                walk(t, path, out);
                path.pop();
            };
            match t {
                IcebergType::Primitive(_) => {}
                IcebergType::Struct(fields) => {
                    for f in fields {
                        visit(&f.name, f.id, &f.field_type, path);
                    }
                }
                IcebergType::List {
                    element_id,
                    element,
                    ..
                } => visit("element", *element_id, element, path),
                IcebergType::Map {
                    key_id,
                    key,
                    value_id,
                    value,
                    ..
                } => {
                    visit("key", *key_id, key, path);
                    visit("value", *value_id, value, path);
                }
            }
        }
        walk(
            &IcebergType::Struct(self.fields.clone()),
            &mut path,
            &mut out,
        );
        out
    }

    /// The highest field id of the schema (0 when it has no field): a table's
    /// `last-column-id` is at least this.
    pub(crate) fn highest_field_id(&self) -> i32 {
        self.types_by_id()
            .keys()
            .next_back()
            .copied()
            .unwrap_or(0)
            .max(0)
    }
}

impl IcebergSchema {
    /// Every field by id, with its dotted path and whether it is required.
    fn fields_by_id(&self) -> BTreeMap<i32, (String, bool, &IcebergType)> {
        fn walk<'a>(
            t: &'a IcebergType,
            path: &str,
            out: &mut BTreeMap<i32, (String, bool, &'a IcebergType)>,
        ) {
            let join = |name: &str| {
                if path.is_empty() {
                    name.to_string()
                } else {
                    format!("{path}.{name}")
                }
            };
            match t {
                IcebergType::Primitive(_) => {}
                IcebergType::Struct(fields) => {
                    for f in fields {
                        let p = join(&f.name);
                        walk(&f.field_type, &p, out);
                        out.insert(f.id, (p, f.required, &f.field_type));
                    }
                }
                IcebergType::List {
                    element_id,
                    element_required,
                    element,
                } => {
                    let p = join("element");
                    walk(element, &p, out);
                    out.insert(*element_id, (p, *element_required, element));
                }
                IcebergType::Map {
                    key_id,
                    key,
                    value_id,
                    value_required,
                    value,
                } => {
                    let (kp, vp) = (join("key"), join("value"));
                    walk(key, &kp, out);
                    walk(value, &vp, out);
                    out.insert(*key_id, (kp, true, key));
                    out.insert(*value_id, (vp, *value_required, value));
                }
            }
        }
        let mut out = BTreeMap::new();
        for f in &self.fields {
            walk(&f.field_type, &f.name, &mut out);
            out.insert(f.id, (f.name.clone(), f.required, &f.field_type));
        }
        out
    }

    /// Checks that a data file whose schema is `file` (see [`iceberg_schema`]) can be
    /// committed to a table whose current schema is `self`: every field of the file is the
    /// table's field of the same id, at the same name path, of the same kind and type (or
    /// one the table's widens losslessly, as Iceberg's promotions do: `int` to `long`,
    /// `float` to `double`, `decimal(P,S)` to `decimal(P',S)` with P' ≥ P); a field the
    /// table requires is required in the file too, and present. Errors
    /// ([`Schema`](crate::ErrorKind::Schema)) name the column.
    pub(crate) fn check_file_fits(&self, file: &IcebergSchema) -> Result<()> {
        let table = self.fields_by_id();
        let ours = file.fields_by_id();
        for (id, (path, required, ty)) in &ours {
            let Some((tpath, trequired, tty)) = table.get(id) else {
                return Err(Error::schema(format!(
                    "column `{path}` (field id {id}) is not in the table's schema"
                )));
            };
            if tpath != path {
                return Err(Error::schema(format!(
                    "column `{path}` has field id {id}, which is `{tpath}` in the table's schema"
                )));
            }
            if *trequired && !*required {
                return Err(Error::schema(format!(
                    "column `{path}` is optional in the file, required in the table"
                )));
            }
            let fits = match (ty, tty) {
                (IcebergType::Primitive(a), IcebergType::Primitive(b)) => promotes(*a, *b),
                (IcebergType::Struct(_), IcebergType::Struct(_))
                | (IcebergType::List { .. }, IcebergType::List { .. })
                | (IcebergType::Map { .. }, IcebergType::Map { .. }) => true,
                _ => false,
            };
            if !fits {
                return Err(Error::schema(format!(
                    "column `{path}` is {} in the file, {} in the table",
                    type_name(ty),
                    type_name(tty)
                )));
            }
        }
        for (id, (path, required, _)) in &table {
            if *required && !ours.contains_key(id) {
                return Err(Error::schema(format!(
                    "the table requires column `{path}`, which the file does not have"
                )));
            }
        }
        Ok(())
    }
}

/// Whether a value of `file`'s type reads as `table`'s without loss.
fn promotes(file: PrimitiveType, table: PrimitiveType) -> bool {
    use PrimitiveType as P;
    match (file, table) {
        (a, b) if a == b => true,
        (P::Int, P::Long) | (P::Float, P::Double) => true,
        (
            P::Decimal {
                precision: p1,
                scale: s1,
            },
            P::Decimal {
                precision: p2,
                scale: s2,
            },
        ) => s1 == s2 && p2 >= p1,
        _ => false,
    }
}

fn type_name(t: &IcebergType) -> String {
    match t {
        IcebergType::Primitive(p) => format!("`{p}`"),
        IcebergType::Struct(_) => "a struct".into(),
        IcebergType::List { .. } => "a list".into(),
        IcebergType::Map { .. } => "a map".into(),
    }
}

impl Serialize for IcebergSchema {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for IcebergSchema {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v = Json::deserialize(d)?;
        IcebergSchema::from_json(&v).map_err(serde::de::Error::custom)
    }
}

impl Serialize for IcebergType {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for IcebergType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v = Json::deserialize(d)?;
        IcebergType::from_json(&v, 0).map_err(serde::de::Error::custom)
    }
}

/// The Iceberg schema (with id `schema_id`) of a Parquet schema. Every node Iceberg gives an
/// id (struct fields, LIST and MAP groups, list elements, map keys and values; not the
/// repeated `list` / `key_value` levels) must carry a field id (see
/// [`with_field_ids`](super::field_ids::with_field_ids)); a missing one, or a type v2
/// cannot hold, is an error naming the column.
pub(crate) fn iceberg_schema(schema: &Schema, schema_id: i32) -> Result<IcebergSchema> {
    let mut fields = Vec::with_capacity(schema.fields().len());
    for f in schema.fields() {
        fields.push(nested_field(f, &f.name)?);
    }
    Ok(IcebergSchema {
        schema_id,
        identifier_field_ids: Vec::new(),
        fields,
    })
}

fn need_id(node: &SchemaNode, path: &str) -> Result<i32> {
    node.field_id.ok_or_else(|| {
        Error::schema(format!(
            "column `{path}` has no field id, which an Iceberg table needs"
        ))
    })
}

fn nested_field(node: &SchemaNode, path: &str) -> Result<NestedField> {
    if node.repetition == Repetition::Repeated {
        return Err(Error::unsupported(format!(
            "column `{path}`: a repeated field outside a LIST or MAP has no Iceberg form \
             (write it as a LIST)"
        )));
    }
    Ok(NestedField {
        id: need_id(node, path)?,
        name: node.name.clone(),
        required: node.repetition == Repetition::Required,
        field_type: node_type(node, path)?,
        doc: None,
    })
}

/// The Iceberg type of a node (its own repetition aside).
pub(crate) fn node_type(node: &SchemaNode, path: &str) -> Result<IcebergType> {
    match &node.kind {
        NodeKind::Primitive { .. } => Ok(IcebergType::Primitive(primitive_type(node, path)?)),
        NodeKind::Group { fields } => {
            if let Some(LogicalType::Variant { .. }) = node.logical_type {
                return Err(Error::unsupported(format!(
                    "column `{path}`: VARIANT is an Iceberg v3 type; a v2 table cannot hold it \
                     (write it as a JSON string)"
                )));
            }
            match node.group_shape() {
                Some(GroupShape::List(list)) => {
                    let element = list.element;
                    let epath = format!("{path}.element");
                    let element_required =
                        list.element_is_repeated() || element.repetition == Repetition::Required;
                    Ok(IcebergType::List {
                        element_id: need_id(element, &epath)?,
                        element_required,
                        element: Box::new(node_type(element, &epath)?),
                    })
                }
                Some(GroupShape::Map(map)) => {
                    let kpath = format!("{path}.key");
                    let vpath = format!("{path}.value");
                    let value = map.value.ok_or_else(|| {
                        Error::unsupported(format!(
                            "column `{path}`: a MAP without a value column has no Iceberg form"
                        ))
                    })?;
                    Ok(IcebergType::Map {
                        key_id: need_id(map.key, &kpath)?,
                        key: Box::new(node_type(map.key, &kpath)?),
                        value_id: need_id(value, &vpath)?,
                        value_required: value.repetition == Repetition::Required,
                        value: Box::new(node_type(value, &vpath)?),
                    })
                }
                _ => {
                    let mut out = Vec::with_capacity(fields.len());
                    for f in fields {
                        out.push(nested_field(f, &format!("{path}.{}", f.name))?);
                    }
                    Ok(IcebergType::Struct(out))
                }
            }
        }
    }
}

/// The Iceberg primitive type of a Parquet leaf (see the module's table).
pub(crate) fn primitive_type(node: &SchemaNode, path: &str) -> Result<PrimitiveType> {
    let physical = node.physical_type().unwrap_or(Type::ByteArray);
    let unsupported = |what: &str, hint: &str| -> Result<PrimitiveType> {
        Err(Error::unsupported(format!(
            "column `{path}`: {what} has no Iceberg v2 type{hint}"
        )))
    };
    if node.converted_type == Some(crate::core::format::ConvertedType::Interval) {
        return unsupported("INTERVAL", "");
    }
    let logical = node.effective_logical_type();
    Ok(match (physical, logical) {
        (_, Some(LogicalType::Decimal { scale, precision })) => {
            if !(1..=38).contains(&precision) || scale < 0 || scale > precision {
                return unsupported(&format!("DECIMAL({precision}, {scale})"), "");
            }
            PrimitiveType::Decimal {
                precision: precision as u32,
                scale: scale as u32,
            }
        }
        (Type::Boolean, _) => PrimitiveType::Boolean,
        (Type::Int32, Some(LogicalType::Date)) => PrimitiveType::Date,
        (
            Type::Int32 | Type::Int64,
            Some(LogicalType::Integer {
                bit_width,
                is_signed,
            }),
        ) => match (bit_width, is_signed) {
            (8 | 16 | 32, true) | (8 | 16, false) if physical == Type::Int32 => PrimitiveType::Int,
            (32, false) if physical == Type::Int32 => PrimitiveType::Long,
            (64, true) if physical == Type::Int64 => PrimitiveType::Long,
            (64, false) => {
                return unsupported(
                    "INTEGER(64, unsigned)",
                    " (write it as a signed 64-bit integer)",
                )
            }
            _ => return unsupported(&format!("INTEGER({bit_width}, {is_signed})"), ""),
        },
        (
            Type::Int64,
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc,
                unit: TimeUnit::Millis | TimeUnit::Micros,
            }),
        ) => {
            if is_adjusted_to_utc {
                PrimitiveType::Timestamptz
            } else {
                PrimitiveType::Timestamp
            }
        }
        (Type::Int64, Some(LogicalType::Timestamp { .. })) => {
            return unsupported(
                "TIMESTAMP(NANOS)",
                " (nanosecond timestamps are Iceberg v3: write microseconds)",
            )
        }
        (
            Type::Int64,
            Some(LogicalType::Time {
                unit: TimeUnit::Micros,
                ..
            }),
        ) => PrimitiveType::Time,
        (Type::Int32 | Type::Int64, Some(LogicalType::Time { unit, .. })) => {
            return unsupported(
                &format!("TIME({})", unit_name(unit)),
                " (Iceberg's `time` is TIME(MICROS))",
            )
        }
        (Type::Int32, None) => PrimitiveType::Int,
        (Type::Int64, None) => PrimitiveType::Long,
        (Type::Int96, _) => return unsupported("INT96", " (write TIMESTAMP(MICROS) in an INT64)"),
        (Type::Float, None) => PrimitiveType::Float,
        (Type::Double, None) => PrimitiveType::Double,
        (Type::ByteArray, Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)) => {
            PrimitiveType::String
        }
        (Type::ByteArray, None | Some(LogicalType::Bson)) => PrimitiveType::Binary,
        (Type::FixedLenByteArray, Some(LogicalType::Uuid)) if node.type_length() == 16 => {
            PrimitiveType::Uuid
        }
        (Type::FixedLenByteArray, None) if node.type_length() > 0 => {
            PrimitiveType::Fixed(node.type_length() as u32)
        }
        (_, Some(other)) => return unsupported(&format!("{physical:?} {other:?}"), ""),
        (_, None) => return unsupported(&format!("{physical:?}"), ""),
    })
}

fn unit_name(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Millis => "MILLIS",
        TimeUnit::Micros => "MICROS",
        TimeUnit::Nanos => "NANOS",
        TimeUnit::Unknown(_) => "unknown unit",
    }
}

#[cfg(test)]
mod tests;

//! The derived schema agrees with what serde actually writes: sample values are serialized
//! into a record of serde's calls, and the record is checked against the schema the way the
//! shredder will walk it (field names and order, optional fields, lists, maps, variants).

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime};

use parquet_serde::core::schema::{LogicalType, PhysicalType as Type};
use parquet_serde::core::schema::{NodeKind, ParquetSchema, Repetition, SchemaNode};
use serde::ser::{self, Serialize};

// ---------------------------------------------------------------------------------------------
// A serializer that records serde's calls

#[derive(Debug, Clone)]
enum V {
    Bool,
    Int,
    Float,
    Str(String),
    Bytes,
    None,
    Some(Box<V>),
    Unit,
    UnitVariant(&'static str),
    NewtypeVariant(&'static str, Box<V>),
    Seq(Vec<V>),
    TupleVariant(&'static str, Vec<V>),
    Map(Vec<(V, V)>),
    /// Struct fields; `None` for `skip_field`.
    Struct(&'static str, Vec<(&'static str, Option<V>)>),
    StructVariant(&'static str, Vec<(&'static str, Option<V>)>),
}

#[derive(Debug)]
struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

struct Rec;

fn rec<T: Serialize + ?Sized>(v: &T) -> V {
    v.serialize(Rec).expect("serializes")
}

struct SeqRec(Vec<V>, Option<&'static str>);
struct MapRec(Vec<(V, V)>, Option<V>);
struct StructRec(&'static str, Vec<(&'static str, Option<V>)>, bool);

impl ser::Serializer for Rec {
    type Ok = V;
    type Error = Error;
    type SerializeSeq = SeqRec;
    type SerializeTuple = SeqRec;
    type SerializeTupleStruct = SeqRec;
    type SerializeTupleVariant = SeqRec;
    type SerializeMap = MapRec;
    type SerializeStruct = StructRec;
    type SerializeStructVariant = StructRec;

    fn is_human_readable(&self) -> bool {
        false
    }
    fn serialize_bool(self, _: bool) -> Result<V, Error> {
        Ok(V::Bool)
    }
    fn serialize_i8(self, _: i8) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_i16(self, _: i16) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_i32(self, _: i32) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_i64(self, _: i64) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_i128(self, _: i128) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_u8(self, _: u8) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_u16(self, _: u16) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_u32(self, _: u32) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_u64(self, _: u64) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_u128(self, _: u128) -> Result<V, Error> {
        Ok(V::Int)
    }
    fn serialize_f32(self, _: f32) -> Result<V, Error> {
        Ok(V::Float)
    }
    fn serialize_f64(self, _: f64) -> Result<V, Error> {
        Ok(V::Float)
    }
    fn serialize_char(self, c: char) -> Result<V, Error> {
        Ok(V::Str(c.to_string()))
    }
    fn serialize_str(self, s: &str) -> Result<V, Error> {
        Ok(V::Str(s.to_owned()))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<V, Error> {
        Ok(V::Bytes)
    }
    fn serialize_none(self) -> Result<V, Error> {
        Ok(V::None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<V, Error> {
        Ok(V::Some(Box::new(rec(v))))
    }
    fn serialize_unit(self) -> Result<V, Error> {
        Ok(V::Unit)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<V, Error> {
        Ok(V::Unit)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<V, Error> {
        Ok(V::UnitVariant(v))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<V, Error> {
        Ok(rec(v))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<V, Error> {
        Ok(V::NewtypeVariant(variant, Box::new(rec(v))))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<SeqRec, Error> {
        Ok(SeqRec(Vec::new(), None))
    }
    fn serialize_tuple(self, _: usize) -> Result<SeqRec, Error> {
        Ok(SeqRec(Vec::new(), None))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<SeqRec, Error> {
        Ok(SeqRec(Vec::new(), None))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<SeqRec, Error> {
        Ok(SeqRec(Vec::new(), Some(variant)))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapRec, Error> {
        Ok(MapRec(Vec::new(), None))
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<StructRec, Error> {
        Ok(StructRec(name, Vec::new(), false))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<StructRec, Error> {
        Ok(StructRec(variant, Vec::new(), true))
    }
}

impl SeqRec {
    fn done(self) -> V {
        match self.1 {
            Some(variant) => V::TupleVariant(variant, self.0),
            None => V::Seq(self.0),
        }
    }
}

macro_rules! seq_impl {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for SeqRec {
            type Ok = V;
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                self.0.push(rec(v));
                Ok(())
            }
            fn end(self) -> Result<V, Error> {
                Ok(self.done())
            }
        }
    )*};
}

seq_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for MapRec {
    type Ok = V;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Error> {
        self.1 = Some(rec(k));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = self
            .1
            .take()
            .ok_or_else(|| Error("value without key".into()))?;
        self.0.push((key, rec(v)));
        Ok(())
    }
    fn end(self) -> Result<V, Error> {
        Ok(V::Map(self.0))
    }
}

macro_rules! struct_impl {
    ($($tr:ident),*) => {$(
        impl ser::$tr for StructRec {
            type Ok = V;
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Error> {
                self.1.push((key, Some(rec(v))));
                Ok(())
            }
            fn skip_field(&mut self, key: &'static str) -> Result<(), Error> {
                self.1.push((key, None));
                Ok(())
            }
            fn end(self) -> Result<V, Error> {
                Ok(if self.2 {
                    V::StructVariant(self.0, self.1)
                } else {
                    V::Struct(self.0, self.1)
                })
            }
        }
    )*};
}

struct_impl!(SerializeStruct, SerializeStructVariant);

// ---------------------------------------------------------------------------------------------
// Checking a record against a schema node, as the shredder walks it

fn fields(node: &SchemaNode) -> &[SchemaNode] {
    match &node.kind {
        NodeKind::Group { fields } => fields,
        NodeKind::Primitive { .. } => &[],
    }
}

fn physical(node: &SchemaNode) -> Option<Type> {
    match node.kind {
        NodeKind::Primitive { physical_type, .. } => Some(physical_type),
        NodeKind::Group { .. } => None,
    }
}

fn required(node: &SchemaNode) -> SchemaNode {
    let mut n = node.clone();
    n.repetition = Repetition::Required;
    n
}

fn check(node: &SchemaNode, v: &V, at: &str) -> Result<(), String> {
    let at = format!("{at}/{}", node.name);
    let err = |what: &str| Err(format!("{at}: {what}: {v:?} vs {node:?}"));
    match v {
        V::None if node.repetition == Repetition::Optional => return Ok(()),
        V::None => return err("null for a required node"),
        V::Some(inner) if node.repetition == Repetition::Optional => {
            return check(&required(node), inner, &at)
        }
        V::Some(_) => return err("Some for a required node"),
        _ => {}
    }
    let logical = node.logical_type.as_ref();
    match (physical(node), logical) {
        (Some(ty), _) => {
            let ok = match v {
                V::Bool | V::Unit => ty == Type::Boolean,
                V::Int => matches!(ty, Type::Int32 | Type::Int64 | Type::FixedLenByteArray),
                V::Float => matches!(ty, Type::Float | Type::Double),
                V::Str(_) => matches!(ty, Type::ByteArray | Type::FixedLenByteArray),
                V::Bytes => matches!(ty, Type::ByteArray | Type::FixedLenByteArray),
                // A unit enum's leaf: STRING by default, ENUM with `#[parquet(enum)]`.
                V::UnitVariant(_) => {
                    matches!(logical, Some(LogicalType::String | LogicalType::Enum))
                }
                // A byte array serialized as a sequence or tuple of u8.
                V::Seq(items) => {
                    matches!(ty, Type::ByteArray | Type::FixedLenByteArray)
                        && items.iter().all(|i| matches!(i, V::Int))
                }
                // SystemTime at a TIMESTAMP leaf.
                V::Struct("SystemTime", _) => {
                    matches!(logical, Some(LogicalType::Timestamp { .. }))
                }
                _ => false,
            };
            if ok {
                Ok(())
            } else {
                err("value does not fit the leaf")
            }
        }
        (None, Some(LogicalType::List)) => {
            let V::Seq(items) = v else {
                return err("a LIST needs a sequence");
            };
            let element = &fields(&fields(node)[0])[0];
            items.iter().try_for_each(|i| check(element, i, &at))
        }
        (None, Some(LogicalType::Map)) => {
            let V::Map(entries) = v else {
                return err("a MAP needs a map");
            };
            let kv = fields(&fields(node)[0]);
            entries.iter().try_for_each(|(k, val)| {
                check(&kv[0], k, &at)?;
                check(&kv[1], val, &at)
            })
        }
        (None, _) => check_group(node, v, &at),
    }
}

fn check_group(node: &SchemaNode, v: &V, at: &str) -> Result<(), String> {
    let fs = fields(node);
    let err = |what: String| Err(format!("{at}: {what}"));
    match v {
        V::Struct(_, entries) => {
            let names: Vec<&str> = entries.iter().map(|(k, _)| *k).collect();
            let schema: Vec<&str> = fs.iter().map(|f| f.name.as_str()).collect();
            if names != schema {
                return err(format!(
                    "serde fields {names:?} != schema fields {schema:?}"
                ));
            }
            for ((_, val), f) in entries.iter().zip(fs) {
                match val {
                    Some(val) => check(f, val, at)?,
                    None if f.repetition == Repetition::Optional => {}
                    None => return err(format!("skipped field {} is required", f.name)),
                }
            }
            Ok(())
        }
        // A struct with flattened fields: a map keyed by name, in schema order.
        V::Map(entries) => {
            let mut next = 0;
            for (k, val) in entries {
                let V::Str(key) = k else {
                    return err("flattened map key is not a string".into());
                };
                let Some(pos) = fs[next..].iter().position(|f| &f.name == key) else {
                    return err(format!("key {key} not found in order"));
                };
                for skipped in &fs[next..next + pos] {
                    if skipped.repetition != Repetition::Optional {
                        return err(format!("missing required {}", skipped.name));
                    }
                }
                check(&fs[next + pos], val, at)?;
                next += pos + 1;
            }
            Ok(())
        }
        V::Seq(items) => {
            if items.len() != fs.len() {
                return err(format!(
                    "{} tuple items for {} fields",
                    items.len(),
                    fs.len()
                ));
            }
            items.iter().zip(fs).try_for_each(|(i, f)| check(f, i, at))
        }
        V::UnitVariant(name) => variant(fs, name, None, at),
        V::NewtypeVariant(name, inner) => variant(fs, name, Some(inner), at),
        V::TupleVariant(name, items) => variant(fs, name, Some(&V::Seq(items.clone())), at),
        V::StructVariant(name, entries) => {
            variant(fs, name, Some(&V::Struct(name, entries.clone())), at)
        }
        other => err(format!("{other:?} does not fit a group")),
    }
}

fn variant(fs: &[SchemaNode], name: &str, content: Option<&V>, at: &str) -> Result<(), String> {
    let Some(f) = fs.iter().find(|f| f.name == name) else {
        return Err(format!("{at}: no field for variant {name}"));
    };
    if f.repetition != Repetition::Optional {
        return Err(format!("{at}: variant field {name} is not optional"));
    }
    check(&required(f), content.unwrap_or(&V::Unit), at)
}

fn agrees<T: Serialize + ParquetSchema>(value: &T) {
    let root = T::parquet_root();
    let recorded = rec(value);
    let wrapped = !fields(&root).is_empty()
        && fields(&root).len() == 1
        && fields(&root)[0].name == "value"
        && !matches!(recorded, V::Struct(..) | V::Map(_));
    let result = if wrapped {
        check(&fields(&root)[0], &recorded, "")
    } else {
        check_group(&root, &recorded, "")
    };
    if let Err(e) = result {
        panic!("{e}\nrecord: {recorded:#?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Samples

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
struct LogRecord {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: Level,
    target: String,
    user_id: Option<u64>,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    http: Option<Http>,
    spans: Vec<SpanRec>,
}

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Level {
    Info,
    WarnLoud,
}

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
#[serde(rename_all = "camelCase")]
struct Http {
    method_name: String,
    status_code: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    latency_ms: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    redirects: Vec<String>,
}

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
struct SpanRec {
    name: String,
    at: SystemTime,
    took: Duration,
    #[serde(with = "serde_bytes")]
    trace: Vec<u8>,
    id: [u8; 16],
    raw: Vec<u8>,
    pair: (u8, char),
}

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
#[serde(rename_all = "kebab-case")]
enum Event {
    Started,
    Progress(f32),
    Moved(i32, i32),
    #[serde(rename_all = "UPPERCASE")]
    Failed {
        error_code: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    #[serde(skip)]
    Internal,
}

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
struct Envelope {
    events: Vec<Event>,
    by_user: HashMap<String, Vec<Option<Event>>>,
    #[serde(flatten)]
    meta: Meta,
    last: Option<Event>,
}

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
struct Meta {
    #[serde(rename = "source-name")]
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<String>,
    seq: u64,
}

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
struct Tuple3(u8, #[serde(skip)] (), String, Option<Level>);

#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
struct Newtype(Vec<Tuple3>);

#[test]
fn log_record_agrees() {
    let rec = LogRecord {
        ts: 1,
        level: Level::WarnLoud,
        target: "t".into(),
        user_id: Some(3),
        tags: vec!["a".into(), "b".into()],
        attrs: [("k".to_string(), "v".to_string())].into(),
        http: Some(Http {
            method_name: "GET".into(),
            status_code: 200,
            latency_ms: None,
            redirects: vec![],
        }),
        spans: vec![SpanRec {
            name: "s".into(),
            at: SystemTime::now(),
            took: Duration::from_millis(5),
            trace: vec![1, 2, 3],
            id: [7; 16],
            raw: vec![9],
            pair: (1, 'x'),
        }],
    };
    agrees(&rec);
    agrees(&LogRecord {
        user_id: None,
        http: Some(Http {
            method_name: "PUT".into(),
            status_code: 201,
            latency_ms: Some(1.5),
            redirects: vec!["/x".into()],
        }),
        spans: vec![],
        ..rec
    });
}

#[test]
fn enums_and_flatten_agree() {
    let events = vec![
        Event::Started,
        Event::Progress(0.5),
        Event::Moved(1, -1),
        Event::Failed {
            error_code: 7,
            detail: None,
        },
        Event::Failed {
            error_code: 8,
            detail: Some("x".into()),
        },
    ];
    let env = Envelope {
        by_user: [(
            "u".to_string(),
            vec![None, Some(Event::Moved(0, 0)), Some(Event::Started)],
        )]
        .into(),
        events,
        meta: Meta {
            source: "src".into(),
            host: None,
            seq: 9,
        },
        last: Some(Event::Progress(1.0)),
    };
    agrees(&env);
    agrees(&Envelope {
        meta: Meta {
            host: Some("h".into()),
            ..env.meta
        },
        last: None,
        ..env
    });
}

#[test]
fn tuples_newtypes_and_roots_agree() {
    agrees(&Tuple3(1, (), "a".into(), Some(Level::Info)));
    agrees(&Newtype(vec![Tuple3(2, (), "b".into(), None)]));
    agrees(&vec![1u32, 2, 3]);
    agrees(&Some(5i64));
    agrees(&(1u8, "x".to_string(), vec![Level::Info]));
}

/// The checker itself catches a schema that does not match serde's field names.
#[derive(serde::Serialize)]
struct Mismatch {
    a: u8,
}

impl ParquetSchema for Mismatch {
    fn parquet_node(
        name: &str,
        _attrs: &parquet_serde::core::schema::typed::FieldAttrs,
    ) -> SchemaNode {
        let mut node = <(u8,)>::parquet_node(name, &Default::default());
        if let NodeKind::Group { fields } = &mut node.kind {
            fields[0].name = "b".into();
        }
        node
    }
}

#[test]
#[should_panic(expected = "serde fields [\"a\"] != schema fields [\"b\"]")]
fn checker_detects_mismatch() {
    agrees(&Mismatch { a: 1 });
}

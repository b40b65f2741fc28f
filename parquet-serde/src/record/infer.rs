//! Schema inference from sample rows ([`SchemaInferrer`]).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::typed::variant_node;
use crate::core::schema::{Repetition, Schema, SchemaNode};
use crate::core::values::text::parse_timestamp;
use crate::error::{Error, Result};

/// What inference does with integers beyond the range of `i64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum BigIntegers {
    /// The column becomes `double` (the default, as JSON readers do).
    #[default]
    Double,
    /// Inference fails with an error naming the field.
    Error,
}

/// Options of schema inference ([`SchemaInferrer`]).
#[derive(Debug, Clone, Default)]
pub struct InferOptions {
    big_integers: BigIntegers,
    timestamps: bool,
    nullable: bool,
    mixed_as_json: bool,
}

impl InferOptions {
    /// Whether an integer beyond `i64` is an error naming its field (`true`) instead of
    /// making its column `double` (`false`, the default, as JSON readers do).
    pub fn big_integers_error(mut self, error: bool) -> Self {
        self.big_integers = if error {
            BigIntegers::Error
        } else {
            BigIntegers::Double
        };
        self
    }

    /// Whether strings that are all RFC 3339 / ISO 8601 date-times (`2026-11-24T10:00:00Z`,
    /// with an offset or none) make a `TIMESTAMP(MICROS, true)` column (default: no, they
    /// stay strings).
    pub fn timestamps(mut self, timestamps: bool) -> Self {
        self.timestamps = timestamps;
        self
    }

    /// Whether values of mixed kinds (and objects with no field, and fields only ever
    /// `null`) make a `binary (JSON)` column holding their JSON text, for readers without
    /// VARIANT (default: no, a VARIANT column holding them typed).
    pub fn mixed_as_json(mut self, json: bool) -> Self {
        self.mixed_as_json = json;
        self
    }

    /// Whether every field and list element is `optional`, even when the sample always has
    /// it (default: no). Rows beyond the sample may lack what every sample row had.
    pub fn nullable(mut self, nullable: bool) -> Self {
        self.nullable = nullable;
        self
    }
}

/// The type seen so far at one place of the rows.
#[derive(Debug, Clone, PartialEq)]
enum Ty {
    /// Nothing but nulls (or nothing) yet.
    Unknown,
    Bool,
    Int,
    /// Integers beyond `i64` (with or without others).
    BigInt,
    Double,
    /// Strings; `timestamp` while every one is a date-time (only tracked when asked).
    Str {
        timestamp: bool,
    },
    List(Box<Slot>),
    /// An object's fields in the order first seen, and how many objects were seen.
    Object {
        fields: Vec<(String, Slot)>,
        count: u64,
    },
    /// Values of different kinds.
    Json,
}

/// One place of the rows: its type, whether it was null, and how many values it had
/// (present, null or not: fewer than its parent object's count means absent in some).
#[derive(Debug, Clone, PartialEq)]
struct Slot {
    ty: Ty,
    null: bool,
    present: u64,
}

impl Slot {
    fn new() -> Self {
        Slot {
            ty: Ty::Unknown,
            null: false,
            present: 0,
        }
    }
}

/// Infers a schema from sample rows, one at a time: JSON objects (as text or
/// `serde_json::Value`s) widened into one [`Schema`] that every sample row fits. The
/// schema's root is a message named `schema` holding the union of their fields.
///
/// | seen in the sample | column |
/// |---|---|
/// | `true` / `false` | `boolean` |
/// | integers within `i64` | `int64` |
/// | integers and fractions mixed, or fractions | `double` |
/// | integers beyond `i64` | `double`, or an error naming the field with [`InferOptions::big_integers_error`] |
/// | strings | `binary (STRING)`; with [`InferOptions::timestamps`], strings that are all RFC 3339 date-times give `int64 (TIMESTAMP(MICROS, true))` |
/// | objects | a group of the fields of all of them, in the order first seen |
/// | arrays | a 3-level LIST of the widened element |
/// | values of different kinds (a number and a string, an object and an array, ...), objects with no field, only nulls | a `VARIANT` group (unshredded): each value as a Variant, numbers, strings, objects and arrays kept typed; with [`InferOptions::mixed_as_json`], `binary (JSON)`: the value's JSON text |
///
/// A field is `optional` when it is `null` or absent in some sample row (or always, with
/// [`InferOptions::nullable`]), else `required`; a list element is `optional` when some
/// element is `null`.
///
/// ```
/// use parquet_serde::record::{InferOptions, SchemaInferrer};
///
/// let mut inferrer = SchemaInferrer::new(InferOptions::default());
/// inferrer.add_json_slice(br#"{"id": 1, "score": 2, "tags": ["a"], "http": {"status": 200}}"#)?;
/// inferrer.add_json_slice(br#"{"id": 2, "score": 2.5, "tags": [], "extra": null}"#)?;
/// let schema = inferrer.schema()?;
/// assert_eq!(
///     schema.to_string(),
///     "message schema {
///   required int64 id;
///   required double score;
///   required group tags (LIST) {
///     repeated group list {
///       required binary element (STRING);
///     }
///   }
///   optional group http {
///     required int64 status;
///   }
///   optional group extra (VARIANT(1)) {
///     required binary metadata;
///     required binary value;
///   }
/// }"
/// );
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SchemaInferrer {
    root: Slot,
    options: InferOptions,
}

impl SchemaInferrer {
    /// An inferrer with no rows yet.
    pub fn new(options: InferOptions) -> Self {
        SchemaInferrer {
            root: Slot::new(),
            options,
        }
    }

    /// Sets [`InferOptions::nullable`] (which only [`schema`](Self::schema) reads): for
    /// example once it is known whether the rows added were all the rows.
    pub fn set_nullable(&mut self, nullable: bool) {
        self.options.nullable = nullable;
    }

    /// Rows added so far.
    pub fn rows(&self) -> u64 {
        self.root.present
    }

    /// Adds a row given as the text of a JSON object. Invalid JSON, a row that is not an
    /// object, or an integer beyond `i64` under [`InferOptions::big_integers_error`] is an
    /// [`ErrorKind::Data`](crate::ErrorKind::Data) error (the inferrer is unchanged then).
    pub fn add_json_slice(&mut self, json: &[u8]) -> Result<()> {
        let mut de = serde_json::Deserializer::from_slice(json);
        let root = self.widened(&mut de)?;
        de.end()
            .map_err(|e| Error::data(format!("invalid JSON: {e}")).with_source(e))?;
        self.root = root;
        Ok(())
    }

    /// Adds a row given as a `serde_json::Value` object (its fields come in the map's
    /// order: by name unless serde_json keeps insertion order).
    ///
    /// ```
    /// use parquet_serde::record::{InferOptions, SchemaInferrer};
    /// let mut inferrer = SchemaInferrer::new(InferOptions::default());
    /// inferrer.add(&serde_json::json!({"a": 1, "b": "x"}))?;
    /// inferrer.add(&serde_json::json!({"a": 18446744073709551615u64}))?;
    /// let schema = inferrer.schema()?;
    /// assert_eq!(schema.columns()[0].physical_type, parquet_serde::core::schema::PhysicalType::Double);
    /// assert_eq!(schema.root().fields()[1].repetition, parquet_serde::core::schema::Repetition::Optional);
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn add(&mut self, row: &serde_json::Value) -> Result<()> {
        self.root = self.widened(row)?;
        Ok(())
    }

    /// The root widened by the row `de` gives (a failed row leaves the inferrer as it was).
    fn widened<'de, D: Deserializer<'de>>(&self, de: D) -> Result<Slot>
    where
        D::Error: std::error::Error + Send + Sync + 'static,
    {
        let mut root = self.root.clone();
        let mut cx = Cx {
            options: &self.options,
            path: Vec::new(),
            error: None,
        };
        let result = SlotSeed {
            cx: &mut cx,
            slot: &mut root,
            top: true,
        }
        .deserialize(de);
        match (result, cx.error) {
            (Ok(()), _) => Ok(root),
            (Err(_), Some(e)) => Err(e),
            (Err(e), None) => Err(Error::data(format!("invalid JSON: {e}")).with_source(e)),
        }
    }

    /// The schema of the rows added so far. Fails when no row was added.
    pub fn schema(&self) -> Result<Schema> {
        let Ty::Object { fields, count } = &self.root.ty else {
            return Err(Error::invalid_argument("no rows to infer a schema from"));
        };
        if fields.is_empty() {
            return Err(Error::schema(
                "the sample rows have no fields: a Parquet schema needs at least one",
            ));
        }
        let nodes = fields
            .iter()
            .map(|(name, slot)| self.node(name, slot, *count))
            .collect();
        Schema::new(SchemaNode::group("schema", Repetition::Required, nodes))
            .map_err(|e| e.context("the inferred schema"))
    }

    /// The node of `slot`, a field of objects seen `parent` times.
    fn node(&self, name: &str, slot: &Slot, parent: u64) -> SchemaNode {
        let optional = self.options.nullable || slot.null || slot.present < parent;
        let repetition = if optional {
            Repetition::Optional
        } else {
            Repetition::Required
        };
        let leaf = |t: Type| SchemaNode::primitive(name, repetition, t);
        match &slot.ty {
            Ty::Bool => leaf(Type::Boolean),
            Ty::Int => leaf(Type::Int64),
            Ty::BigInt | Ty::Double => leaf(Type::Double),
            Ty::Str { timestamp: true } => {
                leaf(Type::Int64).with_logical_type(LogicalType::Timestamp {
                    is_adjusted_to_utc: true,
                    unit: TimeUnit::Micros,
                })
            }
            Ty::Str { timestamp: false } => {
                leaf(Type::ByteArray).with_logical_type(LogicalType::String)
            }
            Ty::List(element) => {
                let element = self.node("element", element, element.present);
                SchemaNode::list(name, repetition, element)
            }
            Ty::Object { fields, count } if !fields.is_empty() => {
                let nodes = fields
                    .iter()
                    .map(|(n, s)| self.node(n, s, *count))
                    .collect();
                SchemaNode::group(name, repetition, nodes)
            }
            Ty::Unknown | Ty::Object { .. } | Ty::Json if self.options.mixed_as_json => {
                leaf(Type::ByteArray).with_logical_type(LogicalType::Json)
            }
            Ty::Unknown | Ty::Object { .. } | Ty::Json => {
                let mut node = variant_node(name);
                node.repetition = repetition;
                node
            }
        }
    }
}

/// State shared by the seeds of one row.
struct Cx<'o> {
    options: &'o InferOptions,
    /// Field names from the row to the value being read (`element` for list items).
    path: Vec<String>,
    error: Option<Error>,
}

impl Cx<'_> {
    fn fail<E: de::Error>(&mut self, e: Error) -> E {
        let message = e.to_string();
        self.error.get_or_insert(e);
        E::custom(message)
    }

    fn path(&self) -> String {
        self.path.join(".")
    }
}

/// Widens `slot` by the value the deserializer gives.
struct SlotSeed<'a, 'o> {
    cx: &'a mut Cx<'o>,
    slot: &'a mut Slot,
    /// The row itself (which must be an object).
    top: bool,
}

impl SlotSeed<'_, '_> {
    /// Widens a scalar slot to `ty`: the same or compatible numbers widen, anything else
    /// becomes JSON.
    fn scalar(self, ty: Ty) {
        self.slot.present += 1;
        let t = &mut self.slot.ty;
        *t = match (std::mem::replace(t, Ty::Json), ty) {
            (Ty::Unknown, new) => new,
            (Ty::Json, _) => Ty::Json,
            (Ty::Str { timestamp: a }, Ty::Str { timestamp: b }) => Ty::Str { timestamp: a && b },
            (old, new) if old == new => old,
            (Ty::Int, Ty::Double) | (Ty::Double, Ty::Int) => Ty::Double,
            (Ty::BigInt, Ty::Int | Ty::Double) | (Ty::Int | Ty::Double, Ty::BigInt) => Ty::BigInt,
            _ => Ty::Json,
        };
    }

    fn not_object<E: de::Error>(self, what: &str) -> std::result::Result<(), E> {
        if self.top {
            let e = Error::data(format!("a row must be a JSON object, not {what}"));
            return Err(self.cx.fail(e));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for SlotSeed<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SlotSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> std::result::Result<(), E> {
        if self.top {
            return self.not_object("a boolean");
        }
        self.scalar(Ty::Bool);
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> std::result::Result<(), E> {
        if self.top {
            return self.not_object("a number");
        }
        self.scalar(Ty::Int);
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<(), E> {
        if self.top {
            return self.not_object("a number");
        }
        if i64::try_from(v).is_ok() {
            self.scalar(Ty::Int);
            return Ok(());
        }
        self.big(&v.to_string())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<(), E> {
        if self.top {
            return self.not_object("a number");
        }
        // serde_json gives integers beyond u64 as floats: an integral float of that size
        // is such an integer (written without a fraction or not, it does not fit i64).
        if v.fract() == 0.0 && v.abs() >= 9.223_372_036_854_776e18 {
            return self.big(&format!("{v}"));
        }
        self.scalar(Ty::Double);
        Ok(())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<(), E> {
        if self.top {
            return self.not_object("a string");
        }
        let timestamp = self.cx.options.timestamps && parse_timestamp(v).is_some();
        self.scalar(Ty::Str { timestamp });
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<(), E> {
        if self.top {
            return self.not_object("null");
        }
        self.slot.present += 1;
        self.slot.null = true;
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> std::result::Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> std::result::Result<(), D::Error> {
        de.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        if self.top {
            return self.not_object("an array");
        }
        self.slot.present += 1;
        let mut element = match std::mem::replace(&mut self.slot.ty, Ty::Json) {
            Ty::Unknown => Slot::new(),
            Ty::List(element) => *element,
            _ => {
                // Not only arrays here: the field is JSON; its items need no look.
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                return Ok(());
            }
        };
        self.cx.path.push("element".to_string());
        while seq
            .next_element_seed(SlotSeed {
                cx: &mut *self.cx,
                slot: &mut element,
                top: false,
            })?
            .is_some()
        {}
        self.cx.path.pop();
        self.slot.ty = Ty::List(Box::new(element));
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        self.slot.present += 1;
        let (mut fields, count) = match std::mem::replace(&mut self.slot.ty, Ty::Json) {
            Ty::Unknown => (Vec::new(), 0),
            Ty::Object { fields, count } => (fields, count),
            _ => {
                while map
                    .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
                    .is_some()
                {}
                return Ok(());
            }
        };
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let i = match fields.iter().position(|(n, _)| *n == *key) {
                Some(i) => i,
                None => {
                    fields.push((key.clone().into_owned(), Slot::new()));
                    fields.len() - 1
                }
            };
            self.cx.path.push(key.into_owned());
            map.next_value_seed(SlotSeed {
                cx: &mut *self.cx,
                slot: &mut fields[i].1,
                top: false,
            })?;
            self.cx.path.pop();
        }
        self.slot.ty = Ty::Object {
            fields,
            count: count + 1,
        };
        Ok(())
    }
}

impl SlotSeed<'_, '_> {
    /// An integer beyond `i64` (`text`).
    fn big<E: de::Error>(self, text: &str) -> std::result::Result<(), E> {
        match self.cx.options.big_integers {
            BigIntegers::Double => {
                self.scalar(Ty::BigInt);
                Ok(())
            }
            BigIntegers::Error => {
                let e = Error::data(format!(
                    "the integer {text} does not fit a signed 64-bit integer"
                ))
                .with_column(self.cx.path());
                Err(self.cx.fail(e))
            }
        }
    }
}

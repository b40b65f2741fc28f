//! [`Value`]: one field of a dynamic row, with its serde (`value_serde.rs`, and the private
//! tokens by which the row assembler answers it in `tokens.rs`) and its JSON form
//! (`json.rs`). Public as `record::Value`, `record::write_json`, `record::write_json_to`; it
//! sits below `ser/` and `de/`, which special-case it, while `record/`'s readers, writers and
//! inference sit above them.

mod json;
pub(crate) mod tokens;
mod value_serde;

use crate::core::format::TimeUnit;
use crate::core::values::Int96;
use crate::variant::Variant;

/// A value of any Parquet type, as read without a Rust type: primitives keep the
/// information their logical type gives (a TIMESTAMP knows its unit, a DECIMAL its scale);
/// groups, lists and maps nest.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Null (an absent optional value).
    Null,
    /// BOOLEAN.
    Bool(bool),
    /// Signed integers (INT32, INT64, INTEGER(signed)).
    Int(i64),
    /// Unsigned integers (INTEGER(unsigned) / UINT_*).
    UInt(u64),
    /// FLOAT.
    Float(f32),
    /// DOUBLE.
    Double(f64),
    /// FLOAT16 (as f32).
    Float16(f32),
    /// STRING, ENUM and JSON (UTF-8; invalid sequences replaced).
    String(String),
    /// Other BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
    Bytes(Vec<u8>),
    /// DATE: days since 1970-01-01.
    Date(i32),
    /// TIME: time of day in `unit`s.
    Time {
        /// Units since midnight.
        value: i64,
        /// Unit.
        unit: TimeUnit,
    },
    /// TIMESTAMP: `unit`s since the epoch.
    Timestamp {
        /// Units since 1970-01-01T00:00:00.
        value: i64,
        /// Unit.
        unit: TimeUnit,
        /// Adjusted to UTC (an instant) or local.
        utc: bool,
    },
    /// INT96 legacy timestamp.
    Int96(Int96),
    /// DECIMAL: unscaled big-endian two's complement bytes and scale.
    Decimal {
        /// Unscaled value, big-endian two's complement.
        unscaled: Vec<u8>,
        /// Digits after the point.
        scale: i32,
    },
    /// UUID.
    Uuid([u8; 16]),
    /// LIST, or a bare repeated field.
    List(Vec<Value>),
    /// MAP: key/value pairs in file order.
    Map(Vec<(Value, Value)>),
    /// A group: named fields in schema order.
    Group(Vec<(String, Value)>),
    /// A VARIANT group, reconstructed from its `metadata`, `value` and shredded
    /// `typed_value` columns.
    Variant(Variant),
}

impl Value {
    /// Whether this is `Null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The field `name` of a group.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Group(fields) => fields.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

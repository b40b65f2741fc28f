//! Constant fields: values every row of a file has for a top-level field the file does not
//! store (a dataset's partition values, `date=2026-11-24` in the file's folder). They are
//! virtual leaves of the compiled schema: a struct field of the row type named like one
//! reads it as if it were a required column of that type (a DATE reads into `i32` days,
//! chrono's `NaiveDate` or a `String`), and [`Value`](crate::record::Value) rows get it as
//! a last field. Nothing is decoded for them.

use std::cell::Cell;

use crate::core::format::Type;
use crate::core::schema::Repetition;

use super::cursor::Prim;
use super::leaf::PrimDe;
use super::tree::{Conv, Kind, Node};

/// A constant's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ConstValue {
    /// A DATE: days since 1970-01-01.
    Date(i32),
    /// A signed integer (INT64).
    Int(i64),
    /// UTF-8 text (STRING).
    Str(String),
}

/// A named constant field, as the virtual leaf it reads as.
#[derive(Debug, Clone)]
pub(crate) struct Constant {
    /// The leaf node it reads as (required, top level, no column behind it).
    pub node: Node,
    /// The value.
    pub value: ConstValue,
}

impl Constant {
    /// The constant field `name` holding `value`.
    pub fn new(name: &str, value: ConstValue) -> Constant {
        let (physical, conv) = match value {
            ConstValue::Date(_) => (Type::Int32, Conv::Date),
            ConstValue::Int(_) => (Type::Int64, Conv::Plain),
            ConstValue::Str(_) => (Type::ByteArray, Conv::String),
        };
        Constant {
            node: Node {
                name: name.to_string(),
                path: name.to_string(),
                repetition: Repetition::Required,
                def: 0,
                rep: 0,
                kind: Kind::Leaf {
                    col: usize::MAX,
                    physical,
                    conv,
                    width: 0,
                    bits: 0,
                },
                leaves: 0..0,
                decide: None,
            },
            value,
        }
    }

    /// The field's name.
    pub fn name(&self) -> &str {
        &self.node.name
    }

    /// A deserializer of the value (`wanted` is set when a `String` is asked for).
    pub fn de<'a>(&'a self, probing: bool, wanted: &'a Cell<bool>) -> PrimDe<'a> {
        let (prim, conv) = match &self.value {
            ConstValue::Date(d) => (Prim::I32(*d), Conv::Date),
            ConstValue::Int(i) => (Prim::I64(*i), Conv::Plain),
            ConstValue::Str(s) => (Prim::Str(s), Conv::String),
        };
        PrimDe::constant(prim, conv, &self.node, probing, wanted)
    }
}

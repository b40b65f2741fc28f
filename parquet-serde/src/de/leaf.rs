//! Leaf values handed to visitors: each physical value goes to the `visit_*` that matches
//! what the Rust type asked for, converting by the leaf's logical type (text forms for
//! string targets, scaled decimals for floats, big-endian bytes for 128-bit integers,
//! `SystemTime`'s struct for timestamps, the full-fidelity form for
//! [`Value`](crate::record::Value)).
//!
//! Integers go to the visitor as the physical width (`visit_i32` for INT32): serde's
//! integer visitors then check the range of the target (an INT32 read into a `u8` fails on
//! 300 with "invalid value", widens into an `i64` for free).

use std::cell::Cell;

use serde::de::value::{I64Deserializer, StrDeserializer, U8Deserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use crate::core::values::numeric::{be_i128, be_u128, f16_to_f32, int96_nanos};
use crate::core::values::text::{self, unit_scale, StackStr};
use crate::error::Error;
use crate::value::tokens::{tags, unit_id, VALUE_TOKEN};

use super::access::KeyDe;
use super::cursor::Prim;
use super::error::DeError;
use super::node::{NodeDe, Res, Want};
use super::tree::{Conv, Node};

macro_rules! prim_wants {
    ($($method:ident => $want:expr,)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
            visit_value(self.prim, self.conv, self.node, self.probing, self.lend, $want, visitor)
        }
    )*};
}

/// [`visit_prim`] with its common case inline: numbers read as numbers go straight to the
/// visitor (as `visit_prim` would send them), without a call into its other cases.
#[inline(always)]
fn visit_value<'de, V: Visitor<'de>>(
    prim: Prim<'_>,
    conv: Conv,
    node: &Node,
    probing: bool,
    lend: bool,
    want: Want,
    visitor: V,
) -> Res<V::Value> {
    match want {
        Want::Int | Want::Float => match (prim, conv) {
            (Prim::I64(x), Conv::Plain) => visitor.visit_i64(x),
            (Prim::I32(x), Conv::Plain) => visitor.visit_i32(x),
            (Prim::F64(x), Conv::Plain) => visitor.visit_f64(x),
            (Prim::I32(x), Conv::Unsigned) => visitor.visit_u32(x as u32),
            (Prim::I64(x), Conv::Unsigned) => visitor.visit_u64(x as u64),
            _ => visit_prim(prim, conv, node, probing, lend, want, visitor),
        },
        _ => visit_prim(prim, conv, node, probing, lend, want, visitor),
    }
}

/// The text or bytes `visit_prim` hands to the visitor as they are stored (no
/// conversion, no copy): what a borrowing target (`&str`, `&[u8]`, `Cow`) can take from
/// the column's buffer. `None` for values that are converted (dates, decimals, UUIDs as
/// text; numbers): a borrowing target of those fails as serde words it ("expected a
/// borrowed string"), at the column and row.
#[inline(always)]
fn lendable(prim: Prim<'_>, conv: Conv, want: Want) -> Option<Prim<'_>> {
    let text = matches!(want, Want::Str | Want::String | Want::Char)
        || matches!(want, Want::Any) && matches!(conv, Conv::String);
    match prim {
        Prim::Str(_) if text && !matches!(conv, Conv::Uuid | Conv::Decimal(_)) => Some(prim),
        Prim::Str(s) if matches!(want, Want::Bytes) => Some(Prim::Bytes(s.as_bytes())),
        Prim::Bytes(b) if text && matches!(conv, Conv::String | Conv::Plain) => {
            std::str::from_utf8(b).ok().map(Prim::Str)
        }
        Prim::Bytes(_) if matches!(want, Want::Bytes) => Some(prim),
        Prim::Bytes(_) if matches!(want, Want::Any) && matches!(conv, Conv::Plain) => Some(prim),
        _ => None,
    }
}

/// `value` with the deserializer's lifetime `'de`: how text and bytes are lent to a
/// borrowing type.
///
/// Called only where `State::lending` holds (here and in `fast.rs`), which is set in two places, each keeping what
/// it lends alive and unchanged for as long as `'de` can be:
/// - the schema probe, whose stand-in values are statics (`dummy` in `state.rs`);
/// - a [`Batch`](super::Batch)'s state: `Batch::rows` takes `&'de self`, so the batch (and
///   the cursors it owns) outlives the rows; its cursors have no feed (`Batch::new` checks),
///   so their value buffers are never replaced, and nothing changes or frees them before the
///   batch is dropped: reading rows only moves the cursors' positions.
#[inline(always)]
pub(super) fn lent<'de, V: ?Sized>(value: &V) -> &'de V {
    // SAFETY: see above: every caller runs under `State::lending`, whose two setters keep
    // the referent alive and unchanged for the whole of `'de` (statics, or the buffers of
    // a batch the rows borrow for `'de`).
    #[allow(unsafe_code)]
    unsafe {
        &*(value as *const V)
    }
}

/// `SystemTime`'s serde fields.
const SYSTEM_TIME_FIELDS: [&str; 2] = ["secs_since_epoch", "nanos_since_epoch"];

fn utf8(b: &[u8]) -> Res<&str> {
    std::str::from_utf8(b).map_err(|e| {
        DeError::new(Error::data(format!("invalid UTF-8 in a string value: {e}")).with_source(e))
    })
}

/// Consumes leaf `de.id`'s next entry (column `col`) and visits it as `want` asks.
///
/// A `String` target of a text column takes the value as an owned `String` when the
/// cursor holds it so (built ahead by a decoding thread): no copy on this thread. The
/// schema probe records which columns such targets read.
#[inline(always)]
pub(crate) fn visit<'de, V: Visitor<'de>>(
    de: NodeDe<'_>,
    col: usize,
    conv: Conv,
    want: Want,
    visitor: V,
) -> Res<V::Value> {
    let NodeDe { tree, st, id, .. } = de;
    let node = &tree.nodes[id];
    let probing = st.probing();
    let lend = st.lending();
    if lend && !probing && matches!(want, Want::Str) && matches!(conv, Conv::String | Conv::Plain) {
        // The hot case of rows that borrow: a `&str` straight from the column's text
        // (what `visit_prim` lends for it); anything else goes on as below.
        return visit_lent_str(st, tree, node, id, col, conv, visitor)
            .map_err(|e| e.at_leaf(node, false));
    }
    let wanted = Cell::new(matches!(want, Want::String));
    let takes_owned = matches!(conv, Conv::String) && matches!(want, Want::String | Want::Option);
    let result = if takes_owned && !probing && matches!(want, Want::String) {
        // The hot case: the owned value when the cursor holds it, else the value.
        match st.cursor(tree, id, col).and_then(|c| Ok((c.take()?, c))) {
            Ok((Some(v), c)) => match c.take_owned(v) {
                Some(s) => visitor.visit_string(s),
                None => match c.value(v) {
                    Ok(prim) => visit_prim(prim, conv, node, false, lend, want, visitor),
                    Err(e) => Err(e.into()),
                },
            },
            Ok((None, _)) => Err(null_error(node)),
            Err(e) => Err(e.into()),
        }
    } else if takes_owned && !probing {
        // An `Option<String>`.
        match st.take_owned(tree, id, col) {
            Ok(Some((prim, owned))) => visitor.visit_some(PrimDe {
                prim,
                conv,
                node,
                probing,
                lend,
                owned,
                wanted: &wanted,
            }),
            Ok(None) => visitor.visit_none(),
            Err(e) => Err(e.into()),
        }
    } else {
        match st.take(tree, id, col) {
            Ok(Some(prim)) => match want {
                Want::Option => visitor.visit_some(PrimDe {
                    prim,
                    conv,
                    node,
                    probing,
                    lend,
                    owned: None,
                    wanted: &wanted,
                }),
                Want::Ignored => visitor.visit_unit(),
                _ => visit_value(prim, conv, node, probing, lend, want, visitor),
            },
            Ok(None) => match want {
                Want::Option | Want::Any | Want::Value => visitor.visit_none(),
                Want::Ignored => visitor.visit_unit(),
                _ => Err(null_error(node)),
            },
            Err(e) => Err(e.into()),
        }
    };
    if probing && takes_owned && wanted.get() {
        st.probe_owned(col);
    }
    result.map_err(|e| e.at_leaf(node, probing))
}

/// [`visit`] of leaf `id` (column `col`) for a `&str` target while lending: the value as
/// borrowed text when the cursor holds it as text, else as `visit_prim` words it.
#[inline(always)]
fn visit_lent_str<'de, V: Visitor<'de>>(
    st: &mut super::state::State,
    tree: &super::tree::Tree,
    node: &Node,
    id: super::tree::NodeId,
    col: usize,
    conv: Conv,
    visitor: V,
) -> Res<V::Value> {
    let c = st.cursor(tree, id, col)?;
    match c.take()? {
        Some(v) => match c.text_at(v) {
            Some(s) => visitor.visit_borrowed_str(lent(s)),
            None => visit_prim(c.value(v)?, conv, node, false, true, Want::Str, visitor),
        },
        None => Err(null_error(node)),
    }
}

#[cold]
fn null_error(node: &Node) -> DeError {
    DeError::new(if node.is_optional() {
        Error::data(format!(
            "null in field `{}`, which the Rust type does not make an Option",
            node.path
        ))
    } else {
        Error::corrupt("null value below a present field")
    })
}

/// A leaf value already taken from its cursor (what `visit_some` hands on), with the
/// value as an owned `String` when the cursor held it so.
pub(crate) struct PrimDe<'a> {
    prim: Prim<'a>,
    conv: Conv,
    node: &'a Node,
    probing: bool,
    /// Text and bytes are lent for the deserializer's lifetime (see `State::lending`).
    lend: bool,
    owned: Option<String>,
    /// Set when the target asks for a `String` (what the probe records).
    wanted: &'a Cell<bool>,
}

impl<'a> PrimDe<'a> {
    /// A value not taken from a cursor (a [constant field](super::constant)), read as
    /// leaf `node` with conversion `conv`.
    pub(crate) fn constant(
        prim: Prim<'a>,
        conv: Conv,
        node: &'a Node,
        probing: bool,
        wanted: &'a Cell<bool>,
    ) -> Self {
        PrimDe {
            prim,
            conv,
            node,
            probing,
            lend: false,
            owned: None,
            wanted,
        }
    }
}

impl<'de> Deserializer<'de> for PrimDe<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visit_prim(
            self.prim,
            self.conv,
            self.node,
            self.probing,
            self.lend,
            Want::Any,
            visitor,
        )
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        if name == VALUE_TOKEN {
            visit_prim(
                self.prim,
                self.conv,
                self.node,
                self.probing,
                self.lend,
                Want::Value,
                visitor,
            )
        } else {
            visitor.visit_newtype_struct(self)
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Res<V::Value> {
        visit_prim(
            self.prim,
            self.conv,
            self.node,
            self.probing,
            self.lend,
            Want::Tuple(len),
            visitor,
        )
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Res<V::Value> {
        visit_prim(
            self.prim,
            self.conv,
            self.node,
            self.probing,
            self.lend,
            Want::Tuple(len),
            visitor,
        )
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        visit_prim(
            self.prim,
            self.conv,
            self.node,
            self.probing,
            self.lend,
            Want::Struct(fields),
            visitor,
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        visit_prim(
            self.prim,
            self.conv,
            self.node,
            self.probing,
            self.lend,
            Want::Enum(variants),
            visitor,
        )
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.wanted.set(true);
        match self.owned {
            Some(s) => visitor.visit_string(s),
            None => visit_prim(
                self.prim,
                self.conv,
                self.node,
                self.probing,
                self.lend,
                Want::String,
                visitor,
            ),
        }
    }

    prim_wants! {
        deserialize_bool => Want::Bool,
        deserialize_i8 => Want::Int,
        deserialize_i16 => Want::Int,
        deserialize_i32 => Want::Int,
        deserialize_i64 => Want::Int,
        deserialize_u8 => Want::Int,
        deserialize_u16 => Want::Int,
        deserialize_u32 => Want::Int,
        deserialize_u64 => Want::Int,
        deserialize_i128 => Want::I128,
        deserialize_u128 => Want::U128,
        deserialize_f32 => Want::Float,
        deserialize_f64 => Want::Float,
        deserialize_char => Want::Char,
        deserialize_str => Want::Str,
        deserialize_identifier => Want::Str,
        deserialize_bytes => Want::Bytes,
        deserialize_byte_buf => Want::Bytes,
        deserialize_unit => Want::Unit,
        deserialize_seq => Want::Seq,
        deserialize_map => Want::Map,
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// A leaf cannot hold what `want` asks.
#[cold]
fn leaf_mismatch(node: &Node, want: Want) -> DeError {
    DeError::new(Error::schema(format!(
        "cannot read {} from a {}",
        want.describe(),
        node.describe()
    )))
}

/// Visits one value as `want` asks.
#[inline(always)]
fn visit_prim<'de, V: Visitor<'de>>(
    prim: Prim<'_>,
    conv: Conv,
    node: &Node,
    probing: bool,
    lend: bool,
    want: Want,
    visitor: V,
) -> Res<V::Value> {
    if lend {
        match lendable(prim, conv, want) {
            Some(Prim::Str(s)) => return visitor.visit_borrowed_str(lent(s)),
            Some(Prim::Bytes(b)) => return visitor.visit_borrowed_bytes(lent(b)),
            _ => {}
        }
    }
    let prim = match prim {
        Prim::Str(s) => match want {
            Want::Str | Want::String | Want::Char
                if !matches!(conv, Conv::Uuid | Conv::Decimal(_)) =>
            {
                return visitor.visit_str(s)
            }
            Want::Any | Want::Value | Want::Bool | Want::Int | Want::Float
                if matches!(conv, Conv::String) =>
            {
                return visitor.visit_str(s)
            }
            Want::Enum(_) if !probing => {
                return visitor.visit_enum(StrDeserializer::<DeError>::new(s))
            }
            _ => prim.raw(),
        },
        p => p,
    };
    match want {
        Want::Unit | Want::Ignored => visitor.visit_unit(),
        Want::Str | Want::String | Want::Char => text_value(prim, conv, visitor),
        Want::Bytes => match prim {
            Prim::Bytes(b) => visitor.visit_bytes(b),
            _ => natural(prim, conv, false, visitor),
        },
        Want::Float => match (prim, conv) {
            (Prim::I32(x), Conv::Decimal(s)) => visitor.visit_f64(text::decimal_f64(x as i128, s)),
            (Prim::I64(x), Conv::Decimal(s)) => visitor.visit_f64(text::decimal_f64(x as i128, s)),
            (Prim::Bytes(b), Conv::Decimal(s)) => visitor.visit_f64(match be_i128(b) {
                Some(x) => text::decimal_f64(x, s),
                None => text::decimal_long(b, s).parse().unwrap_or(f64::NAN),
            }),
            _ => natural(prim, conv, false, visitor),
        },
        Want::Int | Want::I128 | Want::U128 => match (prim, conv) {
            // The bits, for `half::f16`'s `Deserialize` (a newtype of its `u16` bits).
            (Prim::Bytes(&[lo, hi]), Conv::Float16) => {
                visitor.visit_u16(u16::from_le_bytes([lo, hi]))
            }
            (Prim::Bytes(b), Conv::Decimal(_)) => visitor.visit_i128(be_int(b)?),
            (Prim::Bytes(b), Conv::Uuid) => visitor.visit_u128(be_uint(b)?),
            (Prim::Bytes(b), Conv::Plain) if matches!(want, Want::U128) => {
                visitor.visit_u128(be_uint(b)?)
            }
            (Prim::Bytes(b), Conv::Plain) if matches!(want, Want::I128) => {
                visitor.visit_i128(be_int(b)?)
            }
            _ => natural(prim, conv, false, visitor),
        },
        Want::Seq | Want::Tuple(_) => match prim {
            Prim::Bytes(b) => {
                if let Want::Tuple(len) = want {
                    if len != b.len() {
                        return Err(DeError::new(Error::data(format!(
                            "{} bytes where the Rust type holds {len}",
                            b.len()
                        ))));
                    }
                }
                visitor.visit_seq(BytesSeq { bytes: b, next: 0 })
            }
            Prim::I32(_) | Prim::I64(_) => match (want, civil_parts(prim, conv, want)) {
                (Want::Tuple(_), Some(parts)) => visitor.visit_seq(parts),
                _ => Err(leaf_mismatch(node, want)),
            },
            _ => Err(leaf_mismatch(node, want)),
        },
        Want::Struct(fields) if fields == SYSTEM_TIME_FIELDS => {
            let nanos = match (prim, conv) {
                (Prim::I64(x), Conv::Timestamp(unit, _)) => {
                    let (per_sec, _) = unit_scale(unit);
                    x as i128 * (1_000_000_000 / per_sec) as i128
                }
                (Prim::I96(v), _) => int96_nanos(v),
                _ => return Err(leaf_mismatch(node, want)),
            };
            let secs = i64::try_from(nanos.div_euclid(1_000_000_000))
                .map_err(|_| DeError::new(Error::data("timestamp out of range")))?;
            visitor.visit_map(Pairs {
                keys: SYSTEM_TIME_FIELDS,
                values: [secs, nanos.rem_euclid(1_000_000_000) as i64],
                next: 0,
            })
        }
        Want::Enum(variants) => match prim {
            _ if probing => visitor.visit_enum(StrDeserializer::<DeError>::new(
                variants.first().copied().unwrap_or(""),
            )),
            Prim::Bytes(b) => visitor.visit_enum(StrDeserializer::<DeError>::new(utf8(b)?)),
            _ => Err(leaf_mismatch(node, want)),
        },
        Want::Struct(_) | Want::Map | Want::Variant => Err(leaf_mismatch(node, want)),
        Want::Value => full_fidelity(prim, conv, visitor),
        Want::Any => natural(prim, conv, true, visitor),
        Want::Bool | Want::Option | Want::Newtype => natural(prim, conv, false, visitor),
    }
}

fn be_int(b: &[u8]) -> Res<i128> {
    be_i128(b).ok_or_else(|| {
        DeError::new(Error::data(format!(
            "{}-byte integer does not fit an i128",
            b.len()
        )))
    })
}

fn be_uint(b: &[u8]) -> Res<u128> {
    be_u128(b).ok_or_else(|| {
        DeError::new(Error::data(format!(
            "{}-byte integer does not fit a u128",
            b.len()
        )))
    })
}

/// The value as its physical type says; with `text_logical`, decimals and UUIDs as text
/// (what `deserialize_any` gives, matching [`Value`](crate::record::Value)'s `Serialize`).
#[inline]
fn natural<'de, V: Visitor<'de>>(
    prim: Prim<'_>,
    conv: Conv,
    text_logical: bool,
    visitor: V,
) -> Res<V::Value> {
    match (prim, conv) {
        (Prim::Bool(b), _) => visitor.visit_bool(b),
        (Prim::I32(x), Conv::Unsigned) => visitor.visit_u32(x as u32),
        (Prim::I32(_), Conv::Decimal(_)) if text_logical => formatted(prim, conv, visitor),
        (Prim::I32(x), _) => visitor.visit_i32(x),
        (Prim::I64(x), Conv::Unsigned) => visitor.visit_u64(x as u64),
        (Prim::I64(_), Conv::Decimal(_)) if text_logical => formatted(prim, conv, visitor),
        (Prim::I64(x), _) => visitor.visit_i64(x),
        (Prim::I96(v), _) => {
            let nanos = int96_nanos(v);
            match i64::try_from(nanos) {
                Ok(n) => visitor.visit_i64(n),
                Err(_) => visitor.visit_i128(nanos),
            }
        }
        (Prim::F32(x), _) => visitor.visit_f32(x),
        (Prim::F64(x), _) => visitor.visit_f64(x),
        (Prim::Str(s), Conv::String) => visitor.visit_str(s),
        (Prim::Str(s), _) => natural(Prim::Bytes(s.as_bytes()), conv, text_logical, visitor),
        (Prim::Bytes(b), Conv::String) => visitor.visit_str(utf8(b)?),
        (Prim::Bytes(&[lo, hi]), Conv::Float16) => visitor.visit_f32(f16_to_f32([lo, hi])),
        (Prim::Bytes(_), Conv::Decimal(_) | Conv::Uuid) if text_logical => {
            formatted(prim, conv, visitor)
        }
        (Prim::Bytes(b), _) => visitor.visit_bytes(b),
    }
}

/// The value as text: strings as they are, logical values in their ISO 8601 / decimal /
/// hyphenated forms (for chrono and `#[parquet(decimal | uuid)]` strings).
#[inline]
fn text_value<'de, V: Visitor<'de>>(prim: Prim<'_>, conv: Conv, visitor: V) -> Res<V::Value> {
    match (prim, conv) {
        (Prim::Bytes(b), Conv::Uuid) if b.len() == 16 => {}
        (Prim::Bytes(_), Conv::Decimal(_)) => {}
        (Prim::Bytes(b), _) => return visitor.visit_str(utf8(b)?),
        _ => {}
    }
    formatted(prim, conv, visitor)
}

/// [`text_value`] of logical values.
fn formatted<'de, V: Visitor<'de>>(prim: Prim<'_>, conv: Conv, visitor: V) -> Res<V::Value> {
    let mut buf = StackStr::new();
    let written = match (prim, conv) {
        (Prim::Bytes(b), Conv::Uuid) if b.len() == 16 => text::uuid(b, &mut buf),
        (Prim::Bytes(b), Conv::Decimal(s)) => match be_i128(b) {
            Some(x) => text::decimal(x, s, &mut buf),
            None => return visitor.visit_string(text::decimal_long(b, s)),
        },
        (Prim::Bytes(b), _) => return visitor.visit_str(utf8(b)?),
        (Prim::I32(x), Conv::Date) => text::date(x as i64, &mut buf),
        (Prim::I32(x), Conv::Time(unit)) => text::time(x as i64, unit, &mut buf),
        (Prim::I64(x), Conv::Time(unit)) => text::time(x, unit, &mut buf),
        (Prim::I64(x), Conv::Timestamp(unit, utc)) => text::timestamp(x, unit, utc, &mut buf),
        (Prim::I96(v), _) => text::int96(v, &mut buf),
        (Prim::I32(x), Conv::Decimal(s)) => text::decimal(x as i128, s, &mut buf),
        (Prim::I64(x), Conv::Decimal(s)) => text::decimal(x as i128, s, &mut buf),
        _ => return natural(prim, conv, false, visitor),
    };
    match written {
        Ok(()) => visitor.visit_str(buf.as_str()),
        // Only decimals with huge scales outgrow the buffer.
        Err(_) => Err(DeError::new(Error::data(
            "value too long for its text form",
        ))),
    }
}

/// The value for [`Value`](crate::record::Value): logical values as the tagged variants of
/// [`tags`], others as [`natural`] (invalid UTF-8 in strings replaced, as the dynamic reader
/// does).
fn full_fidelity<'de, V: Visitor<'de>>(prim: Prim<'_>, conv: Conv, visitor: V) -> Res<V::Value> {
    let none = Scalar::I64(0);
    match (prim, conv) {
        (Prim::I32(x), Conv::Date) => visitor.visit_enum(Tagged::new(
            tags::DATE,
            [Scalar::I64(x as i64), none, none],
            1,
        )),
        (Prim::I32(x), Conv::Time(u)) => visitor.visit_enum(Tagged::new(
            tags::TIME,
            [Scalar::I64(x as i64), Scalar::I64(unit_id(u)), none],
            2,
        )),
        (Prim::I64(x), Conv::Time(u)) => visitor.visit_enum(Tagged::new(
            tags::TIME,
            [Scalar::I64(x), Scalar::I64(unit_id(u)), none],
            2,
        )),
        (Prim::I64(x), Conv::Timestamp(u, utc)) => visitor.visit_enum(Tagged::new(
            tags::TIMESTAMP,
            [Scalar::I64(x), Scalar::I64(unit_id(u)), Scalar::Bool(utc)],
            3,
        )),
        (Prim::I32(x), Conv::Decimal(s)) => {
            let be = x.to_be_bytes();
            visitor.visit_enum(Tagged::new(
                tags::DECIMAL,
                [Scalar::Bytes(&be), Scalar::I64(s as i64), none],
                2,
            ))
        }
        (Prim::I64(x), Conv::Decimal(s)) => {
            let be = x.to_be_bytes();
            visitor.visit_enum(Tagged::new(
                tags::DECIMAL,
                [Scalar::Bytes(&be), Scalar::I64(s as i64), none],
                2,
            ))
        }
        (Prim::Bytes(b), Conv::Decimal(s)) => visitor.visit_enum(Tagged::new(
            tags::DECIMAL,
            [Scalar::Bytes(b), Scalar::I64(s as i64), none],
            2,
        )),
        (Prim::Bytes(b), Conv::Uuid) if b.len() == 16 => {
            visitor.visit_enum(Tagged::new(tags::UUID, [Scalar::Bytes(b), none, none], 1))
        }
        (Prim::Bytes(&[lo, hi]), Conv::Float16) => visitor.visit_enum(Tagged::new(
            tags::FLOAT16,
            [Scalar::F32(f16_to_f32([lo, hi])), none, none],
            1,
        )),
        (Prim::I96(v), _) => visitor.visit_enum(Tagged::new(
            tags::INT96,
            [
                Scalar::I64(v.0[0] as i64),
                Scalar::I64(v.0[1] as i64),
                Scalar::I64(v.0[2] as i64),
            ],
            3,
        )),
        (Prim::Bytes(b), Conv::String) => match std::str::from_utf8(b) {
            Ok(s) => visitor.visit_str(s),
            Err(_) => visitor.visit_string(String::from_utf8_lossy(b).into_owned()),
        },
        (Prim::I32(x), Conv::Unsigned) => visitor.visit_u64(x as u32 as u64),
        _ => natural(prim, conv, false, visitor),
    }
}

/// A scalar inside a tagged variant.
#[derive(Clone, Copy)]
enum Scalar<'a> {
    I64(i64),
    Bool(bool),
    F32(f32),
    Bytes(&'a [u8]),
}

impl<'de> Deserializer<'de> for Scalar<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self {
            Scalar::I64(x) => visitor.visit_i64(x),
            Scalar::Bool(b) => visitor.visit_bool(b),
            Scalar::F32(x) => visitor.visit_f32(x),
            Scalar::Bytes(b) => visitor.visit_bytes(b),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A tagged variant: `tag(scalars[..len])`.
struct Tagged<'a> {
    tag: &'static str,
    scalars: [Scalar<'a>; 3],
    len: usize,
}

impl<'a> Tagged<'a> {
    fn new(tag: &'static str, scalars: [Scalar<'a>; 3], len: usize) -> Self {
        Tagged { tag, scalars, len }
    }
}

impl<'de, 'a> EnumAccess<'de> for Tagged<'a> {
    type Error = DeError;
    type Variant = Tagged<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Res<(V::Value, Self::Variant)> {
        Ok((seed.deserialize(KeyDe(self.tag))?, self))
    }
}

impl<'de> VariantAccess<'de> for Tagged<'_> {
    type Error = DeError;

    fn unit_variant(self) -> Res<()> {
        Err(de::Error::custom("a logical value is not a unit variant"))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Res<T::Value> {
        seed.deserialize(self.scalars[0])
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Res<V::Value> {
        visitor.visit_seq(ScalarSeq {
            scalars: &self.scalars[..self.len.min(3)],
            next: 0,
        })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        visitor.visit_seq(ScalarSeq {
            scalars: &self.scalars[..self.len.min(3)],
            next: 0,
        })
    }
}

struct ScalarSeq<'s, 'a> {
    scalars: &'s [Scalar<'a>],
    next: usize,
}

impl<'de> SeqAccess<'de> for ScalarSeq<'_, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<Option<T::Value>> {
        let Some(&s) = self.scalars.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        seed.deserialize(s).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.scalars.len() - self.next.min(self.scalars.len()))
    }
}

/// The bytes of a BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value as a sequence of `u8` (for
/// `Vec<u8>` and `[u8; N]` without `serde_bytes`).
struct BytesSeq<'a> {
    bytes: &'a [u8],
    next: usize,
}

impl<'de> SeqAccess<'de> for BytesSeq<'_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<Option<T::Value>> {
        let Some(&b) = self.bytes.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        seed.deserialize(U8Deserializer::<DeError>::new(b))
            .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.bytes.len() - self.next.min(self.bytes.len()))
    }
}

/// The integer parts of a DATE, TIME or TIMESTAMP value in the `time` crate's compact form,
/// when a tuple of `want`'s length asks for them: `(year, ordinal)` from a DATE, `(hour,
/// minute, second, nanosecond)` from a TIME, `(year, ordinal, hour, minute, second,
/// nanosecond)` from a TIMESTAMP (in UTC), with a zero offset `(0, 0, 0)` after them for 9.
fn civil_parts(prim: Prim<'_>, conv: Conv, want: Want) -> Option<IntSeq> {
    use crate::core::values::calendar::{ordinal_of_days, parts_of_instant, time_of_nanos};
    let Want::Tuple(len) = want else {
        return None;
    };
    let x = match prim {
        Prim::I32(x) => x as i64,
        Prim::I64(x) => x,
        _ => return None,
    };
    let mut values = [0i64; 9];
    match (conv, len) {
        (Conv::Date, 2) => {
            let (y, o) = ordinal_of_days(x)?;
            values[..2].copy_from_slice(&[y, o]);
        }
        (Conv::Time(unit), 4) => {
            let nanos = i64::try_from(x as i128 * text::nanos_per(unit)).ok()?;
            values[..4].copy_from_slice(&time_of_nanos(nanos));
        }
        (Conv::Timestamp(unit, _), 6 | 9) => {
            let parts = parts_of_instant(x as i128 * text::nanos_per(unit))?;
            values[..6].copy_from_slice(&parts);
        }
        _ => return None,
    }
    Some(IntSeq {
        values,
        len,
        next: 0,
    })
}

/// Integers handed over as a sequence.
struct IntSeq {
    values: [i64; 9],
    len: usize,
    next: usize,
}

impl<'de> SeqAccess<'de> for IntSeq {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<Option<T::Value>> {
        if self.next >= self.len.min(self.values.len()) {
            return Ok(None);
        }
        let v = self.values[self.next];
        self.next += 1;
        seed.deserialize(I64Deserializer::<DeError>::new(v))
            .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len.saturating_sub(self.next))
    }
}

/// A two-field struct of integers (`SystemTime`'s shape).
struct Pairs {
    keys: [&'static str; 2],
    values: [i64; 2],
    next: usize,
}

impl<'de> MapAccess<'de> for Pairs {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Res<Option<K::Value>> {
        let Some(&k) = self.keys.get(self.next) else {
            return Ok(None);
        };
        seed.deserialize(KeyDe(k)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<S::Value> {
        let v = self.values.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        seed.deserialize(I64Deserializer::<DeError>::new(v))
    }
}

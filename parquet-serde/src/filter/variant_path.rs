//! Predicates on a path inside a VARIANT column (`fields.status = 500`),
//! decoded row by row, with DuckDB's meaning.
//!
//! The rules are in the filter module's doc (`crate::filter`, "Paths inside VARIANT
//! columns"); the casts are checked against DuckDB by `tests/variant_filter_duckdb.rs`.

use std::cmp::Ordering;
use std::fmt::Write as _;

use crate::core::column::statistics::compare_f64;
use crate::core::column::{ColumnBatch, Scalar};
use crate::core::format::Type;
use crate::core::schema::{ColumnDescriptor, Schema};
use crate::core::values::text as print;
use crate::core::values::{ByteArrays, ColumnValues};
use crate::error::{Error, Result};
use crate::variant::{ValueRef, VariantRef};

use super::bind::{Bound, Kind, Leaf, Test};
use super::eval::{literals, FALSE, TRUE, UNKNOWN};
use super::like::like;
use super::predicate::CmpOp;
use super::variant_shredded::{self, Found, Pruning, Shredded};

/// One step into a variant value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// A field of an object.
    Field(String),
    /// An element of an array, from 0.
    Index(usize),
}

/// A test of the value at `steps` inside the VARIANT column whose `value` leaf is the
/// leaf's column and whose `metadata` leaf is `metadata`. `test` keeps its literals as
/// written (each is cast to its own type, see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VariantTest {
    pub metadata: usize,
    pub steps: Vec<Step>,
    pub test: Test,
    /// Where the path's values are in a shredded column.
    pub shredded: Option<Shredded>,
    /// How row groups are skipped, in a shredded column.
    pub pruning: Option<Box<Pruning>>,
}

impl VariantTest {
    /// The leaves read besides the leaf's own column (`value`).
    pub fn other_columns(&self) -> Vec<usize> {
        let mut out = vec![self.metadata];
        if let Some(s) = &self.shredded {
            out.extend(s.columns());
        }
        out
    }
}

/// The leaf test of `path` when it names a path inside a VARIANT column; `None` when no
/// prefix of `path` is a VARIANT column (the caller reports the missing leaf).
pub(crate) fn bind(
    schema: &Schema,
    path: &str,
    test: Test,
    negated: bool,
) -> Option<Result<Bound>> {
    let (group, rest) = variant_prefix(schema, path)?;
    Some(bind_in(schema, path, group, rest, test, negated))
}

fn bind_in(
    schema: &Schema,
    path: &str,
    group: &str,
    rest: &str,
    test: Test,
    negated: bool,
) -> Result<Bound> {
    let bad = |what: String| Error::invalid_argument(format!("predicate on {path:?}: {what}"));
    let (metadata, md) = leaf(schema, &format!("{group}.metadata"))?;
    let (value, vd) = leaf(schema, &format!("{group}.value"))?;
    if md.max_rep_level > 0 || vd.max_rep_level > 0 {
        return Err(bad(format!(
            "VARIANT column {group:?} lies under a repeated field; paths are tested only in \
             VARIANT columns outside lists and maps"
        )));
    }
    let steps = steps(rest).map_err(bad)?;
    let shredded =
        variant_shredded::locate(schema, group, &steps).map_err(|e| bad(e.message().into()))?;
    let pruning = shredded
        .as_ref()
        .and_then(|sh| variant_shredded::pruning(schema, sh, &test, negated))
        .map(Box::new);
    let test = match test {
        Test::IntersectsBbox(_) => {
            return Err(bad(
                "intersects_bbox needs a GEOMETRY or GEOGRAPHY column".into()
            ))
        }
        t => t,
    };
    for lit in literals(&test) {
        if !matches!(
            lit,
            Scalar::Int(_)
                | Scalar::Float(_)
                | Scalar::Decimal(_)
                | Scalar::Bytes(_)
                | Scalar::Bool(_)
        ) {
            return Err(bad(format!(
                "the literal {lit} has no DuckDB type to cast to"
            )));
        }
    }
    Ok(Bound::Leaf(Leaf {
        column: value,
        kind: Kind::Unordered,
        test: Test::VariantPath(Box::new(VariantTest {
            metadata,
            steps,
            test,
            shredded,
            pruning,
        })),
        negated,
    }))
}

/// The leaf at `path`, a byte array.
fn leaf<'s>(schema: &'s Schema, path: &str) -> Result<(usize, &'s ColumnDescriptor)> {
    let i = schema
        .column_index(path)
        .ok_or_else(|| Error::invalid_argument(format!("no leaf column {path:?}")))?;
    let d = &schema.columns()[i];
    if d.physical_type != Type::ByteArray {
        return Err(Error::invalid_argument(format!(
            "VARIANT leaf {path:?} is not a byte array"
        )));
    }
    Ok((i, d))
}

/// `path` itself when it is a VARIANT group with `metadata` and `value` leaves (and an
/// empty path inside it), else its first prefix (ending before a `.` or `[`) that is one,
/// and the path inside it (after the `.`, or from the `[`).
fn variant_prefix<'p>(schema: &Schema, path: &'p str) -> Option<(&'p str, &'p str)> {
    let is_variant = |g: &str| {
        schema.column_index(&format!("{g}.metadata")).is_some()
            && schema.column_index(&format!("{g}.value")).is_some()
    };
    if is_variant(path) {
        return Some((path, ""));
    }
    path.char_indices()
        .filter(|&(_, c)| c == '.' || c == '[')
        .map(|(i, c)| {
            let rest = if c == '.' { &path[i + 1..] } else { &path[i..] };
            (&path[..i], rest)
        })
        .find(|(g, rest)| !g.is_empty() && !rest.is_empty() && is_variant(g))
}

/// The steps of `fields.a[2].b` after the column: names split at `.`, `[n]` indexes (from
/// 1 in the text, from 0 in the result); `typed_value` names skipped.
fn steps(rest: &str) -> std::result::Result<Vec<Step>, String> {
    let mut out = Vec::new();
    if rest.is_empty() {
        return Ok(out);
    }
    for part in rest.split('.') {
        let (name, mut tail) = match part.find('[') {
            Some(i) => part.split_at(i),
            None => (part, ""),
        };
        if name.contains(']') {
            return Err(format!("unexpected `]` in {part:?}"));
        }
        if !name.is_empty() && name != "typed_value" {
            out.push(Step::Field(name.to_string()));
        } else if name.is_empty() && tail.is_empty() {
            return Err("an empty field name".into());
        }
        while !tail.is_empty() {
            let close = tail
                .find(']')
                .filter(|_| tail.starts_with('['))
                .ok_or_else(|| format!("expected `[index]` in {part:?}"))?;
            let n: usize = tail[1..close]
                .parse()
                .map_err(|_| format!("bad index {:?}", &tail[1..close]))?;
            if n == 0 {
                return Err("array indexes start at 1 (as in DuckDB)".into());
            }
            out.push(Step::Index(n - 1));
            tail = &tail[close + 1..];
        }
    }
    Ok(out)
}

/// The truth value of `vt` (negated or not) for each of `rows` rows, from the decoded
/// leaves `batch` gives (the `value` leaf `value`, the `metadata` leaf and, in a shredded
/// column, the leaves of the path; no repetition: checked when bound).
pub(crate) fn eval<'b>(
    vt: &VariantTest,
    negated: bool,
    value: usize,
    batch: &impl Fn(usize) -> Result<(&'b ColumnBatch, &'b ColumnDescriptor)>,
    rows: usize,
) -> Result<Vec<u8>> {
    let bytes = |c: usize| -> Result<(&'b ByteArrays, Vec<Option<usize>>)> {
        let (b, d) = batch(c)?;
        let ColumnValues::ByteArray(v) = &b.values else {
            return Err(Error::corrupt(format!(
                "VARIANT leaf {} is not a byte array",
                d.path
            )));
        };
        let slots = variant_shredded::slots(b, d, rows)?;
        Ok((v, slots.into_iter().map(|s| s.0).collect()))
    };
    let (metas, mpos) = bytes(vt.metadata)?;
    let empty = crate::variant::Variant::object::<String>([]).encode();
    let container = VariantRef::new(&empty.0, &empty.1)?.value()?;
    let shredded = match &vt.shredded {
        Some(sh) => {
            let cols = sh.columns_of(batch, rows)?;
            let typed = match sh.typed_leaf() {
                Some(c) => {
                    let (b, d) = batch(c)?;
                    let slots = variant_shredded::slots(b, d, rows)?;
                    Some((&b.values, d, slots))
                }
                None => None,
            };
            Some((sh, cols, typed))
        }
        None => None,
    };
    let plain = match shredded {
        None => Some(bytes(value)?),
        Some(_) => None,
    };
    let mut out = Vec::with_capacity(rows);
    for row in 0..rows {
        let at = |what: &str| format!("{what} (row {row} of the rows tested)");
        let meta = get(metas, mpos[row]);
        let decode = |b: &'b [u8], from: usize| -> Result<Option<ValueRef<'b>>> {
            let Some(m) = meta else { return Ok(None) };
            let root = VariantRef::new(m, b).map_err(|e| e.context(at("VARIANT value")))?;
            walk(root, &vt.steps[from..]).map_err(|e| e.context(at("VARIANT path")))
        };
        let found = match (&plain, &shredded) {
            (Some((vals, vpos)), _) => match get(vals, vpos[row]) {
                Some(v) => decode(v, 0)?,
                None => None,
            },
            (None, Some((sh, cols, typed))) => match sh.find(cols, row, vt.steps.len()) {
                Found::Null => None,
                Found::Container => Some(container),
                Found::Bytes(b, k) => decode(b, k)?,
                Found::Typed => typed.as_ref().and_then(|(values, d, slots)| {
                    let i = slots[row].0?;
                    variant_shredded::typed_value(values, d, i)
                }),
            },
            (None, None) => None,
        };
        let t = truth(&vt.test, found).map_err(|e| e.context(at("VARIANT value")))?;
        out.push(if negated { TRUE - t } else { t });
    }
    Ok(out)
}

/// The value at `steps`, `None` where a step finds nothing or the value is a variant null.
fn walk<'a>(mut v: VariantRef<'a>, steps: &[Step]) -> Result<Option<ValueRef<'a>>> {
    for s in steps {
        let next = match s {
            Step::Field(name) => v.get(name)?,
            Step::Index(i) => v.index(*i)?,
        };
        match next {
            Some(n) => v = n,
            None => return Ok(None),
        }
    }
    Ok(match v.value()? {
        ValueRef::Null => None,
        other => Some(other),
    })
}

/// Value `i` of `b`, if any.
fn get(b: &ByteArrays, i: Option<usize>) -> Option<&[u8]> {
    i.filter(|&i| i < b.len()).map(|i| b.get(i))
}

fn kleene(b: bool) -> u8 {
    if b {
        TRUE
    } else {
        FALSE
    }
}

/// The three-valued result of `test` on the value found (`None`: SQL null).
fn truth(test: &Test, v: Option<ValueRef<'_>>) -> Result<u8> {
    let cmp = |lit: &Scalar| v.and_then(|v| compare(v, lit));
    let holds = |op: CmpOp, lit: &Scalar| match cmp(lit) {
        None => UNKNOWN,
        Some(o) => kleene(op.holds(o)),
    };
    Ok(match test {
        Test::IsNull => kleene(v.is_none()),
        Test::IsNotNull => kleene(v.is_some()),
        Test::Cmp(op, lit) => holds(*op, lit),
        Test::Between(a, b) => holds(CmpOp::Ge, a).min(holds(CmpOp::Le, b)),
        Test::In(list) => list
            .iter()
            .map(|x| holds(CmpOp::Eq, x))
            .max()
            .unwrap_or(FALSE),
        Test::NotIn(list) => {
            TRUE - list
                .iter()
                .map(|x| holds(CmpOp::Eq, x))
                .max()
                .unwrap_or(FALSE)
        }
        Test::Like(p) | Test::NotLike(p) => match v.and_then(to_text) {
            None => UNKNOWN,
            Some(t) => kleene(like(t.as_bytes(), p) == matches!(test, Test::Like(_))),
        },
        other => {
            return Err(Error::invalid_argument(format!(
                "{other:?} does not apply to a VARIANT path"
            )))
        }
    })
}

/// How `v`, cast to the type of `lit`, orders against `lit`; `None` when it does not cast.
fn compare(v: ValueRef<'_>, lit: &Scalar) -> Option<Ordering> {
    match lit {
        Scalar::Int(x) => {
            let (lo, hi) = if i64::try_from(*x).is_ok() {
                (i64::MIN as i128, i64::MAX as i128)
            } else {
                (i128::MIN, i128::MAX)
            };
            to_int(v)
                .filter(|i| (lo..=hi).contains(i))
                .map(|i| i.cmp(x))
        }
        Scalar::Float(x) => to_double(v).map(|d| compare_f64(d, *x)),
        Scalar::Decimal(x) => to_double(v).map(|d| compare_f64(d, x.to_f64())),
        Scalar::Bytes(b) => to_text(v).map(|t| t.as_bytes().cmp(b)),
        Scalar::Bool(b) => to_bool(v).map(|t| t.cmp(b)),
    }
}

/// `TRY_CAST(v AS HUGEINT)` (the caller narrows to `BIGINT`).
fn to_int(v: ValueRef<'_>) -> Option<i128> {
    match v {
        ValueRef::Int8(x) => Some(x.into()),
        ValueRef::Int16(x) => Some(x.into()),
        ValueRef::Int32(x) => Some(x.into()),
        ValueRef::Int64(x) => Some(x.into()),
        ValueRef::Bool(b) => Some(b.into()),
        ValueRef::Float(f) => float_to_int(f.into()),
        ValueRef::Double(f) => float_to_int(f),
        ValueRef::Decimal4(u, s) => decimal_to_int(u.into(), s),
        ValueRef::Decimal8(u, s) => decimal_to_int(u.into(), s),
        ValueRef::Decimal16(u, s) => decimal_to_int(u, s),
        ValueRef::String(s) => text_to_int(s),
        _ => None,
    }
}

/// Rounded half to even; `None` for NaN, infinities and values beyond `i128`.
fn float_to_int(f: f64) -> Option<i128> {
    let r = f.round_ties_even();
    // 2^127 is exact in f64; i128 holds [-2^127, 2^127).
    (r.is_finite() && (-1.7014118346046923e38..1.7014118346046923e38).contains(&r))
        .then_some(r as i128)
}

/// Rounded half away from zero.
fn decimal_to_int(unscaled: i128, scale: u8) -> Option<i128> {
    if scale == 0 {
        return Some(unscaled);
    }
    let p = 10i128.checked_pow(scale.into())?;
    let (q, r) = (unscaled / p, unscaled % p);
    Some(if r.unsigned_abs() * 2 >= p.unsigned_abs() {
        q + unscaled.signum()
    } else {
        q
    })
}

/// DuckDB's string to integer: surrounding whitespace, `-` (no `+`), decimal digits
/// without leading zeros, or `0x` / `0b` digits.
fn text_to_int(s: &str) -> Option<i128> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t),
    };
    let radix = |p: &str, r: u32| {
        let d = digits
            .strip_prefix(p)
            .or_else(|| digits.strip_prefix(&p.to_ascii_uppercase()))?;
        (!neg && !d.is_empty() && d.chars().all(|c| c.is_digit(r)))
            .then(|| i128::from_str_radix(d, r).ok())
            .flatten()
    };
    if let Some(x) = radix("0x", 16).or_else(|| radix("0b", 2)) {
        return Some(x);
    }
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if !plain || leading_zero(t) {
        return None;
    }
    let x: i128 = digits.parse().ok()?;
    Some(if neg { -x } else { x })
}

/// Whether unsigned text starts with `0` and another digit (`00012`, `012.5`, `00`): DuckDB
/// casts it to no number, though it casts `-012`.
fn leading_zero(t: &str) -> bool {
    let b = t.as_bytes();
    b.first() == Some(&b'0') && b.get(1).is_some_and(u8::is_ascii_digit)
}

/// `TRY_CAST(v AS DOUBLE)`.
fn to_double(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Int8(x) => Some(x.into()),
        ValueRef::Int16(x) => Some(x.into()),
        ValueRef::Int32(x) => Some(x.into()),
        ValueRef::Int64(x) => Some(x as f64),
        ValueRef::Bool(b) => Some(if b { 1.0 } else { 0.0 }),
        ValueRef::Float(f) => Some(f.into()),
        ValueRef::Double(f) => Some(f),
        ValueRef::Decimal4(u, s) => Some(print::decimal_f64(u.into(), s.into())),
        ValueRef::Decimal8(u, s) => Some(print::decimal_f64(u.into(), s.into())),
        ValueRef::Decimal16(u, s) => Some(print::decimal_f64(u, s.into())),
        ValueRef::String(s) => text_to_double(s),
        _ => None,
    }
}

/// DuckDB's string to double: leading whitespace, no `+`, no trailing characters.
fn text_to_double(s: &str) -> Option<f64> {
    let t = s.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let body = t.strip_prefix('-').unwrap_or(t);
    let named = ["nan", "inf", "infinity"]
        .iter()
        .any(|n| body.eq_ignore_ascii_case(n));
    let numeric = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && !body.starts_with(['+', '-']);
    if !(named || numeric) || leading_zero(t) {
        return None;
    }
    t.parse().ok()
}

/// `TRY_CAST(v AS BOOLEAN)`.
fn to_bool(v: ValueRef<'_>) -> Option<bool> {
    match v {
        ValueRef::Bool(b) => Some(b),
        ValueRef::Int8(x) => Some(x != 0),
        ValueRef::Int16(x) => Some(x != 0),
        ValueRef::Int32(x) => Some(x != 0),
        ValueRef::Int64(x) => Some(x != 0),
        ValueRef::Float(f) => Some(f != 0.0),
        ValueRef::Double(f) => Some(f != 0.0),
        ValueRef::Decimal4(u, _) => Some(u != 0),
        ValueRef::Decimal8(u, _) => Some(u != 0),
        ValueRef::Decimal16(u, _) => Some(u != 0),
        ValueRef::String(s) => {
            let is = |w: &[&str]| w.iter().any(|x| s.eq_ignore_ascii_case(x));
            if is(&["true", "t", "yes"]) {
                Some(true)
            } else if is(&["false", "f", "no"]) {
                Some(false)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `TRY_CAST(v AS VARCHAR)`, for the types listed in the module doc.
fn to_text(v: ValueRef<'_>) -> Option<String> {
    let mut out = String::new();
    match v {
        ValueRef::String(s) => return Some(s.to_string()),
        ValueRef::Int8(x) => write!(out, "{x}").ok()?,
        ValueRef::Int16(x) => write!(out, "{x}").ok()?,
        ValueRef::Int32(x) => write!(out, "{x}").ok()?,
        ValueRef::Int64(x) => write!(out, "{x}").ok()?,
        ValueRef::Bool(b) => write!(out, "{b}").ok()?,
        ValueRef::Float(f) => return Some(python_repr(format!("{f:e}"), f.is_nan(), f == 0.0)),
        ValueRef::Double(f) => return Some(python_repr(format!("{f:e}"), f.is_nan(), f == 0.0)),
        ValueRef::Decimal4(u, s) => decimal_text(u.into(), s, None, &mut out)?,
        ValueRef::Decimal8(u, s) => decimal_text(u.into(), s, None, &mut out)?,
        ValueRef::Decimal16(u, s) => decimal_text(u, s, Some(38), &mut out)?,
        ValueRef::Date(d) => print::date(d.into(), &mut out).ok()?,
        ValueRef::Uuid(u) => print::uuid(&u, &mut out).ok()?,
        ValueRef::Time(us) => clock(us, 1_000_000, &mut out)?,
        ValueRef::TimestampNtzMicros(t) => date_time(t, 1_000_000, "", &mut out)?,
        ValueRef::TimestampMicros(t) => date_time(t, 1_000_000, "+00", &mut out)?,
        ValueRef::TimestampNtzNanos(t) => date_time(t, 1_000_000_000, "", &mut out)?,
        ValueRef::TimestampNanos(t) => date_time(t, 1_000_000_000, "+00", &mut out)?,
        ValueRef::Binary(b) => {
            for &c in b {
                if (0x20..0x7f).contains(&c) {
                    out.push(c as char);
                } else {
                    write!(out, "\\x{c:02X}").ok()?;
                }
            }
        }
        ValueRef::Array(_) | ValueRef::Object(_) | ValueRef::Null => return None,
    }
    Some(out)
}

/// A decimal as DuckDB prints one read from a VARIANT: its width is `width` (38 for
/// decimal16), else the unscaled value's digit count; when the width is the scale there is
/// no `0` before the point (`.05`, `-.5`, `.123456789`).
fn decimal_text(unscaled: i128, scale: u8, width: Option<u32>, out: &mut String) -> Option<()> {
    print::decimal(unscaled, scale.into(), out).ok()?;
    let digits = unscaled
        .unsigned_abs()
        .checked_ilog10()
        .map_or(1, |d| d + 1);
    if scale > 0 && width.unwrap_or(digits) <= u32::from(scale) {
        let at = out.find("0.")?;
        out.remove(at);
    }
    Some(())
}

/// `YYYY-MM-DD HH:MM:SS[.fff]` of `t` units (`per_sec` a second) since the epoch, the
/// fraction without trailing zeros, then `zone` (DuckDB's text with `TimeZone` UTC).
fn date_time(t: i64, per_sec: i64, zone: &str, out: &mut String) -> Option<()> {
    let per_day = per_sec * 86_400;
    print::date(t.div_euclid(per_day), out).ok()?;
    out.push(' ');
    clock(t.rem_euclid(per_day), per_sec, out)?;
    out.push_str(zone);
    Some(())
}

/// `HH:MM:SS[.fff]` of `t` units since midnight, the fraction without trailing zeros.
fn clock(t: i64, per_sec: i64, out: &mut String) -> Option<()> {
    let (secs, frac) = (t.div_euclid(per_sec), t.rem_euclid(per_sec));
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    write!(out, "{h:02}:{m:02}:{s:02}").ok()?;
    if frac != 0 {
        let width = if per_sec == 1_000_000 { 6 } else { 9 };
        let digits = format!("{frac:0width$}");
        write!(out, ".{}", digits.trim_end_matches('0')).ok()?;
    }
    Some(())
}

/// Python's `repr` of a float from Rust's shortest scientific form (`1.5e0`, `1e20`,
/// `inf`, `NaN`): fixed notation for exponents in `-4..16` (with `.0` when whole), else
/// `d.ddde+XX`.
fn python_repr(sci: String, nan: bool, zero: bool) -> String {
    if nan {
        return "nan".into();
    }
    if sci.ends_with("inf") {
        return sci;
    }
    if zero {
        return if sci.starts_with('-') { "-0.0" } else { "0.0" }.into();
    }
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if !(-4..16).contains(&exp) {
        let (first, more) = digits.split_at(1);
        let dot = if more.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}{more}e{esign}{:02}", exp.abs());
    }
    let point = exp + 1; // digits before the point
    if point <= 0 {
        let zeros = "0".repeat((-point) as usize);
        format!("{sign}0.{zeros}{digits}")
    } else if point as usize >= digits.len() {
        let zeros = "0".repeat(point as usize - digits.len());
        format!("{sign}{digits}{zeros}.0")
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{sign}{a}.{b}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Binds `text` on a schema with VARIANT column `v` and evaluates it on `rows` (`None`
    /// for a null column; `(metadata, value)` bytes else).
    fn run(text: &str, rows: &[Option<(Vec<u8>, Vec<u8>)>]) -> Result<Vec<u8>> {
        let schema: Schema = "message m { optional group v (VARIANT(1)) {
              required binary metadata; required binary value; } }"
            .parse()
            .unwrap();
        let p = crate::filter::Predicate::parse(text).unwrap();
        let bound = super::super::bind::bind(&p, &schema)?;
        let Bound::Leaf(Leaf {
            test: Test::VariantPath(vt),
            negated,
            column,
            ..
        }) = bound
        else {
            panic!("{bound:?}");
        };
        let (mut m, mut v) = (ByteArrays::new(), ByteArrays::new());
        let def: Vec<i16> = rows.iter().map(|r| i16::from(r.is_some())).collect();
        for (mb, vb) in rows.iter().flatten() {
            m.push(mb);
            v.push(vb);
        }
        let batch = |values| ColumnBatch {
            values: ColumnValues::ByteArray(values),
            def_levels: def.clone(),
            rep_levels: vec![],
        };
        let (mb, vb) = (batch(m), batch(v));
        let cols = schema.columns();
        let get = |c: usize| -> Result<(&ColumnBatch, &ColumnDescriptor)> {
            Ok((if c == column { &vb } else { &mb }, &cols[c]))
        };
        eval(&vt, negated, column, &get, rows.len())
    }

    #[test]
    fn rows_in_three_valued_logic_and_bad_bytes() {
        use crate::variant::Variant;
        let obj = |status: Variant| {
            Some(
                Variant::object([
                    ("status", status),
                    ("tags", Variant::Array(vec!["a".into()])),
                ])
                .encode(),
            )
        };
        let rows = [
            obj(Variant::Int16(500)),
            obj(Variant::from("500")),
            obj(Variant::from("abc")),
            obj(Variant::Null),
            None,
            Some(Variant::Int8(1).encode()),
        ];
        let t = |text: &str| run(text, &rows).unwrap();
        const U: u8 = UNKNOWN;
        assert_eq!(t("v.status = 500"), [TRUE, TRUE, U, U, U, U]);
        assert_eq!(t("v.status != 500"), [FALSE, FALSE, U, U, U, U]);
        assert_eq!(t("not v.status = 500"), [FALSE, FALSE, U, U, U, U]);
        assert_eq!(t("v.status = '500'"), [TRUE, TRUE, FALSE, U, U, U]);
        assert_eq!(
            t("v.status is null"),
            [FALSE, FALSE, FALSE, TRUE, TRUE, TRUE]
        );
        assert_eq!(t("v.status in (1, 500)"), [TRUE, TRUE, U, U, U, U]);
        assert_eq!(t("v.status not in (1, 2)"), [TRUE, TRUE, U, U, U, U]);
        assert_eq!(
            t("v.status between 400 and 500.5"),
            [TRUE, TRUE, U, U, U, U]
        );
        assert_eq!(t("v.tags[1] = 'a'"), [TRUE, TRUE, TRUE, TRUE, U, U]);
        assert_eq!(t("v.tags[2] is null"), [TRUE, TRUE, TRUE, TRUE, TRUE, TRUE]);
        assert_eq!(t("v = 1"), [U, U, U, U, U, TRUE]);
        assert_eq!(t("v.status like '5%'"), [TRUE, TRUE, FALSE, U, U, U]);
        // Bytes that are no variant are an error that says where, never a panic.
        let (m, mut v) = Variant::object([("status", Variant::Int8(1))]).encode();
        v.truncate(v.len() - 1);
        let e = run("v.status = 1", &[Some((m, v))]).unwrap_err();
        assert!(e.message().contains("row 0"), "{e}");
        let e = run("v.status = 1", &[Some((vec![0xff], vec![0]))]).unwrap_err();
        assert!(e.message().contains("VARIANT value"), "{e}");
        // Where a path cannot be tested.
        assert!(run("v.x[0] = 1", &[])
            .unwrap_err()
            .message()
            .contains("start at 1"));
    }

    #[test]
    fn steps_of_paths() {
        let f = |s: &str| Step::Field(s.into());
        assert_eq!(steps("status").unwrap(), [f("status")]);
        assert_eq!(steps("a.b.c").unwrap(), [f("a"), f("b"), f("c")]);
        assert_eq!(
            steps("typed_value.a.typed_value.b").unwrap(),
            [f("a"), f("b")]
        );
        assert_eq!(
            steps("tags[1][3].x").unwrap(),
            [f("tags"), Step::Index(0), Step::Index(2), f("x")]
        );
        assert_eq!(steps("[2]").unwrap(), [Step::Index(1)]);
        assert!(steps("tags[0]").unwrap_err().contains("start at 1"));
        assert!(steps("tags[x]").is_err());
        assert!(steps("tags[1").is_err());
        assert!(steps("a..b").is_err());
        assert_eq!(steps("typed_value").unwrap(), []);
        assert_eq!(steps("").unwrap(), []);
    }

    #[test]
    fn casts_as_duckdb() {
        // Integers.
        assert_eq!(to_int(ValueRef::Double(2.5)), Some(2));
        assert_eq!(to_int(ValueRef::Double(3.5)), Some(4));
        assert_eq!(to_int(ValueRef::Double(-0.5)), Some(0));
        assert_eq!(to_int(ValueRef::Double(f64::NAN)), None);
        assert_eq!(to_int(ValueRef::Double(1e300)), None);
        assert_eq!(to_int(ValueRef::Decimal4(250, 2)), Some(3));
        assert_eq!(to_int(ValueRef::Decimal4(-250, 2)), Some(-3));
        assert_eq!(to_int(ValueRef::Decimal4(249, 2)), Some(2));
        assert_eq!(to_int(ValueRef::Bool(true)), Some(1));
        for (s, want) in [
            (" 500 ", Some(500)),
            ("\t5\n", Some(5)),
            ("-5", Some(-5)),
            ("+5", None),
            ("00012", None),
            ("-0", Some(0)),
            ("-00", Some(0)),
            ("-012", Some(-12)),
            ("00", None),
            ("0xFF", Some(255)),
            ("0XFF", Some(255)),
            ("-0x10", None),
            ("0b101", Some(5)),
            ("0o7", None),
            ("1.0", None),
            ("1e2", None),
            ("1_000", None),
            ("abc", None),
        ] {
            assert_eq!(to_int(ValueRef::String(s)), want, "{s:?}");
        }
        // BIGINT literal: an int64 value beyond it does not cast; HUGEINT holds it.
        let big = Scalar::Int(5_000_000_000);
        assert_eq!(compare(ValueRef::String("9223372036854775808"), &big), None);
        let huge = Scalar::Int(1 << 70);
        assert_eq!(
            compare(ValueRef::String("9223372036854775808"), &huge),
            Some(Ordering::Less)
        );
        // Doubles.
        for (s, want) in [
            (" 1.5", Some(1.5)),
            ("1.5 ", None),
            ("+1.5", None),
            (".5", Some(0.5)),
            ("5.", Some(5.0)),
            ("1e2", Some(100.0)),
            ("1e400", Some(f64::INFINITY)),
            ("-inf", Some(f64::NEG_INFINITY)),
            ("Infinity", Some(f64::INFINITY)),
            ("0x1p3", None),
            ("00012", None),
            ("012.5", None),
            ("-012", Some(-12.0)),
            ("0.5", Some(0.5)),
            ("-.5", Some(-0.5)),
            ("0e5", Some(0.0)),
            ("1e", None),
            ("1_0", None),
        ] {
            assert_eq!(to_double(ValueRef::String(s)), want, "{s:?}");
        }
        assert!(to_double(ValueRef::String("NaN")).unwrap().is_nan());
        assert_eq!(to_double(ValueRef::Decimal8(15, 1)), Some(1.5));
        assert_eq!(to_double(ValueRef::Date(3)), None);
        // Booleans.
        assert_eq!(to_bool(ValueRef::String("YES")), Some(true));
        assert_eq!(to_bool(ValueRef::String("f")), Some(false));
        assert_eq!(to_bool(ValueRef::String("1")), None);
        assert_eq!(to_bool(ValueRef::String(" true")), None);
        assert_eq!(to_bool(ValueRef::Double(f64::NAN)), Some(true));
        assert_eq!(to_bool(ValueRef::Int8(0)), Some(false));
        // Text.
        let text = |v| to_text(v).unwrap();
        assert_eq!(text(ValueRef::Decimal4(-500, 2)), "-5.00");
        assert_eq!(text(ValueRef::Decimal4(5, 2)), ".05");
        assert_eq!(text(ValueRef::Decimal4(-5, 1)), "-.5");
        assert_eq!(text(ValueRef::Decimal4(105, 2)), "1.05");
        assert_eq!(text(ValueRef::Decimal8(123_456_789, 9)), ".123456789");
        assert_eq!(text(ValueRef::Decimal8(5_000_000_000, 1)), "500000000.0");
        assert_eq!(text(ValueRef::Decimal16(25, 20)), "0.00000000000000000025");
        assert_eq!(
            text(ValueRef::Decimal16(25, 38)),
            ".00000000000000000000000000000000000025"
        );
        assert_eq!(text(ValueRef::Bool(false)), "false");
        assert_eq!(text(ValueRef::Date(20_455)), "2026-01-02");
        assert_eq!(
            text(ValueRef::Uuid([0xab; 16])),
            "abababab-abab-abab-abab-abababababab"
        );
        assert_eq!(
            text(ValueRef::TimestampNtzMicros(1_767_323_045_120_000)),
            "2026-01-02 03:04:05.12"
        );
        assert_eq!(
            text(ValueRef::TimestampMicros(1_767_323_045_000_000)),
            "2026-01-02 03:04:05+00"
        );
        assert_eq!(
            text(ValueRef::TimestampNtzNanos(1_767_323_045_000_000_001)),
            "2026-01-02 03:04:05.000000001"
        );
        assert_eq!(
            text(ValueRef::TimestampNtzMicros(-315_521_754_500_000)),
            "1960-01-02 03:04:05.5"
        );
        assert_eq!(text(ValueRef::Time(11_045_000_100)), "03:04:05.0001");
        assert_eq!(text(ValueRef::Time(0)), "00:00:00");
        assert_eq!(text(ValueRef::Binary(b"\x00\xffab")), "\\x00\\xFFab");
    }

    #[test]
    fn floats_print_as_python_repr() {
        let d = |f: f64| to_text(ValueRef::Double(f)).unwrap();
        for (f, want) in [
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345.6, "123456789012345.6"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.3333333333333333"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (2f64.powi(70), "1.1805916207174113e+21"),
            (1.5e300, "1.5e+300"),
            (5e-324, "5e-324"),
            (-2.0, "-2.0"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ] {
            assert_eq!(d(f), want, "{f:e}");
        }
        assert_eq!(to_text(ValueRef::Float(0.1)).unwrap(), "0.1");
        assert_eq!(to_text(ValueRef::Float(1e20)).unwrap(), "1e+20");
        assert_eq!(to_text(ValueRef::Float(2.0)).unwrap(), "2.0");
    }
}

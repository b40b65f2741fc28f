//! Hive partition values: `key=value` folder names, URL-decoded, typed.

use std::cmp::Ordering;
use std::fmt;

use crate::core::values::text;
use crate::de::ConstValue;

/// The folder name Hive (and pyarrow, Spark, DuckDB) writes for a null partition value.
pub(crate) const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// A partition value, from a `key=value` folder name (public as a [`Value`](crate::Value):
/// [`DataFile::partition`](super::DataFile::partition)).
///
/// Every file of a dataset gets the same type for a key: [`Date`](Self::Date) when every
/// value of the key is a `YYYY-MM-DD` date, else [`Int`](Self::Int) when every value is
/// an integer (`hour=07` is 7), else [`String`](Self::String) (the decoded text).
/// `__HIVE_DEFAULT_PARTITION__` is [`Null`](Self::Null) whatever the type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum PartitionValue {
    /// A null value (`key=__HIVE_DEFAULT_PARTITION__`).
    Null,
    /// A date: days since 1970-01-01.
    Date(i32),
    /// An integer.
    Int(i64),
    /// Text.
    String(String),
}

impl PartitionValue {
    /// The value as users see it.
    pub(crate) fn to_value(&self) -> crate::record::Value {
        use crate::record::Value;
        match self {
            PartitionValue::Null => Value::Null,
            PartitionValue::Date(d) => Value::Date(*d),
            PartitionValue::Int(i) => Value::Int(*i),
            PartitionValue::String(s) => Value::String(s.clone()),
        }
    }

    /// The value as a constant field of the rows (`None` for null: the field is missing).
    pub(crate) fn constant(&self) -> Option<ConstValue> {
        match self {
            PartitionValue::Null => None,
            PartitionValue::Date(d) => Some(ConstValue::Date(*d)),
            PartitionValue::Int(i) => Some(ConstValue::Int(*i)),
            PartitionValue::String(s) => Some(ConstValue::Str(s.clone())),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            PartitionValue::Null => 0,
            PartitionValue::Date(_) => 1,
            PartitionValue::Int(_) => 2,
            PartitionValue::String(_) => 3,
        }
    }
}

/// Nulls first, then by value (values of different types by type).
impl Ord for PartitionValue {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PartitionValue::Date(a), PartitionValue::Date(b)) => a.cmp(b),
            (PartitionValue::Int(a), PartitionValue::Int(b)) => a.cmp(b),
            (PartitionValue::String(a), PartitionValue::String(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for PartitionValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `YYYY-MM-DD` for dates, the number, the text, `null`.
impl fmt::Display for PartitionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartitionValue::Null => f.write_str("null"),
            PartitionValue::Date(d) => text::date(*d as i64, f),
            PartitionValue::Int(i) => write!(f, "{i}"),
            PartitionValue::String(s) => f.write_str(s),
        }
    }
}

/// A folder name's `key=value` split and URL-decoded (`%xx`, as Hive escapes `/`, `=`,
/// `%` and the like): `None` for a name that is no partition (no `=`, an empty key, or
/// an escape that does not decode to UTF-8).
pub(crate) fn split_segment(name: &str) -> Option<(String, String)> {
    let (key, value) = name.split_once('=')?;
    let key = unescape(key)?;
    if key.is_empty() {
        return None;
    }
    Some((key, unescape(value)?))
}

/// `%xx` escapes decoded; `None` when the result is not UTF-8. A `%` not followed by two
/// hex digits stays as it is.
pub(crate) fn unescape(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The type a key's raw values take (see [`PartitionValue`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyType {
    Date,
    Int,
    String,
}

impl KeyType {
    /// The narrowest type every one of `values` (nulls aside) parses as.
    pub fn of<'a>(values: impl Iterator<Item = &'a str> + Clone) -> KeyType {
        let mut set = values.filter(|v| *v != NULL_PARTITION);
        if set.clone().all(|v| parse_date(v).is_some()) {
            KeyType::Date
        } else if set.all(|v| parse_int(v).is_some()) {
            KeyType::Int
        } else {
            KeyType::String
        }
    }

    /// `raw` as a value of this type (text that does not parse stays text).
    pub fn value(self, raw: &str) -> PartitionValue {
        if raw == NULL_PARTITION {
            return PartitionValue::Null;
        }
        let parsed = match self {
            KeyType::Date => parse_date(raw).map(PartitionValue::Date),
            KeyType::Int => parse_int(raw).map(PartitionValue::Int),
            KeyType::String => None,
        };
        parsed.unwrap_or_else(|| PartitionValue::String(raw.to_string()))
    }
}

pub(crate) fn parse_date(s: &str) -> Option<i32> {
    // Only the plain form `YYYY-MM-DD` (a signed or longer year is text).
    if s.len() != 10 {
        return None;
    }
    text::parse_date(s).and_then(|d| i32::try_from(d).ok())
}

pub(crate) fn parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_split_and_unescape() {
        assert_eq!(
            split_segment("date=2026-11-24"),
            Some(("date".into(), "2026-11-24".into()))
        );
        assert_eq!(
            split_segment("path=a%2Fb%3Dc"),
            Some(("path".into(), "a/b=c".into()))
        );
        assert_eq!(split_segment("x=100%"), Some(("x".into(), "100%".into())));
        assert_eq!(split_segment("x=%zz"), Some(("x".into(), "%zz".into())));
        assert_eq!(split_segment("k="), Some(("k".into(), String::new())));
        assert_eq!(split_segment("=v"), None);
        assert_eq!(split_segment("plain"), None);
        // %FF alone is no UTF-8.
        assert_eq!(split_segment("k=%FF"), None);
    }

    #[test]
    fn key_types() {
        let t = KeyType::of(["2026-11-24", "2026-11-25"].into_iter());
        assert_eq!(t, KeyType::Date);
        assert_eq!(t.value("2026-11-24"), PartitionValue::Date(20_781));
        let t = KeyType::of(["07", "13", NULL_PARTITION].into_iter());
        assert_eq!(t, KeyType::Int);
        assert_eq!(t.value("07"), PartitionValue::Int(7));
        assert_eq!(t.value(NULL_PARTITION), PartitionValue::Null);
        let t = KeyType::of(["1", "eu"].into_iter());
        assert_eq!(t, KeyType::String);
        assert_eq!(t.value("1"), PartitionValue::String("1".into()));
        assert_eq!(KeyType::of(["2026-13-01"].into_iter()), KeyType::String);
        assert_eq!(
            KeyType::of(["99999999999999999999"].into_iter()),
            KeyType::String
        );
        assert_eq!(KeyType::of(["+"].into_iter()), KeyType::String);
    }

    #[test]
    fn order_and_display() {
        let mut v = vec![
            PartitionValue::Int(13),
            PartitionValue::Null,
            PartitionValue::Int(7),
        ];
        v.sort();
        assert_eq!(
            v,
            [
                PartitionValue::Null,
                PartitionValue::Int(7),
                PartitionValue::Int(13)
            ]
        );
        assert_eq!(PartitionValue::Date(20_781).to_string(), "2026-11-24");
    }
}

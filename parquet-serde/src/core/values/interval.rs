//! [`Interval`]: the value of an INTERVAL column (a legacy converted type with no logical
//! type): `FIXED_LEN_BYTE_ARRAY(12)` holding three little-endian unsigned 32-bit counts.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

/// An INTERVAL: months, days and milliseconds, each an unsigned 32-bit count, independent of
/// each other (a month is not a fixed number of days, a day not always 86,400,000 ms).
///
/// In Parquet it is a `FIXED_LEN_BYTE_ARRAY(12)` annotated with the converted type INTERVAL:
/// `months`, `days`, `millis` in that order, each little-endian. A field of this type gets that
/// column ([`ParquetSchema`](crate::ParquetSchema)), and reads it back.
///
/// With serializers that are not human-readable (this crate's) it serializes as its 12 bytes;
/// with human-readable ones (JSON) as a struct `{ months, days, millis }`.
///
/// ```
/// use parquet_serde::core::values::Interval;
///
/// let i = Interval::new(1, 15, 3_600_000);
/// assert_eq!(Interval::from_le_bytes(i.to_le_bytes()), i);
/// assert_eq!(i.to_le_bytes()[..4], [1, 0, 0, 0]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Interval {
    /// Months.
    pub months: u32,
    /// Days.
    pub days: u32,
    /// Milliseconds.
    pub millis: u32,
}

impl Interval {
    /// The interval of `months`, `days` and `millis`.
    pub const fn new(months: u32, days: u32, millis: u32) -> Self {
        Interval {
            months,
            days,
            millis,
        }
    }

    /// The 12 bytes stored in the column.
    pub fn to_le_bytes(self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..4].copy_from_slice(&self.months.to_le_bytes());
        out[4..8].copy_from_slice(&self.days.to_le_bytes());
        out[8..].copy_from_slice(&self.millis.to_le_bytes());
        out
    }

    /// The interval stored as `bytes`.
    pub fn from_le_bytes(bytes: [u8; 12]) -> Self {
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Interval::new(word(0), word(4), word(8))
    }

    /// The interval stored as `bytes`, or `None` unless there are exactly 12.
    pub fn from_slice(bytes: &[u8]) -> Option<Self> {
        <[u8; 12]>::try_from(bytes).ok().map(Self::from_le_bytes)
    }
}

const FIELDS: &[&str] = &["months", "days", "millis"];

impl Serialize for Interval {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            let mut s = serializer.serialize_struct("Interval", 3)?;
            s.serialize_field("months", &self.months)?;
            s.serialize_field("days", &self.days)?;
            s.serialize_field("millis", &self.millis)?;
            s.end()
        } else {
            serializer.serialize_bytes(&self.to_le_bytes())
        }
    }
}

impl<'de> Deserialize<'de> for Interval {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_struct("Interval", FIELDS, IntervalVisitor)
        } else {
            deserializer.deserialize_bytes(IntervalVisitor)
        }
    }
}

struct IntervalVisitor;

impl<'de> Visitor<'de> for IntervalVisitor {
    type Value = Interval;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an INTERVAL: 12 bytes, or { months, days, millis }")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Interval, E> {
        Interval::from_slice(v).ok_or_else(|| E::invalid_length(v.len(), &"12 bytes"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Interval, A::Error> {
        // Either the 12 bytes one by one, or the three counts.
        let mut words = [0u32; 12];
        let mut n = 0;
        while let Some(x) = seq.next_element::<u32>()? {
            if n == 12 {
                return Err(de::Error::invalid_length(13, &self));
            }
            words[n] = x;
            n += 1;
        }
        match n {
            3 => Ok(Interval::new(words[0], words[1], words[2])),
            12 => {
                let mut bytes = [0u8; 12];
                for (b, &w) in bytes.iter_mut().zip(&words) {
                    *b = u8::try_from(w).map_err(|_| de::Error::custom("a byte above 255"))?;
                }
                Ok(Interval::from_le_bytes(bytes))
            }
            _ => Err(de::Error::invalid_length(n, &self)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Interval, A::Error> {
        let mut out = [None; 3];
        while let Some(key) = map.next_key::<String>()? {
            let Some(i) = FIELDS.iter().position(|f| *f == key) else {
                return Err(de::Error::unknown_field(&key, FIELDS));
            };
            if out[i].is_some() {
                return Err(de::Error::custom(format!("duplicate field `{key}`")));
            }
            out[i] = Some(map.next_value::<u32>()?);
        }
        match out {
            [Some(months), Some(days), Some(millis)] => Ok(Interval::new(months, days, millis)),
            _ => {
                let missing = FIELDS[out.iter().position(Option::is_none).unwrap_or(0)];
                Err(de::Error::missing_field(missing))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_little_endian_words() {
        let i = Interval::new(0x0403_0201, 5, u32::MAX);
        let b = i.to_le_bytes();
        assert_eq!(b, [1, 2, 3, 4, 5, 0, 0, 0, 255, 255, 255, 255]);
        assert_eq!(Interval::from_slice(&b), Some(i));
        assert_eq!(Interval::from_slice(&b[..11]), None);
    }

    #[test]
    fn json_is_a_struct() {
        let i = Interval::new(1, 2, 3);
        let text = serde_json::to_string(&i).unwrap();
        assert_eq!(text, r#"{"months":1,"days":2,"millis":3}"#);
        assert_eq!(serde_json::from_str::<Interval>(&text).unwrap(), i);
        assert!(serde_json::from_str::<Interval>(r#"{"months":1,"days":2}"#).is_err());
    }
}

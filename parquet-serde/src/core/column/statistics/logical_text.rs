//! [`Scalar::logical_text`]: a statistics value as the logical value of its column (what
//! `parquet-serde meta` prints), through `values::text`, the one home of text forms.

use super::order::{f16_to_f64, f64_to_f16_exact};
use super::scalar::Scalar;
use crate::core::format::Type;
use crate::core::schema::{Conversion, SchemaNode};
use crate::core::values::text::{self, Formatted};

impl Scalar {
    /// This value as the logical value of the leaf column `leaf` holds (the leaf's
    /// conversion: its logical or converted type, as the readers apply it):
    ///
    /// | column | text |
    /// |---|---|
    /// | DECIMAL | `-123.45`, exactly `scale` fractional digits |
    /// | DATE | `2024-01-30` |
    /// | TIME | `12:00:00.000000`, the unit's digits (3, 6 or 9) |
    /// | TIMESTAMP | RFC 3339 with the unit's digits, `Z` when adjusted to UTC |
    /// | UUID | hyphenated lowercase |
    /// | FLOAT16 | the shortest decimal that reads back to the same half float |
    /// | FLOAT | the shortest decimal that reads back to the same `f32` |
    /// | anything else | as [`Display`](std::fmt::Display) prints the value |
    ///
    /// A value that does not fit the leaf's type (a UUID of other than 16 bytes, say) prints
    /// as `Display` prints it.
    ///
    /// ```
    /// use parquet_serde::core::column::Scalar;
    /// use parquet_serde::core::schema::Schema;
    /// let s: Schema = "message m {
    ///     required int64 d (DECIMAL(18, 2));
    ///     required int64 t (TIMESTAMP(MICROS, true));
    ///     required float f;
    /// }"
    /// .parse()?;
    /// assert_eq!(Scalar::Int(9_999_490).logical_text(&s.fields()[0]), "99994.90");
    /// assert_eq!(
    ///     Scalar::Int(1_767_225_600_000_000).logical_text(&s.fields()[1]),
    ///     "2026-01-01T00:00:00.000000Z"
    /// );
    /// assert_eq!(Scalar::Float(0.1f32 as f64).logical_text(&s.fields()[2]), "0.1");
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn logical_text(&self, leaf: &SchemaNode) -> String {
        let conversion = leaf.conversion().unwrap_or(Conversion::Plain);
        let printed = match (self, conversion) {
            (Scalar::Int(v), Conversion::Decimal { scale, .. }) => {
                Some(Formatted(|f| text::decimal(*v, scale, f)).to_string())
            }
            (Scalar::Int(v), Conversion::Date) => i64::try_from(*v)
                .ok()
                .map(|d| Formatted(|f| text::date(d, f)).to_string()),
            (Scalar::Int(v), Conversion::Time { unit, .. }) => i64::try_from(*v)
                .ok()
                .map(|t| Formatted(|f| text::time(t, unit, f)).to_string()),
            (Scalar::Int(v), Conversion::Timestamp { unit, utc }) => i64::try_from(*v)
                .ok()
                .map(|t| Formatted(|f| text::timestamp(t, unit, utc, f)).to_string()),
            (Scalar::Bytes(b), Conversion::Uuid) if b.len() == 16 => {
                Some(Formatted(|f| text::uuid(b, f)).to_string())
            }
            (Scalar::Float(v), Conversion::Float16) => Some(float16_text(*v)),
            (Scalar::Float(v), _) if leaf.physical_type() == Some(Type::Float) => {
                Some(format!("{:?}", *v as f32))
            }
            _ => None,
        };
        printed.unwrap_or_else(|| self.to_string())
    }
}

/// The shortest decimal text of a half float `x` (a value that came from one) that reads
/// back to it: the fewest significant digits whose value is nearer to `x` than to either
/// neighbouring half float (`0.1` for the half nearest 0.1, which is 0.0999755859375).
fn float16_text(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x:?}");
    }
    let bits = f64_to_f16_exact(x);
    let (sign, magnitude) = (bits & 0x8000, bits & 0x7fff);
    // `magnitude` is at least 1 (x is not zero) and at most 0x7bff (x is finite).
    let below = f16_to_f64(sign | (magnitude - 1));
    let above = match f16_to_f64(sign | (magnitude + 1)) {
        // Above the largest half: the next step would be as wide as the last one.
        next if next.is_infinite() => x + (x - below),
        next => next,
    };
    let room = (x - below).abs().min((above - x).abs()) / 2.0;
    for digits in 0..17 {
        let candidate: f64 = format!("{x:.digits$e}").parse().unwrap_or(x);
        if (candidate - x).abs() < room {
            return format!("{candidate:?}");
        }
    }
    format!("{x:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schema::Schema;

    fn leaf(kind: &str) -> SchemaNode {
        // `kind` is "<type> (<annotation>)" or "<type>"; the annotation follows the name.
        let (ty, annotation) = kind.split_once(" (").map_or((kind, ""), |(t, a)| (t, a));
        let annotation = if annotation.is_empty() {
            String::new()
        } else {
            format!(" ({annotation}")
        };
        let s: Schema = format!("message m {{ required {ty} x{annotation}; }}")
            .parse()
            .unwrap();
        s.fields()[0].clone()
    }

    #[test]
    fn logical_values() {
        let t = |v: Scalar, kind: &str| v.logical_text(&leaf(kind));
        assert_eq!(t(Scalar::Int(0), "int32 (DECIMAL(9, 2))"), "0.00");
        assert_eq!(t(Scalar::Int(-5), "int64 (DECIMAL(18, 3))"), "-0.005");
        let big = 10_i128.pow(37) + 1;
        assert_eq!(
            t(
                Scalar::Int(big),
                "fixed_len_byte_array(16) (DECIMAL(38, 37))"
            ),
            format!("1.{}1", "0".repeat(36))
        );
        assert_eq!(t(Scalar::Int(-1), "int32 (DATE)"), "1969-12-31");
        assert_eq!(
            t(Scalar::Int(3_723_004), "int32 (TIME(MILLIS, true))"),
            "01:02:03.004"
        );
        assert_eq!(
            t(Scalar::Int(1), "int64 (TIMESTAMP(NANOS, false))"),
            "1970-01-01T00:00:00.000000001"
        );
        assert_eq!(
            t(Scalar::Int(-1), "int64 (TIMESTAMP(MILLIS, true))"),
            "1969-12-31T23:59:59.999Z"
        );
        assert_eq!(
            t(
                Scalar::Bytes(vec![0xab; 16]),
                "fixed_len_byte_array(16) (UUID)"
            ),
            "abababab-abab-abab-abab-abababababab"
        );
        assert_eq!(t(Scalar::Float(0.1f32 as f64), "float"), "0.1");
        assert_eq!(t(Scalar::Float(0.1), "double"), "0.1");
        assert_eq!(t(Scalar::Int(7), "int64"), "7");
        assert_eq!(
            t(Scalar::Int(u64::MAX.into()), "int64 (UINT_64)"),
            u64::MAX.to_string()
        );
        assert_eq!(t(Scalar::Bytes(b"a".to_vec()), "binary (STRING)"), "\"a\"");
        // Not a UUID's length: printed as bytes.
        assert_eq!(
            t(Scalar::Bytes(vec![1]), "fixed_len_byte_array(16) (UUID)"),
            "0x01"
        );
    }

    #[test]
    fn float16_prints_its_shortest_form_for_every_half() {
        let f16 = "fixed_len_byte_array(2) (FLOAT16)";
        let node = leaf(f16);
        let halves: Vec<f64> = (0..=0x7bff).map(f16_to_f64).collect();
        for bits in 0..=u16::MAX {
            let x = f16_to_f64(bits);
            if !x.is_finite() {
                continue;
            }
            let printed = Scalar::Float(x).logical_text(&node);
            let back: f64 = printed.parse().unwrap();
            // Reads back to the same half: nearer to it than to either neighbour.
            assert_eq!(
                f64_to_f16_exact(nearest_half(&halves, back)),
                bits,
                "{bits:#x}: {printed}"
            );
        }
        assert_eq!(Scalar::Float(f16_to_f64(0x2e66)).logical_text(&node), "0.1");
        assert_eq!(Scalar::Float(65504.0).logical_text(&node), "65500.0");
        assert_eq!(Scalar::Float(-0.0).logical_text(&node), "-0.0");
        assert_eq!(Scalar::Float(f64::INFINITY).logical_text(&node), "inf");
    }

    /// The half float nearest `x` (test oracle): a binary search over `halves`, the finite
    /// non-negative halves in order.
    fn nearest_half(halves: &[f64], x: f64) -> f64 {
        let above = halves.partition_point(|&h| h < x.abs());
        let nearest = [above.saturating_sub(1), above.min(halves.len() - 1)]
            .into_iter()
            .map(|i| halves[i])
            .min_by(|a, b| (a - x.abs()).abs().total_cmp(&(b - x.abs()).abs()))
            .unwrap();
        nearest.copysign(x)
    }
}

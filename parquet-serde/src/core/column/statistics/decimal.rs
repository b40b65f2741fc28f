//! [`Decimal`]: an exact decimal number of any length, as a predicate's literal keeps it.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// An exact decimal number, `±digits × 10^-scale`, with as many digits as written: the
/// literal `90000.00` or `766.1742230874571007` of a predicate, kept as typed (no `f64` on
/// the way), so that it compares exactly with DECIMAL and integer columns.
///
/// ```
/// use parquet_serde::core::column::Decimal;
/// let d: Decimal = "-0012.50".parse().unwrap();
/// assert_eq!(d.to_string(), "-12.50");
/// assert_eq!(d.scale(), 2);
/// assert_eq!(d.cmp_int(-12), std::cmp::Ordering::Less);
/// assert_eq!("1.5".parse::<Decimal>().unwrap(), "1.50".parse::<Decimal>().unwrap());
/// ```
#[derive(Debug, Clone)]
pub struct Decimal {
    negative: bool,
    /// ASCII digits of `|value| × 10^scale`, without leading zeros beyond the integer
    /// part's one `0` (the fraction's trailing zeros are kept, as written).
    digits: String,
    scale: u32,
}

impl Decimal {
    /// Whether the value is below zero (`-0.0` is not).
    pub fn is_negative(&self) -> bool {
        self.negative && self.digits.bytes().any(|b| b != b'0')
    }

    /// The digits of `|value| × 10^scale`, as written.
    pub fn digits(&self) -> &str {
        &self.digits
    }

    /// How many of the digits are after the decimal point.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// The nearest `f64` (as Rust's parser rounds the text).
    pub fn to_f64(&self) -> f64 {
        self.to_string().parse().unwrap_or(f64::NAN)
    }

    /// The nearest `f32`, rounded once from the text.
    pub fn to_f32(&self) -> f32 {
        self.to_string().parse().unwrap_or(f32::NAN)
    }

    /// The exact decimal of a finite `f64`'s shortest round-trip text (`0.1` for `0.1`):
    /// what a float literal means on a DECIMAL or integer column. `None` for NaN and ±inf.
    pub fn from_f64(v: f64) -> Option<Decimal> {
        if !v.is_finite() {
            return None;
        }
        // `{:?}` never uses an exponent below 1e16 and gives the shortest round-trip digits;
        // expand the exponent form by hand.
        let s = format!("{v:e}");
        let (mantissa, exp) = s.split_once('e')?;
        let exp: i64 = exp.parse().ok()?;
        let (neg, mantissa) = match mantissa.strip_prefix('-') {
            Some(m) => (true, m),
            None => (false, mantissa),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{int}{frac}");
        let scale = frac.len() as i64 - exp;
        let (digits, scale) = if scale < 0 {
            (format!("{digits}{}", "0".repeat((-scale) as usize)), 0)
        } else {
            (digits, scale as u32)
        };
        Some(Decimal::new(neg, &digits, scale))
    }

    fn new(negative: bool, digits: &str, scale: u32) -> Decimal {
        // Keep at least one integer digit, drop the other leading zeros.
        let keep = scale as usize + 1;
        let mut d = digits.trim_start_matches('0');
        if d.len() < keep {
            d = &digits[digits.len().saturating_sub(keep)..];
        }
        let mut digits = d.to_string();
        while digits.len() < keep {
            digits.insert(0, '0');
        }
        Decimal {
            negative,
            digits,
            scale,
        }
    }

    /// Integer digits without leading zeros, fraction digits without trailing zeros.
    fn parts(&self) -> (&str, &str) {
        let (int, frac) = self
            .digits
            .split_at(self.digits.len() - self.scale as usize);
        (int.trim_start_matches('0'), frac.trim_end_matches('0'))
    }

    /// Compares the magnitudes.
    fn cmp_abs(&self, other: &Decimal) -> Ordering {
        let (ai, af) = self.parts();
        let (bi, bf) = other.parts();
        ai.len()
            .cmp(&bi.len())
            .then_with(|| ai.cmp(bi))
            .then_with(|| af.cmp(bf))
    }

    /// Compares with an integer, exactly.
    pub fn cmp_int(&self, i: i128) -> Ordering {
        self.cmp(&Decimal::from(i))
    }
}

impl From<i128> for Decimal {
    fn from(i: i128) -> Decimal {
        Decimal::new(i < 0, &i.unsigned_abs().to_string(), 0)
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => self.cmp_abs(other),
            (true, true) => other.cmp_abs(self),
        }
    }
}

impl FromStr for Decimal {
    type Err = String;

    /// `[+-]digits[.digits]` or `[+-].digits`: no exponent, no spaces.
    fn from_str(s: &str) -> Result<Decimal, String> {
        let (negative, body) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        let ok = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if int.len() + frac.len() == 0 || !ok(int) || !ok(frac) {
            return Err(format!("{s:?} is not a decimal number"));
        }
        let scale = u32::try_from(frac.len()).map_err(|_| format!("{s:?} is too long"))?;
        Ok(Decimal::new(negative, &format!("{int}{frac}"), scale))
    }
}

impl fmt::Display for Decimal {
    /// The number as written, without leading zeros: `-12.50`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_negative() {
            f.write_str("-")?;
        }
        let (int, frac) = self
            .digits
            .split_at(self.digits.len() - self.scale as usize);
        f.write_str(int)?;
        if !frac.is_empty() {
            write!(f, ".{frac}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn parses_and_echoes_as_written() {
        assert_eq!(d("90000.00").to_string(), "90000.00");
        assert_eq!(
            d("766.1742230874571007").to_string(),
            "766.1742230874571007"
        );
        assert_eq!(d("-.5").to_string(), "-0.5");
        assert_eq!(d("+007").to_string(), "7");
        assert_eq!(d("-0.0").to_string(), "0.0");
        assert_eq!(d("5.").to_string(), "5");
        assert!("".parse::<Decimal>().is_err());
        assert!(".".parse::<Decimal>().is_err());
        assert!("1e3".parse::<Decimal>().is_err());
        assert!("1.2.3".parse::<Decimal>().is_err());
    }

    #[test]
    fn compares_exactly_beyond_every_float_and_i128() {
        assert!(d("0.1") > d("0.0999999999999999999999999999999999999999999"));
        assert_eq!(d("1.50"), d("1.5"));
        assert!(d("-1.5") < d("-1.49"));
        assert_eq!(d("-0"), d("0.000"));
        let big = d("123456789012345678901234567890123456789012345");
        assert_eq!(big.cmp_int(i128::MAX), Ordering::Greater);
        assert_eq!(
            d("-123456789012345678901234567890123456789012345").cmp_int(i128::MIN),
            Ordering::Less
        );
        assert_eq!(d("2.0000000000000000000001").cmp_int(2), Ordering::Greater);
        assert_eq!(d("-2.0000000000000000000001").cmp_int(-2), Ordering::Less);
        assert_eq!(
            d("170141183460469231731687303715884105727").cmp_int(i128::MAX),
            Ordering::Equal
        );
    }

    #[test]
    fn from_floats_by_their_shortest_text() {
        assert_eq!(Decimal::from_f64(0.1).unwrap().to_string(), "0.1");
        assert_eq!(Decimal::from_f64(-2.5e-3).unwrap().to_string(), "-0.0025");
        assert_eq!(
            Decimal::from_f64(1e20).unwrap().to_string(),
            "100000000000000000000"
        );
        assert_eq!(
            Decimal::from_f64(90000.0).unwrap().cmp_int(90000),
            Ordering::Equal
        );
        assert!(Decimal::from_f64(f64::NAN).is_none());
        assert_eq!(d("0.1").to_f64(), 0.1);
        assert_eq!(d("0.1").to_f32(), 0.1f32);
    }
}

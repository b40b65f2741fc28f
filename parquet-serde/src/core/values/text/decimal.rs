//! Decimal text parsed exactly, at any precision: `[+-]digits[.digits][(e|E)[+-]digits]` as
//! the unscaled integer of a column's scale, in decimal digits, ready to become an `i128` or
//! big-endian two's complement bytes of any length.

/// The most digits an unscaled value may have (the widest decimal the typed layer writes is
/// 1000 digits; this bound keeps `1e999999999` from allocating).
const MAX_DIGITS: usize = 4096;

/// Why decimal text does not fit a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecimalTextError {
    /// Not a decimal number.
    Syntax,
    /// Non-zero digits beyond the scale (they would be lost).
    LostDigits,
    /// More than [`MAX_DIGITS`] digits.
    TooLong,
}

/// An unscaled decimal value: sign and decimal digits, most significant first, without
/// leading zeros (zero has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unscaled {
    pub negative: bool,
    /// Digit values 0..=9.
    pub digits: Vec<u8>,
}

impl Unscaled {
    /// The number of digits (1 for zero): the least precision that holds the value.
    pub fn precision(&self) -> u32 {
        self.digits.len().max(1) as u32
    }

    /// The value as an `i128`, when it has at most 38 digits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.digits.len() > 38 {
            return None;
        }
        let mut v: i128 = 0;
        for &d in &self.digits {
            // 38 digits fit an i128 (10^38 - 1 < 2^127).
            v = v * 10 + d as i128;
        }
        Some(if self.negative { -v } else { v })
    }

    /// The value as big-endian two's complement bytes, as few as hold it (at least one).
    pub fn to_be_bytes(&self) -> Vec<u8> {
        // Magnitude, little-endian base 256.
        let mut mag: Vec<u8> = Vec::with_capacity(self.digits.len() / 2 + 1);
        for &d in &self.digits {
            let mut carry = d as u32;
            for b in mag.iter_mut() {
                let x = *b as u32 * 10 + carry;
                *b = x as u8;
                carry = x >> 8;
            }
            while carry > 0 {
                mag.push(carry as u8);
                carry >>= 8;
            }
        }
        if self.negative && !mag.is_empty() {
            // Two's complement: invert and add one.
            let mut carry = true;
            for b in mag.iter_mut() {
                let (v, c) = (!*b).overflowing_add(carry as u8);
                *b = v;
                carry = c;
            }
            if mag.last().is_some_and(|&b| b & 0x80 == 0) {
                mag.push(0xff);
            }
        } else if mag.last().is_none_or(|&b| b & 0x80 != 0) {
            mag.push(0);
        }
        // Drop leading bytes that only repeat the sign.
        while mag.len() > 1 {
            let (top, next) = (mag[mag.len() - 1], mag[mag.len() - 2]);
            if (top == 0 && next & 0x80 == 0) || (top == 0xff && next & 0x80 != 0) {
                mag.pop();
            } else {
                break;
            }
        }
        mag.reverse();
        mag
    }
}

/// Decimal text as the unscaled value with `scale` digits after the point. Digits beyond the
/// scale are accepted only when they are zeros.
pub(crate) fn parse_decimal_exact(s: &str, scale: u32) -> Result<Unscaled, DecimalTextError> {
    let b = s.as_bytes();
    let (negative, b) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let (mantissa, exp) = match b.iter().position(|&c| c == b'e' || c == b'E') {
        Some(p) => (&b[..p], Some(&b[p + 1..])),
        None => (b, None),
    };
    let (int, frac) = match mantissa.iter().position(|&c| c == b'.') {
        Some(p) => (&mantissa[..p], &mantissa[p + 1..]),
        None => (mantissa, &mantissa[..0]),
    };
    if int.is_empty() && frac.is_empty() {
        return Err(DecimalTextError::Syntax);
    }
    if !int.iter().chain(frac).all(u8::is_ascii_digit) {
        return Err(DecimalTextError::Syntax);
    }
    let exp: i64 = match exp {
        None => 0,
        Some(e) => parse_exponent(e)?,
    };
    // value = digits(int ++ frac) × 10^(exp - frac.len()); unscaled = value × 10^scale.
    let mut digits: Vec<u8> = Vec::new();
    for &c in int.iter().chain(frac) {
        if digits.is_empty() && c == b'0' {
            continue;
        }
        if digits.len() >= MAX_DIGITS {
            return Err(DecimalTextError::TooLong);
        }
        digits.push(c - b'0');
    }
    let shift = exp - frac.len() as i64 + scale as i64;
    if digits.is_empty() {
        return Ok(Unscaled {
            negative: false,
            digits,
        });
    }
    if shift >= 0 {
        let total = digits.len() as i64 + shift;
        if total > MAX_DIGITS as i64 {
            return Err(DecimalTextError::TooLong);
        }
        digits.resize(total as usize, 0);
    } else {
        let drop = shift.unsigned_abs().min(digits.len() as u64) as usize;
        let keep = digits.len() - drop;
        if digits[keep..].iter().any(|&d| d != 0) {
            return Err(DecimalTextError::LostDigits);
        }
        digits.truncate(keep);
    }
    Ok(Unscaled {
        negative: negative && !digits.is_empty(),
        digits,
    })
}

/// `[+-]digits` of an exponent, saturated far beyond any digit count that could be kept.
fn parse_exponent(e: &[u8]) -> Result<i64, DecimalTextError> {
    let (neg, e) = match e.first() {
        Some(b'-') => (true, &e[1..]),
        Some(b'+') => (false, &e[1..]),
        _ => (false, e),
    };
    if e.is_empty() || !e.iter().all(u8::is_ascii_digit) {
        return Err(DecimalTextError::Syntax);
    }
    let mut v: i64 = 0;
    for &c in e {
        v = (v * 10 + (c - b'0') as i64).min(1 << 40);
    }
    Ok(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unscaled(s: &str, scale: u32) -> Result<Option<i128>, DecimalTextError> {
        parse_decimal_exact(s, scale).map(|u| u.to_i128())
    }

    #[test]
    fn plain_and_exponent_forms() {
        assert_eq!(unscaled("1.5", 2), Ok(Some(150)));
        assert_eq!(unscaled("-0.05", 2), Ok(Some(-5)));
        assert_eq!(unscaled("1.500", 2), Ok(Some(150)));
        assert_eq!(unscaled("1E+3", 0), Ok(Some(1000)));
        assert_eq!(unscaled("12.5e-1", 2), Ok(Some(125)));
        assert_eq!(unscaled("5E-7", 7), Ok(Some(5)));
        assert_eq!(unscaled("-0", 3), Ok(Some(0)));
        assert_eq!(unscaled(".5", 1), Ok(Some(5)));
        assert_eq!(unscaled("5.", 0), Ok(Some(5)));
        assert_eq!(unscaled("0e999999999999", 0), Ok(Some(0)));
        assert_eq!(unscaled("1.25", 1), Err(DecimalTextError::LostDigits));
        assert_eq!(unscaled("1e-1", 0), Err(DecimalTextError::LostDigits));
        for bad in [
            "", "-", ".", "1.2.3", "1e", "1e+", "x", "1_0", "--1", "1e1.5",
        ] {
            assert_eq!(unscaled(bad, 2), Err(DecimalTextError::Syntax), "{bad}");
        }
        assert_eq!(
            unscaled("1e999999999999", 0),
            Err(DecimalTextError::TooLong)
        );
        let max = "9".repeat(38);
        assert_eq!(unscaled(&max, 0), Ok(Some(10i128.pow(38) - 1)));
        assert_eq!(unscaled(&format!("{max}9"), 0), Ok(None));
    }

    #[test]
    fn big_endian_bytes() {
        let be = |s: &str| parse_decimal_exact(s, 0).unwrap().to_be_bytes();
        assert_eq!(be("0"), [0]);
        assert_eq!(be("127"), [0x7f]);
        assert_eq!(be("128"), [0, 0x80]);
        assert_eq!(be("-128"), [0x80]);
        assert_eq!(be("-129"), [0xff, 0x7f]);
        assert_eq!(be("-1"), [0xff]);
        assert_eq!(be("65535"), [0, 0xff, 0xff]);
        for v in [
            i128::MAX,
            i128::MIN + 1,
            1 << 100,
            -(1 << 100),
            10i128.pow(38) - 1,
        ] {
            let b = be(&v.to_string());
            assert_eq!(crate::core::values::numeric::be_i128(&b), Some(v), "{v}");
        }
        // Past 16 bytes: the text printed back is the text parsed.
        let wide = format!("-{}", "98765432109876543210".repeat(3));
        let b = be(&wide);
        assert_eq!(super::super::decimal_long(&b, 0), wide);
    }
}

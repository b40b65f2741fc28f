//! A JSON text check (RFC 8259, accepting exactly what serde_json accepts, with no lone
//! surrogate escape): one pass over the bytes, nothing allocated unless arrays and objects
//! nest more than 128 deep, any depth accepted. It runs on every value written to a JSON
//! column, several times faster than serde_json skipping the value (`IgnoredAny`).

/// Whether each byte ends the fast scan of a string: `"`, `\` and control characters.
const STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Checks that `text` is exactly one JSON value, with whitespace around it.
pub(crate) fn check(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let mut open = Nesting::default();
    let mut i = 0;
    'value: loop {
        // A value is expected at `i`.
        i = skip_ws(b, i);
        match b.get(i) {
            Some(b'{') => {
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&b'}') {
                    i += 1;
                } else {
                    open.push(true);
                    i = key(b, i)?;
                    continue 'value;
                }
            }
            Some(b'[') => {
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&b']') {
                    i += 1;
                } else {
                    open.push(false);
                    continue 'value;
                }
            }
            Some(b'"') => i = string(b, i + 1)?,
            Some(b'-' | b'0'..=b'9') => i = number(b, i)?,
            Some(b't') => i = literal(b, i, b"true")?,
            Some(b'f') => i = literal(b, i, b"false")?,
            Some(b'n') => i = literal(b, i, b"null")?,
            _ => return Err(fail(b, i, "expected a value")),
        }
        // After a value: the end, a separator, or the close of its array or object.
        loop {
            i = skip_ws(b, i);
            let Some(object) = open.top() else {
                return match i == b.len() {
                    true => Ok(()),
                    false => Err(fail(b, i, "trailing characters after the value")),
                };
            };
            match b.get(i) {
                Some(b',') if object => {
                    i = key(b, skip_ws(b, i + 1))?;
                    continue 'value;
                }
                Some(b',') => {
                    i += 1;
                    continue 'value;
                }
                Some(b'}') if object => {
                    i += 1;
                    open.pop();
                }
                Some(b']') if !object => {
                    i += 1;
                    open.pop();
                }
                _ if object => return Err(fail(b, i, "expected `,` or `}`")),
                _ => return Err(fail(b, i, "expected `,` or `]`")),
            }
        }
    }
}

/// The error at byte `i` of `b`.
#[cold]
fn fail(b: &[u8], i: usize, what: &str) -> String {
    match i >= b.len() {
        true => format!("not valid JSON: {what}, found the end (byte {i})"),
        false => format!("not valid JSON: {what} at byte {i}"),
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// An object key at `i` (whitespace skipped) and its `:`; the index after the colon.
fn key(b: &[u8], i: usize) -> Result<usize, String> {
    if b.get(i) != Some(&b'"') {
        return Err(fail(b, i, "expected a string key"));
    }
    let i = skip_ws(b, string(b, i + 1)?);
    match b.get(i) {
        Some(b':') => Ok(i + 1),
        _ => Err(fail(b, i, "expected `:`")),
    }
}

/// The rest of a string whose opening quote is before `i`; the index after its closing
/// quote. The text is UTF-8 already (a `&str`).
fn string(b: &[u8], mut i: usize) -> Result<usize, String> {
    loop {
        // Eight bytes at a time while none stops the scan, then byte by byte.
        while let Some(word) = b.get(i..i + 8) {
            let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            if stops(w) {
                break;
            }
            i += 8;
        }
        while i < b.len() && !STRING_STOP[b[i] as usize] {
            i += 1;
        }
        match b.get(i) {
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') => i = escape(b, i)?,
            Some(_) => return Err(fail(b, i, "a control character in a string")),
            None => return Err(fail(b, i, "an unterminated string")),
        }
    }
}

/// Whether one of the eight bytes of `w` is in [`STRING_STOP`] (the classic word tricks:
/// a byte below 0x20, or one equal to `"` or `\`, sets its high bit in the result; exact for
/// the word as a whole).
#[inline(always)]
fn stops(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGH;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    (below(w, 0x20) | zero(w ^ (ONES * b'"' as u64)) | zero(w ^ (ONES * b'\\' as u64))) != 0
}

/// The escape starting with the backslash at `i`; the index after it. A `\u` escape of a
/// high surrogate must be followed by one of a low surrogate.
fn escape(b: &[u8], i: usize) -> Result<usize, String> {
    match b.get(i + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
        Some(b'u') => {
            let unit = hex4(b, i + 2).ok_or_else(|| fail(b, i, "a bad `\\u` escape"))?;
            match unit {
                0xD800..=0xDBFF => {
                    let low = match (b.get(i + 6..i + 8), hex4(b, i + 8)) {
                        (Some(b"\\u"), Some(low)) => low,
                        _ => 0,
                    };
                    match low {
                        0xDC00..=0xDFFF => Ok(i + 12),
                        _ => Err(fail(b, i, "a lone surrogate escape")),
                    }
                }
                0xDC00..=0xDFFF => Err(fail(b, i, "a lone surrogate escape")),
                _ => Ok(i + 6),
            }
        }
        _ => Err(fail(b, i, "a bad escape")),
    }
}

/// Four hexadecimal digits at `i`.
fn hex4(b: &[u8], i: usize) -> Option<u16> {
    let digits = b.get(i..i + 4)?;
    digits.iter().try_fold(0u16, |acc, &d| {
        let v = (d as char).to_digit(16)?;
        Some(acc << 4 | v as u16)
    })
}

/// A number at `i`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; the index after
/// it (its range is not checked, as serde_json does not when it skips a value).
fn number(b: &[u8], mut i: usize) -> Result<usize, String> {
    let digits = |mut i: usize| {
        let start = i;
        while let Some(b'0'..=b'9') = b.get(i) {
            i += 1;
        }
        (i, i > start)
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i).0,
        _ => return Err(fail(b, i, "expected a digit")),
    }
    if b.get(i) == Some(&b'.') {
        let (end, any) = digits(i + 1);
        if !any {
            return Err(fail(b, end, "expected a digit after `.`"));
        }
        i = end;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        let (end, any) = digits(i);
        if !any {
            return Err(fail(b, end, "expected a digit in the exponent"));
        }
        i = end;
    }
    Ok(i)
}

/// The literal `word` at `i`; the index after it.
fn literal(b: &[u8], i: usize, word: &[u8]) -> Result<usize, String> {
    match b.get(i..i + word.len()) {
        Some(w) if w == word => Ok(i + word.len()),
        _ => Err(fail(b, i, "expected a value")),
    }
}

/// The open arrays and objects (`true`: an object), innermost last: a bit stack of 128
/// levels, spilling to the heap beyond.
#[derive(Default)]
struct Nesting {
    bits: u128,
    depth: usize,
    deeper: Vec<bool>,
}

impl Nesting {
    fn push(&mut self, object: bool) {
        if self.depth < 128 {
            self.bits = self.bits & !(1 << self.depth) | (object as u128) << self.depth;
        } else {
            self.deeper.push(object);
        }
        self.depth += 1;
    }

    fn pop(&mut self) {
        self.depth -= 1;
        if self.depth >= 128 {
            self.deeper.pop();
        }
    }

    fn top(&self) -> Option<bool> {
        match self.depth {
            0 => None,
            d if d <= 128 => Some(self.bits >> (d - 1) & 1 == 1),
            _ => self.deeper.last().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::de::IgnoredAny;

    /// What the check must accept: what serde_json accepts when it skips a value, less the
    /// texts with a lone surrogate escape.
    fn oracle(text: &str) -> bool {
        serde_json::from_str::<IgnoredAny>(text).is_ok() && paired(text.as_bytes())
    }

    /// Whether every `\u` escape of a surrogate in `b` (valid JSON) is one of a pair.
    fn paired(b: &[u8]) -> bool {
        let hex = |at: usize| -> Option<u16> {
            u16::from_str_radix(std::str::from_utf8(b.get(at..at + 4)?).ok()?, 16).ok()
        };
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                i += 1;
                continue;
            }
            if b.get(i + 1) != Some(&b'u') {
                i += 2;
                continue;
            }
            match hex(i + 2) {
                Some(0xD800..=0xDBFF) => match (b.get(i + 6..i + 8), hex(i + 8)) {
                    (Some(b"\\u"), Some(0xDC00..=0xDFFF)) => i += 12,
                    _ => return false,
                },
                Some(0xDC00..=0xDFFF) | None => return false,
                Some(_) => i += 6,
            }
        }
        true
    }

    #[test]
    fn examples() {
        let deep = "[".repeat(5000) + &"]".repeat(5000);
        let deep_mixed = "{\"a\":[".repeat(300) + "1" + &"]}".repeat(300);
        for ok in [
            "null",
            "true",
            "1e400",
            "-0",
            "0.5E-3",
            " [1, {\"a\": {}}] ",
            "\"\\ud83d\\ude00\"",
            "\"\\\\ud800\"",
            "{\"\\u00e9\":[]}",
            &deep,
            &deep_mixed,
            "\"\u{7f}\u{2028}\"",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
            assert!(oracle(ok), "{ok}");
        }
        let unclosed = "[".repeat(200) + &"]".repeat(199);
        for bad in [
            "",
            " ",
            "{bad json",
            "{} {}",
            "NaN",
            "'a'",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            "-",
            "+1",
            ".5",
            "1e",
            "tru",
            "nul",
            "\u{feff}1",
            "\"\u{0}\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "{\"\\ud83d\": 1}",
            "\"\\x\"",
            "\"\\u12g4\"",
            "[1 2]",
            "{1:2}",
            "{\"a\" 1}",
            "]",
            "\u{c}1",
            &unclosed,
        ] {
            assert!(check(bad).is_err(), "{bad}");
            assert!(!oracle(bad), "{bad}");
        }
        assert_eq!(
            check("[1,]"),
            Err("not valid JSON: expected a value at byte 3".to_owned())
        );
    }

    #[test]
    fn every_stop_byte_at_every_offset_of_a_long_string() {
        for len in 0..40 {
            for at in 0..len {
                for stop in ['"', '\\', '\u{1}', '\u{1f}', '\u{0}'] {
                    let mut body: Vec<char> = "abcdefghijé€😀klmnopqrstuvwxyz0123456789ABCD"
                        .chars()
                        .take(len)
                        .collect();
                    body[at] = stop;
                    let text = format!("\"{}\"", body.into_iter().collect::<String>());
                    assert_eq!(check(&text).is_ok(), oracle(&text), "{text:?}");
                }
                let clean: String = "x".repeat(len) + "\u{7f}\u{80}";
                assert_eq!(check(&format!("[\"{clean}\"]")), Ok(()));
            }
        }
    }

    /// Texts made of JSON's tokens and near misses, so that most are almost JSON.
    fn near_json() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "\"a\"",
            "\\",
            "\\u",
            "d83d",
            "\\ude00",
            "dc00",
            "0",
            "1",
            "-",
            ".",
            "e",
            "E",
            "+",
            " ",
            "\n",
            "\t",
            "true",
            "false",
            "null",
            "nul",
            "a",
            "\u{1}",
            "\\u0041",
            "\\ud83d\\ude00",
            "é",
            "\\n",
            "\\/",
            "\\\\",
            "x",
        ]);
        prop::collection::vec(pieces, 0..24).prop_map(|p| p.concat())
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value as J;
        let leaf = prop_oneof![
            Just(J::Null),
            any::<bool>().prop_map(J::Bool),
            any::<i64>().prop_map(J::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(J::from),
            ".{0,12}".prop_map(J::String),
        ];
        leaf.prop_recursive(6, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(J::Array),
                prop::collection::btree_map(".{0,6}", inner, 0..6)
                    .prop_map(|m| J::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn agrees_with_serde_json(text in near_json()) {
            prop_assert_eq!(check(&text).is_ok(), oracle(&text), "{:?}", text);
        }

        #[test]
        fn accepts_what_serde_json_writes(value in json_value(), pretty in any::<bool>()) {
            let text = match pretty {
                true => serde_json::to_string_pretty(&value).unwrap(),
                false => serde_json::to_string(&value).unwrap(),
            };
            prop_assert_eq!(check(&text), Ok(()), "{}", text);
        }
    }
}

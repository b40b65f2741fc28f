//! What the bytes of an annotated `BYTE_ARRAY` value must be: UTF-8 for STRING and ENUM,
//! JSON text (RFC 8259, as serde_json parses it) for JSON, a BSON document for BSON. The
//! writer checks every value it is given against its column's annotation, and the CLI's
//! `check` every value of a file.

/// What an annotation asks of a `BYTE_ARRAY` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ByteCheck {
    /// Any bytes (unannotated, or an annotation that asks nothing of them).
    None,
    /// UTF-8 text (STRING, ENUM).
    Utf8,
    /// JSON text: UTF-8 that serde_json parses as one JSON value, with no lone surrogate
    /// escape (`"\ud800"`).
    Json,
    /// One BSON document: its length prefix, elements and terminator.
    Bson,
}

impl ByteCheck {
    /// Checks `value`; the error says what is wrong (without quoting the value).
    pub(crate) fn check(self, value: &[u8]) -> Result<(), String> {
        match self {
            ByteCheck::None => Ok(()),
            ByteCheck::Utf8 => utf8(value).map(|_| ()),
            ByteCheck::Json => super::json_text::check(utf8(value)?),
            ByteCheck::Bson => bson_document(value),
        }
    }

    /// [`check`](Self::check) for text, which is UTF-8 already.
    pub(crate) fn check_str(self, value: &str) -> Result<(), String> {
        match self {
            ByteCheck::None | ByteCheck::Utf8 => Ok(()),
            ByteCheck::Json => super::json_text::check(value),
            ByteCheck::Bson => bson_document(value.as_bytes()),
        }
    }
}

/// `value` as text, or where it stops being UTF-8.
fn utf8(value: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(value).map_err(|e| {
        format!(
            "not UTF-8: invalid byte at offset {} of {}",
            e.valid_up_to(),
            value.len()
        )
    })
}

/// Nesting of documents and arrays that a BSON document may have (the bson crate and
/// MongoDB stop at 100).
const MAX_BSON_DEPTH: usize = 100;

/// Checks that `b` is exactly one BSON document (spec 1.1): the `int32` length equal to the
/// bytes, elements of known types whose sizes stay inside their document, keys and strings
/// NUL-terminated UTF-8, a terminating `0x00`.
pub(crate) fn bson_document(b: &[u8]) -> Result<(), String> {
    let mut r = BsonReader { b, pos: 0 };
    r.document(0)?;
    if r.pos != b.len() {
        return Err(format!(
            "not a BSON document: {} bytes after the document's end (offset {})",
            b.len() - r.pos,
            r.pos
        ));
    }
    Ok(())
}

/// A cursor over BSON bytes.
struct BsonReader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl BsonReader<'_> {
    fn fail(&self, what: &str) -> String {
        format!("not a BSON document: {what} at offset {}", self.pos)
    }

    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        match self.pos.checked_add(n) {
            Some(end) if end <= self.b.len() => {
                let s = &self.b[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            _ => Err(self.fail(&format!("{n} bytes needed past the end"))),
        }
    }

    fn i32(&mut self) -> Result<i32, String> {
        let s = self.take(4)?;
        Ok(i32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    /// A NUL-terminated UTF-8 string (a key, a regex).
    fn cstring(&mut self) -> Result<(), String> {
        let rest = &self.b[self.pos..];
        let Some(n) = rest.iter().position(|&c| c == 0) else {
            return Err(self.fail("a name without its terminating NUL"));
        };
        if std::str::from_utf8(&rest[..n]).is_err() {
            return Err(self.fail("a name that is not UTF-8"));
        }
        self.pos += n + 1;
        Ok(())
    }

    /// A BSON string: `int32` length (with the NUL), UTF-8 bytes, NUL.
    fn string(&mut self) -> Result<(), String> {
        let at = self.pos;
        let len = self.i32()?;
        if len < 1 {
            self.pos = at;
            return Err(self.fail(&format!("a string of length {len}")));
        }
        let s = self.take(len as usize)?;
        let (text, nul) = s.split_at(s.len() - 1);
        if nul != [0] {
            self.pos = at;
            return Err(self.fail("a string without its terminating NUL"));
        }
        if std::str::from_utf8(text).is_err() {
            self.pos = at;
            return Err(self.fail("a string that is not UTF-8"));
        }
        Ok(())
    }

    /// A document (or an array, which is one) starting here, `depth` documents deep.
    fn document(&mut self, depth: usize) -> Result<(), String> {
        if depth >= MAX_BSON_DEPTH {
            return Err(self.fail(&format!("documents nested more than {MAX_BSON_DEPTH} deep")));
        }
        let start = self.pos;
        let len = self.i32()?;
        if len < 5 || start + len as usize > self.b.len() {
            self.pos = start;
            return Err(self.fail(&format!(
                "a length prefix of {len} (the document needs 5 to {} bytes)",
                self.b.len() - start
            )));
        }
        let end = start + len as usize;
        // Elements are read inside the document's bytes only.
        let whole = self.b;
        self.b = &whole[..end];
        let result = self.elements(depth);
        self.b = whole;
        result?;
        Ok(())
    }

    /// Elements up to the document's terminator, which must be its last byte.
    fn elements(&mut self, depth: usize) -> Result<(), String> {
        loop {
            let Some(&t) = self.b.get(self.pos) else {
                return Err(self.fail("a document without its terminating 0x00"));
            };
            self.pos += 1;
            if t == 0 {
                if self.pos != self.b.len() {
                    self.pos -= 1;
                    return Err(self.fail("a terminator before the document's end"));
                }
                return Ok(());
            }
            self.cstring()?;
            self.value(t, depth)?;
        }
    }

    /// The value of an element of type `t`.
    fn value(&mut self, t: u8, depth: usize) -> Result<(), String> {
        match t {
            0x01 | 0x09 | 0x11 | 0x12 => self.take(8).map(|_| ()),
            0x10 => self.take(4).map(|_| ()),
            0x13 => self.take(16).map(|_| ()),
            0x07 => self.take(12).map(|_| ()),
            0x06 | 0x0A | 0x7F | 0xFF => Ok(()),
            0x08 => match self.take(1)? {
                [0 | 1] => Ok(()),
                _ => {
                    self.pos -= 1;
                    Err(self.fail("a boolean that is neither 0 nor 1"))
                }
            },
            0x02 | 0x0D | 0x0E => self.string(),
            0x03 | 0x04 => self.document(depth + 1),
            0x05 => {
                let at = self.pos;
                let len = self.i32()?;
                if len < 0 {
                    self.pos = at;
                    return Err(self.fail(&format!("binary data of length {len}")));
                }
                self.take(1 + len as usize).map(|_| ())
            }
            0x0B => {
                self.cstring()?;
                self.cstring()
            }
            0x0C => {
                self.string()?;
                self.take(12).map(|_| ())
            }
            0x0F => {
                let start = self.pos;
                let len = self.i32()?;
                self.string()?;
                self.document(depth + 1)?;
                if len < 0 || self.pos - start != len as usize {
                    self.pos = start;
                    return Err(self.fail("code with scope whose length is not its bytes"));
                }
                Ok(())
            }
            _ => {
                self.pos -= 1;
                Err(self.fail(&format!("unknown element type 0x{t:02x}")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_check_accepts_its_bytes_and_refuses_others() {
        use super::ByteCheck;
        assert!(ByteCheck::Json.check(br#"{"a": [1, null]}"#).is_ok());
        assert!(ByteCheck::Json.check(b"{bad json").is_err());
        assert!(ByteCheck::Utf8.check(b"\xff").is_err());
        // The smallest BSON document: its length (5), no element, the terminator.
        assert!(ByteCheck::Bson.check(&[5, 0, 0, 0, 0]).is_ok());
        assert!(ByteCheck::Bson.check(b"{}").is_err());
    }

    use super::*;

    /// A document of `elements` (type, name, value bytes).
    fn doc(elements: &[(u8, &str, Vec<u8>)]) -> Vec<u8> {
        let mut body = Vec::new();
        for (t, name, v) in elements {
            body.push(*t);
            body.extend_from_slice(name.as_bytes());
            body.push(0);
            body.extend_from_slice(v);
        }
        body.push(0);
        let mut out = ((body.len() + 4) as i32).to_le_bytes().to_vec();
        out.extend(body);
        out
    }

    fn string(s: &str) -> Vec<u8> {
        let mut v = ((s.len() + 1) as i32).to_le_bytes().to_vec();
        v.extend_from_slice(s.as_bytes());
        v.push(0);
        v
    }

    #[test]
    fn bson_documents() {
        let ok = [
            doc(&[]),
            doc(&[(0x10, "a", 7i32.to_le_bytes().to_vec())]),
            doc(&[
                (0x02, "s", string("héllo")),
                (0x03, "d", doc(&[(0x08, "b", vec![1])])),
                (
                    0x04,
                    "l",
                    doc(&[(0x01, "0", 1.5f64.to_le_bytes().to_vec())]),
                ),
                (0x05, "bin", [2, 0, 0, 0, 0, 0xff, 0xfe].to_vec()),
                (0x0A, "n", vec![]),
                (0x0B, "re", b"a*\0i\0".to_vec()),
                (0x13, "dec", vec![0; 16]),
            ]),
        ];
        for d in &ok {
            assert_eq!(bson_document(d), Ok(()), "{d:?}");
        }
        let mut trailing = doc(&[]);
        trailing.push(0);
        let mut no_terminator = doc(&[(0x10, "a", 7i32.to_le_bytes().to_vec())]);
        *no_terminator.last_mut().unwrap() = 1;
        let mut bad_len = doc(&[]);
        bad_len[0] = 6;
        let bad = [
            vec![],
            vec![5, 0, 0],
            b"{}".to_vec(),
            trailing,
            no_terminator,
            bad_len,
            doc(&[(0x42, "x", vec![])]),
            doc(&[(0x08, "b", vec![2])]),
            doc(&[(0x02, "s", vec![9, 0, 0, 0, b'a', 0])]),
            doc(&[(0x02, "s", string("\u{0}x")[..4].to_vec())]),
            doc(&[(0x02, "s", vec![2, 0, 0, 0, 0xff, 0])]),
            doc(&[(0x10, "a\u{0}", 7i32.to_le_bytes().to_vec())]),
            doc(&[(
                0x05,
                "bin",
                [(-1i32).to_le_bytes().to_vec(), vec![0]].concat(),
            )]),
        ];
        for d in &bad {
            assert!(bson_document(d).is_err(), "{d:?}");
        }
        // Nesting: 99 documents inside the outer one pass, 100 do not.
        let nest = |n: usize| (0..n).fold(doc(&[]), |inner, _| doc(&[(0x03, "d", inner)]));
        assert_eq!(bson_document(&nest(99)), Ok(()));
        assert!(bson_document(&nest(100)).is_err());
    }

    #[test]
    fn json_text() {
        for ok in [
            "null",
            "1e400",
            "\"\\ud83d\\ude00\"",
            " [1, {\"a\": {}}] ",
            "-0",
        ] {
            assert_eq!(ByteCheck::Json.check(ok.as_bytes()), Ok(()), "{ok}");
        }
        // Nesting is skipped without recursion: any depth passes (DuckDB reads it too).
        let deep = "[".repeat(5000) + &"]".repeat(5000);
        assert_eq!(ByteCheck::Json.check(deep.as_bytes()), Ok(()));
        assert_eq!(ByteCheck::Json.check(br#""\\ud800""#), Ok(()));
        assert_eq!(ByteCheck::Json.check(br#"["\u00e9\ud83d\ude00x"]"#), Ok(()));
        let lone = [
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            r#"{"\ud83d": 1}"#,
        ];
        for bad in [
            "",
            "{bad json",
            "{} {}",
            "NaN",
            "'a'",
            "[1,]",
            "\u{feff}1",
            "\"\u{0}\"",
        ]
        .into_iter()
        .chain(lone)
        {
            assert!(ByteCheck::Json.check(bad.as_bytes()).is_err(), "{bad}");
        }
        // Not UTF-8, even inside a string.
        assert!(ByteCheck::Json.check(b"\"\xff\"").is_err());
    }
}

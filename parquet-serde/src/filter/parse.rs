//! [`Predicate`]s from text, SQL-like: what the command line's `--where` takes.
//!
//! ```text
//! predicate  := or
//! or         := and ("or" and)*
//! and        := unary ("and" unary)*
//! unary      := "not" unary | "(" predicate ")" | test
//! test       := column op literal
//!             | column op column
//!             | column ["not"] "in" "(" member ("," member)* ")"
//!             | column ["not"] "between" literal "and" literal
//!             | column ["not"] "like" 'pattern'
//!             | column "is" ["not"] ("null" | "true" | "false")
//!             | column
//! op         := "=" | "==" | "!=" | "<>" | "<" | "<=" | ">" | ">="
//! column     := name ("." name | "[" index "]")*  |  "double-quoted path"  |  `backquoted path`
//! member     := literal | null
//! literal    := 'text' ('' is a quote) | integer | decimal | float | true | false
//! ```
//! Keywords are case-insensitive. Text literals compare with text columns, and with DATE,
//! TIME, TIMESTAMP and INT96 columns in their ISO 8601 forms (`'2026-11-24T13:00:00Z'`),
//! which the predicate's binding to a file reads (see [the module](super) for what
//! literals mean).
//!
//! A column path that goes on past a VARIANT column (shredded or not) names a path inside its
//! values: `fields.status`, `fields.http.status`, `fields.tags[1]` (indexes from 1). Each
//! row's value there is cast to the literal's type as DuckDB's `TRY_CAST` does (see
//! the filter module doc for the rules); a missing path or a value that does not cast matches
//! no comparison.

use std::str::FromStr;

use crate::core::column::{Decimal, Scalar};
use crate::error::{Error, Result};

use super::predicate::{col, not, CmpOp, Predicate};

/// A token and the character position (from 1) where it starts.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Quoted(String),
    Text(String),
    Int(i128),
    Decimal(Decimal),
    Float(f64),
    Op(CmpOp),
    LParen,
    RParen,
    Comma,
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Quoted(q) => format!("column \"{q}\""),
            Tok::Text(t) => format!("'{t}'"),
            Tok::Int(i) => i.to_string(),
            Tok::Decimal(d) => d.to_string(),
            Tok::Float(f) => f.to_string(),
            Tok::Op(_) => "an operator".into(),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::Comma => "`,`".into(),
            Tok::End => "the end".into(),
        }
    }

    fn is_word(&self, kw: &str) -> bool {
        matches!(self, Tok::Word(w) if w.eq_ignore_ascii_case(kw))
    }
}

fn error(text: &str, pos: usize, what: impl std::fmt::Display) -> Error {
    Error::invalid_argument(format!("predicate {text:?}, at character {pos}: {what}"))
}

/// Splits `text` into tokens with their positions (the last is [`Tok::End`]).
fn tokens(text: &str) -> Result<Vec<(Tok, usize)>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pos = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let op = match two.as_str() {
            "<=" => Some((CmpOp::Le, 2)),
            ">=" => Some((CmpOp::Ge, 2)),
            "!=" | "<>" => Some((CmpOp::Ne, 2)),
            "==" => Some((CmpOp::Eq, 2)),
            _ => match c {
                '=' => Some((CmpOp::Eq, 1)),
                '<' => Some((CmpOp::Lt, 1)),
                '>' => Some((CmpOp::Gt, 1)),
                _ => None,
            },
        };
        if let Some((op, n)) = op {
            out.push((Tok::Op(op), pos));
            i += n;
            continue;
        }
        match c {
            '(' | ')' | ',' => {
                out.push((
                    match c {
                        '(' => Tok::LParen,
                        ')' => Tok::RParen,
                        _ => Tok::Comma,
                    },
                    pos,
                ));
                i += 1;
            }
            '\'' | '"' | '`' => {
                let (s, next) =
                    quoted(&chars, i).ok_or_else(|| error(text, pos, format!("unclosed {c}")))?;
                out.push((
                    if c == '\'' {
                        Tok::Text(s)
                    } else {
                        Tok::Quoted(s)
                    },
                    pos,
                ));
                i = next;
            }
            c if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' => {
                let start = i;
                i += 1;
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric()
                        || chars[i] == '.'
                        || ((chars[i] == '-' || chars[i] == '+')
                            && matches!(chars[i - 1], 'e' | 'E')))
                {
                    i += 1;
                }
                let s: String = chars[start..i].iter().collect();
                out.push((
                    number(&s).ok_or_else(|| error(text, pos, format!("bad number {s:?}")))?,
                    pos,
                ));
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '.' | '[' | ']'))
                {
                    i += 1;
                }
                out.push((Tok::Word(chars[start..i].iter().collect()), pos));
            }
            other => return Err(error(text, pos, format!("unexpected character {other:?}"))),
        }
    }
    out.push((Tok::End, chars.len() + 1));
    Ok(out)
}

/// The text of the quoted token opened at `open` (the quote doubled inside stands for
/// itself) and the index after its closing quote.
fn quoted(chars: &[char], open: usize) -> Option<(String, usize)> {
    let q = chars[open];
    let mut s = String::new();
    let mut i = open + 1;
    while i < chars.len() {
        if chars[i] == q {
            if chars.get(i + 1) == Some(&q) {
                s.push(q);
                i += 2;
                continue;
            }
            return Some((s, i + 1));
        }
        s.push(chars[i]);
        i += 1;
    }
    None
}

/// An integer (that fits an `i128`), an exact decimal (digits with a point, or an integer
/// too long for `i128`), or a float (with an exponent).
fn number(s: &str) -> Option<Tok> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = s.parse() {
            return Some(Tok::Int(i));
        }
    }
    if let Ok(d) = s.parse::<Decimal>() {
        return Some(Tok::Decimal(d));
    }
    let f: f64 = s.parse().ok()?;
    f.is_finite().then_some(Tok::Float(f))
}

struct Parser<'t> {
    text: &'t str,
    toks: Vec<(Tok, usize)>,
    at: usize,
    depth: usize,
}

/// Nesting deeper than this is refused (no stack overflow on hostile input).
const MAX_DEPTH: usize = 128;

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.at.min(self.toks.len() - 1)].0
    }

    fn pos(&self) -> usize {
        self.toks[self.at.min(self.toks.len() - 1)].1
    }

    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.at < self.toks.len() - 1 {
            self.at += 1;
        }
        t
    }

    fn expected(&self, what: &str) -> Error {
        error(
            self.text,
            self.pos(),
            format!("expected {what}, found {}", self.peek().describe()),
        )
    }

    fn keyword(&mut self, kw: &str) -> bool {
        if self.peek().is_word(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<Predicate> {
        let mut p = self.and()?;
        while self.keyword("or") {
            p = p.or(self.and()?);
        }
        Ok(p)
    }

    fn and(&mut self) -> Result<Predicate> {
        let mut p = self.unary()?;
        while self.keyword("and") {
            p = p.and(self.unary()?);
        }
        Ok(p)
    }

    fn unary(&mut self) -> Result<Predicate> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(error(self.text, self.pos(), "nested too deeply"));
        }
        let p = if self.keyword("not") {
            not(self.unary()?)
        } else if *self.peek() == Tok::LParen {
            self.bump();
            let p = self.or()?;
            if *self.peek() != Tok::RParen {
                return Err(self.expected("`)`, `and` or `or`"));
            }
            self.bump();
            p
        } else {
            self.test()?
        };
        self.depth -= 1;
        Ok(p)
    }

    fn column(&mut self) -> Result<String> {
        match self.peek().clone() {
            Tok::Word(w) if !is_keyword(&w) => {
                self.bump();
                Ok(w)
            }
            Tok::Quoted(q) => {
                self.bump();
                Ok(q)
            }
            _ => Err(self.expected("a column name")),
        }
    }

    fn literal(&mut self) -> Result<Scalar> {
        let v = match self.peek() {
            Tok::Text(s) => Scalar::from(s.as_str()),
            Tok::Int(i) => Scalar::Int(*i),
            Tok::Decimal(d) => Scalar::Decimal(d.clone()),
            Tok::Float(f) => Scalar::Float(*f),
            t if t.is_word("true") => Scalar::Bool(true),
            t if t.is_word("false") => Scalar::Bool(false),
            t if t.is_word("null") => {
                return Err(error(
                    self.text,
                    self.pos(),
                    "a comparison with null is never true: use `is null` / `is not null`",
                ))
            }
            _ => return Err(self.expected("a literal ('text', a number, true or false)")),
        };
        self.bump();
        Ok(v)
    }

    /// A literal, or `null` (`None`) in an IN list.
    fn member(&mut self) -> Result<Option<Scalar>> {
        if self.keyword("null") {
            return Ok(None);
        }
        self.literal().map(Some)
    }

    fn test(&mut self) -> Result<Predicate> {
        let column = self.column()?;
        if let Tok::Op(op) = *self.peek() {
            self.bump();
            // Another column on the right: a bare name that is no keyword, or a quoted one.
            if let Tok::Word(w) | Tok::Quoted(w) = self.peek().clone() {
                if matches!(self.peek(), Tok::Quoted(_)) || !is_keyword(&w) {
                    self.bump();
                    return Ok(Predicate::CompareColumns {
                        left: column,
                        op,
                        right: w,
                    });
                }
            }
            let value = self.literal()?;
            return Ok(Predicate::Compare { column, op, value });
        }
        if self.keyword("is") {
            let negated = self.keyword("not");
            let p = if self.keyword("null") {
                return Ok(if negated {
                    col(column).is_not_null()
                } else {
                    col(column).is_null()
                });
            } else if self.keyword("true") {
                col(column).is_true()
            } else if self.keyword("false") {
                col(column).is_false()
            } else {
                return Err(self.expected("`null`, `true` or `false`"));
            };
            return Ok(if negated { not(p) } else { p });
        }
        // A bare (boolean) column: `flag`, `not flag`.
        if matches!(self.peek(), Tok::End | Tok::RParen)
            || self.peek().is_word("and")
            || self.peek().is_word("or")
        {
            return Ok(col(column).eq(true));
        }
        let negated = self.keyword("not");
        let p = if self.keyword("in") {
            if *self.peek() != Tok::LParen {
                return Err(self.expected("`(`"));
            }
            self.bump();
            let mut members = vec![self.member()?];
            while *self.peek() == Tok::Comma {
                self.bump();
                members.push(self.member()?);
            }
            if *self.peek() != Tok::RParen {
                return Err(self.expected("`,` or `)`"));
            }
            self.bump();
            let null = members.iter().any(Option::is_none);
            let values = members.into_iter().flatten().collect();
            let list = Predicate::InList { column, values };
            // SQL: `x in (1, null)` is `x = 1 or null`.
            if null {
                list.or(Predicate::Unknown)
            } else {
                list
            }
        } else if self.keyword("between") {
            let low = self.literal()?;
            if !self.keyword("and") {
                return Err(self.expected("`and`"));
            }
            let high = self.literal()?;
            Predicate::Between { column, low, high }
        } else if self.keyword("like") {
            match self.bump() {
                Tok::Text(pattern) => Predicate::Like { column, pattern },
                _ => {
                    self.at -= 1;
                    return Err(self.expected("a 'pattern' after `like`"));
                }
            }
        } else if negated {
            return Err(self.expected("`in`, `between` or `like` after `not`"));
        } else {
            return Err(
                self.expected("an operator (= != < <= > >=), `in`, `between`, `like` or `is`")
            );
        };
        Ok(if negated { not(p) } else { p })
    }
}

fn is_keyword(w: &str) -> bool {
    [
        "and", "or", "not", "in", "is", "null", "between", "true", "false", "like",
    ]
    .iter()
    .any(|k| w.eq_ignore_ascii_case(k))
}

impl Predicate {
    /// Parses a predicate from SQL-like text (the command line's `--where`):
    /// `level = 'ERROR' and ts >= '2026-11-24T13:00:00Z'`. An error gives the character
    /// position of the bad token.
    ///
    /// ```text
    /// predicate  := or
    /// or         := and ("or" and)*
    /// and        := unary ("and" unary)*
    /// unary      := "not" unary | "(" predicate ")" | test
    /// test       := column op literal
    ///             | column op column
    ///             | column ["not"] "in" "(" member ("," member)* ")"
    ///             | column ["not"] "between" literal "and" literal
    ///             | column ["not"] "like" 'pattern'
    ///             | column "is" ["not"] ("null" | "true" | "false")
    ///             | column
    /// op         := "=" | "==" | "!=" | "<>" | "<" | "<=" | ">" | ">="
    /// column     := name ("." name | "[" index "]")*  |  "double-quoted path"  |  `backquoted path`
    /// member     := literal | null
    /// literal    := 'text' ('' is a quote) | integer | decimal | float | true | false
    /// ```
    /// Keywords are case-insensitive. A decimal literal keeps its digits (`90000.00`); one
    /// with an exponent (`1e3`) is a float. A column alone is `column = true`; `x is true` is
    /// false (not unknown) where `x` is null; `x in (1, null)` is `x in (1) or null`. Text
    /// literals compare with text columns, and with DATE, TIME, TIMESTAMP and INT96 columns
    /// in their ISO 8601 forms (`'2026-11-24'`, `'13:00:00'`, `'2026-11-24T13:00:00Z'`),
    /// read when the predicate is bound to a file: see [the module](crate::filter#what-literals-mean)
    /// for what each literal means on each column type.
    ///
    /// A path that goes on past a VARIANT column (`fields.status = 500`,
    /// `fields.http.status`, `fields.tags[1]`, indexes from 1) tests the value there in each
    /// row, cast to the literal's type as DuckDB's `TRY_CAST(variant_extract(..) AS T)`: `T`
    /// is `BIGINT` for a whole number (`HUGEINT` beyond 64 bits), `DOUBLE` for a number with
    /// a point or an exponent (not DuckDB's `DECIMAL(p,s)` of the literal, which would make
    /// every value with more integer digits null), `VARCHAR` for text and `BOOLEAN` for `true` / `false`. A
    /// missing path, a variant null or a value that does not cast is null: no comparison
    /// matches it (`!=` neither), and `is null` holds (except for a value that does not cast).
    ///
    /// ```
    /// use parquet_serde::{col, Predicate};
    /// let p = Predicate::parse("level = 'ERROR' and (status >= 500 or route in ('/a', '/b'))")?;
    /// let q = col("level").eq("ERROR").and(col("status").ge(500).or(col("route").in_list(["/a", "/b"])));
    /// assert_eq!(p, q);
    /// let e = Predicate::parse("level = ").unwrap_err();
    /// assert!(e.message().contains("at character 9"));
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Predicate> {
        let mut p = Parser {
            text,
            toks: tokens(text)?,
            at: 0,
            depth: 0,
        };
        if *p.peek() == Tok::End {
            return Err(error(text, 1, "empty predicate"));
        }
        let out = p.or()?;
        if *p.peek() != Tok::End {
            return Err(p.expected("`and`, `or` or the end"));
        }
        Ok(out)
    }
}

impl FromStr for Predicate {
    type Err = Error;

    /// [`Predicate::parse`].
    fn from_str(s: &str) -> Result<Predicate> {
        Predicate::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Predicate {
        Predicate::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn err(s: &str) -> String {
        Predicate::parse(s).unwrap_err().message().to_string()
    }

    #[test]
    fn comparisons_and_literals() {
        assert_eq!(p("a = 1"), col("a").eq(1));
        assert_eq!(p("a == -1"), col("a").eq(-1));
        assert_eq!(p("a != 2.5"), col("a").ne(2.5));
        assert_eq!(p("a <> 1e3"), col("a").ne(1000.0));
        assert_eq!(p("a<1"), col("a").lt(1));
        assert_eq!(p("a <= 1"), col("a").le(1));
        assert_eq!(p("a > +1"), col("a").gt(1));
        assert_eq!(p("a >= 1"), col("a").ge(1));
        assert_eq!(p("a = 'it''s'"), col("a").eq("it's"));
        assert_eq!(p("flag = TRUE"), col("flag").eq(true));
        assert_eq!(p("flag = false"), col("flag").eq(false));
        assert_eq!(p("req.headers.x = 'y'"), col("req.headers.x").eq("y"));
        assert_eq!(p("fields.tags[1] = 'a'"), col("fields.tags[1]").eq("a"));
        assert_eq!(p("f.a[2][10].b>1"), col("f.a[2][10].b").gt(1));
        assert_eq!(p("\"odd name\" = 1"), col("odd name").eq(1));
        assert_eq!(p("`and` = 1"), col("and").eq(1));
        assert_eq!(
            p("ts >= '2026-11-24T13:00:00Z'"),
            col("ts").ge("2026-11-24T13:00:00Z")
        );
    }

    #[test]
    fn logic_precedence_and_lists() {
        let (a, b, c) = (col("a").eq(1), col("b").eq(2), col("c").eq(3));
        assert_eq!(
            p("a = 1 or b = 2 and c = 3"),
            a.clone().or(b.clone().and(c.clone()))
        );
        assert_eq!(
            p("(a = 1 or b = 2) and c = 3"),
            a.clone().or(b.clone()).and(c.clone())
        );
        assert_eq!(p("not a = 1 and b = 2"), not(a.clone()).and(b.clone()));
        assert_eq!(p("NOT (a = 1 OR b = 2)"), not(a.clone().or(b)));
        assert_eq!(p("a in (1, 2, 3)"), col("a").in_list([1, 2, 3]));
        assert_eq!(p("a not in ('x')"), not(col("a").in_list(["x"])));
        assert_eq!(p("a between 1 and 5"), col("a").between(1, 5));
        assert_eq!(
            p("a not between 1 and 5 and b is null"),
            not(col("a").between(1, 5)).and(col("b").is_null())
        );
        assert_eq!(p("a is not null"), col("a").is_not_null());
        assert_eq!("a = 1".parse::<Predicate>().unwrap(), a);
    }

    #[test]
    fn grammar_of_sql_tests() {
        use super::super::predicate::Predicate as P;
        // Decimal literals keep their digits; exponents are floats.
        assert_eq!(p("a > 90000.00").to_string(), "a > 90000.00");
        assert_eq!(p("a > 1e3"), col("a").gt(1000.0));
        let long = format!("a = {}", "9".repeat(50));
        assert_eq!(p(&long).to_string(), long.replace('=', "=="));
        // IN with null: `or null`; NOT IN with null: never true.
        assert_eq!(p("x in (1, null)"), col("x").in_list([1]).or(P::Unknown));
        assert_eq!(
            p("x not in (null, 'a')"),
            not(col("x").in_list(["a"]).or(P::Unknown))
        );
        // Bare booleans and IS TRUE / FALSE.
        assert_eq!(p("flag"), col("flag").eq(true));
        assert_eq!(
            p("not flag and x = 1"),
            not(col("flag").eq(true)).and(col("x").eq(1))
        );
        assert_eq!(p("(flag)"), col("flag").eq(true));
        assert_eq!(p("flag is true"), col("flag").is_true());
        assert_eq!(p("flag is not false"), not(col("flag").is_false()));
        // Column against column.
        assert_eq!(p("a < b"), col("a").lt(col("b")));
        assert_eq!(p("a >= \"odd b\""), col("a").ge(col("odd b")));
        assert_eq!(p("a = true"), col("a").eq(true));
        // LIKE.
        assert_eq!(p("s like 'a%'"), col("s").like("a%"));
        assert_eq!(p("s not like '_b'"), not(col("s").like("_b")));
        assert!(err("s like 5").contains("'pattern'"));
        assert!(err("s not 5").contains("`like`"));
    }

    #[test]
    fn errors_say_where() {
        assert!(err("").contains("empty"));
        assert!(
            err("a = ").contains("at character 5: expected a literal"),
            "{}",
            err("a = ")
        );
        assert!(
            err("a = 1 b = 2").contains("at character 7"),
            "{}",
            err("a = 1 b = 2")
        );
        assert!(err("a = 'x").contains("unclosed '"));
        assert!(err("(a = 1").contains("expected `)`"));
        assert!(err("a = null").contains("is null"));
        assert!(err("a in (1 2)").contains("expected `,` or `)`"));
        assert!(err("a is 1").contains("expected `null`, `true` or `false`"));
        assert!(err("a ~ 1").contains("unexpected character '~'"));
        assert!(err("a = 1x").contains("bad number"));
        assert!(err("and = 1").contains("expected a column name"));
        assert!(err("a between 1 or 2").contains("expected `and`"));
        assert!(err(&"(".repeat(1000)).contains("nested too deeply"));
        // Positions count characters, not bytes.
        assert!(
            err("é = 1 2").contains("at character 7"),
            "{}",
            err("é = 1 2")
        );
    }
}

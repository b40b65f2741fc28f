//! Parsing message-type text.

use std::str::FromStr;

use super::is_delimiter;
use crate::core::format::{ConvertedType, EdgeInterpolationAlgorithm, LogicalType, TimeUnit, Type};
use crate::core::schema::annotation::{converted_name, ALL_CONVERTED};
use crate::core::schema::validate::{Mode, MAX_SCHEMA_DEPTH};
use crate::core::schema::{Repetition, Schema, SchemaNode};
use crate::{Error, Result};

impl Schema {
    /// Parses message-type text (the form [`Display`](std::fmt::Display) prints; see the
    /// grammar in the [module documentation](crate::core::schema)). Keywords, type names and
    /// annotation names are case-insensitive. Errors give the line and column (1-based)
    /// and what was expected. The result is validated leniently, like a schema read from a
    /// file, so every printed schema parses back; use [`Schema::validate_strict`] before
    /// writing a hand-written one.
    ///
    /// Annotations: `STRING`, `ENUM`, `UUID`, `JSON`, `BSON`, `DATE`, `FLOAT16`, `UNKNOWN`,
    /// `LIST`, `MAP`, `VECTOR`, `VARIANT[(version)]`, `GEOMETRY[(crs)]`,
    /// `GEOGRAPHY[(crs[, algorithm])]`, `TIMESTAMP(unit, utc)`, `TIME(unit, utc)`,
    /// `INTEGER(bits, signed)` or `INT(bits, signed)`, `DECIMAL(precision[, scale])`
    /// (logical types, with their legacy converted type), and the legacy-only `UTF8`,
    /// `MAP_KEY_VALUE`, `TIMESTAMP_MILLIS`, `TIMESTAMP_MICROS`, `TIME_MILLIS`,
    /// `TIME_MICROS`, `INT_8` ... `UINT_64`, `INTERVAL` (converted type only).
    pub fn parse(text: &str) -> Result<Schema> {
        parse_schema(text)
    }
}

impl FromStr for Schema {
    type Err = Error;

    fn from_str(text: &str) -> Result<Schema> {
        parse_schema(text)
    }
}

/// Parses message-type text into a leniently validated schema.
pub(crate) fn parse_schema(text: &str) -> Result<Schema> {
    let mut p = Parser::new(text);
    let root = p.message()?;
    Schema::with_mode(root, Mode::Lenient)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A bare word.
    Word(String),
    /// A double-quoted string.
    Str(String),
    /// One of `{}();,=`.
    Punct(char),
    /// End of input.
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Str(s) => format!("string {s:?}"),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::End => "the end of the text".into(),
        }
    }
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    col: usize,
    /// The next token and where it starts, once peeked.
    peeked: Option<(Tok, usize, usize)>,
}

/// The value of an annotation.
enum Annotation {
    Logical(LogicalType),
    Converted(ConvertedType),
    /// A legacy DECIMAL with precision and scale.
    Decimal(i32, i32),
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            chars: text.chars().peekable(),
            line: 1,
            col: 1,
            peeked: None,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn error_at(line: usize, col: usize, message: impl std::fmt::Display) -> Error {
        Error::schema(format!("line {line}, column {col}: {message}"))
    }

    /// Reads the next token from the characters.
    fn lex(&mut self) -> Result<(Tok, usize, usize)> {
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
        let (line, col) = (self.line, self.col);
        let Some(&c) = self.chars.peek() else {
            return Ok((Tok::End, line, col));
        };
        if matches!(c, '{' | '}' | '(' | ')' | ';' | ',' | '=') {
            self.bump();
            return Ok((Tok::Punct(c), line, col));
        }
        if c == '"' {
            self.bump();
            let mut s = String::new();
            loop {
                let (l, cl) = (self.line, self.col);
                match self.bump() {
                    None => return Err(Self::error_at(line, col, "unterminated string")),
                    Some('"') => break,
                    Some('\\') => match self.bump() {
                        Some('"') => s.push('"'),
                        Some('\\') => s.push('\\'),
                        Some('n') => s.push('\n'),
                        Some('t') => s.push('\t'),
                        Some('r') => s.push('\r'),
                        Some('u') => s.push(self.unicode_escape(l, cl)?),
                        _ => return Err(Self::error_at(l, cl, "unknown escape in string")),
                    },
                    Some(c) => s.push(c),
                }
            }
            return Ok((Tok::Str(s), line, col));
        }
        if c.is_control() {
            return Err(Self::error_at(
                line,
                col,
                format!("unexpected character {c:?}"),
            ));
        }
        let mut w = String::new();
        while let Some(&c) = self.chars.peek() {
            if is_delimiter(c) {
                break;
            }
            w.push(c);
            self.bump();
        }
        Ok((Tok::Word(w), line, col))
    }

    /// Reads `{hex}` after `\u`.
    fn unicode_escape(&mut self, line: usize, col: usize) -> Result<char> {
        let bad = || Self::error_at(line, col, "bad \\u{...} escape in string");
        if self.bump() != Some('{') {
            return Err(bad());
        }
        let mut value: u32 = 0;
        let mut digits = 0;
        loop {
            match self.bump() {
                Some('}') if digits > 0 => break,
                Some(c) if digits < 6 => {
                    let d = c.to_digit(16).ok_or_else(bad)?;
                    value = value * 16 + d;
                    digits += 1;
                }
                _ => return Err(bad()),
            }
        }
        char::from_u32(value).ok_or_else(bad)
    }

    fn peek(&mut self) -> Result<&Tok> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lex()?);
        }
        // Just filled above.
        Ok(self.peeked.as_ref().map(|(t, _, _)| t).unwrap_or(&Tok::End))
    }

    fn next(&mut self) -> Result<(Tok, usize, usize)> {
        match self.peeked.take() {
            Some(t) => Ok(t),
            None => self.lex(),
        }
    }

    fn unexpected(tok: &Tok, line: usize, col: usize, expected: &str) -> Error {
        Self::error_at(
            line,
            col,
            format!("expected {expected}, found {}", tok.describe()),
        )
    }

    fn expect_punct(&mut self, c: char) -> Result<()> {
        let (tok, line, col) = self.next()?;
        if tok == Tok::Punct(c) {
            Ok(())
        } else {
            Err(Self::unexpected(&tok, line, col, &format!("`{c}`")))
        }
    }

    /// Consumes `c` if it is next.
    fn eat_punct(&mut self, c: char) -> Result<bool> {
        if *self.peek()? == Tok::Punct(c) {
            self.next()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// A name: a word or a quoted string.
    fn name(&mut self, what: &str) -> Result<String> {
        match self.next()? {
            (Tok::Word(w), _, _) | (Tok::Str(w), _, _) => Ok(w),
            (tok, line, col) => Err(Self::unexpected(&tok, line, col, what)),
        }
    }

    fn word(&mut self, what: &str) -> Result<(String, usize, usize)> {
        match self.next()? {
            (Tok::Word(w), line, col) => Ok((w, line, col)),
            (tok, line, col) => Err(Self::unexpected(&tok, line, col, what)),
        }
    }

    fn int<T: FromStr>(&mut self, what: &str) -> Result<T> {
        let (w, line, col) = self.word(what)?;
        w.parse()
            .map_err(|_| Self::error_at(line, col, format!("expected {what}, found `{w}`")))
    }

    /// `message <name> [annotation] [= id] { fields } [;]`
    fn message(&mut self) -> Result<SchemaNode> {
        let (w, line, col) = self.word("`message`")?;
        if !w.eq_ignore_ascii_case("message") {
            return Err(Self::error_at(
                line,
                col,
                format!("expected `message`, found `{w}`"),
            ));
        }
        let name = self.name("the message name")?;
        let mut root = SchemaNode::group(name, Repetition::Required, Vec::new());
        self.annotation_and_id(&mut root)?;
        let fields = self.fields(1)?;
        root.kind = crate::core::schema::NodeKind::Group { fields };
        self.eat_punct(';')?;
        match self.next()? {
            (Tok::End, _, _) => Ok(root),
            (tok, line, col) => Err(Self::unexpected(&tok, line, col, "the end of the text")),
        }
    }

    /// `{ field* }` with fields at `depth`.
    fn fields(&mut self, depth: usize) -> Result<Vec<SchemaNode>> {
        self.expect_punct('{')?;
        let mut fields = Vec::new();
        loop {
            if self.eat_punct('}')? {
                return Ok(fields);
            }
            fields.push(self.field(depth)?);
        }
    }

    fn field(&mut self, depth: usize) -> Result<SchemaNode> {
        let (rep, line, col) =
            self.word("a repetition (`required`, `optional`, `repeated`) or `}`")?;
        if depth > MAX_SCHEMA_DEPTH {
            return Err(Self::error_at(
                line,
                col,
                format!("schema nested deeper than {MAX_SCHEMA_DEPTH} levels"),
            ));
        }
        let repetition = match rep.to_ascii_lowercase().as_str() {
            "required" => Repetition::Required,
            "optional" => Repetition::Optional,
            "repeated" => Repetition::Repeated,
            _ => {
                return Err(Self::error_at(
                    line,
                    col,
                    format!(
                        "expected a repetition (`required`, `optional`, `repeated`) or `}}`, found `{rep}`"
                    ),
                ))
            }
        };
        let (ty, line, col) = self.word("a type (`group`, `int32`, `binary`, ...)")?;
        let ty = ty.to_ascii_lowercase();
        if ty == "group" {
            let name = self.name("a field name")?;
            let mut node = SchemaNode::group(name, repetition, Vec::new());
            self.annotation_and_id(&mut node)?;
            let fields = self.fields(depth + 1)?;
            node.kind = crate::core::schema::NodeKind::Group { fields };
            // parquet-java does not write `;` after a group; the spec's examples sometimes do.
            self.eat_punct(';')?;
            return Ok(node);
        }
        let physical_type = match ty.as_str() {
            "boolean" => Type::Boolean,
            "int32" => Type::Int32,
            "int64" => Type::Int64,
            "int96" => Type::Int96,
            "float" => Type::Float,
            "double" => Type::Double,
            "binary" => Type::ByteArray,
            "fixed_len_byte_array" => Type::FixedLenByteArray,
            _ => {
                return Err(Self::error_at(
                    line,
                    col,
                    format!(
                        "expected a type (`group`, `boolean`, `int32`, `int64`, `int96`, `float`, \
                         `double`, `binary`, `fixed_len_byte_array(n)`), found `{ty}`"
                    ),
                ))
            }
        };
        let mut type_length = 0;
        if physical_type == Type::FixedLenByteArray {
            self.expect_punct('(')?;
            type_length = self.int("the fixed_len_byte_array length")?;
            self.expect_punct(')')?;
        }
        let name = self.name("a field name")?;
        let mut node =
            SchemaNode::primitive(name, repetition, physical_type).with_type_length(type_length);
        self.annotation_and_id(&mut node)?;
        self.expect_punct(';')?;
        Ok(node)
    }

    /// `[(annotation)] [= id]`, in either order.
    fn annotation_and_id(&mut self, node: &mut SchemaNode) -> Result<()> {
        let mut seen_annotation = false;
        let mut seen_id = false;
        loop {
            if !seen_annotation && self.eat_punct('(')? {
                seen_annotation = true;
                match self.annotation()? {
                    Annotation::Logical(lt) => {
                        node.set_logical_type(lt);
                    }
                    Annotation::Converted(ct) => node.converted_type = Some(ct),
                    Annotation::Decimal(p, s) => {
                        let lt = LogicalType::Decimal {
                            scale: s,
                            precision: p,
                        };
                        node.set_logical_type(lt);
                    }
                }
                self.expect_punct(')')?;
            } else if !seen_id && self.eat_punct('=')? {
                seen_id = true;
                node.field_id = Some(self.int("a field id")?);
            } else {
                return Ok(());
            }
        }
    }

    /// The parameters of an annotation: `(p, p, ...)` if present.
    fn params(&mut self) -> Result<Vec<(Tok, usize, usize)>> {
        let mut out = Vec::new();
        if !self.eat_punct('(')? {
            return Ok(out);
        }
        loop {
            let (tok, line, col) = self.next()?;
            match tok {
                Tok::Word(_) | Tok::Str(_) => out.push((tok, line, col)),
                other => return Err(Self::unexpected(&other, line, col, "a parameter")),
            }
            let (tok, line, col) = self.next()?;
            match tok {
                Tok::Punct(',') => continue,
                Tok::Punct(')') => return Ok(out),
                other => return Err(Self::unexpected(&other, line, col, "`,` or `)`")),
            }
        }
    }

    fn annotation(&mut self) -> Result<Annotation> {
        let (name, line, col) = self.word("an annotation name (`STRING`, `DECIMAL(9,2)`, ...)")?;
        let params = self.params()?;
        let upper = name.to_ascii_uppercase();
        let count = |min: usize, max: usize| -> Result<()> {
            if params.len() < min || params.len() > max {
                let want = if min == max {
                    format!("{min}")
                } else {
                    format!("{min} to {max}")
                };
                Err(Self::error_at(
                    line,
                    col,
                    format!("{upper} takes {want} parameters, found {}", params.len()),
                ))
            } else {
                Ok(())
            }
        };
        let simple = |lt: LogicalType| -> Result<Annotation> {
            count(0, 0)?;
            Ok(Annotation::Logical(lt))
        };
        let logical = match upper.as_str() {
            "STRING" => return simple(LogicalType::String),
            "ENUM" => return simple(LogicalType::Enum),
            "UUID" => return simple(LogicalType::Uuid),
            "JSON" => return simple(LogicalType::Json),
            "BSON" => return simple(LogicalType::Bson),
            "DATE" => return simple(LogicalType::Date),
            "FLOAT16" => return simple(LogicalType::Float16),
            "UNKNOWN" => return simple(LogicalType::Null),
            "LIST" => return simple(LogicalType::List),
            "MAP" => return simple(LogicalType::Map),
            "VECTOR" => return simple(LogicalType::Vector),
            "VARIANT" => {
                count(0, 1)?;
                let specification_version = match params.first() {
                    Some(p) => Some(param_int::<i8>(p, "a variant specification version")?),
                    None => None,
                };
                LogicalType::Variant {
                    specification_version,
                }
            }
            "GEOMETRY" => {
                count(0, 1)?;
                LogicalType::Geometry {
                    crs: params.first().map(param_string),
                }
            }
            "GEOGRAPHY" => {
                count(0, 2)?;
                let algorithm = match params.get(1) {
                    Some(p) => Some(param_algorithm(p)?),
                    None => None,
                };
                LogicalType::Geography {
                    crs: params.first().map(param_string),
                    algorithm,
                }
            }
            "TIMESTAMP" | "TIME" => {
                count(2, 2)?;
                let unit = param_unit(&params[0])?;
                let is_adjusted_to_utc = param_bool(&params[1])?;
                if upper == "TIME" {
                    LogicalType::Time {
                        is_adjusted_to_utc,
                        unit,
                    }
                } else {
                    LogicalType::Timestamp {
                        is_adjusted_to_utc,
                        unit,
                    }
                }
            }
            "INTEGER" | "INT" => {
                count(2, 2)?;
                LogicalType::Integer {
                    bit_width: param_int(&params[0], "a bit width")?,
                    is_signed: param_bool(&params[1])?,
                }
            }
            "DECIMAL" => {
                count(1, 2)?;
                let precision = param_int(&params[0], "a decimal precision")?;
                let scale = match params.get(1) {
                    Some(p) => param_int(p, "a decimal scale")?,
                    None => 0,
                };
                return Ok(Annotation::Decimal(precision, scale));
            }
            _ => {
                let Some(ct) = ALL_CONVERTED
                    .into_iter()
                    .find(|ct| converted_name(*ct) == upper)
                else {
                    return Err(Self::error_at(
                        line,
                        col,
                        format!("expected an annotation name, found unknown annotation `{name}`"),
                    ));
                };
                count(0, 0)?;
                return Ok(Annotation::Converted(ct));
            }
        };
        Ok(Annotation::Logical(logical))
    }
}

fn param_text(p: &(Tok, usize, usize)) -> &str {
    match &p.0 {
        Tok::Word(w) | Tok::Str(w) => w,
        // `params` keeps only words and strings.
        _ => "",
    }
}

fn param_string(p: &(Tok, usize, usize)) -> String {
    param_text(p).to_string()
}

fn param_int<T: FromStr>(p: &(Tok, usize, usize), what: &str) -> Result<T> {
    let text = param_text(p);
    text.parse()
        .map_err(|_| Parser::error_at(p.1, p.2, format!("expected {what}, found `{text}`")))
}

fn param_bool(p: &(Tok, usize, usize)) -> Result<bool> {
    let text = param_text(p);
    if text.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if text.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(Parser::error_at(
            p.1,
            p.2,
            format!("expected `true` or `false`, found `{text}`"),
        ))
    }
}

fn param_unit(p: &(Tok, usize, usize)) -> Result<TimeUnit> {
    let text = param_text(p);
    match text.to_ascii_uppercase().as_str() {
        "MILLIS" => Ok(TimeUnit::Millis),
        "MICROS" => Ok(TimeUnit::Micros),
        "NANOS" => Ok(TimeUnit::Nanos),
        _ => Err(Parser::error_at(
            p.1,
            p.2,
            format!("expected a time unit (`MILLIS`, `MICROS`, `NANOS`), found `{text}`"),
        )),
    }
}

fn param_algorithm(p: &(Tok, usize, usize)) -> Result<EdgeInterpolationAlgorithm> {
    let text = param_text(p);
    Ok(match text.to_ascii_uppercase().as_str() {
        "SPHERICAL" => EdgeInterpolationAlgorithm::Spherical,
        "VINCENTY" => EdgeInterpolationAlgorithm::Vincenty,
        "THOMAS" => EdgeInterpolationAlgorithm::Thomas,
        "ANDOYER" => EdgeInterpolationAlgorithm::Andoyer,
        "KARNEY" => EdgeInterpolationAlgorithm::Karney,
        // An algorithm this library does not know, printed as its number.
        _ => match text.parse::<i32>() {
            Ok(n) => EdgeInterpolationAlgorithm::from_i32(n),
            Err(_) => {
                return Err(Parser::error_at(
                    p.1,
                    p.2,
                    format!(
                        "expected an edge interpolation algorithm (`SPHERICAL`, `VINCENTY`, \
                         `THOMAS`, `ANDOYER`, `KARNEY`), found `{text}`"
                    ),
                ))
            }
        },
    })
}

//! Printing a schema as message-type text.

use std::fmt::{self, Write};

use super::is_plain_word;
use crate::core::format::{ConvertedType, EdgeInterpolationAlgorithm, LogicalType, TimeUnit, Type};
use crate::core::schema::annotation::{converted_name, logical_name, type_name};
use crate::core::schema::validate::MAX_SCHEMA_DEPTH;
use crate::core::schema::{NodeKind, Repetition, Schema, SchemaNode};

impl fmt::Display for Schema {
    /// The message-type text (see [`Schema::parse`]); `{:#}` is the same.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let root = self.root();
        f.write_str("message ")?;
        write_word(f, &root.name)?;
        write_annotation_and_id(f, root)?;
        f.write_str(" {\n")?;
        for field in root.fields() {
            write_node(f, field, 1)?;
        }
        f.write_str("}")
    }
}

impl fmt::Display for SchemaNode {
    /// The node as a field in message-type text, unindented (a group spans several lines).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_node(&mut s, self, 0)?;
        // Drop the final newline so the node prints like a value.
        f.write_str(s.strip_suffix('\n').unwrap_or(&s))
    }
}

fn indent(out: &mut impl Write, depth: usize) -> fmt::Result {
    for _ in 0..depth {
        out.write_str("  ")?;
    }
    Ok(())
}

fn write_node(out: &mut impl Write, node: &SchemaNode, depth: usize) -> fmt::Result {
    indent(out, depth)?;
    if depth > MAX_SCHEMA_DEPTH {
        // Only a tree that was never validated gets here; keep the recursion bounded.
        return out.write_str("...\n");
    }
    out.write_str(&repetition_name(node.repetition))?;
    out.write_char(' ')?;
    match &node.kind {
        NodeKind::Group { fields } => {
            out.write_str("group ")?;
            write_word(out, &node.name)?;
            write_annotation_and_id(out, node)?;
            out.write_str(" {\n")?;
            for field in fields {
                write_node(out, field, depth + 1)?;
            }
            indent(out, depth)?;
            out.write_str("}\n")
        }
        NodeKind::Primitive {
            physical_type,
            type_length,
            ..
        } => {
            out.write_str(&type_name(*physical_type))?;
            if *physical_type == Type::FixedLenByteArray {
                write!(out, "({type_length})")?;
            }
            out.write_char(' ')?;
            write_word(out, &node.name)?;
            write_annotation_and_id(out, node)?;
            out.write_str(";\n")
        }
    }
}

fn repetition_name(r: Repetition) -> String {
    match r {
        Repetition::Required => "required".into(),
        Repetition::Optional => "optional".into(),
        Repetition::Repeated => "repeated".into(),
        Repetition::Vector => "vector".into(),
        Repetition::Unknown(n) => format!("repetition{n}"),
    }
}

fn write_annotation_and_id(out: &mut impl Write, node: &SchemaNode) -> fmt::Result {
    let mut annotation = String::new();
    if write_annotation(&mut annotation, node)? {
        write!(out, " ({annotation})")?;
    }
    if let Some(id) = node.field_id {
        write!(out, " = {id}")?;
    }
    Ok(())
}

/// Writes the annotation of `node` (without the outer parentheses); `false` when it has
/// none that the text form can express.
fn write_annotation(out: &mut String, node: &SchemaNode) -> Result<bool, fmt::Error> {
    if let Some(lt) = &node.logical_type {
        if write_logical(out, lt)? {
            return Ok(true);
        }
    }
    match node.converted_type {
        None | Some(ConvertedType::Unknown(_)) => Ok(false),
        Some(ConvertedType::Decimal) => {
            write!(out, "DECIMAL({},{})", node.precision(), node.scale())?;
            Ok(true)
        }
        Some(ct) => {
            out.push_str(&converted_name(ct));
            Ok(true)
        }
    }
}

fn unit_name(unit: TimeUnit) -> Option<&'static str> {
    match unit {
        TimeUnit::Millis => Some("MILLIS"),
        TimeUnit::Micros => Some("MICROS"),
        TimeUnit::Nanos => Some("NANOS"),
        TimeUnit::Unknown(_) => None,
    }
}

pub(super) fn algorithm_name(a: EdgeInterpolationAlgorithm) -> String {
    match a {
        EdgeInterpolationAlgorithm::Spherical => "SPHERICAL".into(),
        EdgeInterpolationAlgorithm::Vincenty => "VINCENTY".into(),
        EdgeInterpolationAlgorithm::Thomas => "THOMAS".into(),
        EdgeInterpolationAlgorithm::Andoyer => "ANDOYER".into(),
        EdgeInterpolationAlgorithm::Karney => "KARNEY".into(),
        EdgeInterpolationAlgorithm::Unknown(n) => n.to_string(),
    }
}

/// Writes a logical type; `false` (nothing written) for one the text cannot express
/// (an unknown union member or time unit).
fn write_logical(out: &mut String, lt: &LogicalType) -> Result<bool, fmt::Error> {
    match lt {
        LogicalType::Unknown(_) => return Ok(false),
        LogicalType::Decimal { scale, precision } => write!(out, "DECIMAL({precision},{scale})")?,
        LogicalType::Time {
            is_adjusted_to_utc,
            unit,
        }
        | LogicalType::Timestamp {
            is_adjusted_to_utc,
            unit,
        } => {
            let Some(unit) = unit_name(*unit) else {
                return Ok(false);
            };
            write!(out, "{}({unit},{is_adjusted_to_utc})", logical_name(lt))?;
        }
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => write!(out, "INTEGER({bit_width},{is_signed})")?,
        LogicalType::Variant {
            specification_version: Some(v),
        } => write!(out, "VARIANT({v})")?,
        LogicalType::Geometry { crs: Some(crs) } => {
            out.push_str("GEOMETRY(");
            write_word(out, crs)?;
            out.push(')');
        }
        LogicalType::Geography { crs, algorithm } if crs.is_some() || algorithm.is_some() => {
            out.push_str("GEOGRAPHY(");
            write_word(out, crs.as_deref().unwrap_or("OGC:CRS84"))?;
            if let Some(a) = algorithm {
                out.push(',');
                out.push_str(&algorithm_name(*a));
            }
            out.push(')');
        }
        other => out.push_str(&logical_name(other)),
    }
    Ok(true)
}

/// Writes a name or string: bare when it is a plain word, else quoted with escapes.
fn write_word(out: &mut impl Write, s: &str) -> fmt::Result {
    if is_plain_word(s) {
        return out.write_str(s);
    }
    out.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\t' => out.write_str("\\t")?,
            '\r' => out.write_str("\\r")?,
            c if c.is_control() => write!(out, "\\u{{{:x}}}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

//! The schema tree, column descriptors and the message-type text form.
//!
//! [`SchemaNode`] is the tree (built with [`SchemaNode::primitive`], [`SchemaNode::group`],
//! [`SchemaNode::list`], [`SchemaNode::map`] and the `with_*` methods); [`Schema`] pairs a
//! validated root with its leaf [`ColumnDescriptor`]s (path, physical type, annotations,
//! max definition and repetition levels, and the levels reached at each node of the path).
//! A schema is read from and written to the footer's `SchemaElement` list by the file
//! reader and writer, and converts to and from the message-type text parquet-java and arrow
//! print ([`Schema::parse`], `Display`):
//!
//! ```text
//! message m {
//!   required int64 ts (TIMESTAMP(MICROS,true));
//!   optional group tags (LIST) = 3 {
//!     repeated group list {
//!       optional binary element (STRING);
//!     }
//!   }
//! }
//! ```
//!
//! A field is `<repetition> <type> <name> [(<annotation>)] [= <field id>]`, the type being
//! `group` (followed by `{ fields }`) or a primitive type (`boolean`, `int32`, `int64`,
//! `int96`, `float`, `double`, `binary`, `fixed_len_byte_array(<length>)`) followed by
//! `;`. The field id follows the annotation, as parquet-java writes it (the parser also
//! takes it before). Names and CRS strings that are not plain words (empty, or holding
//! whitespace or one of `{}();,="`) are written in double quotes with backslash escapes.
//!

mod annotation;
mod descriptor;
mod elements;
mod message;
mod node;
mod shape;
mod text;
pub mod typed;
mod validate;

#[cfg(test)]
pub(crate) use annotation::converted_type_for;
pub use descriptor::{ColumnDescriptor, ColumnPath};
pub use message::Schema;
pub use node::{NodeKind, Repetition, SchemaNode};
#[cfg(test)]
pub(crate) use shape::TextKind;
pub(crate) use shape::{ContainerAnnotation, Conversion, GroupShape, ListLayout, MapShape};
pub use typed::ParquetSchema;
// The schema enums of parquet.thrift (`core::format` itself is private).
pub use crate::core::format::Type as PhysicalType;
pub use crate::core::format::{ConvertedType, EdgeInterpolationAlgorithm, LogicalType, TimeUnit};

//! The schema tree, column descriptors and the message-type text form.
//!
//! [`SchemaNode`] is the tree; [`Schema`] pairs the root with its leaf
//! [`ColumnDescriptor`]s (path, physical type, max definition and repetition levels).

mod node;
pub mod typed;

pub use node::{NodeKind, Repetition, SchemaNode};
pub use typed::ParquetSchema;

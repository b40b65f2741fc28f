//! Dynamic records: rows read into a [`Value`] tree, with no Rust type needed (by the same
//! deserializer as typed rows: [`from_slice::<Value>`](crate::from_slice), [`read_rows`]),
//! and their JSON form (the mapping of `parquet-serde cat`).
//!
//! Writing without a Rust type: [`ValueWriter`] and [`write_rows`] write `Value` rows, JSON
//! text or `serde_json::Value`s against a [`Schema`](crate::core::schema::Schema) given at
//! run time, which [`SchemaInferrer`] / [`infer`] can infer from sample rows.

mod infer;
mod json;
mod read;
mod value;
mod value_serde;
mod write;

pub use infer::{infer, BigIntegers, InferOptions, SchemaInferrer};
pub use json::{write_json, write_json_to};
pub use read::read_rows;
pub use value::Value;
pub use write::{write_rows, ValueWriter};

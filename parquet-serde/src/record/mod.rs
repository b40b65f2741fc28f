//! Dynamic records: rows read into a [`Value`] tree, with no Rust type needed (by the same
//! deserializer as typed rows: [`from_slice::<Value>`](crate::from_slice), [`read_rows`]),
//! and their JSON form (the mapping of `parquet-serde cat`).

mod json;
mod read;
mod value;
mod value_serde;

pub use json::{write_json, write_json_to};
pub use read::read_rows;
pub use value::Value;

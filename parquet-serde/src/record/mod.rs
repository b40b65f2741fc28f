//! Dynamic records: rows assembled from column chunks into a [`Value`] tree, with no Rust
//! type needed, and their JSON form (the mapping of `parquet-serde cat`).

mod assemble;
mod json;
mod value;
mod value_serde;

pub use assemble::{read_rows, select_columns, RowAssembler};
pub use json::{write_json, write_json_to};
pub use value::Value;

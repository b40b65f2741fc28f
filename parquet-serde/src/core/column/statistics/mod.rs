//! Statistics: sort orders, typed values, accumulation while writing, and the rules for
//! reading the statistics of any writer.

mod accumulator;
mod decimal;
mod logical_text;
mod order;
mod read;
mod scalar;
mod truncate;

pub(crate) use accumulator::{BytesOrder, StatisticsAccumulator, StatisticsFormat};
pub use decimal::Decimal;
pub use order::SortOrder;
pub(crate) use order::{compare_decimal_bytes, compare_f64, f16_to_f64};
pub(crate) use read::int96_bound;
pub use read::ColumnStatistics;
pub use scalar::Scalar;

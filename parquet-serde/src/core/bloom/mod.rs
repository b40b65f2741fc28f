//! Split block Bloom filters (SBBF), exactly as the Parquet specification defines them:
//! blocks of eight 32-bit words, eight salted bits per value, block chosen by the top 32
//! bits of the value's 64-bit xxHash (XXH64, seed 0, of the value's PLAIN encoding;
//! byte arrays without their length prefix).
//!
//! - [`Sbbf`]: the filter: insert and check hashes, serialize with its Thrift header.
//! - [`hash`]: hashes of column values and typed values.
//! - [`BloomFilterBuilder`]: what a column writer fills, sized from an expected distinct
//!   count and false positive rate ([`BloomFilterOptions`]).
//!
//! ```
//! use parquet_serde::core::bloom::{hash, Sbbf};
//! let mut filter = Sbbf::with_ndv_fpp(1000, 0.01);
//! filter.insert_hash(hash::hash_bytes(b"hello"));
//! assert!(filter.check_hash(hash::hash_bytes(b"hello")));
//! assert_eq!(filter.num_bytes(), 2048);
//! ```

mod builder;
pub mod hash;
mod sbbf;

pub use builder::{BloomFilterBuilder, BloomFilterOptions};
pub use sbbf::{Sbbf, MAX_BYTES, MIN_BYTES};

//! Split block Bloom filters (SBBF), exactly as the Parquet specification defines them:
//! blocks of eight 32-bit words, eight salted bits per value, block chosen by the top 32
//! bits of the value's 64-bit xxHash (XXH64, seed 0, of the value's PLAIN encoding;
//! byte arrays without their length prefix).
//!
//! - [`Sbbf`]: the filter: check values ([`Sbbf::check_bytes`], [`Sbbf::check_i64`], ...)
//!   or their hashes, serialize with its Thrift header.
//! - [`BloomFilterOptions`]: the expected distinct count and false positive rate a column
//!   writer sizes its filter from.
//!
//! ```
//! use parquet_serde::core::bloom::Sbbf;
//! let filter = Sbbf::with_ndv_fpp(1000, 0.01);
//! assert_eq!(filter.num_bytes(), 2048);
//! assert!(!filter.check_bytes(b"hello"));
//! assert!(!filter.check_i64(42));
//! ```

pub(crate) mod builder;
pub(crate) mod hash;
mod sbbf;

pub(crate) use builder::BloomFilterBuilder;
pub use builder::BloomFilterOptions;
pub use sbbf::Sbbf;

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn module_example() {
        use crate::core::bloom::{hash, Sbbf};
        let mut filter = Sbbf::with_ndv_fpp(1000, 0.01);
        filter.insert_hash(hash::hash_bytes(b"hello"));
        assert!(filter.check_hash(hash::hash_bytes(b"hello")));
        assert_eq!(filter.num_bytes(), 2048);
    }
}

//! Bloom filter header and its algorithm, hash and compression unions.

thrift_union! {
    /// Algorithm of a Bloom filter.
    #[derive(Copy, Eq, Hash)]
    pub enum BloomFilterAlgorithm {
        /// Split block Bloom filter (`BLOCK`).
        1: Block,
    }
}

thrift_union! {
    /// Hash function of a Bloom filter.
    #[derive(Copy, Eq, Hash)]
    pub enum BloomFilterHash {
        /// 64-bit xxHash of the PLAIN encoded value (`XXHASH`).
        1: XxHash,
    }
}

thrift_union! {
    /// Compression of a Bloom filter bitset.
    #[derive(Copy, Eq, Hash)]
    pub enum BloomFilterCompression {
        /// Not compressed (`UNCOMPRESSED`).
        1: Uncompressed,
    }
}

thrift_struct! {
    /// Header stored in front of a Bloom filter bitset.
    #[derive(Eq, Hash)]
    pub struct BloomFilterHeader {
        /// Size of the bitset in bytes.
        1: required num_bytes: i32,
        /// How bits are set.
        2: required algorithm: BloomFilterAlgorithm,
        /// Hash function.
        3: required hash: BloomFilterHash,
        /// Compression of the bitset.
        4: required compression: BloomFilterCompression,
    }
}

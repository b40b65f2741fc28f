//! Column statistics: `Statistics`, `SizeStatistics`, `GeospatialStatistics`, `BoundingBox`.

thrift_struct! {
    /// Statistics of a column chunk or a page; every field is optional.
    ///
    /// Values are PLAIN encoded, except that byte arrays have no length prefix.
    #[derive(Default)]
    pub struct Statistics {
        /// Deprecated maximum, by signed comparison; prefer `max_value`.
        1: optional max: Vec<u8>,
        /// Deprecated minimum, by signed comparison; prefer `min_value`.
        2: optional min: Vec<u8>,
        /// Number of nulls; absent means unknown, not zero.
        3: optional null_count: i64,
        /// Number of distinct values.
        4: optional distinct_count: i64,
        /// Upper bound of the values, by the column order.
        5: optional max_value: Vec<u8>,
        /// Lower bound of the values, by the column order.
        6: optional min_value: Vec<u8>,
        /// Whether `max_value` is a value that actually occurs.
        7: optional is_max_value_exact: bool,
        /// Whether `min_value` is a value that actually occurs.
        8: optional is_min_value_exact: bool,
        /// Number of NaN values (floating point columns); absent means NaNs may be present.
        9: optional nan_count: i64,
    }
}

thrift_struct! {
    /// Sizes and level histograms that help estimate the decoded size of a chunk or page.
    #[derive(Default)]
    pub struct SizeStatistics {
        /// Bytes of BYTE_ARRAY values, without their length prefixes.
        1: optional unencoded_byte_array_data_bytes: i64,
        /// How often each repetition level occurs (index = level).
        2: optional repetition_level_histogram: Vec<i64>,
        /// How often each definition level occurs (index = level).
        3: optional definition_level_histogram: Vec<i64>,
    }
}

thrift_struct! {
    /// Bounding box of GEOMETRY or GEOGRAPHY values: min/max per axis.
    #[derive(Default)]
    pub struct BoundingBox {
        /// Smallest x.
        1: required xmin: f64,
        /// Largest x.
        2: required xmax: f64,
        /// Smallest y.
        3: required ymin: f64,
        /// Largest y.
        4: required ymax: f64,
        /// Smallest z, when there is a z axis.
        5: optional zmin: f64,
        /// Largest z, when there is a z axis.
        6: optional zmax: f64,
        /// Smallest m, when there is an m axis.
        7: optional mmin: f64,
        /// Largest m, when there is an m axis.
        8: optional mmax: f64,
    }
}

thrift_struct! {
    /// Statistics of GEOMETRY and GEOGRAPHY columns.
    #[derive(Default)]
    pub struct GeospatialStatistics {
        /// Bounding box of all values.
        1: optional bbox: BoundingBox,
        /// Geospatial type codes (WKB geometry types) that occur; empty if unknown.
        2: optional geospatial_types: Vec<i32>,
    }
}

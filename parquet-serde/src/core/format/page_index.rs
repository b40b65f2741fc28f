//! The page index: `ColumnIndex`, `OffsetIndex`, `PageLocation`.

use super::BoundaryOrder;

thrift_struct! {
    /// Where a data page is and which rows it starts with.
    #[derive(Default, Eq, Hash)]
    pub struct PageLocation {
        /// File offset of the page (its header).
        1: required offset: i64,
        /// Size of the page, header included.
        2: required compressed_page_size: i32,
        /// Index, within the row group, of the first row of the page.
        3: required first_row_index: i64,
    }
}

thrift_struct! {
    /// Locations of the data pages of a column chunk.
    #[derive(Default, Eq, Hash)]
    pub struct OffsetIndex {
        /// One location per data page, by increasing offset.
        1: required page_locations: Vec<PageLocation>,
        /// Unencoded BYTE_ARRAY bytes per page (see `SizeStatistics`).
        2: optional unencoded_byte_array_data_bytes: Vec<i64>,
    }
}

thrift_struct! {
    /// Per-page min/max and null counts of a column chunk, parallel to its `OffsetIndex`.
    pub struct ColumnIndex {
        /// Whether each page holds only nulls (its min/max entries are then empty).
        1: required null_pages: Vec<bool>,
        /// Lower bound of each page.
        2: required min_values: Vec<Vec<u8>>,
        /// Upper bound of each page.
        3: required max_values: Vec<Vec<u8>>,
        /// Whether the bounds are ordered across pages.
        4: required boundary_order: BoundaryOrder,
        /// Nulls in each page.
        5: optional null_counts: Vec<i64>,
        /// Repetition level histograms of all pages, concatenated.
        6: optional repetition_level_histograms: Vec<i64>,
        /// Definition level histograms of all pages, concatenated.
        7: optional definition_level_histograms: Vec<i64>,
        /// NaNs in each page (floating point columns).
        8: optional nan_counts: Vec<i64>,
    }
}

//! Per-field options: what `#[parquet(...)]` says about one field.

use crate::core::bloom::BloomFilterOptions;
use crate::core::compression::Compression;
use crate::core::format::{EdgeInterpolationAlgorithm, Encoding, LogicalType, TimeUnit};

/// Options of one field, as written in `#[parquet(...)]` on it.
///
/// The derive builds one of these per field (as a constant) and hands it to
/// [`ParquetSchema::parquet_node`](super::ParquetSchema::parquet_node). Implementations read
/// the *type options* (`timestamp`, `utc`, `date`, `time`, `decimal`, `uuid`, `json`, `bytes`,
/// `bson`)
/// to choose the leaf's physical and logical type, and pass the same options on to the element
/// of a list, the inner type of an `Option` or pointer, and the value of a map (never the key).
/// An option that does not fit the type it reaches is ignored at run time; the derive rejects
/// it at compile time.
///
/// The *column options* (`encoding`, `compression`, `dictionary`) do not change the schema;
/// they are reported by
/// [`ParquetSchema::parquet_column_options`](super::ParquetSchema::parquet_column_options).
///
/// The field name (`name = ...`) and `field_id` are applied by the caller to the node it gets
/// back, so they are not part of this struct.
///
/// ```
/// use parquet_serde::core::schema::TimeUnit;
/// use parquet_serde::core::schema::typed::FieldAttrs;
///
/// let mut attrs = FieldAttrs::new();
/// attrs.timestamp = Some(TimeUnit::Millis);
/// attrs.utc = Some(false);
/// assert!(attrs.has_type_option());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldAttrs {
    /// `timestamp = "millis|micros|nanos"`: an `INT64` TIMESTAMP with this unit.
    pub timestamp: Option<TimeUnit>,
    /// `utc = bool`: `isAdjustedToUTC` of a TIMESTAMP or TIME (default: the type's own, `true`
    /// for integers and instants, `false` for local date-times and times of day).
    pub utc: Option<bool>,
    /// `date`: an `INT32` DATE (days since the Unix epoch).
    pub date: bool,
    /// `time = "millis|micros|nanos"`: a TIME of day (`INT32` for millis, `INT64` otherwise).
    pub time: Option<TimeUnit>,
    /// `decimal(precision = P, scale = S)`.
    pub decimal: Option<DecimalSpec>,
    /// `uuid`: a 16-byte `FIXED_LEN_BYTE_ARRAY` UUID.
    pub uuid: bool,
    /// `json`: a `BYTE_ARRAY` JSON document (each value checked to be JSON text on write).
    pub json: bool,
    /// `bytes` (or `#[serde(with = "serde_bytes")]`): a byte sequence is one `BYTE_ARRAY`
    /// value rather than a list of small integers.
    pub bytes: bool,
    /// `bson`: a byte sequence is one `BYTE_ARRAY` BSON document (checked on write).
    pub bson: bool,
    /// `geometry(...)` / `geography(...)`: a `BYTE_ARRAY` of WKB values.
    pub geo: Option<GeoSpec>,
    /// `encoding = "..."`: the value encoding of the column(s) below this field.
    pub encoding: Option<Encoding>,
    /// `compression = "..."`: the codec of the column(s) below this field.
    pub compression: Option<Compression>,
    /// `dictionary = bool`: whether the column(s) below this field are dictionary encoded.
    pub dictionary: Option<bool>,
    /// `bloom_filter` or `bloom_filter(ndv = N, fpp = F)`: write a Bloom filter for the
    /// column(s) below this field.
    pub bloom_filter: Option<BloomFilterOptions>,
}

impl FieldAttrs {
    /// No options: every type gets its default mapping.
    pub const fn new() -> Self {
        FieldAttrs {
            timestamp: None,
            utc: None,
            date: false,
            time: None,
            decimal: None,
            uuid: false,
            json: false,
            bytes: false,
            bson: false,
            geo: None,
            encoding: None,
            compression: None,
            dictionary: None,
            bloom_filter: None,
        }
    }

    /// Whether any option that changes the schema is set.
    pub const fn has_type_option(&self) -> bool {
        self.timestamp.is_some()
            || self.utc.is_some()
            || self.date
            || self.time.is_some()
            || self.decimal.is_some()
            || self.uuid
            || self.json
            || self.bytes
            || self.bson
            || self.geo.is_some()
    }

    /// Whether any column option (`encoding`, `compression`, `dictionary`, `bloom_filter`)
    /// is set.
    pub const fn has_column_option(&self) -> bool {
        self.encoding.is_some()
            || self.compression.is_some()
            || self.dictionary.is_some()
            || self.bloom_filter.is_some()
    }

    /// These options with every unset one taken from `outer` (used when a newtype's inner
    /// field has options of its own and the field holding the newtype has more).
    pub const fn or(self, outer: FieldAttrs) -> FieldAttrs {
        FieldAttrs {
            timestamp: or_opt(self.timestamp, outer.timestamp),
            utc: or_opt(self.utc, outer.utc),
            date: self.date || outer.date,
            time: or_opt(self.time, outer.time),
            decimal: or_opt(self.decimal, outer.decimal),
            uuid: self.uuid || outer.uuid,
            json: self.json || outer.json,
            bytes: self.bytes || outer.bytes,
            bson: self.bson || outer.bson,
            geo: or_opt(self.geo, outer.geo),
            encoding: or_opt(self.encoding, outer.encoding),
            compression: or_opt(self.compression, outer.compression),
            dictionary: or_opt(self.dictionary, outer.dictionary),
            bloom_filter: match self.bloom_filter {
                Some(b) => Some(b),
                None => outer.bloom_filter,
            },
        }
    }
}

/// `a` if set, else `b` (a `const` `Option::or` for `Copy` values).
const fn or_opt<T: Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match a {
        Some(v) => Some(v),
        None => b,
    }
}

/// Precision and scale of a DECIMAL, checked on construction.
///
/// ```
/// use parquet_serde::core::schema::typed::DecimalSpec;
///
/// let d = DecimalSpec::new(10, 2).unwrap();
/// assert_eq!((d.precision(), d.scale()), (10, 2));
/// assert!(DecimalSpec::new(0, 0).is_none()); // precision must be at least 1
/// assert!(DecimalSpec::new(5, 6).is_none()); // scale must not exceed precision
/// assert!(DecimalSpec::new(39, 0).is_none()); // at most 38 digits
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct DecimalSpec {
    precision: u16,
    scale: u16,
}

impl DecimalSpec {
    /// Largest precision supported (the digits a 16-byte two's complement integer holds).
    pub const MAX_PRECISION: u32 = 38;

    /// Largest precision of a decimal stored as `BYTE_ARRAY` ([`new_wide`](Self::new_wide)),
    /// which has no limit of its own in the format.
    pub const MAX_WIDE_PRECISION: u32 = 1000;

    /// A decimal of `precision` digits, `scale` of them after the point; `None` unless
    /// `1 <= precision <= 38` and `scale <= precision`.
    pub const fn new(precision: u32, scale: u32) -> Option<Self> {
        if precision > Self::MAX_PRECISION {
            return None;
        }
        Self::new_wide(precision, scale)
    }

    /// As [`new`](Self::new), with a precision up to
    /// [`MAX_WIDE_PRECISION`](Self::MAX_WIDE_PRECISION): above 38 digits the column is a
    /// `BYTE_ARRAY` decimal, which only decimal text and `bigdecimal::BigDecimal` fill.
    ///
    /// ```
    /// use parquet_serde::core::schema::typed::DecimalSpec;
    /// assert!(DecimalSpec::new(50, 10).is_none());
    /// assert_eq!(DecimalSpec::new_wide(50, 10).map(|d| d.precision()), Some(50));
    /// ```
    pub const fn new_wide(precision: u32, scale: u32) -> Option<Self> {
        if precision == 0 || precision > Self::MAX_WIDE_PRECISION || scale > precision {
            return None;
        }
        // Both are at most 1000 here, so they fit a u16.
        Some(DecimalSpec {
            precision: precision as u16,
            scale: scale as u16,
        })
    }

    /// Total number of digits.
    pub const fn precision(self) -> u32 {
        self.precision as u32
    }

    /// Digits after the decimal point.
    pub const fn scale(self) -> u32 {
        self.scale as u32
    }
}

/// What `#[parquet(geometry(crs = "..."))]` or
/// `#[parquet(geography(crs = "...", algorithm = "..."))]` says: the logical type of a
/// `BYTE_ARRAY` column of WKB values.
///
/// ```
/// use parquet_serde::core::schema::{EdgeInterpolationAlgorithm, LogicalType};
/// use parquet_serde::core::schema::typed::GeoSpec;
///
/// let g = GeoSpec::geography(Some("srid:4326"), Some(EdgeInterpolationAlgorithm::Karney));
/// assert!(matches!(g.logical_type(), LogicalType::Geography { .. }));
/// assert_eq!(GeoSpec::GEOMETRY.logical_type(), LogicalType::Geometry { crs: None });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct GeoSpec {
    /// GEOGRAPHY (edges follow `algorithm`) rather than GEOMETRY (planar edges).
    pub geography: bool,
    /// Coordinate reference system; `None` is the default, `OGC:CRS84`.
    pub crs: Option<&'static str>,
    /// Edge interpolation of a GEOGRAPHY; `None` is the default, spherical.
    pub algorithm: Option<EdgeInterpolationAlgorithm>,
}

impl GeoSpec {
    /// GEOMETRY in the default CRS: what a `geo_types` field is without options.
    pub const GEOMETRY: GeoSpec = GeoSpec::geometry(None);

    /// GEOMETRY in `crs`.
    pub const fn geometry(crs: Option<&'static str>) -> GeoSpec {
        GeoSpec {
            geography: false,
            crs,
            algorithm: None,
        }
    }

    /// GEOGRAPHY in `crs` with edges interpolated by `algorithm`.
    pub const fn geography(
        crs: Option<&'static str>,
        algorithm: Option<EdgeInterpolationAlgorithm>,
    ) -> GeoSpec {
        GeoSpec {
            geography: true,
            crs,
            algorithm,
        }
    }

    /// The logical type of the column.
    pub fn logical_type(&self) -> LogicalType {
        let crs = self.crs.map(str::to_owned);
        if self.geography {
            LogicalType::Geography {
                crs,
                algorithm: self.algorithm,
            }
        } else {
            LogicalType::Geometry { crs }
        }
    }
}

/// Column options attached to a path of the schema, from [`FieldAttrs`]' column options.
///
/// `path` names a node below the root (the root's own name is not part of it), like
/// `path_in_schema` in the column metadata. The options apply to every leaf column at or below
/// that node; where two entries cover one leaf, the longer path wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnOptions {
    /// Names from the root's child down to the node the options were written on.
    pub path: Vec<String>,
    /// Value encoding.
    pub encoding: Option<Encoding>,
    /// Compression codec and level.
    pub compression: Option<Compression>,
    /// Dictionary encoding on or off.
    pub dictionary: Option<bool>,
    /// Bloom filter settings.
    pub bloom_filter: Option<BloomFilterOptions>,
}

impl ColumnOptions {
    /// The column options of `attrs` at `path`, or `None` if `attrs` has none.
    pub fn from_attrs(path: &[String], attrs: &FieldAttrs) -> Option<Self> {
        if !attrs.has_column_option() {
            return None;
        }
        Some(ColumnOptions {
            path: path.to_vec(),
            encoding: attrs.encoding,
            compression: attrs.compression,
            dictionary: attrs.dictionary,
            bloom_filter: attrs.bloom_filter,
        })
    }

    /// Whether these options cover the leaf at `leaf_path` (their path is a prefix of it).
    pub fn covers(&self, leaf_path: &[String]) -> bool {
        leaf_path.starts_with(&self.path)
    }

    /// The options that apply to the leaf at `leaf_path`: for each option, the value from the
    /// entry with the longest path covering the leaf that sets it; between entries of equal
    /// length the first in `options` wins (the field's own options come before those of the
    /// newtype it holds).
    pub fn resolve(options: &[ColumnOptions], leaf_path: &[String]) -> ColumnOptions {
        let mut best: [Option<usize>; 4] = [None; 4];
        let mut out = ColumnOptions {
            path: leaf_path.to_vec(),
            encoding: None,
            compression: None,
            dictionary: None,
            bloom_filter: None,
        };
        for opt in options.iter().filter(|o| o.covers(leaf_path)) {
            let len = opt.path.len();
            let longer = |slot: &mut Option<usize>| match *slot {
                Some(l) if l >= len => false,
                _ => {
                    *slot = Some(len);
                    true
                }
            };
            if opt.encoding.is_some() && longer(&mut best[0]) {
                out.encoding = opt.encoding;
            }
            if opt.compression.is_some() && longer(&mut best[1]) {
                out.compression = opt.compression;
            }
            if opt.dictionary.is_some() && longer(&mut best[2]) {
                out.dictionary = opt.dictionary;
            }
            if opt.bloom_filter.is_some() && longer(&mut best[3]) {
                out.bloom_filter = opt.bloom_filter;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_spec_bounds() {
        assert!(DecimalSpec::new(1, 0).is_some());
        assert!(DecimalSpec::new(1, 1).is_some());
        assert!(DecimalSpec::new(38, 38).is_some());
        assert!(DecimalSpec::new(0, 0).is_none());
        assert!(DecimalSpec::new(39, 0).is_none());
        assert!(DecimalSpec::new(9, 10).is_none());
        assert!(DecimalSpec::new(u32::MAX, 0).is_none());
    }

    #[test]
    fn attrs_or_prefers_self() {
        let mut inner = FieldAttrs::new();
        inner.timestamp = Some(TimeUnit::Millis);
        let mut outer = FieldAttrs::new();
        outer.timestamp = Some(TimeUnit::Nanos);
        outer.dictionary = Some(false);
        let merged = inner.or(outer);
        assert_eq!(merged.timestamp, Some(TimeUnit::Millis));
        assert_eq!(merged.dictionary, Some(false));
        assert!(merged.has_type_option() && merged.has_column_option());
        assert!(!FieldAttrs::new().has_type_option());
        assert!(!FieldAttrs::new().has_column_option());
    }

    #[test]
    fn column_options_cover_prefixes() {
        let mut attrs = FieldAttrs::new();
        assert!(ColumnOptions::from_attrs(&["a".into()], &attrs).is_none());
        attrs.dictionary = Some(true);
        let opts = ColumnOptions::from_attrs(&["a".into()], &attrs).unwrap();
        assert!(opts.covers(&["a".into(), "list".into(), "element".into()]));
        assert!(opts.covers(&["a".into()]));
        assert!(!opts.covers(&["ab".into()]));
        assert!(!opts.covers(&[]));
    }

    #[test]
    fn resolve_prefers_longest_then_first() {
        let p = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let opts = vec![
            ColumnOptions {
                path: p(&["a"]),
                encoding: Some(Encoding::Plain),
                compression: Some(Compression::Zstd(3)),
                dictionary: Some(false),
                bloom_filter: None,
            },
            ColumnOptions {
                path: p(&["a"]),
                encoding: Some(Encoding::DeltaByteArray),
                compression: None,
                dictionary: Some(true),
                bloom_filter: None,
            },
            ColumnOptions {
                path: p(&["a", "list", "element", "x"]),
                encoding: None,
                compression: Some(Compression::Snappy),
                dictionary: None,
                bloom_filter: None,
            },
        ];
        let r = ColumnOptions::resolve(&opts, &p(&["a", "list", "element", "x"]));
        assert_eq!(r.encoding, Some(Encoding::Plain));
        assert_eq!(r.compression, Some(Compression::Snappy));
        assert_eq!(r.dictionary, Some(false));
        let r = ColumnOptions::resolve(&opts, &p(&["a", "list", "element", "y"]));
        assert_eq!(r.compression, Some(Compression::Zstd(3)));
        let r = ColumnOptions::resolve(&opts, &p(&["b"]));
        assert_eq!(
            (r.encoding, r.compression, r.dictionary),
            (None, None, None)
        );
    }
}

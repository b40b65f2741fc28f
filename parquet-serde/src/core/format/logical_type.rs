//! The `LogicalType` union and its members.

use super::codec::{self, FieldEncode};
use super::{
    CompactReader, CompactWriter, EdgeInterpolationAlgorithm, ThriftDecode, ThriftEncode, WireType,
};
use crate::Result;

/// Unit of TIME and TIMESTAMP logical types (`TimeUnit` union).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeUnit {
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
    /// A union member this library does not know (its field id).
    Unknown(i16),
}

/// Logical type annotation of a schema element (`LogicalType` union in parquet.thrift).
///
/// Union members with no fields are unit variants. A member this library does not know
/// is kept as `Unknown(field_id)`; readers then read the column as its physical type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LogicalType {
    /// UTF-8 string (`STRING`, id 1).
    String,
    /// Map (`MAP`, id 2).
    Map,
    /// List (`LIST`, id 3).
    List,
    /// Enum string (`ENUM`, id 4).
    Enum,
    /// Decimal (`DECIMAL`, id 5).
    Decimal {
        /// Digits after the decimal point.
        scale: i32,
        /// Total digits.
        precision: i32,
    },
    /// Days since the Unix epoch (`DATE`, id 6).
    Date,
    /// Time of day (`TIME`, id 7).
    Time {
        /// Whether the value is normalized to UTC.
        is_adjusted_to_utc: bool,
        /// Unit.
        unit: TimeUnit,
    },
    /// Instant or local date-time (`TIMESTAMP`, id 8).
    Timestamp {
        /// Whether the value is an instant (UTC) rather than a local date-time.
        is_adjusted_to_utc: bool,
        /// Unit.
        unit: TimeUnit,
    },
    /// Integer with a bit width and signedness (`INTEGER`, id 10).
    Integer {
        /// 8, 16, 32 or 64.
        bit_width: i8,
        /// Signed or unsigned.
        is_signed: bool,
    },
    /// Always-null column (`UNKNOWN` / NullType, id 11).
    Null,
    /// JSON document (`JSON`, id 12).
    Json,
    /// BSON document (`BSON`, id 13).
    Bson,
    /// UUID in 16 bytes (`UUID`, id 14).
    Uuid,
    /// IEEE half precision in 2 bytes (`FLOAT16`, id 15).
    Float16,
    /// Variant (`VARIANT`, id 16).
    Variant {
        /// Version of the variant specification.
        specification_version: Option<i8>,
    },
    /// Geometry in WKB (`GEOMETRY`, id 17).
    Geometry {
        /// Coordinate reference system (default `OGC:CRS84`).
        crs: Option<String>,
    },
    /// Geography in WKB (`GEOGRAPHY`, id 18).
    Geography {
        /// Coordinate reference system (default `OGC:CRS84`).
        crs: Option<String>,
        /// Edge interpolation (default spherical).
        algorithm: Option<EdgeInterpolationAlgorithm>,
    },
    /// Fixed-size vector (`VECTOR`, id 19).
    Vector,
    /// A union member this library does not know (its field id).
    Unknown(i16),
}

thrift_union_codec! {
    TimeUnit {
        1: Millis,
        2: Micros,
        3: Nanos,
    }
}

thrift_struct! {
    /// Members of the `DECIMAL` logical type.
    #[derive(Default, Eq, Hash)]
    pub struct DecimalType {
        /// Digits after the decimal point.
        1: required scale: i32,
        /// Total digits.
        2: required precision: i32,
    }
}

thrift_struct! {
    /// Members of the `TIME` logical type.
    #[derive(Eq, Hash)]
    pub struct TimeType {
        /// Whether the value is normalized to UTC.
        1: required is_adjusted_to_utc: bool,
        /// Unit.
        2: required unit: TimeUnit,
    }
}

thrift_struct! {
    /// Members of the `TIMESTAMP` logical type.
    #[derive(Eq, Hash)]
    pub struct TimestampType {
        /// Whether the value is an instant (UTC) rather than a local date-time.
        1: required is_adjusted_to_utc: bool,
        /// Unit.
        2: required unit: TimeUnit,
    }
}

thrift_struct! {
    /// Members of the `INTEGER` logical type.
    #[derive(Default, Eq, Hash)]
    pub struct IntType {
        /// 8, 16, 32 or 64.
        1: required bit_width: i8,
        /// Signed or unsigned.
        2: required is_signed: bool,
    }
}

thrift_struct! {
    /// Members of the `VARIANT` logical type.
    #[derive(Default, Eq, Hash)]
    pub struct VariantType {
        /// Version of the variant specification.
        1: optional specification_version: i8,
    }
}

thrift_struct! {
    /// Members of the `GEOMETRY` logical type.
    #[derive(Default, Eq, Hash)]
    pub struct GeometryType {
        /// Coordinate reference system (default `OGC:CRS84`).
        1: optional crs: String,
    }
}

thrift_struct! {
    /// Members of the `GEOGRAPHY` logical type.
    #[derive(Default, Eq, Hash)]
    pub struct GeographyType {
        /// Coordinate reference system (default `OGC:CRS84`).
        1: optional crs: String,
        /// Edge interpolation (default spherical).
        2: optional algorithm: EdgeInterpolationAlgorithm,
    }
}

impl<'a> ThriftDecode<'a> for LogicalType {
    fn decode(r: &mut CompactReader<'a>) -> Result<Self> {
        const NAME: &str = "LogicalType";
        r.struct_begin()?;
        let mut last_id = 0;
        let (wire, id) = codec::union_member(r, NAME, &mut last_id)?;
        if (1..=19).contains(&id) && id != 9 {
            codec::union_member_is_struct(r, NAME, id, wire)?;
        }
        let value = match id {
            1 => empty_member(r, LogicalType::String)?,
            2 => empty_member(r, LogicalType::Map)?,
            3 => empty_member(r, LogicalType::List)?,
            4 => empty_member(r, LogicalType::Enum)?,
            5 => {
                let d = DecimalType::decode(r)?;
                LogicalType::Decimal {
                    scale: d.scale,
                    precision: d.precision,
                }
            }
            6 => empty_member(r, LogicalType::Date)?,
            7 => {
                let t = TimeType::decode(r)?;
                LogicalType::Time {
                    is_adjusted_to_utc: t.is_adjusted_to_utc,
                    unit: t.unit,
                }
            }
            8 => {
                let t = TimestampType::decode(r)?;
                LogicalType::Timestamp {
                    is_adjusted_to_utc: t.is_adjusted_to_utc,
                    unit: t.unit,
                }
            }
            10 => {
                let t = IntType::decode(r)?;
                LogicalType::Integer {
                    bit_width: t.bit_width,
                    is_signed: t.is_signed,
                }
            }
            11 => empty_member(r, LogicalType::Null)?,
            12 => empty_member(r, LogicalType::Json)?,
            13 => empty_member(r, LogicalType::Bson)?,
            14 => empty_member(r, LogicalType::Uuid)?,
            15 => empty_member(r, LogicalType::Float16)?,
            16 => LogicalType::Variant {
                specification_version: VariantType::decode(r)?.specification_version,
            },
            17 => LogicalType::Geometry {
                crs: GeometryType::decode(r)?.crs,
            },
            18 => {
                let g = GeographyType::decode(r)?;
                LogicalType::Geography {
                    crs: g.crs,
                    algorithm: g.algorithm,
                }
            }
            19 => empty_member(r, LogicalType::Vector)?,
            other => {
                r.skip(wire)?;
                LogicalType::Unknown(other)
            }
        };
        codec::union_end(r, NAME, &mut last_id)?;
        Ok(value)
    }
}

/// Skips an empty-struct union member (tolerating fields a newer writer added) and returns
/// `value`.
fn empty_member(r: &mut CompactReader<'_>, value: LogicalType) -> Result<LogicalType> {
    r.skip(WireType::Struct)?;
    Ok(value)
}

impl ThriftEncode for LogicalType {
    /// An `Unknown(id)` member is written as an empty struct with that id.
    fn encode(&self, w: &mut CompactWriter) {
        w.struct_begin();
        match self {
            LogicalType::String => w.write_empty_struct_field(1),
            LogicalType::Map => w.write_empty_struct_field(2),
            LogicalType::List => w.write_empty_struct_field(3),
            LogicalType::Enum => w.write_empty_struct_field(4),
            LogicalType::Decimal { scale, precision } => {
                w.write_field_header(WireType::Struct, 5);
                DecimalType {
                    scale: *scale,
                    precision: *precision,
                }
                .encode(w);
            }
            LogicalType::Date => w.write_empty_struct_field(6),
            LogicalType::Time {
                is_adjusted_to_utc,
                unit,
            } => {
                w.write_field_header(WireType::Struct, 7);
                TimeType {
                    is_adjusted_to_utc: *is_adjusted_to_utc,
                    unit: *unit,
                }
                .encode(w);
            }
            LogicalType::Timestamp {
                is_adjusted_to_utc,
                unit,
            } => {
                w.write_field_header(WireType::Struct, 8);
                TimestampType {
                    is_adjusted_to_utc: *is_adjusted_to_utc,
                    unit: *unit,
                }
                .encode(w);
            }
            LogicalType::Integer {
                bit_width,
                is_signed,
            } => {
                w.write_field_header(WireType::Struct, 10);
                IntType {
                    bit_width: *bit_width,
                    is_signed: *is_signed,
                }
                .encode(w);
            }
            LogicalType::Null => w.write_empty_struct_field(11),
            LogicalType::Json => w.write_empty_struct_field(12),
            LogicalType::Bson => w.write_empty_struct_field(13),
            LogicalType::Uuid => w.write_empty_struct_field(14),
            LogicalType::Float16 => w.write_empty_struct_field(15),
            LogicalType::Variant {
                specification_version,
            } => {
                w.write_field_header(WireType::Struct, 16);
                VariantType {
                    specification_version: *specification_version,
                }
                .encode(w);
            }
            LogicalType::Geometry { crs } => {
                // Written inline to avoid cloning the CRS into a `GeometryType`.
                w.write_field_header(WireType::Struct, 17);
                w.struct_begin();
                if let Some(crs) = crs {
                    crs.write_field(1, w);
                }
                w.struct_end();
            }
            LogicalType::Geography { crs, algorithm } => {
                w.write_field_header(WireType::Struct, 18);
                w.struct_begin();
                if let Some(crs) = crs {
                    crs.write_field(1, w);
                }
                if let Some(algorithm) = algorithm {
                    algorithm.write_field(2, w);
                }
                w.struct_end();
            }
            LogicalType::Vector => w.write_empty_struct_field(19),
            LogicalType::Unknown(id) => w.write_empty_struct_field(*id),
        }
        w.struct_end();
    }
}

impl codec::Wire for LogicalType {
    const WIRE: WireType = WireType::Struct;
}

impl<'a> codec::FieldDecode<'a> for LogicalType {
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        Self::decode(r)
    }
}

impl codec::FieldEncode for LogicalType {
    fn write(&self, w: &mut CompactWriter) {
        self.encode(w)
    }
}

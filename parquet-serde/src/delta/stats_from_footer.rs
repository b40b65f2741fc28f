//! An `add` action's `stats` from a file's footer statistics: `numRecords`, and per leaf
//! outside lists and maps `minValues`, `maxValues` and `nullCount` (nested as the schema's
//! structs are).
//!
//! Bounds are only ever widened where Delta's form is coarser than ours, never narrowed:
//! - timestamps are written in milliseconds: the minimum floored, the maximum ceiled;
//! - strings longer than [`MAX_STRING_CHARS`] characters: the minimum cut to a prefix (a
//!   lower bound), the maximum cut and its last character incremented (an upper bound), or
//!   left out when it cannot be; a bound that is not UTF-8 is left out;
//! - floating point columns get bounds only when the footer says they hold no NaN (Delta
//!   readers differ on where NaN sorts), and never an infinite one (JSON has none);
//! - booleans, binaries, decimals, INT96 and unsigned 64-bit columns get no bounds.
//!
//! A column whose statistics are missing from a row group gets no bound and no count.

use serde_json::{Map, Value as Json};

use crate::core::column::{Scalar, SortOrder};
use crate::core::file::ParquetMetaData;
use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::ColumnDescriptor;
use crate::core::values::text::civil_from_days;

/// Strings longer than this (in characters) have their bounds cut, as Delta writers do.
pub(crate) const MAX_STRING_CHARS: usize = 32;

/// The `stats` JSON text of a file.
pub(crate) fn stats_json(md: &ParquetMetaData) -> String {
    let mut min_values = Map::new();
    let mut max_values = Map::new();
    let mut null_count = Map::new();
    for (i, descr) in md.schema().columns().iter().enumerate() {
        if descr.max_rep_level > 0 {
            continue;
        }
        let Some(agg) = aggregate(md, i, descr) else {
            continue;
        };
        let path = descr.path.parts();
        if let Some(n) = agg.nulls {
            insert(&mut null_count, path, Json::from(n));
        }
        if let Some(min) = agg.min.as_ref().and_then(|s| bound(descr, s, Side::Min)) {
            insert(&mut min_values, path, min);
        }
        if let Some(max) = agg.max.as_ref().and_then(|s| bound(descr, s, Side::Max)) {
            insert(&mut max_values, path, max);
        }
    }
    let mut out = Map::new();
    out.insert("numRecords".into(), Json::from(md.num_rows()));
    out.insert("minValues".into(), Json::Object(min_values));
    out.insert("maxValues".into(), Json::Object(max_values));
    out.insert("nullCount".into(), Json::Object(null_count));
    Json::Object(out).to_string()
}

fn insert(map: &mut Map<String, Json>, path: &[String], value: Json) {
    match path {
        [] => {}
        [leaf] => {
            map.insert(leaf.clone(), value);
        }
        [head, rest @ ..] => {
            let entry = map
                .entry(head.clone())
                .or_insert_with(|| Json::Object(Map::new()));
            if let Json::Object(inner) = entry {
                insert(inner, rest, value);
            }
        }
    }
}

struct Aggregate {
    min: Option<Scalar>,
    max: Option<Scalar>,
    nulls: Option<u64>,
}

/// The file's bounds of column `i`: the least minimum and greatest maximum over its row
/// groups, the sum of the null counts; `None` when a row group has no statistics.
fn aggregate(md: &ParquetMetaData, i: usize, descr: &ColumnDescriptor) -> Option<Aggregate> {
    let floating = matches!(descr.physical_type, Type::Float | Type::Double);
    let mut agg = Aggregate {
        min: None,
        max: None,
        nulls: Some(0),
    };
    let mut bounds_ok = SortOrder::for_column(descr).is_defined();
    for rg in md.row_groups() {
        let stats = rg.column(i)?.statistics()?;
        agg.nulls = match (agg.nulls, stats.null_count) {
            (Some(a), Some(b)) => a.checked_add(b),
            _ => None,
        };
        let all_null = stats.null_count == Some(rg.num_rows()) && rg.num_rows() > 0;
        if floating && stats.nan_count != Some(0) && !all_null {
            bounds_ok = false;
        }
        if all_null {
            continue; // no values: no bound needed from this row group
        }
        match (stats.min, stats.max) {
            (Some(lo), Some(hi)) => {
                if agg.min.as_ref().is_none_or(|m| lo < *m) {
                    agg.min = Some(lo);
                }
                if agg.max.as_ref().is_none_or(|m| hi > *m) {
                    agg.max = Some(hi);
                }
            }
            _ => bounds_ok = false,
        }
    }
    if !bounds_ok {
        agg.min = None;
        agg.max = None;
    }
    Some(agg)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Min,
    Max,
}

/// A bound in Delta's JSON form, rounded outward; `None` to leave it out.
fn bound(descr: &ColumnDescriptor, value: &Scalar, side: Side) -> Option<Json> {
    let logical = descr.effective_logical_type();
    match (descr.physical_type, logical) {
        (_, Some(LogicalType::Decimal { .. })) => None,
        (Type::Int32, Some(LogicalType::Date)) => {
            let days = value.as_i64()?;
            let (y, m, d) = civil_from_days(days);
            (0..=9999)
                .contains(&y)
                .then(|| Json::String(format!("{y:04}-{m:02}-{d:02}")))
        }
        (
            Type::Int64,
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc,
                unit,
            }),
        ) => {
            let per_milli: i64 = match unit {
                TimeUnit::Millis => 1,
                TimeUnit::Micros => 1_000,
                TimeUnit::Nanos => 1_000_000,
                TimeUnit::Unknown(_) => return None,
            };
            let v = value.as_i64()?;
            let millis = match side {
                Side::Min => v.div_euclid(per_milli),
                Side::Max => v.div_euclid(per_milli) + i64::from(v.rem_euclid(per_milli) != 0),
            };
            timestamp_text(millis, is_adjusted_to_utc).map(Json::String)
        }
        (
            Type::Int64,
            Some(LogicalType::Integer {
                is_signed: false, ..
            }),
        ) => None,
        (Type::Int32 | Type::Int64, _) => value.as_i64().map(Json::from),
        (Type::Float | Type::Double, _) => {
            let f = value.as_f64()?;
            if !f.is_finite() {
                return None;
            }
            // A FLOAT bound widened to f64 is exact; -0.0 and 0.0 compare equal.
            serde_json::Number::from_f64(f).map(Json::Number)
        }
        (Type::ByteArray, Some(LogicalType::String | LogicalType::Enum)) => {
            let text = std::str::from_utf8(value.as_bytes()?).ok()?;
            string_bound(text, side).map(Json::String)
        }
        _ => None,
    }
}

/// A string bound cut to [`MAX_STRING_CHARS`] characters, rounded outward.
fn string_bound(text: &str, side: Side) -> Option<String> {
    let Some((cut, _)) = text.char_indices().nth(MAX_STRING_CHARS) else {
        return Some(text.to_string());
    };
    let mut prefix: Vec<char> = text[..cut].chars().collect();
    if side == Side::Min {
        return Some(prefix.into_iter().collect());
    }
    // The least string above every string with this prefix: the last character that can
    // be incremented is, and what follows it is dropped.
    while let Some(last) = prefix.pop() {
        let next = (u32::from(last) + 1..=u32::from(char::MAX)).find_map(char::from_u32);
        if let Some(next) = next {
            prefix.push(next);
            return Some(prefix.into_iter().collect());
        }
    }
    None
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` (no `Z` for a local date-time); `None` outside years 0..=9999.
fn timestamp_text(millis: i64, utc: bool) -> Option<String> {
    let days = millis.div_euclid(86_400_000);
    let ms_of_day = millis.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    if !(0..=9999).contains(&y) {
        return None;
    }
    let (h, rest) = (ms_of_day / 3_600_000, ms_of_day % 3_600_000);
    let (min, rest) = (rest / 60_000, rest % 60_000);
    let (s, ms) = (rest / 1000, rest % 1000);
    let zone = if utc { "Z" } else { "" };
    Some(format!(
        "{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{ms:03}{zone}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Row {
        #[parquet(timestamp = "micros")]
        ts: i64,
        n: Option<i32>,
        text: String,
        x: f64,
        inner: Inner,
    }

    #[derive(serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Inner {
        level: Option<i64>,
    }

    #[test]
    fn bounds_are_rounded_outward_and_nested() {
        let long_a = format!("a{}", "z".repeat(40));
        let rows = [
            Row {
                ts: 1_000_001_500,
                n: None,
                text: long_a.clone(),
                x: 1.5,
                inner: Inner { level: Some(3) },
            },
            Row {
                ts: 2_000_000_999,
                n: Some(-4),
                text: "b".repeat(40),
                x: -2.0,
                inner: Inner { level: None },
            },
        ];
        let bytes = crate::to_vec(&rows).unwrap();
        let md = ParquetMetaData::parse(&bytes[..]).unwrap();
        let v: Json = serde_json::from_str(&stats_json(&md)).unwrap();
        assert_eq!(v["numRecords"], 2);
        // 1_000_001.5 ms floored, 2_000_000.999 ms ceiled
        assert_eq!(v["minValues"]["ts"], "1970-01-01T00:16:40.001Z");
        assert_eq!(v["maxValues"]["ts"], "1970-01-01T00:33:20.001Z");
        assert_eq!(v["minValues"]["n"], -4);
        assert_eq!(v["nullCount"]["n"], 1);
        assert_eq!(v["minValues"]["text"], long_a[..32]);
        assert_eq!(v["maxValues"]["text"], format!("{}c", "b".repeat(31)));
        assert_eq!(v["nullCount"]["inner"]["level"], 1);
        assert_eq!(v["maxValues"]["inner"]["level"], 3);
        // NaN counts are not written for x by every writer: with none, no bound.
        if v["minValues"].get("x").is_some() {
            assert_eq!(v["minValues"]["x"], -2.0);
        }
    }

    #[test]
    fn string_and_time_edges() {
        assert_eq!(string_bound("abc", Side::Max).as_deref(), Some("abc"));
        let max_chars: String = std::iter::repeat_n(char::MAX, 40).collect();
        assert_eq!(string_bound(&max_chars, Side::Max), None);
        let mut edge: String = "a".repeat(31);
        edge.push(char::MAX);
        edge.push_str("zz");
        let rounded = format!("{}b", "a".repeat(30));
        assert_eq!(string_bound(&edge, Side::Max), Some(rounded));
        assert_eq!(
            timestamp_text(-1, true).as_deref(),
            Some("1969-12-31T23:59:59.999Z")
        );
        assert_eq!(
            timestamp_text(0, false).as_deref(),
            Some("1970-01-01T00:00:00.000")
        );
        assert_eq!(timestamp_text(i64::MAX, true), None);
    }
}

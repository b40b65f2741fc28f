//! chrono and uuid types (features `chrono` and `uuid`) round-trip through the typed API with
//! the logical types of the type table.
#![cfg(all(feature = "chrono", feature = "uuid"))]

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use parquet_serde::core::schema::{LogicalType, TimeUnit};
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Event {
    at: DateTime<Utc>,
    local: NaiveDateTime,
    day: NaiveDate,
    time: NaiveTime,
    id: uuid::Uuid,
    maybe: Option<DateTime<Utc>>,
}

fn events() -> Vec<Event> {
    (0..100)
        .map(|i| {
            let at = DateTime::<Utc>::from_timestamp(
                1_700_000_000 + i * 3_601,
                (i as u32 % 1000) * 1_000,
            )
            .unwrap();
            Event {
                at,
                local: at.naive_utc(),
                day: NaiveDate::from_ymd_opt(
                    1900 + i as i32,
                    1 + (i as u32 % 12),
                    1 + (i as u32 % 28),
                )
                .unwrap(),
                time: NaiveTime::from_num_seconds_from_midnight_opt(
                    (i as u32 * 997) % 86_400,
                    123_000,
                )
                .unwrap(),
                id: uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_u128.wrapping_mul(i as u128 + 1)),
                maybe: (i % 3 == 0).then_some(at),
            }
        })
        .collect()
}

#[test]
fn chrono_and_uuid_round_trip() {
    let rows = events();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let back: Vec<Event> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, rows);

    let reader = parquet_serde::core::file::FileReader::new(bytes).unwrap();
    let lt = |i: usize| reader.schema().columns()[i].logical_type.clone();
    assert_eq!(
        lt(0),
        Some(LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Micros
        })
    );
    assert_eq!(
        lt(1),
        Some(LogicalType::Timestamp {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Micros
        })
    );
    assert_eq!(lt(2), Some(LogicalType::Date));
    assert_eq!(
        lt(3),
        Some(LogicalType::Time {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Micros
        })
    );
    assert_eq!(lt(4), Some(LogicalType::Uuid));

    // The dynamic view agrees: the first row's instant as RFC 3339, the UUID hyphenated.
    let rows_json: Vec<parquet_serde::Value> = parquet_serde::Reader::from_file_reader(reader)
        .unwrap()
        .select_columns(&["at", "id"])
        .unwrap()
        .take(1)
        .collect::<Result<_, _>>()
        .unwrap();
    let mut line = String::new();
    rows_json[0].write_json(&mut line);
    assert_eq!(
        line,
        format!(
            "{{\"at\":\"{}\",\"id\":\"{}\"}}",
            rows[0].at.format("%Y-%m-%dT%H:%M:%S%.6fZ"),
            rows[0].id.hyphenated()
        )
    );
}

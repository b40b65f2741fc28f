use super::*;
use crate::core::file::WriterOptions;
use crate::iceberg::field_ids::with_field_id_hook;
use crate::iceberg::schema::iceberg_schema;

#[derive(serde::Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
struct Line {
    #[parquet(timestamp = "micros")]
    ts: i64,
    service: String,
    #[parquet(date)]
    day: i32,
    n: i64,
}

const HOUR: i64 = 3_600_000_000;

fn file(ts: &[i64]) -> (Vec<u8>, ParquetMetaData, IcebergSchema) {
    let rows: Vec<Line> = ts
        .iter()
        .map(|&ts| Line {
            ts,
            service: "api".into(),
            day: 0,
            n: 1,
        })
        .collect();
    let options = with_field_id_hook(WriterOptions::default().row_group_rows(2), None);
    let mut w = crate::Writer::<_, Line>::new(Vec::new(), options).unwrap();
    w.write_all(&rows).unwrap();
    let bytes = w.into_inner().unwrap();
    let md = ParquetMetaData::parse(&bytes[..]).unwrap();
    let schema = iceberg_schema(md.schema(), 0).unwrap();
    (bytes, md, schema)
}

#[test]
fn spec_json_is_pyicebergs() {
    let (_, _, schema) = file(&[0]);
    let spec = PartitionSpec::build(
        &schema,
        0,
        FIRST_PARTITION_FIELD_ID,
        &[
            ("ts", Transform::Hour),
            ("ts", Transform::Day),
            ("service", Transform::Identity),
        ],
    )
    .unwrap();
    let json = serde_json::to_value(&spec).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"spec-id": 0, "fields": [
            {"source-id": 1, "field-id": 1000, "name": "ts_hour", "transform": "hour"},
            {"source-id": 1, "field-id": 1001, "name": "ts_day", "transform": "day"},
            {"source-id": 2, "field-id": 1002, "name": "service", "transform": "identity"},
        ]})
    );
    let back: PartitionSpec = serde_json::from_value(json).unwrap();
    assert_eq!(back, spec);
    let other: PartitionSpec = serde_json::from_value(serde_json::json!({"spec-id": 1,
        "fields": [{"source-id": 1, "field-id": 1000, "name": "b", "transform": "bucket[16]"}]}))
    .unwrap();
    assert_eq!(
        other.fields[0].transform,
        Transform::Other("bucket[16]".into())
    );
    // transforms that do not fit the column
    assert!(PartitionSpec::build(&schema, 0, 1000, &[("service", Transform::Hour)]).is_err());
    assert!(PartitionSpec::build(&schema, 0, 1000, &[("day", Transform::Hour)]).is_err());
    assert!(PartitionSpec::build(&schema, 0, 1000, &[("nope", Transform::Identity)]).is_err());
    assert_eq!(PartitionSpec::unpartitioned().fields.len(), 0);
    assert!(identity_from_folder(&schema.fields[2].field_type));
    assert!(!identity_from_folder(&schema.fields[0].field_type));
    assert_eq!(
        PartitionSpec::build(&schema, 0, 1000, &[("day", Transform::Day)])
            .unwrap()
            .partition_type(&schema)
            .unwrap()[0]
            .1,
        PrimitiveType::Date
    );
}

#[test]
fn hour_and_day_come_from_the_time_column() {
    let base = 472_000 * HOUR; // 2023-11-04T16:00Z
    let (_, md, schema) = file(&[base + 5, base + HOUR - 1, base + 17, base + 3]);
    let spec = PartitionSpec::build(
        &schema,
        0,
        1000,
        &[("ts", Transform::Hour), ("ts", Transform::Day)],
    )
    .unwrap();
    let values = spec
        .partition_values(&schema, "date=2023-11-04/hour=16/part.parquet", &md)
        .unwrap();
    assert_eq!(
        values,
        [
            Some(Literal::Int(472_000)),
            Some(Literal::Date(472_000 / 24))
        ]
    );
    // one microsecond into the next hour: that file cannot be committed to the spec
    let (_, md, schema) = file(&[base, base + HOUR]);
    let err = spec
        .partition_values(&schema, "x/part-7.parquet", &md)
        .unwrap_err();
    assert!(err.to_string().contains("x/part-7.parquet"), "{err}");
    assert!(err.to_string().contains("more than one"), "{err}");
    // before the epoch: floored
    let (_, md, schema) = file(&[-1]);
    let values = spec.partition_values(&schema, "p.parquet", &md).unwrap();
    assert_eq!(values, [Some(Literal::Int(-1)), Some(Literal::Date(-1))]);
}

#[test]
fn identity_values_come_from_hive_folders() {
    let (_, md, schema) = file(&[0]);
    let spec = PartitionSpec::build(
        &schema,
        0,
        1000,
        &[
            ("service", Transform::Identity),
            ("day", Transform::Identity),
            ("n", Transform::Identity),
        ],
    )
    .unwrap();
    let v = spec
        .partition_values(
            &schema,
            "t/service=a%2Fb/day=2024-02-29/n=-7/f.parquet",
            &md,
        )
        .unwrap();
    assert_eq!(
        v,
        [
            Some(Literal::String("a/b".into())),
            Some(Literal::Date(19_782)),
            Some(Literal::Long(-7)),
        ]
    );
    let v = spec
        .partition_values(
            &schema,
            "service=__HIVE_DEFAULT_PARTITION__/day=1970-01-01/n=0/f.parquet",
            &md,
        )
        .unwrap();
    assert_eq!(v[0], None);
    for bad in [
        "service=a/day=2023-02-29/n=0/f.parquet",
        "service=a/day=2023-1-01/n=0/f.parquet",
        "service=a/day=2023-01-01/n=x/f.parquet",
        "service=a/day=2023-01-01/f.parquet",
        // the file's own name is not a folder
        "service=a/day=2023-01-01/n=1",
    ] {
        let err = spec.partition_values(&schema, bad, &md).unwrap_err();
        assert!(err.to_string().contains(bad), "{bad}: {err}");
    }
}

#[test]
fn transforms_project_literals_for_pruning() {
    let ts = Literal::Timestamptz(2 * HOUR + 5);
    assert_eq!(Transform::Hour.apply(&ts), Some(Literal::Int(2)));
    assert_eq!(Transform::Day.apply(&ts), Some(Literal::Date(0)));
    assert_eq!(
        Transform::Day.apply(&Literal::Timestamp(-1)),
        Some(Literal::Date(-1))
    );
    assert_eq!(Transform::Identity.apply(&ts), Some(ts.clone()));
    assert_eq!(Transform::Hour.apply(&Literal::Date(3)), None);
    assert_eq!(Transform::Hour.apply(&Literal::Timestamptz(i64::MAX)), None);
    assert_eq!(
        Transform::Other("bucket[4]".into()).apply(&Literal::Int(1)),
        None
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// A file gets an hour (day) partition exactly when all its rows fall in one hour
    /// (day), and it is that hour (day) of every row.
    #[test]
    fn time_partitions_hold_every_row(
        ts in proptest::collection::vec(-(1i64 << 45)..(1i64 << 45), 1..30),
        narrow in proptest::bool::ANY,
    ) {
        // half the cases squeezed into one hour
        let ts: Vec<i64> = if narrow {
            let h = ts[0].div_euclid(HOUR);
            ts.iter().map(|t| h * HOUR + t.rem_euclid(HOUR)).collect()
        } else {
            ts
        };
        let (_, md, schema) = file(&ts);
        for (transform, unit) in [(Transform::Hour, HOUR), (Transform::Day, 24 * HOUR)] {
            let spec = PartitionSpec::build(&schema, 0, 1000, &[("ts", transform.clone())]).unwrap();
            let buckets: std::collections::BTreeSet<i64> =
                ts.iter().map(|t| t.div_euclid(unit)).collect();
            let got = spec.partition_values(&schema, "f.parquet", &md);
            if buckets.len() == 1 {
                let b = *buckets.first().unwrap() as i32;
                let expected = if transform == Transform::Hour { Literal::Int(b) } else { Literal::Date(b) };
                proptest::prop_assert_eq!(got.unwrap(), vec![Some(expected)]);
            } else {
                proptest::prop_assert!(got.is_err());
            }
        }
    }
}

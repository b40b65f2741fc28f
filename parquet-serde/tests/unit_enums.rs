//! Unit enums: a `STRING` column by default, `ENUM` with `#[parquet(enum)]`; either type reads
//! a column of either annotation (files written before the default changed hold `ENUM`).

use parquet_serde::core::file::FileReader;
use parquet_serde::core::schema::LogicalType;
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Cancelled,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
#[parquet(enum)]
enum StatusEnum {
    Active,
    Cancelled,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Text {
    id: u32,
    status: Status,
    maybe: Option<Status>,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Annotated {
    id: u32,
    status: StatusEnum,
    maybe: Option<StatusEnum>,
}

fn logical_types(bytes: &[u8]) -> Vec<Option<LogicalType>> {
    let reader = FileReader::new(bytes.to_vec()).unwrap();
    reader
        .schema()
        .columns()
        .iter()
        .map(|c| c.logical_type.clone())
        .collect()
}

#[test]
fn string_by_default_enum_when_asked_and_either_reads_both() {
    let text: Vec<Text> = (0..10)
        .map(|i| Text {
            id: i,
            status: if i % 3 == 0 {
                Status::Cancelled
            } else {
                Status::Active
            },
            maybe: (i % 2 == 0).then_some(Status::Cancelled),
        })
        .collect();
    let annotated: Vec<Annotated> = text
        .iter()
        .map(|t| Annotated {
            id: t.id,
            status: if t.status == Status::Active {
                StatusEnum::Active
            } else {
                StatusEnum::Cancelled
            },
            maybe: t.maybe.map(|_| StatusEnum::Cancelled),
        })
        .collect();
    let text_file = parquet_serde::to_vec(&text).unwrap();
    let enum_file = parquet_serde::to_vec(&annotated).unwrap();
    let string = Some(LogicalType::String);
    let enum_ = Some(LogicalType::Enum);
    assert_eq!(logical_types(&text_file)[1..], [string.clone(), string]);
    assert_eq!(logical_types(&enum_file)[1..], [enum_.clone(), enum_]);
    // Each type reads the other's file.
    assert_eq!(parquet_serde::from_slice::<Text>(&enum_file).unwrap(), text);
    assert_eq!(
        parquet_serde::from_slice::<Annotated>(&text_file).unwrap(),
        annotated
    );
    // A name the enum does not have is an error naming the column.
    #[derive(Serialize, ParquetSchema)]
    struct Other {
        id: u32,
        status: String,
        maybe: Option<String>,
    }
    let other = parquet_serde::to_vec(&[Other {
        id: 0,
        status: "paused".into(),
        maybe: None,
    }])
    .unwrap();
    let e = parquet_serde::from_slice::<Text>(&other)
        .unwrap_err()
        .to_string();
    assert!(e.contains("status") && e.contains("paused"), "{e}");
}

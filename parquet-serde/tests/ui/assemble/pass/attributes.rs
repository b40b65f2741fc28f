// The attributes `#[parquet(assemble)]` mirrors compile, and the written `Deserialize` reads
// as serde's derive would: rename, alias, default (trait and path), skip.
use serde::Serialize;

fn seven() -> u32 {
    7
}

#[derive(Debug, PartialEq, Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
#[serde(rename_all = "camelCase")]
struct Row {
    #[serde(rename = "ts")]
    time_stamp: i64,
    #[serde(alias = "msg")]
    message: String,
    #[serde(default)]
    user_name: Option<String>,
    #[serde(default = "seven")]
    level: u32,
    #[serde(skip)]
    cached: Vec<u8>,
}

fn main() {
    let row: Row = serde_json::from_str(r#"{"ts": 1, "msg": "up"}"#).unwrap();
    assert_eq!(
        row,
        Row { time_stamp: 1, message: "up".into(), user_name: None, level: 7, cached: vec![] }
    );
    let row: Row =
        serde_json::from_str(r#"{"ts": 2, "message": "x", "userName": "u", "level": 3}"#).unwrap();
    assert_eq!(row.user_name.as_deref(), Some("u"));
    assert_eq!(row.level, 3);
    let rows = vec![row];
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    assert_eq!(parquet_serde::from_slice::<Row>(&bytes).unwrap(), rows);
}

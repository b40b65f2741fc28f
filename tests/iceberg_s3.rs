//! Iceberg tables on S3 (a moto server on 127.0.0.1, as in delta_s3.rs): the `Shipper`
//! commits each file after its upload and before the local copy goes; pyiceberg 0.12 reads
//! the table from S3 (`StaticTable` over the newest metadata file) as the same rows, and a
//! one-day filter plans that day's files only. Exactly-once across crashes: a file
//! uploaded but not committed (a crash between the upload and the commit) is committed
//! once by the next shipper, and a file committed but still local (a crash before the local
//! delete) is shipped again without a second commit. An S3 store with conditional puts
//! disabled is refused with an error naming it.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::Duration;

use object_store::aws::S3ConditionalPut;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet_serde::iceberg::IcebergTable;
use parquet_serde::logs::{LogWriter, TimePartition};
use parquet_serde::store::Shipper;
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as J};

use common::moto::{s3_builder, Moto};

const READ: &str = include_str!("iceberg_read.py");

/// 2026-11-24T00:00:00Z in microseconds.
const DAY0: i64 = 1_795_478_400_000_000;
const DAY: i64 = 86_400_000_000;

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Line {
    #[parquet(timestamp = "micros")]
    ts: i64,
    seq: i64,
    text: String,
    code: Option<i32>,
}

fn line(seq: i64) -> Line {
    Line {
        ts: DAY0 + seq * (DAY / 50),
        seq,
        text: format!("line {seq}"),
        code: (seq % 3 != 0).then_some(seq as i32 * 7),
    }
}

/// pyiceberg's rows (sorted by seq) and (filter, planned files, rows) of the table.
fn read(port: u16, table: &IcebergTable, filters: J) -> (Vec<J>, Vec<J>) {
    let uri = format!(
        "{}/{}",
        table.location(),
        table.metadata_file().unwrap().unwrap()
    );
    let props = json!({
        "s3.endpoint": format!("http://127.0.0.1:{port}"),
        "s3.access-key-id": "testing",
        "s3.secret-access-key": "testing",
        "s3.region": "us-east-1",
    });
    let lines =
        common::python_json_lines(&["-c", READ, &uri, &props.to_string(), &filters.to_string()]);
    let mut rows: Vec<J> = lines.iter().filter_map(|l| l.get("row").cloned()).collect();
    rows.sort_by_key(|r| r["seq"].as_i64());
    let filters = lines
        .iter()
        .filter(|l| l.get("filter").is_some())
        .cloned()
        .collect();
    (rows, filters)
}

fn check_rows(rows: &[J], seqs: impl Iterator<Item = i64>) {
    let want: Vec<Line> = seqs.map(line).collect();
    assert_eq!(rows.len(), want.len());
    for (r, w) in rows.iter().zip(&want) {
        assert_eq!(r["seq"], w.seq);
        assert_eq!(r["ts"], w.ts);
        assert_eq!(r["text"], w.text.as_str());
        assert_eq!(r["code"], json!(w.code));
        let d = (w.ts - DAY0) / DAY;
        assert_eq!(r["date"], format!("2026-11-{}", 24 + d).as_str());
    }
}

#[test]
fn shipped_files_are_committed_and_pyiceberg_reads_them_from_s3() {
    let moto = Moto::start();
    let store: Arc<dyn ObjectStore> = Arc::new(s3_builder(moto.port).build().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open_store(store.clone(), "tables/app")
        .unwrap()
        .app_id("shipper-1");
    assert_eq!(table.location(), "s3://logs/tables/app");
    let shipper = Shipper::builder(dir.path(), store, "tables/app")
        .iceberg(table.clone())
        .start()
        .unwrap();
    let mut logs = LogWriter::<Line>::builder(dir.path())
        .partition(TimePartition::Daily)
        .time_field(|l| l.ts)
        .roll_rows(30)
        .iceberg(table.clone()) // field ids; the shipper commits
        .on_finished(shipper.hook())
        .open()
        .unwrap();
    for seq in 0..120 {
        logs.write(&line(seq)).unwrap();
    }
    let files = logs.close().unwrap();
    let stats = shipper.close().unwrap();
    assert_eq!(stats.uploaded as usize, files.len());
    assert!(
        files.iter().all(|f| !f.exists()),
        "local copies deleted after the commit"
    );
    assert_eq!(table.files().unwrap().len(), files.len());
    assert_eq!(table.version().unwrap(), Some(files.len() as u64));
    assert_eq!(table.app_version().unwrap(), Some(files.len() as i64 - 1));

    let (rows, filters) = read(moto.port, &table, json!({"one_day": "date = '2026-11-25'"}));
    check_rows(&rows, 0..120);
    println!("pyiceberg on S3, date = 2026-11-25: {filters:?}");
    // 50 rows of that day in files of 30 rows: 2 files.
    assert_eq!(filters[0]["planned"], 2);
    assert_eq!(filters[0]["rows"], 50);
}

#[test]
fn crashes_around_the_commit_never_commit_a_file_twice() {
    let moto = Moto::start();
    let store: Arc<dyn ObjectStore> = Arc::new(s3_builder(moto.port).build().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open_store(store.clone(), "t").unwrap();
    let ship = |dir: &std::path::Path| {
        let shipper = Shipper::builder(dir, store.clone(), "t")
            .iceberg(table.clone())
            .start()
            .unwrap();
        shipper.close().unwrap()
    };
    // Two files written with ids, not shipped yet (no hook).
    let mut logs = LogWriter::<Line>::builder(dir.path())
        .partition(TimePartition::Daily)
        .time_field(|l| l.ts)
        .roll_rows(25)
        .iceberg(table.clone())
        .open()
        .unwrap();
    for seq in 0..50 {
        logs.write(&line(seq)).unwrap();
    }
    let files = logs.close().unwrap();
    assert_eq!(files.len(), 2);
    let elsewhere = tempfile::tempdir().unwrap();
    let keep = elsewhere.path().join("keep.bin");
    std::fs::copy(&files[1], &keep).unwrap();

    // Crash between upload and commit: the first file is in the store, not in the table.
    let rel = files[0]
        .strip_prefix(dir.path())
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let bytes = std::fs::read(&files[0]).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(store.put(&format!("t/{rel}").into(), bytes.into()))
        .unwrap();
    let stats = ship(dir.path());
    assert_eq!(
        stats.uploaded, 1,
        "the first file was there already: {stats:?}"
    );
    assert_eq!(table.files().unwrap().len(), 2);
    let version = table.version().unwrap();

    // Crash after the commit, before the local delete: the second file comes back.
    std::fs::create_dir_all(files[1].parent().unwrap()).unwrap();
    std::fs::copy(&keep, &files[1]).unwrap();
    ship(dir.path());
    assert!(!files[1].exists());
    assert_eq!(table.files().unwrap().len(), 2, "not committed twice");
    assert_eq!(table.version().unwrap(), version, "no new snapshot");
    let (rows, _) = read(moto.port, &table, json!({}));
    check_rows(&rows, 0..50);
}

#[test]
fn a_store_without_conditional_puts_is_refused_naming_it() {
    let moto = Moto::start();
    let s3: Arc<dyn ObjectStore> = Arc::new(
        s3_builder(moto.port)
            .with_conditional_put(S3ConditionalPut::Disabled)
            .build()
            .unwrap(),
    );
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open_store(s3.clone(), "t").unwrap();
    let errors = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = errors.clone();
    let shipper = Shipper::builder(dir.path(), s3, "t")
        .iceberg(table.clone())
        .max_retry_delay(Duration::from_millis(10))
        .on_error(move |e| seen.lock().unwrap().push(e.to_string()))
        .start()
        .unwrap();
    let mut logs = LogWriter::<Line>::builder(dir.path())
        .iceberg(table.clone())
        .on_finished(shipper.hook())
        .open()
        .unwrap();
    logs.write(&line(1)).unwrap();
    let files = logs.close().unwrap();
    assert!(shipper.close().is_err());
    assert!(files[0].exists(), "the file stays for the next start");
    assert_eq!(table.version().unwrap(), None);
    let errors = errors.lock().unwrap();
    assert!(
        errors
            .iter()
            .any(|e| e.contains("conditional puts") && e.contains("AmazonS3(logs)")),
        "{errors:?}"
    );
}

//! Object store and async reads against an in-memory store: the read plan fetches only what
//! a filtered read needs (nothing unplanned), async reads give the blocking read's rows, a
//! dropped stream stops fetching and assembling, and uploads that fail or are dropped leave
//! no object. (The same against a real S3 API: tests/object_store_s3.rs at the root.)

#[path = "common/store.rs"]
mod store_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet_serde::filter::col;
use parquet_serde::store::{RemoteOptions, StoreReader, StoreWriter, UploadOptions};
use parquet_serde::stream::AsyncReader;
use parquet_serde::{ParquetSchema, WriterOptions};
use serde::{Deserialize, Deserializer, Serialize};

use store_support::CountingStore;

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Log {
    ts: i64,
    level: String,
    message: String,
    user_id: Option<u64>,
    latency_ms: f64,
}

fn log(i: i64) -> Log {
    Log {
        ts: 1_700_000_000_000 + i * 10,
        level: ["INFO", "WARN", "ERROR", "DEBUG"][(i % 4) as usize].into(),
        message: format!(
            "request {i} to /api/items/{} took {}ms",
            (i * 7919) % 100_003,
            i % 997
        ),
        user_id: (i % 3 != 0).then_some((i as u64 * 31) % 10_007),
        latency_ms: (i % 997) as f64 / 3.0,
    }
}

fn logs(n: i64) -> Vec<Log> {
    (0..n).map(log).collect()
}

/// Small pages (at most 2,000 rows: the sorted `ts` compresses so well that 16 KiB pages
/// would hold ~9,000 rows) and row groups, dictionaries only for the low-cardinality `level` (a chunk's dictionary
/// page is read whatever rows are selected): a layout
/// in which the page index prunes well.
fn layout() -> WriterOptions {
    // Dictionary-then-PLAIN: the byte fractions below were measured on that layout (the
    // default auto encoding makes these regular rows several times smaller, so the fixed
    // costs of footer and page index weigh more).
    WriterOptions::default()
        .auto_encoding(false)
        .row_group_rows(20_000)
        .page_size(16 << 10)
        .page_row_limit(2_000)
        .dictionary(false)
        .column_dictionary("level", true)
}

fn write(store: Arc<dyn ObjectStore>, path: &str, rows: &[Log]) {
    let mut w = StoreWriter::new(store, path, layout()).unwrap();
    w.write_all(rows).unwrap();
    w.close().unwrap();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn blocking_read_and_filtered_read_fetch_only_what_they_need() {
    let rows = logs(100_000);
    let store = Arc::new(CountingStore::new(Arc::new(InMemory::new())));
    write(store.clone(), "logs.parquet", &rows);
    let size = runtime()
        .block_on(store.head(&Path::from("logs.parquet")))
        .unwrap()
        .size;

    store.reset();
    let back: Vec<Log> = StoreReader::new(store.clone(), "logs.parquet")
        .read()
        .unwrap();
    assert_eq!(back, rows);
    // Every byte but the footer's share of the first request, once.
    assert!(
        store.get_bytes() <= size + (64 << 10),
        "{} of {size}",
        store.get_bytes()
    );

    store.reset();
    let (from, to) = (rows[50_000].ts, rows[50_999].ts);
    // Row groups of this small file are ~550 KB: a gap of 16 KiB keeps the pages of
    // different columns apart (the default, 256 KiB, suits larger row groups).
    let reader = StoreReader::new(store.clone(), "logs.parquet")
        .remote_options(RemoteOptions::default().coalesce_gap(16 << 10))
        .filter(col("ts").between(from, to))
        .unwrap()
        .open::<Log>()
        .unwrap();
    let got = reader.collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(got, rows[50_000..51_000]);
    let fraction = store.get_bytes() as f64 / size as f64;
    println!(
        "filtered read of 1% of the rows: {} of {size} bytes ({:.2}%) in {} GETs",
        store.get_bytes(),
        fraction * 100.0,
        store.gets()
    );
    assert!(
        fraction < 0.05,
        "fetched {:.2}% of the object",
        fraction * 100.0
    );
}

#[test]
fn the_plan_covers_every_read() {
    let rows = logs(60_000);
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    write(store.clone(), "p.parquet", &rows);
    for filtered in [false, true] {
        let mut reader = StoreReader::new(store.clone(), "p.parquet");
        if filtered {
            reader = reader
                .filter(col("level").eq("ERROR").and(col("ts").gt(rows[30_000].ts)))
                .unwrap();
        }
        let mut reader = reader.open::<Log>().unwrap();
        let mut n = 0;
        for row in reader.by_ref() {
            row.unwrap();
            n += 1;
        }
        let expected = rows
            .iter()
            .filter(|l| !filtered || (l.level == "ERROR" && l.ts > rows[30_000].ts))
            .count();
        assert_eq!(n, expected);
        let stats = reader.get_ref().stats();
        assert_eq!(
            stats.unplanned_requests, 0,
            "filtered {filtered}: {stats:?}"
        );
    }
}

#[test]
fn async_reads_give_the_blocking_reads_rows() {
    let rows = logs(50_000);
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    write(store.clone(), "a.parquet", &rows);
    let blocking: Vec<Log> = StoreReader::new(store.clone(), "a.parquet").read().unwrap();
    assert_eq!(blocking, rows);
    let rt = runtime();
    let from_store_async: Vec<Log> = rt
        .block_on(StoreReader::new(store.clone(), "a.parquet").read_async())
        .unwrap();
    assert_eq!(from_store_async, blocking);

    // The same bytes through AsyncRead + AsyncSeek (a file), filtered too.
    let bytes = rt
        .block_on(async { store.get(&Path::from("a.parquet")).await?.bytes().await })
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.parquet");
    std::fs::write(&path, &bytes).unwrap();
    let (all, some) = rt.block_on(async {
        let file = tokio::fs::File::open(&path).await.unwrap();
        let all: Vec<Log> = AsyncReader::new(file).read().await.unwrap();
        let file = tokio::fs::File::open(&path).await.unwrap();
        let some: Vec<Log> = AsyncReader::new(file)
            .filter(col("level").eq("WARN"))
            .unwrap()
            .stream()
            .await
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        (all, some)
    });
    assert_eq!(all, blocking);
    let warn: Vec<Log> = blocking.into_iter().filter(|l| l.level == "WARN").collect();
    assert_eq!(some, warn);
}

/// Rows assembled so far, by [`Counted`].
static ASSEMBLED: AtomicUsize = AtomicUsize::new(0);

/// A log row that counts its assembly.
struct Counted;

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Log::deserialize(d)?;
        ASSEMBLED.fetch_add(1, Ordering::SeqCst);
        Ok(Counted)
    }
}

#[test]
fn a_dropped_stream_stops_fetching_and_assembling() {
    let total = 400_000;
    let rows = logs(total);
    let store = Arc::new(CountingStore::new(Arc::new(InMemory::new())));
    write(store.clone(), "d.parquet", &rows);
    drop(rows);
    let size = runtime()
        .block_on(store.head(&Path::from("d.parquet")))
        .unwrap()
        .size;
    store.reset();
    let rt = runtime();
    rt.block_on(async {
        let mut stream = StoreReader::new(store.clone(), "d.parquet")
            .stream::<Counted>()
            .await
            .unwrap();
        for _ in 0..10 {
            stream.next().await.unwrap().unwrap();
        }
        drop(stream);
        // Let the blocking side notice, then check that nothing moves any more.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (rows, bytes) = (ASSEMBLED.load(Ordering::SeqCst), store.get_bytes());
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(ASSEMBLED.load(Ordering::SeqCst), rows, "assembly went on");
        assert_eq!(store.get_bytes(), bytes, "fetching went on");
        println!("stopped after {rows} of {total} rows, {bytes} of {size} bytes");
        assert!(rows < total as usize / 4, "{rows} rows assembled");
        assert!(bytes < size / 2, "{bytes} of {size} bytes fetched");
    });
}

#[test]
fn failed_or_dropped_uploads_leave_no_object() {
    let rows = logs(300_000);
    let memory: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let part = UploadOptions::default().part_size(5 << 20);
    let rt = runtime();
    let exists = |path: &str| rt.block_on(memory.head(&Path::from(path))).is_ok();

    // The second part fails: the write (or the close) fails, and nothing is at the path.
    let failing = Arc::new(CountingStore::failing_after(memory.clone(), 1));
    let mut w =
        StoreWriter::with_upload_options(failing.clone(), "f.parquet", layout(), part.clone())
            .unwrap();
    let result = w.write_all(&rows).and_then(|()| w.close().map(|_| ()));
    assert!(result.is_err());
    assert_eq!(failing.parts(), 1);
    assert!(!exists("f.parquet"));

    // Dropped after parts were sent, without closing: aborted.
    let mut w =
        StoreWriter::with_upload_options(memory.clone(), "d.parquet", layout(), part.clone())
            .unwrap();
    w.write_all(&rows).unwrap();
    assert!(w.parts_sent() >= 1);
    drop(w);
    assert!(!exists("d.parquet"));

    // Closed: there, whole, in parts.
    let mut w =
        StoreWriter::with_upload_options(memory.clone(), "ok.parquet", layout(), part).unwrap();
    w.write_all(&rows).unwrap();
    assert!(w.parts_sent() >= 1);
    w.close().unwrap();
    let back: Vec<Log> = StoreReader::new(memory.clone(), "ok.parquet")
        .read()
        .unwrap();
    assert_eq!(back, rows);

    let small = UploadOptions::default().part_size(1 << 20);
    let err = StoreWriter::<Log>::with_upload_options(memory, "x", layout(), small).unwrap_err();
    assert_eq!(err.kind(), parquet_serde::ErrorKind::InvalidArgument);
}

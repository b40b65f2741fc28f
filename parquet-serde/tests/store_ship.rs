//! Shipping a log folder's final files to an object store (`store::Shipper` hooked into
//! `LogWriter`), against an in-memory store: keys keep the Hive layout, files arrive whole
//! and in order, local copies go once uploaded, failed uploads are retried, files a stopped
//! writer or a crash left behind are shipped at the next start, and nothing is uploaded
//! twice. (The same against a real S3 API: tests/object_store_s3.rs at the root.)

#[path = "common/store.rs"]
#[allow(dead_code)]
mod store_support;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::TryStreamExt;
use object_store::memory::InMemory;
use object_store::path::Path as Key;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet_serde::logs::{LogWriter, TimePartition};
use parquet_serde::store::{ShipStats, Shipper, StoreReader};
use parquet_serde::{ErrorKind, ParquetSchema};
use serde::{Deserialize, Serialize};

use store_support::CountingStore;

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Line {
    #[parquet(timestamp = "micros")]
    ts: i64,
    seq: u64,
    text: String,
}

/// 2026-11-24T13:00:00Z.
const T0: i64 = 1_795_525_200_000_000;
const HOUR: i64 = 3_600_000_000;

/// `n` rows over two hours.
fn lines(n: u64) -> Vec<Line> {
    (0..n)
        .map(|seq| Line {
            ts: T0 + (seq as i64) * 2 * HOUR / n as i64,
            seq,
            text: format!("line {seq}"),
        })
        .collect()
}

fn writer(dir: &Path) -> parquet_serde::logs::LogWriterBuilder<Line> {
    LogWriter::<Line>::builder(dir)
        .partition(TimePartition::Hourly)
        .time_field(|l| l.ts)
        .roll_rows(100)
}

/// Writes `rows` with a writer whose final files go to `shipper`; the files made.
fn write_shipped(dir: &Path, shipper: &Shipper, rows: &[Line]) -> Vec<PathBuf> {
    let mut logs = writer(dir).on_finished(shipper.hook()).open().unwrap();
    logs.write_all(rows).unwrap();
    logs.close().unwrap()
}

/// The keys under `prefix`, sorted.
fn keys(store: &Arc<dyn ObjectStore>, prefix: &str) -> Vec<String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let listed: Vec<_> = runtime
        .block_on(store.list(Some(&Key::from(prefix))).try_collect::<Vec<_>>())
        .unwrap();
    let mut keys: Vec<String> = listed.into_iter().map(|m| m.location.to_string()).collect();
    keys.sort();
    keys
}

/// The rows of every object under `prefix`, in key order (which is time order).
fn stored_rows(store: &Arc<dyn ObjectStore>, prefix: &str) -> Vec<Line> {
    keys(store, prefix)
        .into_iter()
        .flat_map(|k| {
            StoreReader::new(Arc::clone(store), k.as_str())
                .read::<Line>()
                .unwrap()
        })
        .collect()
}

/// Final files (`*.parquet`) left in the folder.
fn local_finals(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn rolled_files_arrive_whole_in_hive_layout_and_leave_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let shipper = Shipper::builder(dir.path(), Arc::clone(&store), "logs/app")
        .start()
        .unwrap();
    let rows = lines(1000);
    let files = write_shipped(dir.path(), &shipper, &rows);
    let stats = shipper.close().unwrap();

    assert_eq!(files.len(), 10, "100 rows a file over two partitions");
    assert_eq!(stats.uploaded, 10);
    assert_eq!(stats.failures, 0);
    assert_eq!(stats.pending, 0);
    let expected_keys: Vec<String> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(dir.path()).unwrap();
            format!("logs/app/{}", rel.to_str().unwrap())
        })
        .collect();
    assert_eq!(keys(&store, "logs/app"), expected_keys);
    assert!(expected_keys[0].starts_with("logs/app/date=2026-11-24/hour=13/part-"));
    assert!(expected_keys[9].starts_with("logs/app/date=2026-11-24/hour=14/part-"));
    assert_eq!(stored_rows(&store, "logs/app"), rows);
    assert!(local_finals(dir.path()).is_empty());
    // The emptied partition folders went with the files.
    assert!(!dir.path().join("date=2026-11-24").exists());
}

#[test]
fn files_left_behind_ship_at_start_and_never_twice() {
    let dir = tempfile::tempdir().unwrap();
    let counting = Arc::new(CountingStore::new(Arc::new(InMemory::new())));
    let store: Arc<dyn ObjectStore> = counting.clone();
    // A writer without a shipper leaves four final files (two an hour).
    let rows = lines(400);
    let mut logs = writer(dir.path()).open().unwrap();
    logs.write_all(&rows).unwrap();
    let files = logs.close().unwrap();
    assert_eq!(files.len(), 4);

    // One of them made it to the store before a crash (uploaded, not yet deleted).
    let key = format!(
        "p/{}",
        files[2].strip_prefix(dir.path()).unwrap().to_str().unwrap()
    );
    let bytes = std::fs::read(&files[2]).unwrap();
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(store.put(&Key::from(key.as_str()), bytes.into()))
        .unwrap();
    assert_eq!(counting.puts(), 1);

    let first = Shipper::builder(dir.path(), Arc::clone(&store), "p")
        .keep_local(true)
        .start()
        .unwrap();
    assert!(first.wait_idle(Duration::from_secs(30)));
    let stats = first.close().unwrap();
    assert_eq!((stats.uploaded, stats.already_there), (3, 1));
    assert_eq!(counting.puts(), 4);
    assert_eq!(local_finals(dir.path()).len(), 4, "kept locally");

    // A second start finds every file in the store: nothing is uploaded again.
    let again = Shipper::builder(dir.path(), Arc::clone(&store), "p")
        .start()
        .unwrap();
    let stats = again.close().unwrap();
    assert_eq!((stats.uploaded, stats.already_there), (0, 4));
    assert_eq!(counting.puts(), 4);
    assert!(
        local_finals(dir.path()).is_empty(),
        "deleted once known shipped"
    );
    assert_eq!(stored_rows(&store, "p"), rows);
}

#[test]
fn failed_uploads_are_retried_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let counting = Arc::new(CountingStore::new(Arc::new(InMemory::new())));
    let store: Arc<dyn ObjectStore> = counting.clone();
    counting.fail_next_puts(3);
    let errors = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&errors);
    let shipper = Shipper::builder(dir.path(), Arc::clone(&store), "p")
        .max_retry_delay(Duration::from_millis(20))
        .on_error(move |e| {
            assert!(e.to_string().contains("injected upload failure"), "{e}");
            assert!(e.to_string().contains("part-"), "names the file: {e}");
            seen.fetch_add(1, Ordering::SeqCst);
        })
        .start()
        .unwrap();
    let rows = lines(400);
    write_shipped(dir.path(), &shipper, &rows);
    assert!(shipper.wait_idle(Duration::from_secs(30)));
    let stats = shipper.close().unwrap();
    assert_eq!(stats.failures, 3);
    assert_eq!(errors.load(Ordering::SeqCst), 3);
    assert_eq!(stats.uploaded, 4);
    // The first file was retried until it went through, and the others waited for it:
    // the store got the rows in order.
    assert_eq!(stored_rows(&store, "p"), rows);
    assert!(local_finals(dir.path()).is_empty());
}

#[test]
fn without_a_hook_failures_are_counted_and_the_last_kept() {
    let dir = tempfile::tempdir().unwrap();
    let counting = Arc::new(CountingStore::new(Arc::new(InMemory::new())));
    let store: Arc<dyn ObjectStore> = counting.clone();
    counting.fail_next_puts(2);
    let shipper = Shipper::builder(dir.path(), Arc::clone(&store), "p")
        .max_retry_delay(Duration::from_millis(20))
        .start()
        .unwrap();
    assert!(shipper.take_last_error().is_none());
    let rows = lines(150);
    write_shipped(dir.path(), &shipper, &rows);
    assert!(shipper.wait_idle(Duration::from_secs(30)));
    assert_eq!(shipper.stats().failures, 2);
    let e = shipper.take_last_error().expect("the last failure is kept");
    assert!(e.to_string().contains("injected upload failure"), "{e}");
    assert!(e.to_string().contains("part-"), "names the file: {e}");
    assert!(shipper.take_last_error().is_none(), "taken");
    // A file that cannot be opened when it is queued is counted and kept too.
    shipper.ship(dir.path().join("part-missing.parquet"));
    let e = shipper
        .take_last_error()
        .expect("the queueing failure is kept");
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(e.to_string().contains("part-missing.parquet"), "{e}");
    let stats = shipper.close().unwrap();
    assert_eq!(stats.failures, 3);
    assert_eq!(stored_rows(&store, "p"), rows);
}

#[test]
fn close_names_what_it_could_not_ship_and_the_next_start_ships_it() {
    let dir = tempfile::tempdir().unwrap();
    let counting = Arc::new(CountingStore::new(Arc::new(InMemory::new())));
    let store: Arc<dyn ObjectStore> = counting.clone();
    counting.fail_next_puts(usize::MAX);
    let shipper = Shipper::builder(dir.path(), Arc::clone(&store), "p")
        .max_retry_delay(Duration::from_millis(5))
        .on_error(|_| {})
        .start()
        .unwrap();
    let rows = lines(150);
    let files = write_shipped(dir.path(), &shipper, &rows);
    let err = shipper.close().unwrap_err();
    // The statistics come with the error: both files left, each tried at least twice
    // (its attempt at close and the one more attempt close makes).
    let stats = std::error::Error::source(&err)
        .and_then(|s| s.downcast_ref::<ShipStats>())
        .copied()
        .expect("the error's source is the ShipStats");
    assert_eq!((stats.uploaded, stats.pending), (0, 2), "{stats}");
    assert!(stats.failures >= 4, "{stats}");
    let err = err.to_string();
    assert!(err.contains("2 file(s) not shipped"), "{err}");
    for f in &files {
        assert!(err.contains(f.to_str().unwrap()), "{err}");
        assert!(f.exists(), "kept for the next start");
    }
    assert!(keys(&store, "p").is_empty(), "no partial object");

    counting.fail_next_puts(0);
    let next = Shipper::builder(dir.path(), Arc::clone(&store), "p")
        .start()
        .unwrap();
    assert_eq!(next.close().unwrap().uploaded, 2);
    assert_eq!(stored_rows(&store, "p"), rows);
}

#[test]
fn a_recovered_file_is_shipped_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    // Fifty rows in the first hour: one file, never rolled.
    let rows: Vec<Line> = lines(4000).into_iter().take(50).collect();
    {
        // Dropped without close, as a crash would leave it: flushed rows are in the journal.
        let mut logs = writer(dir.path()).open().unwrap();
        logs.write_all(&rows).unwrap();
        logs.flush().unwrap();
    }
    assert!(local_finals(dir.path()).is_empty());
    let shipper = Shipper::builder(dir.path(), Arc::clone(&store), "p")
        .start()
        .unwrap();
    let logs = writer(dir.path())
        .on_finished(shipper.hook())
        .open()
        .unwrap();
    assert_eq!(logs.recovery().recovered.len(), 1);
    logs.close().unwrap();
    let stats = shipper.close().unwrap();
    assert_eq!(stats.uploaded, 1);
    assert_eq!(stored_rows(&store, "p"), rows);
}

#[test]
fn an_attempt_failing_during_close_is_tried_once_more_and_every_failure_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let counting = Arc::new(CountingStore::new(Arc::new(InMemory::new())));
    let store: Arc<dyn ObjectStore> = counting.clone();
    // Two refusals: the first file's first attempt (before close; it then waits 1 s for
    // its retry) and its attempt during close, which close tries once more, at once.
    counting.fail_next_puts(2);
    let reported = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&reported);
    let prefix = String::from("p"); // a `&String` prefix is accepted
    let shipper = Shipper::builder(dir.path(), Arc::clone(&store), &prefix)
        .on_error(move |_| {
            seen.fetch_add(1, Ordering::SeqCst);
        })
        .start()
        .unwrap();
    let rows = lines(150);
    let files = write_shipped(dir.path(), &shipper, &rows);
    assert_eq!(files.len(), 2);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while shipper.stats().failures == 0 {
        assert!(std::time::Instant::now() < deadline, "no attempt failed");
        std::thread::sleep(Duration::from_millis(2));
    }
    let stats = shipper
        .close()
        .expect("each file's one more attempt at close succeeds");
    assert_eq!(
        (stats.uploaded, stats.failures, stats.pending),
        (2, 2, 0),
        "{stats}"
    );
    assert_eq!(
        reported.load(Ordering::SeqCst),
        2,
        "on_error saw every failure"
    );
    assert_eq!(stored_rows(&store, "p"), rows);
    assert!(local_finals(dir.path()).is_empty());
}

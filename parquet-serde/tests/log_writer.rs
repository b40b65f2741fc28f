//! `parquet_serde::logs::LogWriter`: partitions, rolling, retention, threads, recovery of
//! abandoned files, and recovery of corrupt or truncated journals and data files (never a
//! panic; whatever is recovered is an in-order prefix of what was written).

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use parquet_serde::logs::{LogWriter, TimePartition, UnfinishedFile};
use parquet_serde::options::FileEncryptionProperties;
use parquet_serde::{ErrorKind, ParquetSchema, WriterOptions};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct Row {
    seq: u64,
    #[parquet(timestamp = "micros")]
    ts: i64,
    message: String,
    tags: Vec<String>,
    value: Option<f64>,
}

/// 2026-11-24T13:00:00Z.
const BASE: i64 = 1_795_525_200_000_000;

fn row(seq: u64) -> Row {
    Row {
        seq,
        // A minute a row.
        ts: BASE + seq as i64 * 60_000_000,
        message: format!("event {seq}"),
        tags: (0..seq % 3).map(|t| format!("t{t}")).collect(),
        value: (!seq.is_multiple_of(4)).then_some(seq as f64),
    }
}

/// Every file under `dir` (relative paths), sorted.
fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = common::files_below(dir)
        .into_iter()
        .map(|p| p.strip_prefix(dir).unwrap().to_path_buf())
        .collect();
    out.sort();
    out
}

/// The rows of every final file under `dir`, files in time order.
fn read_all(dir: &Path) -> Vec<Row> {
    let mut files: Vec<PathBuf> = all_files(dir)
        .into_iter()
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("part-") && n.ends_with(".parquet")
        })
        .collect();
    files.sort_by_key(|p| p.file_name().unwrap().to_owned());
    files
        .iter()
        .flat_map(|f| parquet_serde::from_path::<Row>(dir.join(f)).unwrap())
        .collect()
}

#[test]
fn rows_go_to_hour_folders_and_roll_by_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Row>::builder(dir.path())
        .partition(TimePartition::Hourly)
        .time_field(|r| r.ts)
        .roll_rows(25)
        .options(WriterOptions::default().row_group_rows(10))
        .open()
        .unwrap();
    for seq in 0..150 {
        logs.write(&row(seq)).unwrap();
    }
    let files = logs.close().unwrap();
    // 60 rows an hour, 25 a file: 3 files in each of the first two hours, 2 in the third.
    assert_eq!(files.len(), 8);
    let names = all_files(dir.path());
    assert_eq!(names.len(), 8, "{names:?}");
    let folders: Vec<String> = names
        .iter()
        .map(|p| p.parent().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(folders[0], "date=2026-11-24/hour=13");
    assert_eq!(folders[7], "date=2026-11-24/hour=15");
    assert_eq!(read_all(dir.path()), (0..150).map(row).collect::<Vec<_>>());
    // Row groups follow the row group options, not the writes.
    let first = parquet_serde::core::file::FileReader::new(std::fs::read(&files[0]).unwrap());
    let first = first.unwrap();
    assert_eq!(first.num_row_groups(), 3);
}

#[test]
fn a_dropped_writer_is_recovered_by_the_next_open_with_exactly_the_flushed_rows() {
    let dir = tempfile::tempdir().unwrap();
    let options = WriterOptions::default().row_group_rows(7);
    let mut logs = LogWriter::<Row>::builder(dir.path())
        .options(options.clone())
        .open()
        .unwrap();
    for seq in 0..40 {
        logs.write(&row(seq)).unwrap();
        if seq % 9 == 8 {
            logs.flush().unwrap();
        }
    }
    // 36 rows flushed; 4 more written, then the writer is dropped without closing.
    drop(logs);
    let left = all_files(dir.path());
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left
        .iter()
        .all(|p| p.to_string_lossy().starts_with("_part-")));
    let logs = LogWriter::<Row>::builder(dir.path())
        .options(options)
        .open()
        .unwrap();
    assert_eq!(logs.recovery().recovered.len(), 1);
    assert_eq!(logs.recovery().rows, 36);
    logs.close().unwrap();
    assert_eq!(read_all(dir.path()), (0..36).map(row).collect::<Vec<_>>());
    assert_eq!(all_files(dir.path()).len(), 1);
}

#[test]
fn retention_keeps_the_newest_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Row>::builder(dir.path())
        .roll_rows(10)
        .keep_files(2)
        .open()
        .unwrap();
    for seq in 0..55 {
        logs.write(&row(seq)).unwrap();
    }
    logs.close().unwrap();
    assert_eq!(read_all(dir.path()), (40..55).map(row).collect::<Vec<_>>());
}

#[test]
fn encryption_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let options = WriterOptions::default().encryption(
        FileEncryptionProperties::builder(vec![7u8; 16])
            .build()
            .unwrap(),
    );
    let e = LogWriter::<Row>::builder(dir.path())
        .options(options)
        .open()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

#[test]
fn a_shared_writer_takes_rows_from_many_threads_and_flushes_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let logs = LogWriter::<Row>::builder(dir.path())
        .flush_interval(Duration::from_millis(20))
        .open()
        .unwrap()
        .into_shared()
        .unwrap();
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let logs = logs.clone();
            s.spawn(move || {
                for i in 0..250 {
                    logs.write(&row(t * 1000 + i)).unwrap();
                }
            });
        }
    });
    // The timer flushed the journal: a copy of the folder, recovered, holds every row.
    std::thread::sleep(Duration::from_millis(300));
    let copy = tempfile::tempdir().unwrap();
    for f in all_files(dir.path()) {
        std::fs::copy(dir.path().join(&f), copy.path().join(&f)).unwrap();
    }
    // The copy's files name this process, whose writer is live: rename them to a dead pid.
    for f in all_files(copy.path()) {
        let name = f
            .to_string_lossy()
            .replace(&format!("-{}-", std::process::id()), "-0-");
        std::fs::rename(copy.path().join(&f), copy.path().join(name)).unwrap();
    }
    let report = UnfinishedFile::recover_all(copy.path()).unwrap();
    assert_eq!(report.rows, 1000, "{report:?}");
    logs.close().unwrap();
    let mut seqs: Vec<u64> = read_all(dir.path()).iter().map(|r| r.seq).collect();
    seqs.sort();
    let want: Vec<u64> = (0..4)
        .flat_map(|t| (0..250).map(move |i| t * 1000 + i))
        .collect();
    assert_eq!(seqs, want);
    assert!(logs.write(&row(0)).is_err());
}

/// An abandoned file with row groups, a checkpoint and rows after it; returns the folder
/// and the rows flushed.
fn abandoned() -> (tempfile::TempDir, u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Row>::builder(dir.path())
        .options(WriterOptions::default().row_group_rows(16))
        .open()
        .unwrap();
    for seq in 0..100 {
        logs.write(&row(seq)).unwrap();
        if seq % 10 == 9 {
            logs.flush().unwrap();
        }
    }
    drop(logs);
    // Named after a process that is gone, as after a crash.
    for f in all_files(dir.path()) {
        let name = f
            .to_string_lossy()
            .replace(&format!("-{}-", std::process::id()), "-0-");
        std::fs::rename(dir.path().join(&f), dir.path().join(name)).unwrap();
    }
    (dir, 100)
}

/// Copies `from` into a new folder, runs `damage` on the file whose name ends with
/// `suffix`, recovers, and checks the outcome: no panic, and any rows recovered are an
/// in-order prefix of those written.
fn recover_damaged(from: &Path, suffix: &str, damage: impl Fn(&mut Vec<u8>)) {
    let dir = tempfile::tempdir().unwrap();
    for f in all_files(from) {
        let mut bytes = std::fs::read(from.join(&f)).unwrap();
        if f.to_string_lossy().ends_with(suffix) {
            damage(&mut bytes);
        }
        std::fs::write(dir.path().join(&f), bytes).unwrap();
    }
    let report = UnfinishedFile::recover_all(dir.path()).unwrap();
    let rows = read_all(dir.path());
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r, &row(i as u64));
    }
    if report.failed.is_empty() {
        assert_eq!(report.rows, rows.len() as u64);
    } else {
        // A failed journal leaves its files for a look by hand.
        assert!(!all_files(dir.path()).is_empty());
    }
}

#[test]
fn recover_never_panics_on_truncated_or_corrupt_journals() {
    let (dir, written) = abandoned();
    let journal = all_files(dir.path())
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with(".journal"))
        .unwrap();
    let len = std::fs::metadata(dir.path().join(&journal)).unwrap().len() as usize;
    // Untouched: all 100 flushed rows.
    recover_damaged(dir.path(), "none", |_| {});
    let whole = tempfile::tempdir().unwrap();
    for f in all_files(dir.path()) {
        std::fs::copy(dir.path().join(&f), whole.path().join(&f)).unwrap();
    }
    assert_eq!(
        UnfinishedFile::recover_all(whole.path()).unwrap().rows,
        written
    );
    // About 60 cuts and 60 flips spread over the journal, and every cut of its last bytes.
    let step = len / 60 + 1;
    for cut in (0..len).step_by(step).chain(len.saturating_sub(40)..len) {
        recover_damaged(dir.path(), ".journal", |b| b.truncate(cut));
    }
    for at in (0..len).step_by(step) {
        recover_damaged(dir.path(), ".journal", |b| b[at] ^= 0x5a);
    }
    recover_damaged(dir.path(), ".journal", |b| {
        b.iter_mut().for_each(|x| *x = 0xff)
    });
    recover_damaged(dir.path(), ".journal", |b| b.extend_from_slice(&[1; 100]));
}

#[test]
fn recover_never_panics_on_truncated_or_corrupt_data_files() {
    let (dir, _) = abandoned();
    let data = all_files(dir.path())
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with(".inprogress"))
        .unwrap();
    let len = std::fs::metadata(dir.path().join(&data)).unwrap().len() as usize;
    for cut in (0..len).step_by(97) {
        recover_damaged(dir.path(), ".inprogress", |b| b.truncate(cut));
    }
    // Flipped bytes in the pages: recovery rewrites the footer over them; the damage
    // shows when reading, as a checksum error, not a panic.
    for at in (4..len).step_by(151) {
        let copy = tempfile::tempdir().unwrap();
        for f in all_files(dir.path()) {
            let mut bytes = std::fs::read(dir.path().join(&f)).unwrap();
            if f == data {
                bytes[at] ^= 0x5a;
            }
            std::fs::write(copy.path().join(&f), bytes).unwrap();
        }
        let report = UnfinishedFile::recover_all(copy.path()).unwrap();
        for f in report.recovered {
            let _ = parquet_serde::from_path::<Row>(&f);
        }
    }
}

#[test]
fn recover_file_takes_a_journal_or_data_path() {
    let (dir, written) = abandoned();
    let data = all_files(dir.path())
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with(".inprogress"))
        .unwrap();
    let made = UnfinishedFile::recover(dir.path().join(&data))
        .unwrap()
        .unwrap();
    let rows: Vec<Row> = parquet_serde::from_path(&made).unwrap();
    assert_eq!(rows.len() as u64, written);
    let e = UnfinishedFile::recover(&made).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
}

/// Rows of `len` bytes of message each.
fn sized_row(seq: u64, len: usize) -> Row {
    Row {
        seq,
        ts: BASE,
        message: "x".repeat(len),
        tags: Vec::new(),
        value: None,
    }
}

#[test]
fn files_roll_by_bytes_at_the_limit_even_when_rows_grow() {
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Row>::builder(dir.path())
        .roll_bytes(100_000)
        .options(WriterOptions::default().row_group_rows(100_000))
        .open()
        .unwrap();
    // Uniform rows of about 1 KB: every file but the last holds the same count.
    for seq in 0..1000 {
        logs.write(&sized_row(seq, 1000)).unwrap();
    }
    let files = logs.close().unwrap();
    let counts: Vec<usize> = files
        .iter()
        .map(|f| parquet_serde::from_path::<Row>(f).unwrap().len())
        .collect();
    assert_eq!(counts.iter().sum::<usize>(), 1000);
    let full = &counts[..counts.len() - 1];
    assert!(full.len() >= 9, "{counts:?}");
    assert!(full.iter().all(|&n| (95..=101).contains(&n)), "{counts:?}");

    // Small rows, then rows a thousand times larger: the file rolls within 64 rows.
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Row>::builder(dir.path())
        .roll_bytes(1_000_000)
        .options(WriterOptions::default().row_group_rows(100_000))
        .open()
        .unwrap();
    for seq in 0..300 {
        let len = if seq < 200 { 10 } else { 10_000 };
        logs.write(&sized_row(seq, len)).unwrap();
    }
    let files = logs.close().unwrap();
    let first = parquet_serde::from_path::<Row>(&files[0]).unwrap();
    let big = first.iter().filter(|r| r.message.len() > 10).count();
    assert!(big <= 100 + 64, "{big} big rows in the first file");
    assert!(big >= 90, "{big} big rows in the first file");
}

#[test]
fn snapshots_of_running_files_hold_the_flushed_rows_and_refuse_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Row>::builder(dir.path())
        .options(WriterOptions::default().row_group_rows(10))
        .open()
        .unwrap();
    for seq in 0..25 {
        logs.write(&row(seq)).unwrap();
    }
    logs.flush().unwrap();
    logs.write(&row(25)).unwrap();
    let files = UnfinishedFile::list(dir.path()).unwrap();
    assert_eq!(files.len(), 1);
    let bytes = UnfinishedFile::snapshot(&files[0].journal)
        .unwrap()
        .unwrap();
    let rows: Vec<Row> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(rows, (0..25).map(row).collect::<Vec<_>>());

    // A data file shorter than its checkpoint, a torn or garbled journal: errors or
    // nothing acknowledged, never a panic; the files are left as they were.
    let data = files[0].journal.with_file_name(
        files[0]
            .journal
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .replace(".journal", ".parquet.inprogress"),
    );
    let journal = std::fs::read(&files[0].journal).unwrap();
    let copy = tempfile::tempdir().unwrap();
    let (j, d) = (
        copy.path().join(files[0].journal.file_name().unwrap()),
        copy.path().join(data.file_name().unwrap()),
    );
    std::fs::write(&d, &std::fs::read(&data).unwrap()[..10]).unwrap();
    std::fs::write(&j, &journal).unwrap();
    let err = UnfinishedFile::snapshot(&j).unwrap_err();
    assert!(err.to_string().contains("checkpoint"), "{err}");
    std::fs::write(&d, std::fs::read(&data).unwrap()).unwrap();
    for cut in (0..journal.len()).step_by(7) {
        std::fs::write(&j, &journal[..cut]).unwrap();
        let _ = UnfinishedFile::snapshot(&j);
    }
    for i in (0..journal.len()).step_by(3) {
        let mut bad = journal.clone();
        bad[i] ^= 0x5a;
        std::fs::write(&j, &bad).unwrap();
        if let Ok(Some(bytes)) = UnfinishedFile::snapshot(&j) {
            let _ = parquet_serde::from_slice::<Row>(&bytes);
        }
    }
    assert!(UnfinishedFile::snapshot(dir.path().join("part-x.parquet")).is_err());
    let files = logs.close().unwrap();
    let all: Vec<Row> = parquet_serde::from_path(&files[0]).unwrap();
    assert_eq!(all.len(), 26);
}

/// Rows with a VARIANT column that the writer's options shred.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct VariantRow {
    seq: u64,
    #[parquet(variant)]
    attrs: Option<serde_json::Value>,
}

#[derive(ParquetSchema)]
#[allow(dead_code)]
struct Attrs {
    status: i64,
}

/// A writer whose options shred a VARIANT column writes its data file shredded, and its
/// journal's header says so: a snapshot (and recovery, which rebuild the file from the
/// header, the checkpointed row groups and the journaled rows) has the schema of the file
/// being written and every flushed row. With the unshredded schema in the header the
/// checkpoint's row groups had more columns than the schema and nothing was readable
/// (tests/log_shred_crash.rs kills such a writer).
#[test]
fn a_shredding_writers_journal_holds_the_shredded_schema() {
    let row = |seq: u64| VariantRow {
        seq,
        attrs: match seq % 3 {
            0 => None,
            1 => Some(serde_json::json!({"status": seq})),
            _ => Some(serde_json::json!({"status": "text", "other": seq})),
        },
    };
    let options = WriterOptions::default()
        .row_group_rows(10)
        .shred_variant_as::<Attrs>("attrs");
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<VariantRow>::builder(dir.path())
        .options(options.clone())
        .open()
        .unwrap();
    for seq in 0..25 {
        logs.write(&row(seq)).unwrap();
    }
    // Two row groups checkpointed, five rows journaled.
    logs.flush().unwrap();
    let schema = |bytes: &[u8]| {
        parquet_serde::core::file::FileReader::new(bytes)
            .unwrap()
            .schema()
            .to_string()
    };
    let expected = schema(&parquet_serde::to_vec_with(&[row(1)], options).unwrap());
    assert!(expected.contains("typed_value"), "{expected}");
    let files = UnfinishedFile::list(dir.path()).unwrap();
    let bytes = UnfinishedFile::snapshot(&files[0].journal)
        .unwrap()
        .unwrap();
    assert_eq!(schema(&bytes), expected);
    let rows: Vec<VariantRow> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(rows, (0..25).map(row).collect::<Vec<_>>());
    let files = logs.close().unwrap();
    assert_eq!(schema(&std::fs::read(&files[0]).unwrap()), expected);
}

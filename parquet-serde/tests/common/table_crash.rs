//! The crash and concurrency harness of the table committers' tests (Delta's
//! delta_commit.rs, Iceberg's iceberg_crash.rs and iceberg_concurrency.rs): the rows, the
//! log writer of a crash child, the child's write loop, a child killed at a random
//! moment, the crash child and trial of any table committer ([`CrashTable`]), and
//! processes started together. What the table is, and which engine reads it
//! at the end, is the caller's. Included by path (`#[path = "common/table_crash.rs"] mod
//! table_crash;`): it needs feature `logs`, which not every test has.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use parquet_serde::logs::{LogWriter, LogWriterBuilder, TimePartition};
use parquet_serde::{Compression, ParquetSchema, WriterOptions};
use serde::{Deserialize, Serialize};

/// The environment variable naming a child's table folder.
pub const CHILD_DIR: &str = "PARQUET_SERDE_TABLE_DIR";
/// The environment variable holding a crash child's seed.
pub const CHILD_SEED: &str = "PARQUET_SERDE_TABLE_SEED";
/// The environment variable holding a concurrent writer's number.
pub const WRITER_ID: &str = "PARQUET_SERDE_TABLE_WRITER";

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
pub struct Row {
    /// Signed: Iceberg has no unsigned type.
    pub seq: i64,
    #[parquet(timestamp = "micros")]
    pub ts: i64,
    pub message: String,
    pub value: Option<f64>,
}

/// 2026-11-24T13:00:00Z.
pub const BASE: i64 = 1_795_525_200_000_000;

/// Row `seq`: its message is `event {seq}` (what the readers check).
pub fn row(seq: u64) -> Row {
    Row {
        seq: seq as i64,
        // 20 minutes a thousand rows: the hour folder changes every 3000 rows.
        ts: BASE + seq as i64 * 1_200_000,
        message: format!("event {seq}"),
        value: (!seq.is_multiple_of(5)).then_some(seq as f64 * 0.5),
    }
}

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// An hourly log writer in `dir` with random row groups and roll sizes, attached to a
/// table by `attach` (its `on_finished` hook, or the builder's `iceberg`).
pub fn writer(
    dir: &Path,
    rng: &mut Rng,
    attach: impl FnOnce(LogWriterBuilder<Row>) -> LogWriterBuilder<Row>,
) -> LogWriter<Row> {
    let options = WriterOptions::default()
        .compression(Compression::Zstd(1))
        .row_group_rows(100 + rng.below(400) as usize);
    let builder = LogWriter::<Row>::builder(dir)
        .partition(TimePartition::Hourly)
        .time_field(|r| r.ts)
        .roll_rows(200 + rng.below(800))
        .options(options);
    attach(builder).open().unwrap()
}

/// The crash child's loop: writes bursts forever, flushing after each and printing
/// `ack N` (the rows acknowledged so far) once `committed` reports no error.
pub fn write_forever(
    logs: &mut LogWriter<Row>,
    rng: &mut Rng,
    committed: impl Fn() -> Option<parquet_serde::Error>,
) -> ! {
    let mut seq = 0u64;
    loop {
        let most = if rng.below(4) == 0 { 1000 } else { 100 };
        let burst = 1 + rng.below(most);
        for _ in 0..burst {
            logs.write(&row(seq)).unwrap();
            seq += 1;
        }
        logs.flush().unwrap();
        if let Some(e) = committed() {
            panic!("commit failed: {e}");
        }
        println!("ack {seq}");
    }
}

/// A table committer the crash trials run against: how a log writer commits to it, its
/// last commit error, and a commit of the folder's uncommitted files.
pub trait CrashTable: Sized {
    /// The table in `dir`, committing as the writer `app`.
    fn open(dir: &Path, app: &str) -> Self;
    /// The log writer's builder, committing each final file to this table.
    fn attach(&self, builder: LogWriterBuilder<Row>) -> LogWriterBuilder<Row>;
    /// The last commit error of the writer's hook, taken.
    fn take_last_error(&self) -> Option<parquet_serde::Error>;
    /// Commits the folder's final files the table does not hold: (files added, version).
    fn commit_folder(&self) -> parquet_serde::Result<(usize, Option<u64>)>;
}

/// The writer id of the crash children and their restarts.
const CRASH_APP: &str = "crash-writer";

/// The crash child's body (the caller's ignored test `crash_child`): writes forever into
/// the table in `$PARQUET_SERDE_TABLE_DIR`, committing each final file, printing `ack N`
/// after each flush; returns at once when run without the environment.
pub fn crash_child<T: CrashTable>() {
    let (Some(dir), Some(seed)) = (std::env::var_os(CHILD_DIR), std::env::var(CHILD_SEED).ok())
    else {
        return;
    };
    let dir = Path::new(&dir);
    let mut rng = Rng(seed.parse::<u64>().unwrap() | 1);
    let table = T::open(dir, CRASH_APP);
    let mut logs = writer(dir, &mut rng, |b| table.attach(b));
    write_forever(&mut logs, &mut rng, || table.take_last_error());
}

/// One crash trial: the child `crash_child` killed at random, then the restart: recovery
/// hands the rebuilt files to the commit hook, and the folder is committed for files made
/// final but not committed before the kill; committing again adds nothing. Returns the
/// table's folder and the acknowledged row count.
pub fn crash_trial<T: CrashTable>(seed: u64) -> (tempfile::TempDir, u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let acked = kill_at_random("crash_child", dir.path(), seed, &mut rng);
    let table = T::open(dir.path(), CRASH_APP);
    let logs = writer(dir.path(), &mut rng, |b| table.attach(b));
    logs.close().unwrap();
    if let Some(e) = table.take_last_error() {
        panic!("seed {seed}: commit after recovery failed: {e}");
    }
    table.commit_folder().unwrap();
    // Every final file is in the table exactly once; committing again adds nothing.
    assert_eq!(table.commit_folder().unwrap(), (0, None), "seed {seed}");
    (dir, acked)
}

/// Runs the ignored test `child` of this test binary with `dir` and `seed` in its
/// environment, kills it (SIGKILL) after 50 to 650 ms, and returns the last row count
/// it acknowledged.
pub fn kill_at_random(child: &str, dir: &Path, seed: u64, rng: &mut Rng) -> u64 {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            child,
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir)
        .env(CHILD_SEED, seed.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut acked = 0u64;
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(n) = line.strip_prefix("ack ") {
                acked = n.trim().parse().unwrap();
            }
        }
        acked
    });
    std::thread::sleep(Duration::from_millis(50 + rng.below(600)));
    child.kill().unwrap();
    child.wait().unwrap();
    reader.join().unwrap()
}

/// Runs `n` copies of the ignored test `child` at once on `dir` (each with its number as
/// `WRITER_ID`); their outputs, each asserted successful.
pub fn run_writers(child: &str, dir: &Path, n: usize) -> Vec<Output> {
    let children: Vec<_> = (0..n)
        .map(|id| {
            Command::new(std::env::current_exe().unwrap())
                .args([
                    "--ignored",
                    "--exact",
                    child,
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env(CHILD_DIR, dir)
                .env(WRITER_ID, id.to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            out
        })
        .collect()
}

/// The retries a writer's output reports (`committed V after R retries` lines).
pub fn retries(out: &Output) -> u32 {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("committed "))
        .filter_map(|l| {
            l.split(" after ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .sum()
}

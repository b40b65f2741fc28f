//! The crash and concurrency harness of the table committers' tests (Delta's
//! delta_commit.rs, Iceberg's iceberg_crash.rs and iceberg_concurrency.rs): the rows, the
//! log writer of a crash child, the child's write loop, a child killed at a random
//! moment, and processes started together. What the table is, and which engine reads it
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

//! Crash safety of `parquet_serde::logs::LogWriter`: a child process (this test binary run
//! again, on the ignored `crash_child` test) writes and flushes at random cadences and
//! prints each acknowledged row count; it is killed with SIGKILL at a random moment. After
//! recovery the folder must hold every acknowledged row exactly once and in order (rows
//! after the last acknowledgement may be there too, still in order).
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use parquet_serde::logs::{LogWriter, TimePartition, UnfinishedFile};
use parquet_serde::{Compression, ParquetSchema, WriterOptions};
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

/// The row numbered `seq`: every field follows from it, so a reader can check it whole.
fn row(seq: u64) -> Row {
    Row {
        seq,
        // 20 minutes a thousand rows: the hour folder changes every 3000 rows.
        ts: BASE + seq as i64 * 1_200_000,
        message: format!("event {seq} {}", "x".repeat((seq % 37) as usize)),
        tags: (0..seq % 3).map(|t| format!("t{t}")).collect(),
        value: (!seq.is_multiple_of(5)).then_some(seq as f64 * 0.5),
    }
}

/// A small xorshift generator: trials are reproducible from their seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const CHILD_DIR: &str = "PARQUET_SERDE_CRASH_DIR";
const CHILD_SEED: &str = "PARQUET_SERDE_CRASH_SEED";

/// The child: writes forever, flushing at random cadences, and prints `ack N` after each
/// flush returns. Runs only when the parent starts it.
#[test]
#[ignore = "the child process of the crash tests; run by them"]
fn crash_child() {
    let (Some(dir), Some(seed)) = (std::env::var_os(CHILD_DIR), std::env::var(CHILD_SEED).ok())
    else {
        return;
    };
    let mut rng = Rng(seed.parse::<u64>().unwrap() | 1);
    let options = WriterOptions::default()
        .compression(Compression::Zstd(1))
        .row_group_rows(100 + rng.below(900) as usize)
        .threads(1 + rng.below(2) as usize);
    let mut builder = LogWriter::<Row>::builder(&dir)
        .partition(TimePartition::Hourly)
        .time_field(|r| r.ts)
        .options(options);
    if rng.below(2) == 0 {
        builder = builder.roll_rows(500 + rng.below(3000));
    }
    let mut logs = builder.open().unwrap();
    let mut seq = 0u64;
    loop {
        let most = if rng.below(4) == 0 { 2000 } else { 200 };
        let burst = 1 + rng.below(most);
        for _ in 0..burst {
            logs.write(&row(seq)).unwrap();
            seq += 1;
        }
        logs.flush().unwrap();
        println!("ack {seq}");
        if rng.below(8) == 0 {
            std::thread::sleep(Duration::from_millis(rng.below(10)));
        }
    }
}

/// One trial: start the child, kill it at a random moment, recover, check.
fn trial(seed: u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "crash_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir.path())
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
    std::thread::sleep(Duration::from_millis(20 + rng.below(400)));
    child.kill().unwrap();
    child.wait().unwrap();
    let acked = reader.join().unwrap();

    let report = UnfinishedFile::recover_all(dir.path()).unwrap();
    assert!(report.failed.is_empty(), "seed {seed}: {:?}", report.failed);
    let mut rows: Vec<Row> = Vec::new();
    for f in common::final_log_files(dir.path()) {
        let part: Vec<Row> = parquet_serde::from_path(&f)
            .unwrap_or_else(|e| panic!("seed {seed}: {}: {e}", f.display()));
        rows.extend(part);
    }
    assert!(
        rows.len() as u64 >= acked,
        "seed {seed}: {} rows recovered, {acked} acknowledged",
        rows.len()
    );
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r, &row(i as u64), "seed {seed}: row {i} of {}", rows.len());
    }
    eprintln!(
        "seed {seed}: acked {acked}, rows {}, recovered files {}, removed {}",
        rows.len(),
        report.recovered.len(),
        report.removed.len()
    );
    // Recovering again changes nothing.
    let again = UnfinishedFile::recover_all(dir.path()).unwrap();
    assert!(again.recovered.is_empty() && again.failed.is_empty());
}

#[test]
fn acknowledged_rows_survive_sigkill_30_trials() {
    let start = Instant::now();
    for seed in 1..=30 {
        trial(seed);
    }
    eprintln!("30 crash trials in {:?}", start.elapsed());
}

#[test]
#[ignore = "long: 500 crash trials"]
fn acknowledged_rows_survive_sigkill_500_trials() {
    for seed in 1000..1500 {
        trial(seed);
    }
}

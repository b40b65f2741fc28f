//! Figures for `parquet_serde::logs` (a bench binary, not timed tests):
//!
//! 1. peak memory of the tracing layer at 100k events/s (first, so that the process's
//!    high-water mark is this run's);
//! 2. `tracing` events/s through `TracingLayer` against `tracing_subscriber::fmt().json()`
//!    into `tracing_appender::non_blocking` over a file (lossless), 1 and 4 threads;
//! 3. bytes on disk of both, and of the JSON lines compressed with zstd;
//! 4. `LogWriter` rows/s flushing every second against never, and the final files' bytes;
//! 5. many threads: one `SharedLogWriter` (a lock) against a channel to a writer thread.
//!
//! `cargo bench -p parquet-serde --features tracing --bench logs [-- memory throughput flush threads]`
//! (the named parts only; all without names; `ours` runs the `TracingLayer` half of
//! `throughput` alone, for profiling)

use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::time::{Duration, Instant};

use parquet_serde::logs::{LogWriter, Overflow, SyncPolicy, TracingLayer};
use parquet_serde::{Compression, ParquetSchema, WriterOptions};
use serde::Serialize;
use tracing_subscriber::layer::SubscriberExt;

fn dir_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    let mut folders = vec![dir.to_path_buf()];
    while let Some(f) = folders.pop() {
        for e in std::fs::read_dir(&f).unwrap() {
            let e = e.unwrap();
            let m = e.metadata().unwrap();
            if m.is_dir() {
                folders.push(e.path());
            } else {
                total += m.len();
            }
        }
    }
    total
}

/// The process's peak resident memory (VmHWM), in KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// One request's worth of logging: a span with two fields, an event with four.
fn emit(i: u64) {
    let route = ["/users", "/orders", "/search", "/cart"][(i % 4) as usize];
    let span = tracing::info_span!("request", id = i, route);
    let _e = span.enter();
    let latency_ms = 1.0 + (i * 7919 % 5000) as f64 / 100.0;
    if i.is_multiple_of(50) {
        tracing::error!(
            status = 500u64,
            latency_ms,
            user = "u-1234",
            "request failed"
        );
    } else {
        tracing::info!(
            status = 200u64,
            latency_ms,
            user = "u-1234",
            "request handled"
        );
    }
}

/// Runs `threads` threads emitting `per_thread` events each under `dispatch`.
fn emit_all(dispatch: &tracing::Dispatch, threads: u64, per_thread: u64) {
    std::thread::scope(|s| {
        for t in 0..threads {
            let d = dispatch.clone();
            s.spawn(move || {
                tracing::dispatcher::with_default(&d, || {
                    for i in 0..per_thread {
                        emit(t * per_thread + i);
                    }
                })
            });
        }
    });
}

fn parquet_layer(dir: &Path) -> (tracing::Dispatch, parquet_serde::logs::TracingGuard) {
    let (layer, guard) = TracingLayer::builder(dir)
        .overflow(Overflow::Block)
        .build()
        .unwrap();
    (
        tracing::Dispatch::new(tracing_subscriber::registry().with(layer)),
        guard,
    )
}

fn json_layer(
    file: &Path,
) -> (
    tracing::Dispatch,
    tracing_appender::non_blocking::WorkerGuard,
) {
    let f = std::fs::File::create(file).unwrap();
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .finish(f);
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_writer(writer)
        .with_thread_ids(true)
        .with_thread_names(true)
        .with_file(true)
        .with_line_number(true)
        .finish();
    (tracing::Dispatch::new(subscriber), guard)
}

fn memory_at_100k_per_second() {
    let dir = tempfile::tempdir().unwrap();
    let before = peak_rss_kib();
    let (dispatch, guard) = parquet_layer(dir.path());
    let start = Instant::now();
    let seconds = 5u64;
    tracing::dispatcher::with_default(&dispatch, || {
        for i in 0..seconds * 100_000 {
            emit(i);
            // 100 events a millisecond.
            if i % 100 == 99 {
                let due = Duration::from_micros((i + 1) * 10);
                if let Some(wait) = due.checked_sub(start.elapsed()) {
                    std::thread::sleep(wait);
                }
            }
        }
    });
    drop(guard);
    let took = start.elapsed();
    println!(
        "memory: {} events in {:.2} s ({:.0} events/s): peak RSS {} MiB (+{} MiB over the {} MiB before)",
        seconds * 100_000,
        took.as_secs_f64(),
        (seconds * 100_000) as f64 / took.as_secs_f64(),
        peak_rss_kib() / 1024,
        (peak_rss_kib().saturating_sub(before)) / 1024,
        before / 1024
    );
}

fn tracing_throughput() {
    for threads in [1u64, 4] {
        let per_thread = 1_000_000 / threads;
        let total = per_thread * threads;

        let dir = tempfile::tempdir().unwrap();
        let (dispatch, guard) = parquet_layer(dir.path());
        let start = Instant::now();
        emit_all(&dispatch, threads, per_thread);
        let emitted = start.elapsed();
        drop(guard);
        let ours = start.elapsed();
        let our_bytes = dir_bytes(dir.path());

        let json_dir = tempfile::tempdir().unwrap();
        let json = json_dir.path().join("app.jsonl");
        let (dispatch, guard) = json_layer(&json);
        let start = Instant::now();
        emit_all(&dispatch, threads, per_thread);
        let json_emitted = start.elapsed();
        drop(guard);
        let theirs = start.elapsed();
        let raw = std::fs::read(&json).unwrap();
        let zstd3 = zstd::encode_all(&raw[..], 3).unwrap().len();

        let rate = |d: Duration| total as f64 / d.as_secs_f64();
        println!(
            "tracing, {threads} thread(s), {total} events: TracingLayer {:.0} events/s \
             (app threads done at {:.0}/s), fmt().json()+non_blocking {:.0} events/s \
             (app threads done at {:.0}/s): {:.2}x",
            rate(ours),
            rate(emitted),
            rate(theirs),
            rate(json_emitted),
            theirs.as_secs_f64() / ours.as_secs_f64()
        );
        println!(
            "bytes, {total} events: parquet {our_bytes} ({:.1} B/event), JSON lines {} \
             ({:.1} B/event; parquet is 1/{:.1} of it), JSON lines + zstd(3) {zstd3} \
             (parquet is {:.2}x of it)",
            our_bytes as f64 / total as f64,
            raw.len(),
            raw.len() as f64 / total as f64,
            raw.len() as f64 / our_bytes as f64,
            our_bytes as f64 / zstd3 as f64
        );
    }
}

/// The `TracingLayer` half of [`tracing_throughput`] alone (for profiling it).
fn tracing_throughput_ours() {
    for threads in [1u64, 4] {
        let per_thread = 1_000_000 / threads;
        let total = per_thread * threads;
        let dir = tempfile::tempdir().unwrap();
        let (dispatch, guard) = parquet_layer(dir.path());
        let start = Instant::now();
        emit_all(&dispatch, threads, per_thread);
        let emitted = start.elapsed();
        drop(guard);
        let ours = start.elapsed();
        println!(
            "tracing, {threads} thread(s), {total} events: TracingLayer {:.0} events/s \
             (app threads done at {:.0}/s)",
            total as f64 / ours.as_secs_f64(),
            total as f64 / emitted.as_secs_f64(),
        );
    }
}

#[derive(Serialize, ParquetSchema, Clone)]
struct Access {
    #[parquet(timestamp = "micros")]
    ts: i64,
    route: String,
    status: u16,
    latency_ms: f64,
    user: Option<String>,
}

fn access(i: u64) -> Access {
    Access {
        ts: 1_795_525_200_000_000 + i as i64 * 1000,
        route: ["/users", "/orders", "/search", "/cart"][(i % 4) as usize].to_string(),
        status: if i.is_multiple_of(50) { 500 } else { 200 },
        latency_ms: 1.0 + (i * 7919 % 5000) as f64 / 100.0,
        user: (!i.is_multiple_of(3)).then(|| format!("u-{}", i % 10_000)),
    }
}

/// Writes for about `seconds`, flushing every `flush` if given; returns rows/s, the bytes
/// of the final files, the rows and the share of the time spent in `flush`.
fn write_for(seconds: f64, flush: Option<Duration>, sync: SyncPolicy) -> (f64, u64, u64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Access>::builder(dir.path())
        .options(WriterOptions::default().compression(Compression::Zstd(3)))
        .sync(sync)
        .open()
        .unwrap();
    let start = Instant::now();
    let mut last = Instant::now();
    let mut i = 0u64;
    let mut flushing = Duration::ZERO;
    while start.elapsed().as_secs_f64() < seconds {
        for _ in 0..1000 {
            logs.write(&access(i)).unwrap();
            i += 1;
        }
        if let Some(every) = flush {
            if last.elapsed() >= every {
                let at = Instant::now();
                logs.flush().unwrap();
                flushing += at.elapsed();
                last = Instant::now();
            }
        }
    }
    logs.close().unwrap();
    let took = start.elapsed().as_secs_f64();
    let share = flushing.as_secs_f64() / took;
    (i as f64 / took, dir_bytes(dir.path()), i, share)
}

fn writer_flush_cost() {
    // The three cadences interleaved, 5 runs of 4 s each, medians compared: this machine's
    // speed drifts by more than the effect between consecutive runs of several seconds.
    let (mut none, mut sec, mut fast) = (Vec::new(), Vec::new(), Vec::new());
    let (mut sec_share, mut fast_share) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        none.push(write_for(4.0, None, SyncPolicy::Fsync).0);
        let (rate, _, _, share) = write_for(4.0, Some(Duration::from_secs(1)), SyncPolicy::Fsync);
        sec.push(rate);
        sec_share.push(share);
        let (rate, _, _, share) =
            write_for(4.0, Some(Duration::from_millis(100)), SyncPolicy::Fsync);
        fast.push(rate);
        fast_share.push(share);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let runs = |v: &[f64]| {
        v.iter()
            .map(|r| format!("{:.2}M", r / 1e6))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (none_rate, sec_rate, fast_rate) = (median(&mut none), median(&mut sec), median(&mut fast));
    println!(
        "LogWriter rows/s, medians of 5 interleaved 4 s runs: no flush {none_rate:.0}, flush \
         every 1 s {sec_rate:.0} ({:+.1}%), every 100 ms {fast_rate:.0} ({:+.1}%) \
         [sorted runs: none {}; 1 s {}; 100 ms {}]",
        (sec_rate / none_rate - 1.0) * 100.0,
        (fast_rate / none_rate - 1.0) * 100.0,
        runs(&none),
        runs(&sec),
        runs(&fast)
    );
    // The writer is one thread: the time inside `flush` is what flushing takes from
    // writing (less noisy than the difference of two rates).
    println!(
        "time inside flush(), medians: every 1 s {:.1}% of the run, every 100 ms {:.1}%",
        median(&mut sec_share) * 100.0,
        median(&mut fast_share) * 100.0
    );
    let bytes = |flush: Option<Duration>| {
        let dir = tempfile::tempdir().unwrap();
        let mut logs = LogWriter::<Access>::builder(dir.path())
            .options(WriterOptions::default().compression(Compression::Zstd(3)))
            .open()
            .unwrap();
        let mut last = Instant::now();
        for i in 0..3_000_000 {
            logs.write(&access(i)).unwrap();
            if flush.is_some_and(|f| last.elapsed() >= f) {
                logs.flush().unwrap();
                last = Instant::now();
            }
        }
        logs.close().unwrap();
        dir_bytes(dir.path())
    };
    let (plain, flushed) = (bytes(None), bytes(Some(Duration::from_millis(100))));
    println!(
        "final bytes, 3M rows: no flush {plain}, flush every 100 ms {flushed} ({:+.3}%)",
        (flushed as f64 / plain as f64 - 1.0) * 100.0
    );
}

fn threads_shared_vs_channel() {
    let threads = 4u64;
    let per = 500_000u64;
    let dir = tempfile::tempdir().unwrap();
    let shared = LogWriter::<Access>::builder(dir.path())
        .options(WriterOptions::default().compression(Compression::Zstd(3)))
        .open()
        .unwrap()
        .into_shared()
        .unwrap();
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let w = shared.clone();
            s.spawn(move || {
                for i in 0..per {
                    w.write(&access(t * per + i)).unwrap();
                }
            });
        }
    });
    shared.close().unwrap();
    let locked = start.elapsed();

    let dir = tempfile::tempdir().unwrap();
    let mut writer = LogWriter::<Access>::builder(dir.path())
        .options(WriterOptions::default().compression(Compression::Zstd(3)))
        .open()
        .unwrap();
    let start = Instant::now();
    let (tx, rx) = sync_channel::<Access>(65_536);
    let consumer = std::thread::spawn(move || {
        for row in rx {
            writer.write(&row).unwrap();
        }
        writer.close().unwrap();
    });
    std::thread::scope(|s| {
        for t in 0..threads {
            let tx = tx.clone();
            s.spawn(move || {
                for i in 0..per {
                    tx.send(access(t * per + i)).unwrap();
                }
            });
        }
    });
    drop(tx);
    consumer.join().unwrap();
    let channel = start.elapsed();

    let dir = tempfile::tempdir().unwrap();
    let mut one = LogWriter::<Access>::builder(dir.path())
        .options(WriterOptions::default().compression(Compression::Zstd(3)))
        .open()
        .unwrap();
    let start = Instant::now();
    for i in 0..threads * per {
        one.write(&access(i)).unwrap();
    }
    one.close().unwrap();
    let single = start.elapsed();

    let rate = |d: Duration| (threads * per) as f64 / d.as_secs_f64();
    println!(
        "{threads} threads x {per} rows: SharedLogWriter (lock) {:.0} rows/s, channel to a \
         writer thread {:.0} rows/s; one thread writing all {:.0} rows/s",
        rate(locked),
        rate(channel),
        rate(single)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    // `-- memory throughput flush threads` runs only the named parts (all without names).
    let names: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = |name: &str| names.is_empty() || names.contains(&name);
    if run("memory") {
        memory_at_100k_per_second();
    }
    if run("throughput") {
        tracing_throughput();
    }
    if names.contains(&"ours") {
        tracing_throughput_ours();
    }
    if run("flush") {
        writer_flush_cost();
    }
    if run("threads") {
        threads_shared_vs_channel();
    }
}

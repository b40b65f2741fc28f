//! `parquet_serde::logs::TracingLayer`: every event becomes one typed row; spans, threads,
//! dropped-event counts; the guard closes the files.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use parquet_serde::logs::{LogEvent, LogLevel, Overflow, TracingLayer};
use parquet_serde::variant::Variant;
use tracing_subscriber::layer::SubscriberExt;

fn read(dir: &Path) -> Vec<LogEvent> {
    common::final_log_files(dir)
        .iter()
        .flat_map(|f| parquet_serde::from_path::<LogEvent>(f).unwrap())
        .collect()
}

#[test]
fn events_become_typed_rows_with_their_spans() {
    let dir = tempfile::tempdir().unwrap();
    let (layer, guard) = TracingLayer::builder(dir.path())
        .overflow(Overflow::Block)
        .build()
        .unwrap();
    let subscriber = tracing_subscriber::registry().with(layer);
    tracing::subscriber::with_default(subscriber, || {
        let span = tracing::info_span!("request", route = "/users", attempt = 2u64);
        let _enter = span.enter();
        let inner = tracing::debug_span!("db", table = "users");
        inner.in_scope(|| {
            tracing::warn!(
                rows = -3i64,
                ratio = 0.25,
                cached = true,
                who = ?("ann", 7),
                "slow query {}",
                42
            );
        });
        span.record("attempt", 3u64);
        tracing::error!(target: "billing", code = 500u64, "failed");
        std::thread::Builder::new()
            .name("worker-a".into())
            .spawn(|| tracing::info!("from a thread"))
            .unwrap()
            .join()
            .unwrap();
    });
    drop(guard);
    let rows = read(dir.path());
    assert_eq!(
        rows.len(),
        2,
        "events outside the subscriber are not seen: {rows:?}"
    );
    let first = &rows[0];
    assert_eq!(first.level, LogLevel::Warn);
    assert_eq!(first.message.as_deref(), Some("slow query 42"));
    assert_eq!(first.target, module_path!());
    assert_eq!(first.module_path.as_deref(), Some(module_path!()));
    assert!(first.file.as_deref().unwrap().ends_with("log_tracing.rs"));
    assert!(first.line.unwrap() > 0);
    let f = |k: &str| first.fields.get(k).cloned().unwrap();
    assert_eq!(f("rows").as_i64(), Some(-3));
    assert_eq!(f("ratio"), Variant::Double(0.25));
    assert_eq!(f("cached"), Variant::Bool(true));
    assert_eq!(f("who").as_str(), Some("(\"ann\", 7)"));
    assert_eq!(first.spans.len(), 2);
    assert_eq!(first.spans[0].name, "request");
    let span_field = |r: &LogEvent, k: &str| r.spans[0].fields.get(k).cloned().unwrap();
    assert_eq!(span_field(first, "route").as_str(), Some("/users"));
    assert_eq!(span_field(first, "attempt").as_i64(), Some(2));
    assert_eq!(first.spans[1].name, "db");
    let second = &rows[1];
    assert_eq!(
        (second.level, second.target.as_str()),
        (LogLevel::Error, "billing")
    );
    assert_eq!(
        span_field(second, "attempt").as_i64(),
        Some(3),
        "recorded later"
    );
    assert_eq!(
        second.fields.get("code").and_then(Variant::as_i64),
        Some(500)
    );
    assert!(second.ts >= first.ts);
    assert_eq!(second.dropped, None);
}

#[test]
fn events_from_many_threads_all_arrive_with_block_and_are_counted_with_drop() {
    for overflow in [Overflow::Block, Overflow::Drop] {
        let dir = tempfile::tempdir().unwrap();
        let (layer, guard) = TracingLayer::builder(dir.path())
            .capacity(4)
            .overflow(overflow)
            .flush_interval(Duration::from_millis(5))
            .build()
            .unwrap();
        let subscriber = tracing_subscriber::registry().with(layer);
        tracing::subscriber::with_default(subscriber, || {
            let dispatch = tracing::dispatcher::get_default(|d| d.clone());
            std::thread::scope(|s| {
                for t in 0..4u64 {
                    let dispatch = dispatch.clone();
                    s.spawn(move || {
                        tracing::dispatcher::with_default(&dispatch, || {
                            for i in 0..500u64 {
                                tracing::info!(t, i, "event");
                            }
                        })
                    });
                }
            });
        });
        guard.flush().unwrap();
        drop(guard);
        let rows = read(dir.path());
        let events: Vec<&LogEvent> = rows.iter().filter(|r| r.dropped.is_none()).collect();
        let dropped: u64 = rows.iter().filter_map(|r| r.dropped).sum();
        assert_eq!(events.len() as u64 + dropped, 2000, "{overflow:?}");
        if overflow == Overflow::Block {
            assert_eq!(dropped, 0);
        }
        // Each thread's events keep their order, under one thread id.
        for t in 0..4u64 {
            let mine: Vec<&&LogEvent> = events
                .iter()
                .filter(|r| r.fields.get("t").and_then(Variant::as_i64) == Some(t as i64))
                .collect();
            let i = |r: &LogEvent| r.fields.get("i").and_then(Variant::as_i64);
            assert!(mine.windows(2).all(|w| i(w[0]) < i(w[1])));
            assert!(mine.windows(2).all(|w| w[0].thread_id == w[1].thread_id));
        }
        for r in rows.iter().filter(|r| r.dropped.is_some()) {
            assert_eq!(
                (r.level, r.target.as_str()),
                (LogLevel::Warn, "parquet_serde::logs")
            );
        }
    }
}

#[test]
fn a_folder_that_cannot_be_made_is_an_error_at_build() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    assert!(TracingLayer::builder(file.join("logs")).build().is_err());
}

#[test]
fn writer_errors_go_to_the_callback_not_the_application() {
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&errors);
    let (layer, guard) = TracingLayer::builder(&logs)
        .roll_bytes(1)
        .overflow(Overflow::Block)
        .on_error(move |e| {
            seen.lock().unwrap().push(e.to_string());
            // A callback that logs must not deadlock the writer thread.
            tracing::error!("log writer failed");
        })
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        tracing::info!("first");
        guard.flush().unwrap();
        // The folder goes away under the writer: finishing the file fails.
        std::fs::remove_dir_all(&logs).unwrap();
        tracing::info!("second");
        tracing::info!("third");
        guard.flush().unwrap();
    });
    drop(guard);
    let errors = errors.lock().unwrap();
    assert!(!errors.is_empty());
    assert!(errors[0].contains("No such file"), "{errors:?}");
    // The writer carried on in a new file.
    let rows = read(&logs);
    assert!(
        rows.iter().any(|r| r.message.as_deref() == Some("third")),
        "{rows:?}"
    );
}

#[test]
fn dropping_the_guard_writes_the_partial_batches_of_threads_still_running() {
    use std::sync::mpsc::channel;
    let dir = tempfile::tempdir().unwrap();
    let (layer, guard) = TracingLayer::builder(dir.path())
        .overflow(Overflow::Block)
        .flush_interval(Duration::from_secs(3600))
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    let (logged, wait_logged) = channel();
    let (closed, wait_closed) = channel::<()>();
    let worker = std::thread::spawn(move || {
        tracing::dispatcher::with_default(&dispatch, || {
            for i in 0..3u64 {
                tracing::info!(i, "before the guard is dropped");
            }
            logged.send(()).unwrap();
            wait_closed.recv().unwrap();
            // The writer has stopped: counted as dropped, never a panic or a hang.
            tracing::info!("after");
        })
    });
    wait_logged.recv().unwrap();
    // Fewer events than a batch, on a thread that is still running, an hour before the
    // next timed flush: the guard takes them.
    drop(guard);
    closed.send(()).unwrap();
    worker.join().unwrap();
    let rows = read(dir.path());
    let i: Vec<Option<i64>> = rows
        .iter()
        .map(|r| r.fields.get("i").and_then(Variant::as_i64))
        .collect();
    assert_eq!(i, [Some(0), Some(1), Some(2)], "{rows:?}");
}

#[test]
fn finished_files_go_to_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let finished = std::sync::Arc::new(std::sync::Mutex::new(Vec::<PathBuf>::new()));
    let seen = finished.clone();
    let (layer, guard) = TracingLayer::builder(dir.path())
        .overflow(Overflow::Block)
        .roll_bytes(1)
        .on_finished(move |p| seen.lock().unwrap().push(p.to_path_buf()))
        .build()
        .unwrap();
    let subscriber = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));
    for i in 0..3 {
        tracing::info!(i, "event");
        guard.flush().unwrap();
    }
    drop(subscriber);
    drop(guard);
    let mut hooked = finished.lock().unwrap().clone();
    hooked.sort_by_key(|p| p.file_name().unwrap().to_owned());
    assert_eq!(hooked, common::final_log_files(dir.path()));
    assert!(!hooked.is_empty());
    assert_eq!(read(dir.path()).len(), 3);
}

/// Events of each level: `[INFO, WARN, ERROR]`.
type ByLevel = [u64; 3];

fn level_at(l: LogLevel) -> usize {
    match l {
        LogLevel::Warn => 1,
        LogLevel::Error => 2,
        _ => 0,
    }
}

/// What a burst left: events emitted and written by level, dropped counts in the rows and
/// in the `on_error` reports, the number of reports, and the time from the first event to
/// the files being closed.
struct Burst {
    emitted: ByLevel,
    written: ByLevel,
    dropped_rows: u64,
    dropped_reported: u64,
    reports: usize,
    elapsed: Duration,
}

/// 200,000 events from 4 threads, 88% INFO, 10% WARN, 2% ERROR, through a layer built by
/// `build` (given the folder and the `on_error` callback already set).
fn burst(
    build: impl FnOnce(
        parquet_serde::logs::TracingLayerBuilder,
    ) -> parquet_serde::logs::TracingLayerBuilder,
) -> Burst {
    use std::sync::{Arc, Mutex};
    const THREADS: u64 = 4;
    const PER_THREAD: u64 = 50_000;
    let dir = tempfile::tempdir().unwrap();
    let reports = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&reports);
    let builder = TracingLayer::builder(dir.path())
        .on_error(move |e| seen.lock().unwrap().push(e.to_string()));
    let (layer, guard) = build(builder).build().unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    let start = std::time::Instant::now();
    let emitted: Vec<ByLevel> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let dispatch = dispatch.clone();
                s.spawn(move || {
                    let mut n = [0u64; 3];
                    tracing::dispatcher::with_default(&dispatch, || {
                        for i in 0..PER_THREAD {
                            match i % 50 {
                                0 => {
                                    tracing::error!(t, i, route = "/checkout", "payment failed");
                                    n[2] += 1;
                                }
                                1..=5 => {
                                    tracing::warn!(t, i, latency_ms = 812.5, "slow request");
                                    n[1] += 1;
                                }
                                _ => {
                                    tracing::info!(t, i, status = 200u64, "request served");
                                    n[0] += 1;
                                }
                            }
                        }
                    });
                    n
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    drop(dispatch);
    drop(guard);
    let elapsed = start.elapsed();
    let rows = read(dir.path());
    let mut written = [0u64; 3];
    let mut dropped_rows = 0;
    for r in &rows {
        match r.dropped {
            Some(n) => {
                assert_eq!(
                    (r.level, r.target.as_str()),
                    (LogLevel::Warn, "parquet_serde::logs")
                );
                dropped_rows += n;
            }
            None => written[level_at(r.level)] += 1,
        }
    }
    let reports = reports.lock().unwrap();
    let mut dropped_reported = 0;
    for r in reports.iter() {
        let n = r
            .split(" events dropped since the last report")
            .next()
            .and_then(|head| head.rsplit(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("an on_error report that is not a count: {r}"));
        dropped_reported += n;
    }
    let mut total = [0u64; 3];
    for n in emitted {
        for l in 0..3 {
            total[l] += n[l];
        }
    }
    Burst {
        emitted: total,
        written,
        dropped_rows,
        dropped_reported,
        reports: reports.len(),
        elapsed,
    }
}

/// The assertions every burst must pass whatever the policy: no WARN or ERROR lost, and
/// every event either written or counted as dropped (in the rows and in the reports).
fn assert_no_warning_lost(b: &Burst, what: &str) {
    assert_eq!(b.emitted, [176_000, 20_000, 4_000], "{what}");
    assert_eq!(b.written[1], b.emitted[1], "{what}: WARN lost");
    assert_eq!(b.written[2], b.emitted[2], "{what}: ERROR lost");
    let written: u64 = b.written.iter().sum();
    assert_eq!(written + b.dropped_rows, 200_000, "{what}");
    assert_eq!(b.dropped_reported, b.dropped_rows, "{what}: reports");
    // At most one report a second, and a last one at close.
    assert!(
        b.reports as u64 <= b.elapsed.as_secs() + 2,
        "{what}: {} reports in {:?}",
        b.reports,
        b.elapsed
    );
    eprintln!(
        "{what}: {written} written, {} dropped (all INFO), {} reports, in {:.2?}",
        b.dropped_rows, b.reports, b.elapsed
    );
}

#[test]
fn a_burst_with_the_default_settings_loses_no_warning() {
    let b = burst(|l| l);
    assert_no_warning_lost(&b, "default settings");
}

#[test]
fn a_burst_into_a_small_room_drops_only_events_below_warn_and_counts_them() {
    // Room for one batch: the drop path runs.
    let b = burst(|l| l.capacity_bytes(1).flush_interval(Duration::from_millis(5)));
    assert_no_warning_lost(&b, "room of one batch");
    assert!(b.dropped_rows > 0, "the drop path never ran");
    assert!(b.reports > 0);
    // The same with a bound in events.
    let b = burst(|l| l.capacity(1));
    assert_no_warning_lost(&b, "room of 1 event (one batch)");
    assert!(b.dropped_rows > 0, "the drop path never ran");
}

#[test]
fn a_burst_with_block_writes_every_event() {
    let b = burst(|l| {
        l.overflow(Overflow::Block)
            .capacity_bytes(1)
            .flush_interval(Duration::from_millis(5))
    });
    assert_no_warning_lost(&b, "Block, room of one batch");
    assert_eq!(b.written, b.emitted);
    assert_eq!((b.dropped_rows, b.reports), (0, 0));
    let b = burst(|l| l.overflow(Overflow::Block));
    assert_no_warning_lost(&b, "Block, default room");
    assert_eq!(b.written, b.emitted);
}

/// Run by [`without_a_callback_nothing_is_printed`] in a child process: a burst into a room
/// of one batch, then a writer error, with no `on_error`.
#[test]
fn child_drops_and_fails_without_a_callback() {
    if std::env::var_os("PARQUET_SERDE_TRACING_CHILD").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (layer, guard) = TracingLayer::builder(dir.path())
        .capacity_bytes(1)
        .overflow(Overflow::Drop)
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        for i in 0..20_000u64 {
            tracing::info!(i, "event");
        }
    });
    drop(guard);
    // Drops are no errors: the counts are rows.
    let dropped: u64 = read(dir.path()).iter().filter_map(|r| r.dropped).sum();
    assert!(dropped > 0);

    let logs = dir.path().join("failing");
    let (guard, dispatch) = rolling_every_event(&logs);
    tracing::dispatcher::with_default(&dispatch, || {
        tracing::info!("first");
        guard.flush().unwrap();
        std::fs::remove_dir_all(&logs).unwrap();
        tracing::info!("second");
        let _ = guard.flush();
    });
    assert!(guard.errors() >= 1, "the writer failed");
    println!("CHILD DONE");
}

#[test]
fn without_a_callback_nothing_is_printed() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_drops_and_fails_without_a_callback",
            "--nocapture",
        ])
        .env("PARQUET_SERDE_TRACING_CHILD", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("CHILD DONE"), "{stdout}");
    assert!(!stderr.contains("parquet-serde"), "{stderr}");
    assert!(!stdout.contains("parquet-serde"), "{stdout}");
}

#[test]
fn without_a_callback_writer_errors_are_counted_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let (guard, dispatch) = rolling_every_event(&logs);
    tracing::dispatcher::with_default(&dispatch, || {
        tracing::info!("first");
        guard.flush().unwrap();
        assert_eq!(guard.errors(), 0);
        assert!(guard.take_last_error().is_none());
        // The folder goes away under the writer: finishing the file fails.
        std::fs::remove_dir_all(&logs).unwrap();
        tracing::info!("second");
        guard.flush().unwrap();
        assert!(guard.errors() >= 1);
        let e = guard.take_last_error().expect("the error is kept");
        assert!(e.to_string().contains("No such file"), "{e}");
        assert!(guard.take_last_error().is_none(), "taken");
        // The writer carries on: "third" makes the folder again, which goes away once more.
        tracing::info!("third");
        guard.flush().unwrap();
        let before = guard.errors();
        std::fs::remove_dir_all(&logs).unwrap();
        tracing::info!("fourth");
        guard.flush().unwrap();
        assert!(guard.errors() > before);
    });
    // The second failure was not taken: close gives it back, with the count.
    let e = guard.close().unwrap_err().to_string();
    assert!(e.contains("error(s); the last"), "{e}");
    assert!(e.contains("No such file"), "{e}");
}

/// A tracing layer over `logs` that rolls to a new file at every event and never drops one, and
/// the dispatch that logs through it.
fn rolling_every_event(
    logs: &std::path::Path,
) -> (parquet_serde::logs::TracingGuard, tracing::Dispatch) {
    let (layer, guard) = TracingLayer::builder(logs)
        .roll_bytes(1)
        .overflow(Overflow::Block)
        .build()
        .unwrap();
    (
        guard,
        tracing::Dispatch::new(tracing_subscriber::registry().with(layer)),
    )
}

/// The child of `the_cli_and_datasets_read_an_iceberg_layers_folder`: logs into an Iceberg
/// layer's folder, flushes, and exits without closing (what a crash leaves).
#[cfg(all(feature = "iceberg", feature = "cli"))]
#[test]
fn child_logs_into_an_iceberg_folder_and_exits() {
    let Some(dir) = std::env::var_os("PARQUET_SERDE_ICEBERG_CHILD") else {
        return;
    };
    let table = parquet_serde::iceberg::IcebergTable::open(&dir);
    let (layer, guard) = TracingLayer::builder(&dir).iceberg(table).build().unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        tracing::error!(status = 500u64, "request failed");
        tracing::info!("no fields");
    });
    guard.flush().unwrap();
    std::process::exit(0);
}

/// A folder the Iceberg layer left unfinished (its process gone): `parquet-serde recover`
/// makes its file final, `tail` prints its rows (the fields as their JSON text),
/// `Dataset::open` reads them, and the recovered file commits to the table.
#[cfg(all(feature = "iceberg", feature = "cli"))]
#[test]
fn the_cli_and_datasets_read_an_iceberg_layers_folder() {
    use parquet_serde::record::Value;
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_logs_into_an_iceberg_folder_and_exits",
            "--nocapture",
        ])
        .env("PARQUET_SERDE_ICEBERG_CHILD", dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The final `part-*.parquet` files under the folder (journals and metadata aside).
    let parts = || {
        common::files_below(dir.path())
            .iter()
            .filter(|p| common::is_final_log_file(p))
            .count()
    };
    assert_eq!(parts(), 0, "not final before recovery");
    let cli = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{args:?}: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let root = dir.path().to_str().unwrap();
    let recovered = cli(&["recover", root]);
    eprintln!("recover: {recovered}");
    assert_eq!(parts(), 1);
    let tail = cli(&[
        "tail",
        root,
        "--once",
        "-n",
        "5",
        "--columns",
        "message,fields,thread_id",
    ]);
    let lines: Vec<serde_json::Value> = tail
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{tail}");
    assert_eq!(lines[0]["message"], "request failed");
    assert_eq!(lines[0]["fields"], r#"{"status":500}"#, "{tail}");
    assert_eq!(lines[1]["fields"], "{}");
    let rows: Vec<Value> = parquet_serde::dataset::Dataset::open(dir.path())
        .unwrap()
        .read_all()
        .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0].get("fields"),
        Some(&Value::String(r#"{"status":500}"#.into()))
    );
    let table = parquet_serde::iceberg::IcebergTable::open(dir.path());
    let report = table.commit_folder().unwrap();
    assert_eq!(report.added, 1);
}

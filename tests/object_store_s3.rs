//! The object store path against a real S3 API: a moto server (`moto[server]` from
//! .ci/requirements.txt, run by the project's Python) on 127.0.0.1 at a free port, one per
//! test, killed at the end. A log file (200k rows by default, 1M with `--ignored`) is
//! written with a multipart upload and read back typed; a filtered read of 1% of the rows fetches under 5% of the object's bytes
//! (counted by an `ObjectStore` wrapper); an upload that fails half-way, or whose server
//! goes away half-way, leaves no object at its key. Issue 35's reads are counted on the
//! wire by an HTTP proxy (`CountingProxy`), and a write's peak RSS in a child process.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;
#[path = "../parquet-serde/tests/common/store.rs"]
mod store_support;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use object_store::path::Path;
use object_store::{BackoffConfig, ObjectStore, ObjectStoreExt, RetryConfig};
use parquet_serde::filter::col;
use parquet_serde::store::{StoreReader, StoreWriter, UploadOptions};
use parquet_serde::WriterOptions;

use common::logs::{flat_rows, LogFlat};
use store_support::CountingStore;

use common::moto::{http, s3_builder, Moto, BUCKET};

impl Moto {
    /// An S3 store of the bucket through `port` (the server's, or a proxy's), with short
    /// retries so that a server that went away fails the test quickly.
    fn store_at(port: u16) -> Arc<dyn ObjectStore> {
        let retry = RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: 1,
            retry_timeout: Duration::from_secs(5),
        };
        let s3 = s3_builder(port)
            .with_retry(retry)
            .build()
            .expect("S3 store");
        Arc::new(s3)
    }

    fn store(&self) -> Arc<dyn ObjectStore> {
        Moto::store_at(self.port)
    }

    /// The multipart uploads in progress in the bucket (as moto lists them).
    fn uploads_in_progress(&self) -> usize {
        let (status, body) = http(self.port, "GET", &format!("/{BUCKET}?uploads")).expect("list");
        assert_eq!(status, 200, "{body}");
        body.matches("<UploadId>").count()
    }
}

/// A TCP proxy in front of the server: stopping it is the server going away for the
/// client (connections cut, new ones refused) while the server keeps its state to check.
struct Proxy {
    port: u16,
    stopped: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(to: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("proxy port");
        let port = listener.local_addr().expect("address").port();
        let stopped = Arc::new(AtomicBool::new(false));
        let conns: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (stop, all) = (stopped.clone(), conns.clone());
        thread::spawn(move || {
            for client in listener.incoming() {
                if stop.load(Ordering::SeqCst) {
                    break; // the listener is dropped: connections are refused
                }
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", to)) else {
                    continue;
                };
                let mut held = all.lock().unwrap();
                for s in [&client, &server] {
                    held.push(s.try_clone().unwrap());
                }
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Write);
                    });
                }
            }
        });
        Proxy {
            port,
            stopped,
            conns,
        }
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wakes the accept loop
        for s in self.conns.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

/// Row groups of 100k rows, pages of at most 2,000 rows, dictionaries only for the
/// low-cardinality columns: the layout of a log file meant to be queried by time range
/// (`ts_micros` is sorted).
fn layout() -> WriterOptions {
    // Dictionary-then-PLAIN: the byte fractions and part counts of these tests were measured on that layout (the
    // default auto encoding makes these regular rows several times smaller, so the fixed
    // costs of footer and page index weigh more).
    WriterOptions::default()
        .auto_encoding(false)
        .row_group_rows(100_000)
        .page_row_limit(2_000)
        .dictionary(false)
        .column_dictionary("level", true)
        .column_dictionary("target", true)
        .column_dictionary("status", true)
}

fn exists(store: &Arc<dyn ObjectStore>, key: &str) -> bool {
    let rt = tokio::runtime::Runtime::new().unwrap();
    match rt.block_on(store.head(&Path::from(key))) {
        Ok(_) => true,
        Err(object_store::Error::NotFound { .. }) => false,
        Err(e) => panic!("head {key}: {e}"),
    }
}

/// Writes `n` log rows to the bucket with a multipart upload, reads them back typed, and
/// reads 1% of them (a time range) by a filter, which must fetch under 5% of the object.
fn round_trip_and_filter(n: usize) {
    let moto = Moto::start();
    let store = moto.store();
    let started = Instant::now();
    let rows = flat_rows(n);
    let generated = started.elapsed();

    let started = Instant::now();
    let part = UploadOptions::default().part_size(5 << 20);
    let mut writer =
        StoreWriter::with_upload_options(store.clone(), "day.parquet", layout(), part).unwrap();
    writer.write_all(&rows).unwrap();
    let parts = writer.parts_sent();
    writer.close().unwrap();
    let written = started.elapsed();
    assert!(
        parts >= 2,
        "a multipart upload ({parts} parts before the last)"
    );
    let size = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(store.head(&Path::from("day.parquet")))
        .unwrap()
        .size;

    let counting = Arc::new(CountingStore::new(store.clone()));
    let started = Instant::now();
    let back: Vec<LogFlat> = StoreReader::new(counting.clone(), "day.parquet")
        .read()
        .unwrap();
    let read = started.elapsed();
    assert!(back == rows, "rows read back differ");
    drop(back);
    println!(
        "{n} rows, {size} bytes: generated in {generated:?}, uploaded in {parts}+ parts in {written:?}, \
         read back in {read:?} ({} GETs, {} bytes)",
        counting.gets(),
        counting.get_bytes()
    );

    // 1% of the rows: a time range of consecutive rows, in the middle.
    counting.reset();
    let (from, to) = (rows[n / 2].ts_micros, rows[n / 2 + n / 100 - 1].ts_micros);
    let reader = StoreReader::new(counting.clone(), "day.parquet")
        .filter(col("ts_micros").between(from, to))
        .unwrap()
        .open::<LogFlat>()
        .unwrap();
    let got = reader.collect::<Result<Vec<_>, _>>().unwrap();
    let expected: Vec<&LogFlat> = rows
        .iter()
        .filter(|r| (from..=to).contains(&r.ts_micros))
        .collect();
    assert!(
        expected.len() >= n / 100,
        "{} rows in the range",
        expected.len()
    );
    assert!(got.iter().eq(expected), "filtered rows differ");
    let fraction = counting.get_bytes() as f64 / size as f64;
    println!(
        "filtered read of 1% of the rows: {} of {size} bytes ({:.2}%) in {} GETs",
        counting.get_bytes(),
        fraction * 100.0,
        counting.gets()
    );
    assert!(
        fraction < 0.05,
        "fetched {:.2}% of the object",
        fraction * 100.0
    );
}

#[test]
fn log_rows_round_trip_and_a_1_percent_filter_reads_under_5_percent() {
    round_trip_and_filter(200_000);
}

/// The full-size run: 1M rows take about 2 minutes in a debug build on a loaded 2-core
/// machine (generating and comparing the rows included); run with `--ignored`.
#[test]
#[ignore]
fn a_million_log_rows_round_trip_and_a_1_percent_filter_reads_under_5_percent() {
    round_trip_and_filter(1_000_000);
}

#[test]
fn an_upload_failing_half_way_leaves_no_object_and_no_upload() {
    let moto = Moto::start();
    let store = moto.store();
    let rows = flat_rows(150_000);
    let part = UploadOptions::default().part_size(5 << 20);
    let failing = Arc::new(CountingStore::failing_after(store.clone(), 1));
    let mut writer =
        StoreWriter::with_upload_options(failing.clone(), "broken.parquet", layout(), part)
            .unwrap();
    let result = writer
        .write_all(&rows)
        .and_then(|()| writer.close().map(|_| ()));
    let err = result.expect_err("the second part fails");
    assert!(err.to_string().contains("injected part failure"), "{err}");
    assert_eq!(failing.parts(), 1, "one part reached the server");
    assert!(!exists(&store, "broken.parquet"));
    // The writer aborted the upload: its part is gone from the server too.
    assert_eq!(moto.uploads_in_progress(), 0);
}

#[test]
fn an_upload_whose_server_goes_away_half_way_leaves_no_object() {
    let moto = Moto::start();
    let proxy = Proxy::start(moto.port);
    let rows = flat_rows(150_000);
    let part = UploadOptions::default().part_size(5 << 20);
    let mut writer =
        StoreWriter::with_upload_options(Moto::store_at(proxy.port), "cut.parquet", layout(), part)
            .unwrap();
    let mut chunks = rows.chunks(10_000);
    for chunk in chunks.by_ref() {
        writer.write_all(chunk).unwrap();
        if writer.parts_sent() >= 1 {
            break;
        }
    }
    assert!(writer.parts_sent() >= 1, "a part was sent before the cut");
    proxy.stop();
    let result = chunks
        .try_for_each(|chunk| writer.write_all(chunk))
        .and_then(|()| writer.close().map(|_| ()));
    assert!(
        result.is_err(),
        "the upload cannot complete without its server"
    );
    assert!(!exists(&moto.store(), "cut.parquet"));
}

#[test]
fn a_log_folder_ships_to_the_bucket_in_hive_layout() {
    use parquet_serde::logs::{LogWriter, TimePartition};
    use parquet_serde::store::Shipper;

    let moto = Moto::start();
    let store = moto.store();
    let dir = tempfile::tempdir().unwrap();
    let rows = flat_rows(150_000);
    let shipper = Shipper::builder(dir.path(), store.clone(), "app")
        .upload_options(UploadOptions::default().part_size(5 << 20))
        .start()
        .unwrap();
    let mut logs = LogWriter::<LogFlat>::builder(dir.path())
        .partition(TimePartition::Daily)
        .time_field(|r| r.ts_micros)
        .roll_rows(100_000)
        .options(layout())
        .on_finished(shipper.hook())
        .open()
        .unwrap();
    logs.write_all(&rows).unwrap();
    let files = logs.close().unwrap();
    let stats = shipper.close().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!((stats.uploaded, stats.failures), (2, 0));
    assert!(
        stats.bytes > 5 << 20,
        "the first file went as a multipart upload"
    );
    let mut back: Vec<LogFlat> = Vec::new();
    for f in &files {
        assert!(!f.exists(), "deleted locally once uploaded");
        let rel = f.strip_prefix(dir.path()).unwrap().to_str().unwrap();
        assert!(rel.starts_with("date=2023-11-14/part-"), "{rel}");
        let key = format!("app/{rel}");
        back.extend(
            StoreReader::new(store.clone(), key.as_str())
                .read::<LogFlat>()
                .unwrap(),
        );
    }
    assert!(
        back == rows,
        "the shipped files hold the rows written, in order"
    );
    assert_eq!(moto.uploads_in_progress(), 0);
}

// ---------------------------------------------------------------------------------------
// Bytes and requests on the wire: the reads of issue 35, counted by an HTTP proxy.

/// A TCP proxy in front of the server that counts what crosses it: the GET requests the
/// client sends (request lines starting `GET /`; only GETs carry no body) and the bytes
/// the server answers with (headers included), so that a read's cost is measured on the
/// wire, whatever the client library does.
struct CountingProxy {
    port: u16,
    gets: Arc<AtomicU64>,
    down: Arc<AtomicU64>,
}

impl CountingProxy {
    fn start(to: u16) -> CountingProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("proxy port");
        let port = listener.local_addr().expect("address").port();
        let (gets, down) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let (g, d) = (gets.clone(), down.clone());
        thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", to)) else {
                    continue;
                };
                let (mut c_in, mut s_out) =
                    (client.try_clone().unwrap(), server.try_clone().unwrap());
                let g = g.clone();
                thread::spawn(move || {
                    // Client to server: count request lines (a window of the last bytes
                    // catches one split across reads).
                    let mut buf = vec![0u8; 64 << 10];
                    let mut carry: Vec<u8> = Vec::new();
                    loop {
                        let n = match c_in.read(&mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(n) => n,
                        };
                        carry.extend_from_slice(&buf[..n]);
                        let hits = carry.windows(5).filter(|w| w == b"GET /").count();
                        g.fetch_add(hits as u64, Ordering::SeqCst);
                        let keep = carry.len().saturating_sub(4);
                        carry.drain(..keep);
                        if s_out.write_all(&buf[..n]).is_err() {
                            break;
                        }
                    }
                    let _ = s_out.shutdown(Shutdown::Write);
                });
                let (mut s_in, mut c_out) = (server, client);
                let d = d.clone();
                thread::spawn(move || {
                    let mut buf = vec![0u8; 64 << 10];
                    loop {
                        let n = match s_in.read(&mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(n) => n,
                        };
                        d.fetch_add(n as u64, Ordering::SeqCst);
                        if c_out.write_all(&buf[..n]).is_err() {
                            break;
                        }
                    }
                    let _ = c_out.shutdown(Shutdown::Write);
                });
            }
        });
        CountingProxy { port, gets, down }
    }

    fn reset(&self) {
        self.gets.store(0, Ordering::SeqCst);
        self.down.store(0, Ordering::SeqCst);
    }

    /// GET requests and bytes received since the last reset.
    fn counts(&self) -> (u64, u64) {
        (
            self.gets.load(Ordering::SeqCst),
            self.down.load(Ordering::SeqCst),
        )
    }
}

/// Log row `i` of a day (timestamps rising), its level chosen by `level`.
fn log_row(r: &mut common::logs::Rng, ts: &mut i64, level: &str) -> LogFlat {
    *ts += 1 + r.below(1000) as i64;
    LogFlat {
        ts_micros: *ts,
        level: level.to_string(),
        target: format!("app::module{}::sub{}", r.below(10), r.below(5)),
        message: common::logs::message(r),
        latency_ms: r.below(1_000_000) as f64 / 1000.0,
        status: [200, 200, 201, 404, 500][r.below(5) as usize],
        user_id: (r.below(10) >= 3).then(|| r.below(100_000) as i64),
        request_id: format!("{:016x}", r.next()),
    }
}

/// How ERROR rows (1% of them) lie among the others (TRACE, DEBUG, INFO, WARN at random:
/// DEBUG sorts before ERROR and the others after, so no page's min/max leaves it out).
#[derive(Clone, Copy)]
enum Errors {
    /// In 10 bursts of n/1000 consecutive rows.
    Clustered,
    /// Every 100th row.
    Spread,
}

/// `n` log rows, generated in chunks of at most 10,000 (so that a writer of a million
/// rows holds only a chunk), handed to `each`.
fn log_rows(n: usize, errors: Errors, mut each: impl FnMut(&[LogFlat])) {
    let mut r = common::logs::Rng::new(35);
    let mut ts = 1_700_000_000_000_000i64;
    let burst = (n / 1000).max(1);
    let is_error = |i: usize| match errors {
        Errors::Spread => i % 100 == 50,
        Errors::Clustered => (i % (n / 10).max(1)) < burst,
    };
    let mut chunk = Vec::with_capacity(10_000);
    for i in 0..n {
        let level = match is_error(i) {
            true => "ERROR",
            false => common::logs::LEVELS[r.below(4) as usize],
        };
        chunk.push(log_row(&mut r, &mut ts, level));
        if chunk.len() == 10_000 {
            each(&chunk);
            chunk.clear();
        }
    }
    if !chunk.is_empty() {
        each(&chunk);
    }
}

/// Writes `n` rows with default options; the rows, and the parts sent before `close`.
fn write_default(
    store: &Arc<dyn ObjectStore>,
    key: &str,
    n: usize,
    errors: Errors,
) -> (Vec<LogFlat>, usize) {
    let mut writer = StoreWriter::new(store.clone(), key, WriterOptions::default()).unwrap();
    let mut rows = Vec::with_capacity(n);
    log_rows(n, errors, |chunk| {
        writer.write_all(chunk).unwrap();
        rows.extend_from_slice(chunk);
    });
    let parts = writer.parts_sent();
    writer.close().unwrap();
    (rows, parts)
}

fn object_size(store: &Arc<dyn ObjectStore>, key: &str) -> u64 {
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(store.head(&Path::from(key)))
        .unwrap()
        .size
}

/// The reads of issue 35 on `n` rows written with default options, counted on the wire:
/// 1% time windows at the positions `windows` (tenths of the object; each under 5% of the
/// bytes, at most 10 requests), and `level = 'ERROR'` over 1% of the rows in 10 bursts
/// (under 10%), and with `spread`, the same rows spread evenly (reported).
fn reads_on_the_wire(n: usize, windows: &[usize], spread: bool) {
    let moto = Moto::start();
    let proxy = CountingProxy::start(moto.port);
    let store = Moto::store_at(proxy.port);

    let (rows, parts) = write_default(&store, "day.parquet", n, Errors::Clustered);
    let size = object_size(&store, "day.parquet");
    println!("{n} rows with default options: {size} bytes, {parts} part(s) sent before close");
    let mut worst = (0.0f64, 0u64);
    for &k in windows {
        let first = k * n / 10 - n / 200;
        let (from, to) = (rows[first].ts_micros, rows[first + n / 100 - 1].ts_micros);
        proxy.reset();
        let got: Vec<LogFlat> = StoreReader::new(store.clone(), "day.parquet")
            .filter(col("ts_micros").between(from, to))
            .unwrap()
            .read()
            .unwrap();
        let (gets, bytes) = proxy.counts();
        assert!(
            got == rows[first..first + n / 100],
            "window {k}: rows differ"
        );
        let fraction = bytes as f64 / size as f64;
        println!(
            "1% window at {}0%: {bytes} of {size} bytes on the wire ({:.2}%) in {gets} GETs",
            k,
            fraction * 100.0
        );
        assert!(
            fraction < 0.05,
            "window {k}: {:.2}% of the object",
            fraction * 100.0
        );
        assert!(gets <= 10, "window {k}: {gets} GETs");
        worst = (worst.0.max(fraction), worst.1.max(gets));
    }
    println!(
        "worst window: {:.2}% of the bytes, {} GETs",
        worst.0 * 100.0,
        worst.1
    );

    let mut cases = vec![(Errors::Clustered, "day.parquet")];
    if spread {
        cases.push((Errors::Spread, "spread.parquet"));
    }
    for (errors, key) in cases {
        let (rows, size) = match errors {
            Errors::Clustered => (rows.clone(), size),
            Errors::Spread => {
                let (rows, _) = write_default(&store, key, n, errors);
                (rows, object_size(&store, key))
            }
        };
        proxy.reset();
        let got: Vec<LogFlat> = StoreReader::new(store.clone(), key)
            .filter(col("level").eq("ERROR"))
            .unwrap()
            .read()
            .unwrap();
        let (gets, bytes) = proxy.counts();
        let expected: Vec<&LogFlat> = rows.iter().filter(|r| r.level == "ERROR").collect();
        assert_eq!(expected.len(), n / 100);
        assert!(got.iter().eq(expected), "ERROR rows differ");
        let fraction = bytes as f64 / size as f64;
        let how = match errors {
            Errors::Clustered => "in 10 bursts",
            Errors::Spread => "spread evenly",
        };
        println!(
            "level = 'ERROR' over 1% of the rows {how}: {bytes} of {size} bytes ({:.2}%) in {gets} GETs",
            fraction * 100.0
        );
        // Issue 35 asks under 10% (6.8% with pages of 2,500 rows: each of the 10 bursts
        // on one or two of them per column; 11.2% with pages of 5,000).
        if let Errors::Clustered = errors {
            assert!(
                fraction < 0.10,
                "ERROR bursts: {:.2}% of the object",
                fraction * 100.0
            );
        }
    }
}

/// A million rows (the object of issue 35: with fewer, a 1% window is a fraction of a
/// default page), three windows and the clustered ERROR rows: about a minute in a debug
/// build on a busy machine.
#[test]
fn reads_fetch_what_they_need_on_the_wire() {
    reads_on_the_wire(1_000_000, &[2, 5, 8], false);
}

/// The figures of issue 35: nine windows, and the ERROR rows spread evenly too; run with
/// `--ignored`.
#[test]
#[ignore]
fn a_million_rows_read_on_the_wire() {
    reads_on_the_wire(1_000_000, &[1, 2, 3, 4, 5, 6, 7, 8, 9], true);
}

/// The child of [`a_write_streams_parts_in_bounded_memory`]: writes the rows the
/// environment says to the server it names, with default options, and prints the parts
/// sent before `close` and its peak RSS. Does nothing when run on its own.
#[test]
#[ignore]
fn store_writer_child() {
    let (Ok(port), Ok(n)) = (
        std::env::var("STORE_WRITER_CHILD_PORT"),
        std::env::var("STORE_WRITER_CHILD_ROWS"),
    ) else {
        return;
    };
    let store = Moto::store_at(port.parse().unwrap());
    let n: usize = n.parse().unwrap();
    let mut writer = StoreWriter::new(store, "big.parquet", WriterOptions::default()).unwrap();
    log_rows(n, Errors::Spread, |chunk| writer.write_all(chunk).unwrap());
    let parts = writer.parts_sent();
    let groups = writer.close().unwrap().num_row_groups();
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let hwm = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap();
    println!("CHILD parts_before_close={parts} row_groups={groups} peak_rss_kib={hwm}");
}

/// A write with default options, in a child process: parts go out before `close`, and
/// the process's peak RSS stays under 64 MiB plus two parts.
fn write_in_a_child(n: usize) {
    let moto = Moto::start();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "store_writer_child",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("STORE_WRITER_CHILD_PORT", moto.port.to_string())
        .env("STORE_WRITER_CHILD_ROWS", n.to_string())
        .output()
        .expect("run the child");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find_map(|l| l.find("CHILD ").map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("no report from the child: {text}"));
    let field = |name: &str| -> u64 {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    let (parts, groups, rss) = (
        field("parts_before_close"),
        field("row_groups"),
        field("peak_rss_kib"),
    );
    let size = object_size(&moto.store(), "big.parquet");
    println!(
        "{n} rows written with default options ({size} bytes, {groups} row groups): \
         {parts} parts sent before close, peak RSS {:.1} MiB",
        rss as f64 / 1024.0
    );
    assert!(parts >= 1, "parts are sent before close");
    let part = UploadOptions::default().get_part_size() as u64;
    assert!(
        rss * 1024 < (64 << 20) + 2 * part,
        "peak RSS {} KiB over 64 MiB plus two parts",
        rss
    );
}

#[test]
fn a_write_streams_parts_in_bounded_memory() {
    write_in_a_child(400_000);
}

/// The figures of issue 35 (a million rows); run with `--ignored`.
#[test]
#[ignore]
fn a_million_row_write_streams_parts_in_bounded_memory() {
    write_in_a_child(1_000_000);
}

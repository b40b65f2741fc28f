//! `cat DIR|GLOB --where` and `tail DIR` on datasets this test writes into hive folders.

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use parquet_serde::ParquetSchema;
use serde::Serialize;

#[derive(Serialize, ParquetSchema)]
struct Log {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: String,
    target: String,
}

/// 2026-11-24T00:00:00Z in microseconds.
const DAY: i64 = 1_795_478_400_000_000;
const HOUR: i64 = 3_600_000_000;

fn write(root: &Path, rel: &str, rows: &[(i64, &str)]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let rows: Vec<Log> = rows
        .iter()
        .map(|&(ts, level)| Log {
            ts,
            level: level.into(),
            target: "db".into(),
        })
        .collect();
    parquet_serde::to_path(path, &rows).unwrap();
}

/// Hours 9 and 13 of 2026-11-24, two rows each.
fn dataset() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(
        r,
        "date=2026-11-24/hour=13/part-1.parquet",
        &[(DAY + 13 * HOUR, "ERROR"), (DAY + 13 * HOUR + 1, "INFO")],
    );
    write(
        r,
        "date=2026-11-24/hour=9/part-1.parquet",
        &[(DAY + 9 * HOUR, "ERROR"), (DAY + 9 * HOUR + 1, "INFO")],
    );
    std::fs::write(
        r.join("date=2026-11-24/hour=13/_part-2.parquet"),
        b"in progress",
    )
    .unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

#[test]
fn cat_a_folder_in_time_order_with_partitions() {
    let dir = dataset();
    let out = run(&[
        "cat",
        dir.path().to_str().unwrap(),
        "--columns",
        "level,hour",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"level\":\"ERROR\",\"hour\":9}\n{\"level\":\"INFO\",\"hour\":9}\n\
         {\"level\":\"ERROR\",\"hour\":13}\n{\"level\":\"INFO\",\"hour\":13}\n"
    );
    let out = run(&["cat", dir.path().to_str().unwrap(), "--limit", "1"]);
    assert_eq!(
        text(&out.stdout),
        "{\"ts\":\"2026-11-24T09:00:00.000000Z\",\"level\":\"ERROR\",\"target\":\"db\",\
         \"date\":\"2026-11-24\",\"hour\":9}\n"
    );
}

#[test]
fn cat_where_and_globs() {
    let dir = dataset();
    let d = dir.path().to_str().unwrap();
    let out = run(&[
        "cat",
        d,
        "--columns",
        "ts",
        "--where",
        "level = 'ERROR' and ts >= '2026-11-24T13:00:00Z'",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"ts\":\"2026-11-24T13:00:00.000000Z\"}\n"
    );
    let out = run(&[
        "cat",
        d,
        "--columns",
        "ts",
        "--where",
        "hour < 10 and not level = 'ERROR'",
    ]);
    assert_eq!(
        text(&out.stdout),
        "{\"ts\":\"2026-11-24T09:00:00.000001Z\"}\n"
    );
    let pattern = format!("{d}/**/hour=1*/*.parquet");
    let out = run(&["cat", &pattern, "--columns", "hour"]);
    assert_eq!(text(&out.stdout), "{\"hour\":13}\n{\"hour\":13}\n");
    // One file, with --where.
    let file = format!("{d}/date=2026-11-24/hour=9/part-1.parquet");
    let out = run(&[
        "cat",
        &file,
        "--columns",
        "level",
        "--where",
        "level in ('INFO')",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"level\":\"INFO\"}\n");
}

#[test]
fn cat_bad_where_is_a_usage_error_with_the_position() {
    let dir = dataset();
    let out = run(&[
        "cat",
        dir.path().to_str().unwrap(),
        "--where",
        "level = 'ERROR' andd x = 1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("at character 17"), "{err}");
    // A literal that does not fit a partition key.
    let out = run(&[
        "cat",
        dir.path().to_str().unwrap(),
        "--where",
        "date = 'today'",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("\"date\""));
}

#[test]
fn cat_a_folder_with_a_corrupt_file_prints_the_rest_and_fails() {
    let dir = dataset();
    std::fs::write(
        dir.path().join("date=2026-11-24/hour=13/part-0.parquet"),
        b"PAR1 broken",
    )
    .unwrap();
    let out = run(&["cat", dir.path().to_str().unwrap(), "--columns", "level"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout).lines().count(), 4);
    let err = text(&out.stderr);
    assert!(err.contains("hour=13/part-0.parquet"), "{err}");
    assert!(err.contains("1 error(s)"), "{err}");
}

#[test]
fn tail_once_prints_the_last_rows() {
    let dir = dataset();
    let out = run(&[
        "tail",
        dir.path().to_str().unwrap(),
        "--once",
        "-n",
        "3",
        "--columns",
        "level,hour",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"level\":\"INFO\",\"hour\":9}\n{\"level\":\"ERROR\",\"hour\":13}\n{\"level\":\"INFO\",\"hour\":13}\n"
    );
}

#[test]
fn tail_follows_files_as_they_become_final() {
    let dir = dataset();
    let root = dir.path().to_path_buf();
    let child = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args([
            "tail",
            root.to_str().unwrap(),
            "-n",
            "0",
            "--interval",
            "0.1",
            "--timeout",
            "3",
            "--columns",
            "ts,hour",
            "--where",
            "level = 'ERROR'",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    // Written under an in-progress name, then renamed: read once final.
    write(
        &root,
        "date=2026-11-24/hour=14/_part-1.parquet",
        &[(DAY + 14 * HOUR, "ERROR"), (DAY + 14 * HOUR + 5, "INFO")],
    );
    std::thread::sleep(Duration::from_millis(400));
    std::fs::rename(
        root.join("date=2026-11-24/hour=14/_part-1.parquet"),
        root.join("date=2026-11-24/hour=14/part-1.parquet"),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"ts\":\"2026-11-24T14:00:00.000000Z\",\"hour\":14}\n"
    );
}

#[test]
fn tail_prints_rows_as_a_log_writer_flushes_them_and_each_once() {
    use parquet_serde::logs::{LogWriter, TimePartition};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let mut logs = LogWriter::<Log>::builder(&root)
        .partition(TimePartition::Hourly)
        .time_field(|l| l.ts)
        .open()
        .unwrap();
    let log = |i: i64| Log {
        ts: DAY + 13 * HOUR + i,
        level: if i % 2 == 0 { "ERROR" } else { "INFO" }.into(),
        target: "db".into(),
    };
    logs.write(&log(0)).unwrap();
    logs.flush().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args([
            "tail",
            root.to_str().unwrap(),
            "-n",
            "5",
            "--interval",
            "0.1",
            "--timeout",
            "6",
            "--columns",
            "ts,level,hour",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The lines printed so far, collected as they come.
    let printed = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let reader = {
        let printed = printed.clone();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                printed.lock().unwrap().push(line.unwrap());
            }
        })
    };
    let want: Vec<String> = (0..7)
        .map(|i| {
            format!(
                "{{\"ts\":\"2026-11-24T13:00:00.00000{i}Z\",\"level\":\"{}\",\"hour\":13}}",
                if i % 2 == 0 { "ERROR" } else { "INFO" }
            )
        })
        .collect();
    let wait_for = |n: usize| {
        let start = std::time::Instant::now();
        while printed.lock().unwrap().len() < n && start.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(20));
        }
        // Nothing more than the flushed rows comes meanwhile.
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(*printed.lock().unwrap(), want[..n]);
    };
    // The flushed row of the file being written, at start.
    wait_for(1);
    for i in 1..4 {
        logs.write(&log(i)).unwrap();
    }
    logs.flush().unwrap();
    wait_for(4);
    // Written but not flushed: not printed until a flush or the file is final.
    logs.write(&log(4)).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(printed.lock().unwrap().len(), 4);
    logs.write(&log(5)).unwrap();
    logs.flush().unwrap();
    wait_for(6);
    logs.write(&log(6)).unwrap();
    logs.close().unwrap();
    wait_for(7);
    let out = child.wait_with_output().unwrap();
    reader.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(*printed.lock().unwrap(), want);
}

#[test]
fn a_folder_given_to_a_one_file_command_says_which_commands_read_folders() {
    let dir = dataset();
    for command in ["meta", "schema", "check", "pages"] {
        let out = run(&[command, dir.path().to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = text(&out.stderr);
        assert!(err.contains("is a folder"), "{command}: {err}");
        assert!(err.contains("`cat` and `tail` read"), "{command}: {err}");
        assert!(!err.contains("os error"), "{command}: {err}");
    }
}

#[test]
fn tail_over_a_folder_with_a_corrupt_file_names_it() {
    let dir = dataset();
    std::fs::write(
        dir.path().join("date=2026-11-24/hour=13/part-0.parquet"),
        b"PAR1 broken",
    )
    .unwrap();
    let out = run(&["tail", dir.path().to_str().unwrap(), "--once", "-n", "100"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("hour=13/part-0.parquet`"), "{err}");
    assert!(err.contains("1 error(s)"), "{err}");
}

//! `parquet-serde recover DIR|FILE` on folders a log writer left unfinished.

use std::path::Path;
use std::process::{Command, Output};

use parquet_serde::logs::LogWriter;
use parquet_serde::{ParquetSchema, WriterOptions};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Row {
    seq: u64,
    message: String,
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args(args)
        .output()
        .unwrap()
}

/// A folder with one file abandoned after `flushed` of its rows were flushed, named after
/// a process that is gone.
fn abandoned(dir: &Path, flushed: u64) {
    let mut logs = LogWriter::<Row>::builder(dir)
        .options(WriterOptions::default().row_group_rows(5))
        .open()
        .unwrap();
    for seq in 0..flushed + 3 {
        logs.write(&Row {
            seq,
            message: format!("m{seq}"),
        })
        .unwrap();
        if seq + 1 == flushed {
            logs.flush().unwrap();
        }
    }
    drop(logs);
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let renamed = name.replace(&format!("-{}-", std::process::id()), "-0-");
        std::fs::rename(&p, dir.join(renamed)).unwrap();
    }
}

#[test]
fn recover_a_folder_and_a_file() {
    let dir = tempfile::tempdir().unwrap();
    abandoned(dir.path(), 12);
    let out = run(&["recover", dir.path().to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("1 files recovered (12 rows), 0 removed"),
        "{stdout}"
    );
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let rows: Vec<Row> = parquet_serde::from_path(&files[0]).unwrap();
    assert_eq!(
        rows.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (0..12).collect::<Vec<_>>()
    );

    let dir = tempfile::tempdir().unwrap();
    abandoned(dir.path(), 4);
    let journal = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".journal"))
        .unwrap();
    let out = run(&["recover", journal.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.starts_with("recovered "), "{stdout}");
}

#[test]
fn a_corrupt_journal_fails_with_a_message_and_keeps_its_files() {
    let dir = tempfile::tempdir().unwrap();
    abandoned(dir.path(), 4);
    let journal = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".journal"))
        .unwrap();
    // A whole frame of garbage in place of the header: the CRC passes, the magic does not.
    let payload = b"\x01NOTAJOURNAL";
    let mut bytes = (payload.len() as u32).to_le_bytes().to_vec();
    bytes.extend_from_slice(&crc32fast_hash(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    std::fs::write(&journal, bytes).unwrap();
    let out = run(&["recover", dir.path().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bad magic"), "{stderr}");
    assert!(journal.exists());
    let out = run(&[
        "recover",
        dir.path().join("nothing.parquet").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
}

/// CRC-32 (IEEE), as the journal frames use.
fn crc32fast_hash(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The `seq` of each JSON line.
fn seqs(stdout: &[u8]) -> Vec<u64> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["seq"].as_u64().unwrap()
        })
        .collect()
}

#[test]
fn tail_does_what_its_help_says_with_a_file_a_crash_left() {
    let help = run(&["tail", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("A log file whose writer crashed counts as one still being written: its flushed rows (those `recover` keeps) are printed"),
        "{help}"
    );
    assert!(help.contains("--final-only"), "{help}");

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    abandoned(dir.path(), 4);
    // The crashed file is not final: its flushed rows, and only those, are printed.
    let out = run(&["tail", d, "--once", "-n", "100"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(seqs(&out.stdout), [0, 1, 2, 3]);
    // --final-only: nothing is final yet.
    let out = run(&["tail", d, "--once", "-n", "100", "--final-only"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(seqs(&out.stdout), Vec::<u64>::new());
    // Once recovered, the file is final: the same rows, either way.
    assert!(run(&["recover", d]).status.success());
    for extra in [&[][..], &["--final-only"][..]] {
        let mut args = vec!["tail", d, "--once", "-n", "100"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(seqs(&out.stdout), [0, 1, 2, 3], "{extra:?}");
    }
}

//! The hand-off protocol of the pipelined read under failures: a failure injected at every
//! run of every column (an error, an unchecked early end, a run sent twice, a panic), with
//! one to four helpers, ends the read (with an error, or the rows when the fault changed
//! nothing) within a time bound: no waiter is left waiting.

use super::*;

use crate::core::column::ColumnBatch;
use crate::core::file::{FileWriter, ReadOptions, WriterOptions};
use crate::core::values::{ByteArrays, ColumnValues};
use crate::exec::tests::within;
use crate::value::Value;

const SCHEMA: &str = "message m {
  required int64 id;
  optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
  optional group nested (LIST) {
    repeated group list {
      optional group element (LIST) { repeated group list { optional int32 element; } }
    }
  }
  optional double score;
}";

const ROW_GROUPS: usize = 2;
const ROWS: usize = 90;

/// Pseudo-random shape of row `r`'s lists: `None`, empty, or up to 3 items.
fn len_of(r: usize, salt: usize) -> Option<usize> {
    match (r * 7 + salt * 13) % 6 {
        0 => None,
        1 => Some(0),
        n => Some(n - 2),
    }
}

/// The four columns of rows `first..first + ROWS`, with their levels.
fn group(first: usize) -> Vec<ColumnBatch> {
    let mut ids = Vec::new();
    let (mut tags, mut tag_def, mut tag_rep) = (ByteArrays::new(), Vec::new(), Vec::new());
    let (mut ints, mut n_def, mut n_rep) = (Vec::new(), Vec::new(), Vec::new());
    let (mut scores, mut s_def) = (Vec::new(), Vec::new());
    for r in first..first + ROWS {
        ids.push(r as i64);
        match len_of(r, 1) {
            None => (tag_def.push(0), tag_rep.push(0)).1,
            Some(0) => (tag_def.push(1), tag_rep.push(0)).1,
            Some(n) => {
                for i in 0..n {
                    tag_rep.push(i16::from(i > 0));
                    if (r + i) % 4 == 0 {
                        tag_def.push(2);
                    } else {
                        tag_def.push(3);
                        tags.push(format!("tag {r}.{i}").as_bytes());
                    }
                }
            }
        }
        match len_of(r, 2) {
            None => (n_def.push(0), n_rep.push(0)).1,
            Some(0) => (n_def.push(1), n_rep.push(0)).1,
            Some(n) => {
                for i in 0..n {
                    let outer = i16::from(i > 0);
                    match len_of(r + i, 3) {
                        None => (n_def.push(2), n_rep.push(outer)).1,
                        Some(0) => (n_def.push(3), n_rep.push(outer)).1,
                        Some(m) => {
                            for j in 0..m {
                                n_rep.push(if j == 0 { outer } else { 2 });
                                if (r + i + j) % 5 == 0 {
                                    n_def.push(4);
                                } else {
                                    n_def.push(5);
                                    ints.push((r * 10 + i * 3 + j) as i32);
                                }
                            }
                        }
                    }
                }
            }
        }
        if r % 3 == 0 {
            s_def.push(0);
        } else {
            s_def.push(1);
            scores.push(r as f64 / 4.0);
        }
    }
    vec![
        ColumnBatch {
            values: ColumnValues::Int64(ids),
            def_levels: vec![],
            rep_levels: vec![],
        },
        ColumnBatch {
            values: ColumnValues::ByteArray(tags),
            def_levels: tag_def,
            rep_levels: tag_rep,
        },
        ColumnBatch {
            values: ColumnValues::Int32(ints),
            def_levels: n_def,
            rep_levels: n_rep,
        },
        ColumnBatch {
            values: ColumnValues::Double(scores),
            def_levels: s_def,
            rep_levels: vec![],
        },
    ]
}

/// A file of [`ROW_GROUPS`] row groups whose columns have several pages each.
fn file() -> Vec<u8> {
    let options = WriterOptions::default().page_row_limit(20);
    let mut w = FileWriter::new(Vec::new(), SCHEMA.parse().unwrap(), options).unwrap();
    for g in 0..ROW_GROUPS {
        let mut chunks = Vec::new();
        for (c, b) in group(g * ROWS).iter().enumerate() {
            let mut cw = w.column_writer(c).unwrap();
            cw.write(b).unwrap();
            chunks.push(cw.close().unwrap());
        }
        w.write_row_group(chunks).unwrap();
    }
    w.close().unwrap().0
}

/// Every row of `bytes` through the pipelined read with `threads` threads and `fault`.
fn read(bytes: &[u8], threads: usize, fault: Option<Fault>) -> Result<Vec<Value>> {
    let file = FileReader::with_options(bytes, ReadOptions::default())?;
    let mut asm = Assembly::new::<Value, &str>(file.schema(), &[])?;
    let mut out = Vec::new();
    collect_with(&file, &mut asm, threads, &mut out, fault)?;
    Ok(out)
}

/// Keeps the injected panics quiet (other panics still print).
fn quiet_injected_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<&str>() != Some(&"injected panic") {
                previous(info);
            }
        }));
    });
}

const KINDS: [FaultKind; 5] = [
    FaultKind::Error,
    FaultKind::EarlyEnd,
    FaultKind::Extra,
    FaultKind::Panic,
    FaultKind::Overcount,
];

#[test]
fn every_fault_at_every_run_of_every_column_ends_the_read() {
    quiet_injected_panics();
    let bytes = std::sync::Arc::new(file());
    let clean = read(&bytes, 2, None).unwrap();
    assert_eq!(clean.len(), ROW_GROUPS * ROWS);
    // The runs of each lane: an error injected past the last one changes nothing.
    let lane_runs: Vec<usize> = (0..4)
        .map(|slot| {
            (0..1000)
                .find(|&at| {
                    let fault = Fault {
                        slot,
                        at,
                        kind: FaultKind::Error,
                    };
                    read(&bytes, 2, Some(fault)).is_ok()
                })
                .unwrap()
        })
        .collect();
    for &n in &lane_runs {
        // Several pages and an End per row group.
        assert!(n >= ROW_GROUPS * 3, "{lane_runs:?}");
    }
    let mut changed = [0usize; KINDS.len()];
    for threads in [2, 3, 5] {
        for (slot, &runs) in lane_runs.iter().enumerate() {
            for at in 0..=runs {
                for (k, kind) in KINDS.into_iter().enumerate() {
                    let fault = Fault { slot, at, kind };
                    let b = std::sync::Arc::clone(&bytes);
                    match within(30, move || read(&b, threads, Some(fault))) {
                        Err(_) => changed[k] += 1,
                        Ok(rows) => {
                            // An end where the chunk ends anyway, a copy of nothing, or a
                            // fault past the last run: nothing changed.
                            assert!(
                                at == runs
                                    || matches!(
                                        kind,
                                        FaultKind::EarlyEnd
                                            | FaultKind::Extra
                                            | FaultKind::Overcount
                                    ),
                                "{fault:?} with {threads} threads read rows"
                            );
                            assert!(rows == clean, "{fault:?}: other rows than a clean read");
                        }
                    }
                }
            }
        }
    }
    // Every error and panic before a lane's end fails the read; an early end or an extra
    // run fails it wherever it is not the chunk's End.
    let positions: usize = 3 * lane_runs.iter().sum::<usize>();
    assert_eq!(changed[0], positions);
    assert_eq!(changed[3], positions);
    let ends = 3 * 4 * ROW_GROUPS;
    assert_eq!(changed[1], positions - ends, "early ends");
    assert_eq!(changed[2], positions - ends, "extra runs");
    // A miscounted run puts its column off: the reader waits on it while its helper waits
    // for room in another column. The hand-off finds that (or the count overflows).
    assert!(changed[4] > 0, "miscounted runs");
}

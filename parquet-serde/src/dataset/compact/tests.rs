//! Compaction, checked from inside the crate: verbatim copies byte for byte, merges, schema
//! runs, refusals, the table seam, and a failure injected between every two steps.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::core::bloom::BloomFilterOptions;
use crate::core::file::{FileReader, WriterOptions};
use crate::dataset::Dataset;
use crate::error::{Error, ErrorKind};
use crate::ParquetSchema;

use super::{compact_files, compact_files_with, CompactOptions, Inputs, Step};

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[parquet(crate = "crate")]
struct Line {
    ts: i64,
    level: String,
    message: String,
}

fn lines(from: i64, n: i64) -> Vec<Line> {
    (from..from + n)
        .map(|i| Line {
            ts: i,
            level: ["INFO", "WARN", "ERROR"][(i % 3) as usize].to_string(),
            message: format!("request {} handled in {} ms", i * 7919 % 10007, i % 97),
        })
        .collect()
}

/// `files` files of `rows` rows each in `date=D` folders, round robin over `partitions`;
/// returns every row written.
fn write_folder(
    dir: &Path,
    partitions: usize,
    files: usize,
    rows: i64,
    options: &WriterOptions,
) -> Vec<Line> {
    let mut all = Vec::new();
    for f in 0..files {
        let folder = dir.join(format!("date=2026-11-{:02}", 1 + f % partitions));
        std::fs::create_dir_all(&folder).unwrap();
        let batch = lines(f as i64 * rows, rows);
        let path = folder.join(format!("part-{f:04}.parquet"));
        crate::to_path_with(&path, &batch, options.clone()).unwrap();
        all.extend(batch);
    }
    all.sort();
    all
}

fn read_sorted(dir: &Path) -> Vec<Line> {
    let mut rows: Vec<Line> = Dataset::open(dir).unwrap().read_all().unwrap();
    rows.sort();
    rows
}

fn parquet_files(dir: &Path) -> Vec<PathBuf> {
    Dataset::open(dir)
        .unwrap()
        .files()
        .iter()
        .map(|f| f.path().to_path_buf())
        .collect()
}

#[test]
fn small_row_groups_are_merged_into_one_per_output() {
    let dir = tempfile::tempdir().unwrap();
    let before = write_folder(dir.path(), 2, 20, 50, &WriterOptions::default());
    let report = Dataset::open(dir.path())
        .unwrap()
        .compact(&CompactOptions::default())
        .unwrap();
    assert_eq!(report.inputs, 20);
    assert_eq!(report.inputs_removed, 20);
    assert_eq!(report.outputs.len(), 2, "one output per partition");
    assert_eq!(report.partitions, 2);
    assert_eq!(report.rows, 1000);
    assert_eq!(report.row_groups_reencoded, 20);
    assert_eq!(report.row_groups_copied, 0);
    assert_eq!(report.row_groups_merged, 2);
    assert_eq!(parquet_files(dir.path()), report.outputs);
    for out in &report.outputs {
        let r = FileReader::new(std::fs::File::open(out).unwrap()).unwrap();
        assert_eq!(r.num_row_groups(), 1);
        let listed = r.metadata().key_value(super::output::INPUTS_KEY).unwrap();
        assert_eq!(listed.lines().count(), 10);
    }
    assert_eq!(read_sorted(dir.path()), before);
    // Rows keep their order inside each partition.
    let rows: Vec<Line> = Dataset::open(dir.path()).unwrap().read_all().unwrap();
    let first: Vec<i64> = rows.iter().take(500).map(|l| l.ts).collect();
    assert!(first.windows(2).all(|w| w[0] < w[1]) || first.len() < 2);
}

/// Large row groups are copied: each page of each copied chunk is byte-identical to the
/// input's (located by the offset indexes), with the same column index and Bloom filter, and
/// a filtered read of the output gives the rows it gives on the inputs.
#[test]
fn verbatim_copy_keeps_pages_indexes_and_bloom_filters() {
    let dir = tempfile::tempdir().unwrap();
    let options = WriterOptions::default()
        .row_group_rows(400)
        .page_row_limit(100)
        .bloom_filter("message", BloomFilterOptions::default());
    write_folder(dir.path(), 1, 4, 800, &options);
    let inputs = parquet_files(dir.path());
    let input_bytes: Vec<Vec<u8>> = inputs.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let filter = crate::col("message").eq("request 7919 handled in 1 ms");
    let mut filtered_before: Vec<Line> = Dataset::open(dir.path())
        .unwrap()
        .filter(filter.clone())
        .unwrap()
        .read_all()
        .unwrap();
    filtered_before.sort();
    assert_eq!(filtered_before.len(), 1);
    // 2 row groups per file, each far above an eighth of the row-group target.
    let options = CompactOptions::default().row_group_size(16 << 10);
    let report = Dataset::open(dir.path())
        .unwrap()
        .compact(&options)
        .unwrap();
    assert_eq!(report.row_groups_copied, 8);
    assert_eq!(report.row_groups_reencoded, 0);
    assert_eq!(report.outputs.len(), 1);
    let out = std::fs::read(&report.outputs[0]).unwrap();
    let output = FileReader::new(out.clone()).unwrap();
    assert_eq!(output.num_row_groups(), 8);
    let mut pages = 0;
    for (i, bytes) in input_bytes.iter().enumerate() {
        let input = FileReader::new(bytes.clone()).unwrap();
        for rg in 0..2 {
            let org = i * 2 + rg;
            for c in 0..input.schema().num_columns() {
                let a = input.offset_index(rg, c).unwrap().unwrap();
                let b = output.offset_index(org, c).unwrap().unwrap();
                assert_eq!(a.page_locations.len(), b.page_locations.len());
                for (p, q) in a.page_locations.iter().zip(&b.page_locations) {
                    assert_eq!(p.compressed_page_size, q.compressed_page_size);
                    assert_eq!(p.first_row_index, q.first_row_index);
                    let len = p.compressed_page_size as usize;
                    let (p, q) = (p.offset as usize, q.offset as usize);
                    assert_eq!(
                        bytes[p..p + len],
                        out[q..q + len],
                        "file {i} rg {rg} col {c}"
                    );
                    pages += 1;
                }
                assert_eq!(
                    input.column_index(rg, c).unwrap(),
                    output.column_index(org, c).unwrap()
                );
                let (fa, fb) = (
                    input.bloom_filter(rg, c).unwrap(),
                    output.bloom_filter(org, c).unwrap(),
                );
                assert_eq!(fa.is_some(), c == 2, "Bloom filter on `message` only");
                assert_eq!(fa, fb);
            }
        }
    }
    assert!(pages >= 8 * 3 * 4, "{pages} pages compared");
    let mut filtered_after: Vec<Line> = Dataset::open(dir.path())
        .unwrap()
        .filter(filter)
        .unwrap()
        .read_all()
        .unwrap();
    filtered_after.sort();
    assert_eq!(filtered_after, filtered_before);
}

/// Outputs are cut between files near the target; the last one holds the rest.
#[test]
fn outputs_are_cut_near_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let before = write_folder(dir.path(), 1, 60, 500, &WriterOptions::default());
    let total: u64 = parquet_files(dir.path())
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    let target = total / 4;
    let options = CompactOptions::default().target_size(target);
    let report = Dataset::open(dir.path())
        .unwrap()
        .compact(&options)
        .unwrap();
    assert!(report.outputs.len() >= 2, "{report}");
    let n = report.outputs.len();
    for (k, out) in report.outputs.iter().enumerate() {
        let size = std::fs::metadata(out).unwrap().len();
        if k + 1 < n {
            let off = size as f64 / target as f64;
            assert!(
                (0.75..=1.25).contains(&off),
                "output {k}: {size} for {target}"
            );
        } else {
            assert!(size as f64 <= target as f64 * 1.25);
        }
    }
    assert_eq!(read_sorted(dir.path()), before);
}

#[test]
fn other_schemas_are_merged_separately_and_single_files_kept() {
    #[derive(Serialize, ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Other {
        ts: i64,
    }
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("date=2026-11-01");
    std::fs::create_dir_all(&folder).unwrap();
    for f in 0..3 {
        crate::to_path(folder.join(format!("a{f}.parquet")), &lines(f * 10, 10)).unwrap();
    }
    for f in 0..2 {
        crate::to_path(folder.join(format!("b{f}.parquet")), &[Other { ts: f }]).unwrap();
    }
    crate::to_path(folder.join("c0.parquet"), &lines(100, 10)).unwrap();
    // Being written: never touched.
    crate::to_path(folder.join("_part-x.parquet"), &lines(0, 1)).unwrap();
    let report = Dataset::open(dir.path())
        .unwrap()
        .compact(&CompactOptions::default())
        .unwrap();
    assert_eq!(report.outputs.len(), 2, "{report}");
    assert_eq!(report.inputs, 5);
    assert_eq!(
        report.files_kept, 1,
        "c0 follows another schema: alone in its run"
    );
    assert_eq!(report.rows, 32);
    assert!(folder.join("_part-x.parquet").exists());
    assert!(folder.join("c0.parquet").exists());
    assert!(folder.join("a0.compact.parquet").exists());
    assert!(folder.join("b0.compact.parquet").exists());
}

#[test]
fn encrypted_inputs_are_refused_by_name() {
    use crate::core::encryption::FileEncryptionProperties;
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("date=2026-11-01");
    std::fs::create_dir_all(&folder).unwrap();
    crate::to_path(folder.join("a.parquet"), &lines(0, 10)).unwrap();
    let props = FileEncryptionProperties::builder(b"0123456789012345".to_vec())
        .build()
        .unwrap();
    let options = WriterOptions::default().encryption(props);
    crate::to_path_with(folder.join("b.parquet"), &lines(10, 10), options).unwrap();
    let err = Dataset::open(dir.path())
        .unwrap()
        .compact(&CompactOptions::default())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("b.parquet"), "{err}");
    assert!(folder.join("a.parquet").exists() && folder.join("b.parquet").exists());
    assert_eq!(parquet_files(dir.path()).len(), 2, "nothing written");
}

/// The table seam: inputs stay, the result lists each output's inputs and footer.
#[test]
fn table_mode_keeps_inputs_and_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    write_folder(dir.path(), 2, 8, 20, &WriterOptions::default());
    let files = Dataset::open(dir.path()).unwrap().files().to_vec();
    let done = compact_files(&files, &CompactOptions::default(), Inputs::Keep).unwrap();
    assert_eq!(done.report.inputs_removed, 0);
    assert_eq!(done.partitions.len(), 2);
    for p in &done.partitions {
        assert_eq!(p.inputs.len(), 4);
        assert_eq!(p.partition.len(), 1);
        assert!(p.inputs.iter().all(|i| i.path.exists() && i.rows == 20));
        let out = &p.outputs[0];
        assert_eq!(out.inputs, 0..4);
        assert_eq!(out.rows, 80);
        assert_eq!(out.metadata.num_rows(), 80);
        assert!(
            out.metadata
                .key_values()
                .all(|(key, _)| key != super::output::INPUTS_KEY),
            "a table's log lists the inputs, not the footer"
        );
        assert_eq!(std::fs::metadata(&out.path).unwrap().len(), out.size);
    }
    assert_eq!(parquet_files(dir.path()).len(), 10);
}

/// A failure injected after each step (as a crash there): every row stays readable, rows
/// are doubled only once an output is visible, and the next compaction removes the
/// leftover inputs, leaving each row once.
#[test]
fn a_failure_between_steps_loses_no_row() {
    let steps = [
        (Step::Written, 0),
        (Step::Visible, 0),
        (Step::InputRemoved, 0),
        (Step::InputRemoved, 2),
        (Step::Written, 1),
        (Step::Visible, 1),
    ];
    for (stop, nth) in steps {
        let dir = tempfile::tempdir().unwrap();
        let before = write_folder(dir.path(), 2, 8, 25, &WriterOptions::default());
        let files = Dataset::open(dir.path()).unwrap().files().to_vec();
        let mut seen = BTreeMap::new();
        let err = compact_files_with(
            &files,
            &CompactOptions::default(),
            Inputs::Remove,
            &mut |s| {
                let n = seen.entry(s).or_insert(0);
                *n += 1;
                if s == stop && *n == nth + 1 {
                    Err(Error::invalid_argument("injected"))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("injected"));
        let mut counts: BTreeMap<Line, usize> = BTreeMap::new();
        for row in Dataset::open(dir.path())
            .unwrap()
            .read_all::<Line>()
            .unwrap()
        {
            *counts.entry(row).or_default() += 1;
        }
        assert!(
            before.iter().all(|r| counts.contains_key(r)),
            "{stop:?} {nth}: a row is lost"
        );
        let doubled = counts.values().filter(|&&n| n > 1).count();
        let max = counts.values().max().copied().unwrap_or(0);
        assert!(max <= 2, "{stop:?}: a row read {max} times");
        if stop == Step::Written {
            assert_eq!(
                doubled, 0,
                "{stop:?} {nth}: duplicates before an output is visible"
            );
        } else {
            assert!(doubled > 0 && doubled <= 100, "{stop:?} {nth}: {doubled}");
        }
        // A crash leaves the temporary file of the output being written (an error removes
        // it): the next compaction removes it too.
        let dir0 = dir.path().join("date=2026-11-01");
        let stale = dir0.join(".part-0000.compact.parquet.Ab12Cd.tmp");
        std::fs::write(&stale, b"PAR1 half written").unwrap();
        let keep = dir0.join(".other.tmp");
        std::fs::write(&keep, b"not ours").unwrap();
        // The next compaction finishes the job.
        let report = Dataset::open(dir.path())
            .unwrap()
            .compact(&CompactOptions::default())
            .unwrap();
        if stop != Step::Written {
            assert!(report.leftovers_removed > 0, "{stop:?} {nth}: {report}");
        }
        assert_eq!(read_sorted(dir.path()), before, "{stop:?} {nth}");
        assert!(!stale.exists() && keep.exists());
    }
}

#[test]
fn output_names_sort_beside_their_first_input() {
    let dir = tempfile::tempdir().unwrap();
    let name = |first: &str| {
        super::commit::output_name(dir.path(), &dir.path().join(first))
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    assert_eq!(name("part-1.parquet"), "part-1.compact.parquet");
    std::fs::write(dir.path().join("part-1.compact.parquet"), b"").unwrap();
    assert_eq!(name("part-1.compact.parquet"), "part-1.compact-2.parquet");
    assert_eq!(name("part-1.compact-7.parquet"), "part-1.compact-2.parquet");
}

/// What an output keeps: the key-value pairs all inputs have (not the others), each
/// column's codec and Bloom filter of the first input, no sort order; a filter on a
/// partition key limits the compaction to that partition.
#[test]
fn outputs_keep_common_metadata_codecs_and_bloom_filters() {
    use crate::core::compression::Compression;
    let dir = tempfile::tempdir().unwrap();
    for day in [1, 2] {
        let folder = dir.path().join(format!("date=2026-11-0{day}"));
        std::fs::create_dir_all(&folder).unwrap();
        for f in 0..3 {
            let options = WriterOptions::default()
                .compression(Compression::Zstd(3))
                .bloom_filter("level", BloomFilterOptions::default())
                .sorting_column("ts", false, false)
                .key_value_metadata("service", "api")
                .key_value_metadata("file", f.to_string());
            let path = folder.join(format!("part-{f}.parquet"));
            crate::to_path_with(&path, &lines(f * 10, 10), options).unwrap();
        }
    }
    let report = Dataset::open(dir.path())
        .unwrap()
        .filter(crate::col("date").eq("2026-11-02"))
        .unwrap()
        .compact(&CompactOptions::default())
        .unwrap();
    assert_eq!(report.outputs.len(), 1);
    assert!(report.outputs[0].starts_with(dir.path().join("date=2026-11-02")));
    assert_eq!(
        parquet_files(dir.path()).len(),
        4,
        "the other day is untouched"
    );
    let out = FileReader::new(std::fs::File::open(&report.outputs[0]).unwrap()).unwrap();
    let md = out.metadata();
    assert_eq!(md.key_value("service"), Some("api"));
    assert_eq!(md.key_value("file"), None);
    let group = md.row_group(0).unwrap();
    assert!(group.sorting_columns().is_empty());
    for chunk in group.columns() {
        assert_eq!(
            chunk.codec_name().as_deref(),
            Some("ZSTD"),
            "{}",
            chunk.path()
        );
        let bloom = chunk.bloom_filter_offset().is_some();
        assert_eq!(
            bloom,
            chunk.path().to_string() == "level",
            "{}",
            chunk.path()
        );
    }
    let filter = out.bloom_filter(0, 1).unwrap().unwrap();
    let hash = crate::core::bloom::hash::hash_bytes(b"WARN");
    assert!(filter.check_hash(hash));
}

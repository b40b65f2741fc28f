//! Statistics, page indexes and Bloom filters of the parquet-testing corpus, read through
//! the metadata API and compared with what pyarrow reports (testdata/stats_with.py).

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{corpus, testdata};
use parquet_serde::__internals::CountingReader;
use parquet_serde::core::bloom::Sbbf;
use parquet_serde::core::column::{Scalar, SortOrder};
use parquet_serde::core::file::BoundaryOrder;
use parquet_serde::core::file::{ChunkReader, FileReader};
use parquet_serde::core::page::PageType;
use parquet_serde::core::schema::PhysicalType as Type;
use parquet_serde::filter::{col, FilterOptions};
use serde_json::{json, Value as J};

/// Runs testdata/stats_with.py and parses its JSON lines.
fn stats_with(args: &[&str]) -> Vec<J> {
    let script = testdata().join("stats_with.py");
    let mut all = vec![script.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    common::python_json_lines(&all)
}

/// A typed value as stats_with.py prints them.
fn norm(s: &Scalar) -> J {
    match s {
        Scalar::Bool(b) => json!(b),
        Scalar::Int(i) => json!(i.to_string()),
        Scalar::Float(f) if f.is_nan() => json!("NaN"),
        Scalar::Float(f) if f.is_infinite() => {
            json!(if *f > 0.0 { "Infinity" } else { "-Infinity" })
        }
        Scalar::Float(f) => json!(f),
        Scalar::Bytes(b) => {
            json!({ "hex": b.iter().map(|x| format!("{x:02x}")).collect::<String>() })
        }
        // Statistics hold no other kind (decimals are predicate literals only).
        other => panic!("a statistic holds {other:?}"),
    }
}

fn same(a: &J, b: &J) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn data(name: &str) -> std::path::PathBuf {
    corpus().join("data").join(name)
}

fn open(name: &str) -> FileReader<Vec<u8>> {
    FileReader::new(common::read(&data(name))).unwrap()
}

/// Why we may drop bounds pyarrow reports (the specification's reading rules).
fn dropped_reason(r: &FileReader<Vec<u8>>, rg: usize, c: usize) -> Option<&'static str> {
    let md = r.metadata();
    let d = &md.schema().columns()[c];
    let s = md.row_group(rg)?.column(c)?.raw_statistics()?;
    let order = SortOrder::for_column(d);
    let nan = |b: Option<&[u8]>| {
        b.and_then(|b| Scalar::decode(b, d.physical_type, order))
            .is_some_and(|s| s.is_nan())
    };
    if !order.is_defined() {
        Some("undefined order")
    } else if nan(s.min_value()) || nan(s.max_value()) || nan(s.min()) || nan(s.max()) {
        Some("NaN bound")
    } else if s.min_value().is_some() && !md.has_column_orders() {
        Some("min_value without column_orders")
    } else if s.min_value().is_none()
        && (order != SortOrder::Signed
            || matches!(d.physical_type, Type::ByteArray | Type::FixedLenByteArray))
    {
        Some("legacy min/max where signed comparison is wrong")
    } else {
        None
    }
}

#[test]
fn corpus_statistics_agree_with_pyarrow() {
    let dir = common::corpus_dir("data");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".parquet"))
        .collect();
    names.sort();
    let mut readable = Vec::new();
    for n in &names {
        if let Ok(bytes) = std::fs::read(dir.join(n)) {
            if FileReader::new(bytes).is_ok() {
                readable.push(n.clone());
            }
        }
    }
    let paths: Vec<String> = readable
        .iter()
        .map(|n| dir.join(n).to_string_lossy().into_owned())
        .collect();
    let mut theirs: HashMap<(String, u64, u64), J> = HashMap::new();
    for chunk in paths.chunks(20) {
        let args: Vec<&str> = std::iter::once("pyarrow")
            .chain(chunk.iter().map(String::as_str))
            .collect();
        for v in stats_with(&args) {
            let file = Path::new(v["file"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            theirs.insert(
                (file, v["rg"].as_u64().unwrap(), v["col"].as_u64().unwrap()),
                v,
            );
        }
    }
    let (mut agreed, mut failures) = (0, Vec::new());
    let mut dropped: HashMap<&str, usize> = HashMap::new();
    for name in &readable {
        let r = open(name);
        let md = r.metadata();
        for rg in 0..md.num_row_groups() {
            for c in 0..md.schema().num_columns() {
                let Some(t) = theirs.get(&(name.clone(), rg as u64, c as u64)) else {
                    continue;
                };
                let ours = md.column_statistics(rg, c).unwrap_or_default();
                let at = format!("{name} rg {rg} column {}", md.schema().columns()[c].path);
                if let (Some(n), Some(m)) = (ours.null_count, t["null_count"].as_u64()) {
                    if n != m {
                        failures.push(format!("{at}: null_count {n} vs pyarrow {m}"));
                    }
                }
                let ieee = md.column_order_name(c) == Some("IEEE_754_TOTAL_ORDER");
                match (&ours.min, &ours.max, t["has_min_max"].as_bool().unwrap()) {
                    (Some(lo), Some(hi), true) => {
                        if same(&norm(lo), &t["min"]) && same(&norm(hi), &t["max"]) {
                            agreed += 1;
                        } else {
                            failures.push(format!(
                                "{at}: min/max {} {} vs pyarrow {} {}",
                                norm(lo),
                                norm(hi),
                                t["min"],
                                t["max"]
                            ));
                        }
                    }
                    // pyarrow does not know IEEE 754 total order and ignores those bounds.
                    (Some(_), Some(_), false) if ieee => {
                        *dropped.entry("pyarrow ignores IEEE 754 order").or_default() += 1
                    }
                    (Some(_), _, false) | (_, Some(_), false) => {
                        failures.push(format!("{at}: bounds pyarrow does not report"));
                    }
                    (_, _, true) => match dropped_reason(&r, rg, c) {
                        Some(why) => *dropped.entry(why).or_default() += 1,
                        None => failures.push(format!(
                            "{at}: pyarrow has bounds {} {}, we none",
                            t["min"], t["max"]
                        )),
                    },
                    _ => {}
                }
            }
        }
    }
    println!("{agreed} column chunks agree with pyarrow; ignored per the rules: {dropped:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(agreed > 200, "{agreed}");
}

#[test]
fn float16_statistics() {
    let r = open("float16_nonzeros_and_nans.parquet");
    let s = r.metadata().column_statistics(0, 0).unwrap();
    assert_eq!(
        (s.min, s.max),
        (Some(Scalar::Float(-2.0)), Some(Scalar::Float(2.0)))
    );
    assert_eq!(s.null_count, Some(1));
    let r = open("float16_zeros_and_nans.parquet");
    let s = r.metadata().column_statistics(0, 0).unwrap();
    match (s.min, s.max) {
        (Some(Scalar::Float(lo)), Some(Scalar::Float(hi))) => {
            assert!(lo == 0.0 && lo.is_sign_negative() && hi == 0.0 && hi.is_sign_positive());
        }
        other => panic!("{other:?}"),
    }
    // Filters treat -0.0 and +0.0 as equal and find the zeros.
    let f = r.filter(col("x").eq(0.0)).unwrap().select().unwrap();
    assert_eq!(f.row_count(), 1);
}

#[test]
fn floating_orders_and_nan_counts() {
    let r = open("floating_orders_nan_count.parquet");
    let md = r.metadata();
    assert_eq!(md.column_order_name(0), Some("IEEE_754_TOTAL_ORDER"));
    assert_eq!(md.column_order_name(1), Some("TYPE_ORDER"));
    for rg in 0..md.num_row_groups() {
        for c in 0..6 {
            let s = md.column_statistics(rg, c).unwrap();
            assert!(s.nan_count.is_some(), "rg {rg} col {c}");
            for b in [&s.min, &s.max].into_iter().flatten() {
                assert!(!b.is_nan(), "NaN bounds are never reported");
            }
        }
        // The IEEE and TYPE_ORDER columns hold the same values: bounds agree when both exist.
        for c in [0, 2, 4] {
            let (a, b) = (
                md.column_statistics(rg, c).unwrap(),
                md.column_statistics(rg, c + 1).unwrap(),
            );
            if b.min.is_some() {
                assert_eq!((a.min, a.max), (b.min, b.max), "rg {rg} col {c}");
            }
        }
    }
    // Filters stay exact on every column whatever the statistics say.
    for (c, name) in [
        "float_ieee754",
        "float_typedef",
        "double_ieee754",
        "double_typedef",
        "float16_ieee754",
        "float16_typedef",
    ]
    .iter()
    .enumerate()
    {
        for p in [
            col(*name).gt(1.0),
            col(*name).eq(f64::NAN),
            col(*name).le(-1.0),
            col(*name).ne(2.0),
        ] {
            let fast = r.filter(p.clone()).unwrap().select().unwrap().row_count();
            let slow = r
                .filter(p.clone())
                .unwrap()
                .with_options(FilterOptions::none())
                .select()
                .unwrap()
                .row_count();
            assert_eq!(fast, slow, "column {c}: {p}");
        }
    }
}

#[test]
fn nan_in_stats_is_ignored() {
    let r = open("nan_in_stats.parquet");
    let s = r.metadata().column_statistics(0, 0).unwrap();
    assert_eq!((s.min, s.max), (Some(Scalar::Float(1.0)), None));
    // The NaN max must not prune x > 1 (it would, if taken as a bound below everything).
    let sel = r.filter(col("x").gt(1.0)).unwrap().select().unwrap();
    let all = r
        .filter(col("x").gt(1.0))
        .unwrap()
        .with_options(FilterOptions::none())
        .select()
        .unwrap();
    assert_eq!(sel.row_count(), all.row_count());
    assert_eq!(sel.row_count(), 1, "NaN is greater than 1");
}

#[test]
fn truncated_binary_bounds() {
    let r = open("binary_truncated_min_max.parquet");
    let md = r.metadata();
    let names: Vec<String> = md
        .schema()
        .columns()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    for (c, name) in names.iter().enumerate() {
        let s = md.column_statistics(0, c).unwrap();
        let raw = md
            .row_group(0)
            .unwrap()
            .column(c)
            .unwrap()
            .raw_statistics()
            .unwrap();
        let values = r.read_column(0, c).unwrap().values;
        let parquet_serde::core::values::ColumnValues::ByteArray(v) = values else {
            panic!()
        };
        let (lo, hi) = (s.min.clone().unwrap(), s.max.clone().unwrap());
        // Every value lies within the bounds, exact or not.
        for x in v.iter() {
            let x = Scalar::from(x);
            assert!(lo <= x && x <= hi, "{name}: {x} outside {lo}..{hi}");
        }
        assert_eq!(
            s.min_exact,
            raw.is_min_value_exact() == Some(true),
            "{name}"
        );
        assert_eq!(
            s.max_exact,
            raw.is_max_value_exact() == Some(true),
            "{name}"
        );
        // Filters on the truncated bounds stay exact.
        for probe in [
            "Al",
            "Alice",
            "Kevin Bacon",
            "Ke",
            "Kf",
            "zzz",
            "🚀Kevin Bacon",
        ] {
            let p = col(name.as_str()).eq(probe);
            let fast = r.filter(p.clone()).unwrap().select().unwrap().row_count();
            let slow = r
                .filter(p)
                .unwrap()
                .with_options(FilterOptions::none())
                .select()
                .unwrap()
                .row_count();
            assert_eq!(fast, slow, "{name} == {probe}");
        }
    }
    let full = md.column_statistics(0, 0).unwrap();
    assert!(!full.min_exact && !full.max_exact);
    assert_eq!(full.max, Some(Scalar::from("Kf")));
}

#[test]
fn sorting_columns() {
    let r = open("sort_columns.parquet");
    let md = r.metadata();
    let path = |i: usize| md.schema().columns()[i].path.to_string();
    for rg in md.row_groups() {
        let keys = rg.sorting_columns();
        assert_eq!(keys.len(), 2);
        assert_eq!(
            (
                keys[0].column.clone(),
                keys[0].descending,
                keys[0].nulls_first
            ),
            (path(0), true, true)
        );
        assert_eq!(
            (
                keys[1].column.clone(),
                keys[1].descending,
                keys[1].nulls_first
            ),
            (path(1), false, false)
        );
    }
}

#[test]
fn int32_with_null_pages() {
    let r = open("int32_with_null_pages.parquet");
    let pi = r.page_index(0, 0).unwrap().unwrap();
    assert_eq!(pi.boundary_order, Some(BoundaryOrder::Unordered));
    let nulls: Vec<usize> = (0..pi.pages.len())
        .filter(|&i| pi.pages[i].null_page == Some(true))
        .collect();
    assert_eq!(nulls.len(), 1);
    let p = &pi.pages[nulls[0]];
    assert_eq!((&p.min, &p.max), (&None, &None));
    assert_eq!(p.null_count, Some(p.rows.end - p.rows.start));
    // Only the null page can hold is_null rows ... and is_not_null skips it.
    let sel = r
        .filter(col("int32_field").is_not_null())
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(sel.row_count(), 725);
    assert!(sel.report.rows_candidate < 1000);
    let sel = r
        .filter(col("int32_field").is_null())
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(sel.row_count(), 275);
}

/// Per-page min/max/null counts of our page index equal those pyarrow computes from the rows
/// it reads in the same page ranges; page locations equal the pages as stored.
fn check_page_index(name: &str) {
    let path = data(name);
    let r = open(name);
    let md = r.metadata();
    let mut pages_checked = 0;
    for c in 0..md.schema().num_columns() {
        let d = &md.schema().columns()[c];
        let Some(pi) = r.page_index(0, c).unwrap() else {
            continue;
        };
        // Locations: the data pages as a page reader walks them.
        let chunk = r.column_chunk(0, c).unwrap();
        let mut pages = chunk.pages(&Default::default());
        let mut stored = Vec::new();
        let mut row = 0u64;
        while let Some(p) = pages.next_raw().unwrap() {
            if matches!(p.page_type(), PageType::DataPage | PageType::DataPageV2) {
                // The values of a v1 page (v2 pages count 0 here).
                let n = p.level_encodings().and(p.num_values()).map_or(0, |n| n) as u64;
                stored.push((p.offset, (p.header_len + p.data.len()) as u32, row));
                row += n;
            }
        }
        let listed: Vec<_> = pi
            .pages
            .iter()
            .map(|p| (p.offset, p.compressed_size, p.rows.start))
            .collect();
        assert_eq!(listed, stored, "{name} {}", d.path);
        if !pi.has_statistics() || !SortOrder::for_column(d).is_defined() {
            continue;
        }
        let ranges: Vec<[u64; 2]> = pi
            .pages
            .iter()
            .map(|p| [p.rows.start, p.rows.end])
            .collect();
        let theirs = stats_with(&[
            "pages",
            path.to_str().unwrap(),
            &d.path.to_string(),
            &serde_json::to_string(&ranges).unwrap(),
        ]);
        assert_eq!(theirs.len(), pi.pages.len());
        for (p, t) in pi.pages.iter().zip(&theirs) {
            assert_eq!(
                p.null_count,
                t["null_count"].as_u64(),
                "{name} {} {:?}",
                d.path,
                p.rows
            );
            let show = |s: &Option<Scalar>| s.as_ref().map_or(J::Null, norm);
            assert!(
                same(&show(&p.min), &t["min"]) && same(&show(&p.max), &t["max"]),
                "{name} {} rows {:?}: {} {} vs pyarrow {} {}",
                d.path,
                p.rows,
                show(&p.min),
                show(&p.max),
                t["min"],
                t["max"]
            );
            pages_checked += 1;
        }
    }
    println!("{name}: {pages_checked} pages equal to pyarrow");
    assert!(pages_checked > 1000, "{pages_checked}");
}

#[test]
fn alltypes_tiny_pages_page_index() {
    check_page_index("alltypes_tiny_pages.parquet");
}

#[test]
fn alltypes_tiny_pages_plain_page_index() {
    check_page_index("alltypes_tiny_pages_plain.parquet");
}

#[test]
fn tiny_pages_filters_read_little() {
    let bytes = common::read(&data("alltypes_tiny_pages.parquet"));
    let total = bytes.len() as u64;
    let r = FileReader::new(CountingReader::new(bytes)).unwrap();
    let p = col("id").between(1000, 1020).and(col("bool_col").eq(true));
    let columns = ["id", "bool_col", "int_col", "string_col"];
    let start = r.get_ref().bytes_read();
    let rows = r.filter(p.clone()).unwrap().read_rows(&columns).unwrap();
    let used = r.get_ref().bytes_read() - start;
    let all = r
        .filter(p.clone())
        .unwrap()
        .with_options(FilterOptions::none())
        .read_rows(&columns)
        .unwrap();
    assert_eq!(rows, all);
    assert_eq!(rows.len(), 11);
    assert!(used * 10 < total, "{used} of {total} bytes");
    println!("id between 1000 and 1020, 4 columns: {used} of {total} bytes");
    // Every column: the same rows; the INT96 and date string dictionaries (about 100 KB)
    // must be read whatever the pages.
    let start = r.get_ref().bytes_read();
    let rows = r.filter(p.clone()).unwrap().read_rows(&[]).unwrap();
    let used = r.get_ref().bytes_read() - start;
    let all = r
        .filter(p)
        .unwrap()
        .with_options(FilterOptions::none())
        .read_rows(&[])
        .unwrap();
    assert_eq!(rows, all);
    println!("all 13 columns: {used} of {total} bytes");
}

#[test]
fn bloom_filter_xxhash_bin() {
    let bytes = common::read(&data("bloom_filter.xxhash.bin"));
    let (f, used) = Sbbf::read(&bytes).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(f.num_bytes(), 1024);
    for w in ["hello", "parquet", "bloom", "filter"] {
        assert!(f.check_bytes(w.as_bytes()), "{w}");
    }
    let others = (0..1000)
        .filter(|i| f.check_bytes(format!("absent-{i}").as_bytes()))
        .count();
    assert!(others < 10, "{others} of 1000 absent words pass");
}

#[test]
fn data_index_bloom_encoding_files() {
    for name in [
        "data_index_bloom_encoding_stats.parquet",
        "data_index_bloom_encoding_with_length.parquet",
    ] {
        let r = open(name);
        let f = r.bloom_filter(0, 0).unwrap().expect("a Bloom filter");
        let parquet_serde::core::values::ColumnValues::ByteArray(v) =
            r.read_column(0, 0).unwrap().values
        else {
            panic!()
        };
        for x in v.iter() {
            assert!(f.check_bytes(x), "{name}: {:?}", String::from_utf8_lossy(x));
        }
        let probes = ["nope", "Hello!", "parquet-serde", "other", "xyz", "abc"];
        assert!(
            probes
                .iter()
                .filter(|p| f.check_bytes(p.as_bytes()))
                .count()
                <= 1
        );
        // Filters use the Bloom filter to skip the row group.
        let sel = r
            .filter(col("String").eq("parquet-serde"))
            .unwrap()
            .select()
            .unwrap();
        assert_eq!(sel.row_count(), 0);
        assert_eq!(
            sel.report.pruned_by_bloom_filter + sel.report.pruned_by_statistics,
            1,
            "{name}: {:?}",
            sel.report
        );
        let sel = r
            .filter(col("String").eq("Hello"))
            .unwrap()
            .select()
            .unwrap();
        assert!(sel.row_count() >= 1);
        assert!(r.page_index(0, 0).unwrap().is_some());
    }
    // The first file has statistics and column orders; the second (parquet-rs 49) wrote
    // min_value/max_value without column_orders: undefined by the specification.
    let s = open("data_index_bloom_encoding_stats.parquet")
        .metadata()
        .column_statistics(0, 0)
        .unwrap();
    assert_eq!(
        (s.min, s.max),
        (Some(Scalar::from("Hello")), Some(Scalar::from("today")))
    );
    let s = open("data_index_bloom_encoding_with_length.parquet")
        .metadata()
        .column_statistics(0, 0)
        .unwrap();
    assert_eq!(s.min, None);
}

#[test]
fn filters_on_the_corpus_equal_full_scans() {
    // A few predicates on a few files: pruned and unpruned results agree.
    let cases: Vec<(&str, parquet_serde::filter::Predicate)> = vec![
        (
            "alltypes_tiny_pages_plain.parquet",
            col("tinyint_col").in_list([1, 7]).and(col("id").lt(3000)),
        ),
        (
            "alltypes_tiny_pages.parquet",
            col("string_col").eq("5").or(col("double_col").gt(80.0)),
        ),
        (
            "alltypes_tiny_pages.parquet",
            !col("date_string_col").between("03/01/09", "06/30/09"),
        ),
        ("int32_with_null_pages.parquet", col("int32_field").gt(0)),
        ("nested_lists.snappy.parquet", col("b").eq(1)),
        (
            "sort_columns.parquet",
            col("a").is_null().or(col("b").eq("c")),
        ),
    ];
    for (name, p) in cases {
        let bytes = common::read(&data(name));
        let r = FileReader::new(bytes).unwrap();
        let fast = r.filter(p.clone()).unwrap().read_rows(&[]).unwrap();
        let slow = r
            .filter(p.clone())
            .unwrap()
            .with_options(FilterOptions::none())
            .read_rows(&[])
            .unwrap();
        assert_eq!(fast, slow, "{name}: {p}");
        assert!(!fast.is_empty(), "{name}: {p}");
        let _ = r.get_ref().len_bytes();
    }
}

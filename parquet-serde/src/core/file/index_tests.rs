//! Files written with statistics, page index and Bloom filters, read back through the
//! FileReader's index API.

use super::*;
use crate::core::bloom::{hash, BloomFilterOptions};
use crate::core::column::{ColumnBatch, Scalar};
use crate::core::format::BoundaryOrder;
use crate::core::schema::Schema;
use crate::core::values::{ByteArrays, ColumnValues};

const SCHEMA: &str = "message m {
  required int64 id;
  optional binary name (STRING);
  optional group tags (LIST) { repeated group list { optional int32 element; } }
}";

fn name(i: i64) -> String {
    format!("name-{:04}", i % 700)
}

fn write(options: WriterOptions, rows: i64, per_group: i64) -> Vec<u8> {
    let schema: Schema = SCHEMA.parse().unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut start = 0;
    while start < rows {
        let end = (start + per_group).min(rows);
        let mut id = w.column_writer(0).unwrap();
        id.write(&ColumnBatch {
            values: ColumnValues::Int64((start..end).collect()),
            def_levels: vec![],
            rep_levels: vec![],
        })
        .unwrap();
        let mut names = ByteArrays::new();
        let mut def = Vec::new();
        for i in start..end {
            if i % 5 == 0 {
                def.push(0);
            } else {
                def.push(1);
                names.push(name(i).as_bytes());
            }
        }
        let mut nm = w.column_writer(1).unwrap();
        nm.write(&ColumnBatch {
            values: ColumnValues::ByteArray(names),
            def_levels: def,
            rep_levels: vec![],
        })
        .unwrap();
        // tags: row i has i % 3 elements (0 => empty list), element j = i + j.
        let (mut vals, mut def, mut rep) = (Vec::new(), Vec::new(), Vec::new());
        for i in start..end {
            let k = i % 3;
            if k == 0 {
                def.push(1);
                rep.push(0);
            }
            for j in 0..k {
                def.push(3);
                rep.push(if j == 0 { 0 } else { 1 });
                vals.push((i + j) as i32);
            }
        }
        let mut tags = w.column_writer(2).unwrap();
        // Two batches, the second starting mid-way, so pages may want to cut at batch ends.
        let half = rep
            .iter()
            .enumerate()
            .filter(|(_, &r)| r == 0)
            .nth(37)
            .map_or(0, |(i, _)| i);
        let vhalf = def[..half].iter().filter(|&&d| d == 3).count();
        tags.write(&ColumnBatch {
            values: ColumnValues::Int32(vals[..vhalf].to_vec()),
            def_levels: def[..half].to_vec(),
            rep_levels: rep[..half].to_vec(),
        })
        .unwrap();
        tags.write(&ColumnBatch {
            values: ColumnValues::Int32(vals[vhalf..].to_vec()),
            def_levels: def[half..].to_vec(),
            rep_levels: rep[half..].to_vec(),
        })
        .unwrap();
        let chunks = vec![
            id.close().unwrap(),
            nm.close().unwrap(),
            tags.close().unwrap(),
        ];
        w.write_row_group(chunks).unwrap();
        start = end;
    }
    w.close().unwrap().0
}

fn options() -> WriterOptions {
    WriterOptions::default()
        .page_row_limit(100)
        .bloom_filter("name", BloomFilterOptions::default())
        .sorting_column("id", false, false)
}

#[test]
fn page_index_round_trip() {
    let bytes = write(options(), 1000, 500);
    let r = FileReader::new(bytes).unwrap();
    assert_eq!(r.num_row_groups(), 2);
    let pi = r.page_index(1, 0).unwrap().unwrap();
    assert_eq!(pi.boundary_order, Some(BoundaryOrder::Ascending));
    assert_eq!(pi.pages.len(), 5);
    for (k, p) in pi.pages.iter().enumerate() {
        let k = k as u64;
        assert_eq!(p.rows, k * 100..(k + 1) * 100);
        assert_eq!(p.min, Some(Scalar::Int(500 + 100 * k as i128)));
        assert_eq!(p.max, Some(Scalar::Int(599 + 100 * k as i128)));
        assert_eq!((p.null_page, p.null_count), (Some(false), Some(0)));
    }
    let names = r.page_index(0, 1).unwrap().unwrap();
    assert_eq!(names.pages[0].null_count, Some(20));
    assert_eq!(
        names.pages[0].definition_level_histogram,
        Some(vec![20, 80])
    );
    assert_eq!(names.pages[0].unencoded_byte_array_data_bytes, Some(80 * 9));
    let tags = r.page_index(0, 2).unwrap().unwrap();
    // Pages of the nested column start on rows and cover every row once.
    assert_eq!(tags.pages.first().unwrap().rows.start, 0);
    assert_eq!(tags.pages.last().unwrap().rows.end, 500);
    assert!(tags.pages[0].repetition_level_histogram.is_some());
    let md = r.metadata();
    let rg = &md.file.row_groups[0];
    assert_eq!(rg.sorting_columns.as_ref().unwrap()[0].column_idx, 0);
    let st = md.column_statistics(1, 0).unwrap();
    assert_eq!(
        (st.min, st.max),
        (Some(Scalar::Int(500)), Some(Scalar::Int(999)))
    );
    assert!(st.min_exact && st.max_exact);
    let st = md.column_statistics(0, 1).unwrap();
    assert_eq!(st.min, Some(Scalar::from("name-0001")));
    assert_eq!(st.null_count, Some(100));
    let cmd = rg.columns[1].meta_data.as_ref().unwrap();
    let ss = cmd.size_statistics.as_ref().unwrap();
    assert_eq!(ss.unencoded_byte_array_data_bytes, Some(400 * 9));
    assert_eq!(ss.definition_level_histogram, Some(vec![100, 400]));
}

#[test]
fn page_statistics_in_headers() {
    // Page statistics go in the page headers only when there is no page index to hold them.
    let header_mins = |bytes: Vec<u8>| {
        let r = FileReader::new(bytes).unwrap();
        let chunk = r.column_chunk(0, 0).unwrap();
        let mut pages = chunk.page_reader(Default::default());
        let mut mins = Vec::new();
        while let Some(p) = pages.next_raw().unwrap() {
            if let Some(h) = p.header.data_page_header {
                mins.push(
                    h.statistics
                        .as_ref()
                        .map(|st| r.metadata().typed_statistics(0, st).min.unwrap()),
                );
            }
        }
        mins
    };
    assert_eq!(
        header_mins(write(options().page_index(false), 300, 300)),
        vec![
            Some(Scalar::Int(0)),
            Some(Scalar::Int(100)),
            Some(Scalar::Int(200))
        ]
    );
    let bytes = write(options(), 300, 300);
    assert_eq!(header_mins(bytes.clone()), vec![None, None, None]);
    let r = FileReader::new(bytes).unwrap();
    let pi = r.page_index(0, 0).unwrap().unwrap();
    assert!(pi.has_statistics());
    // Chunk-only statistics: no page statistics, no ColumnIndex, OffsetIndex still there.
    let bytes = write(options().statistics(StatisticsLevel::Chunk), 300, 300);
    let r = FileReader::new(bytes).unwrap();
    assert!(r.column_index(0, 0).unwrap().is_none());
    assert!(r.offset_index(0, 0).unwrap().is_some());
    let pi = r.page_index(0, 0).unwrap().unwrap();
    assert!(!pi.has_statistics());
    // No page index at all.
    let bytes = write(options().page_index(false), 300, 300);
    let r = FileReader::new(bytes).unwrap();
    assert!(r.page_index(0, 0).unwrap().is_none());
    let md = r.metadata().file.row_groups[0].columns[0].clone();
    assert!(md.offset_index_offset.is_none() && md.column_index_offset.is_none());
}

#[test]
fn selected_rows_equal_full_read() {
    let bytes = write(options(), 1000, 1000);
    let r = FileReader::new(CountingReader::new(bytes)).unwrap();
    let sel = RowSelection::from_ranges([150..160, 420..421, 998..1000]);
    for c in 0..3 {
        let full = r.read_column(0, c).unwrap();
        let d = &r.schema().columns()[c];
        let ranges: Vec<_> = sel
            .ranges()
            .iter()
            .map(|x| x.start as usize..x.end as usize)
            .collect();
        let want = super::selection::take_rows(&full, d.max_def_level, d.max_rep_level, &ranges);
        let before = r.get_ref().bytes_read();
        let got = r.read_column_rows(0, c, &sel).unwrap();
        let used = r.get_ref().bytes_read() - before;
        assert_eq!(got, want, "column {c}");
        let chunk_len = r.metadata().file.row_groups[0].columns[c]
            .meta_data
            .as_ref()
            .unwrap()
            .total_compressed_size as u64;
        assert!(used < chunk_len, "column {c}: {used} of {chunk_len} bytes");
    }
    let all = r.read_column_rows(0, 1, &RowSelection::all(1000)).unwrap();
    assert_eq!(all, r.read_column(0, 1).unwrap());
    assert_eq!(
        r.read_column_rows(0, 1, &RowSelection::none())
            .unwrap()
            .num_levels(),
        0
    );
}

#[test]
fn bloom_filters_and_dictionaries() {
    // The dictionary on every column (auto encoding would drop it for the sorted ids).
    let bytes = write(options().auto_encoding(false), 1000, 500);
    let r = FileReader::new(bytes).unwrap();
    assert!(r.bloom_filter(0, 0).unwrap().is_none());
    let f = r.bloom_filter(0, 1).unwrap().unwrap();
    for i in 1..500 {
        if i % 5 != 0 {
            assert!(f.check_hash(hash::hash_bytes(name(i).as_bytes())));
        }
    }
    let fp = (0..1000)
        .filter(|i| f.check_hash(hash::hash_bytes(format!("absent-{i}").as_bytes())))
        .count();
    assert!(fp < 50, "{fp}");
    let dict = r.dictionary(0, 1).unwrap().unwrap();
    assert_eq!(dict.len(), 400);
    assert!(r.dictionary(0, 0).unwrap().is_some());
    let unencoded = write(options().dictionary(false), 100, 100);
    let r = FileReader::new(unencoded).unwrap();
    assert!(r.dictionary(0, 1).unwrap().is_none());
}

#[test]
fn truncated_and_corrupt_indexes_fail_cleanly() {
    let bytes = write(options(), 300, 300);
    let r = FileReader::new(bytes.clone()).unwrap();
    let chunk = r.metadata().file.row_groups[0].columns[1].clone();
    let ci = chunk.column_index_offset.unwrap() as usize;
    let oi = chunk.offset_index_offset.unwrap() as usize;
    let bf = chunk
        .meta_data
        .as_ref()
        .unwrap()
        .bloom_filter_offset
        .unwrap() as usize;
    for at in [ci, ci + 1, oi, oi + 2, bf, bf + 1, bf + 5] {
        for b in [0x00u8, 0xff, 0x19] {
            let mut bad = bytes.clone();
            bad[at] = b;
            let r = FileReader::new(bad).unwrap();
            // Never a panic; an error or some index.
            let _ = r.page_index(0, 1);
            let _ = r.bloom_filter(0, 1);
            let _ = r.read_column_rows(0, 1, &RowSelection::from_ranges(std::iter::once(10..20)));
        }
    }
}

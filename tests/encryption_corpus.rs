//! Parquet Modular Encryption: every encrypted file of the parquet-testing corpus decrypts
//! with the keys of its README (INDEX.md), the values are right, and wrong or missing keys,
//! wrong AAD prefixes and altered bytes fail with Crypto errors naming what failed.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use parquet_serde::core::encryption::{
    Algorithm, FileDecryptionProperties, FileDecryptionPropertiesBuilder,
};
use parquet_serde::core::file::{FileReader, PageIndex, RowSelection};
use parquet_serde::core::values::ColumnValues;
use parquet_serde::{ErrorKind, ReadOptions};

const FILES_128: &[&str] = &[
    "uniform_encryption.parquet.encrypted",
    "encrypt_columns_and_footer.parquet.encrypted",
    "encrypt_columns_plaintext_footer.parquet.encrypted",
    "encrypt_columns_and_footer_aad.parquet.encrypted",
    "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
    "encrypt_columns_and_footer_ctr.parquet.encrypted",
];

/// Another schema and data: 2000 rows of double i+0.5, float i+0.25, int32 i, name "name_i".
const BLOOM_FILE: &str = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";

const FILES_256: &[&str] = &[
    "uniform_encryption.parquet.encrypted",
    "encrypt_columns_and_footer.parquet.encrypted",
    "encrypt_columns_plaintext_footer.parquet.encrypted",
    "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
    "encrypt_columns_and_footer_ctr.parquet.encrypted",
];

fn read(name: &str) -> Vec<u8> {
    common::corpus_file(name)
}

const FOOTER_128: &[u8] = b"0123456789012345";
const DOUBLE_128: &[u8] = b"1234567890123450";
const FLOAT_128: &[u8] = b"1234567890123451";

fn keys128() -> FileDecryptionPropertiesBuilder {
    FileDecryptionProperties::builder()
        .footer_key(FOOTER_128.to_vec())
        .column_key("double_field", DOUBLE_128.to_vec())
        .column_key("float_field", FLOAT_128.to_vec())
}

/// The 256-bit keys of `data/aes256` (ASCII digits, like the 128-bit ones).
fn keys256() -> FileDecryptionPropertiesBuilder {
    let digits = |start: usize, n: usize| -> Vec<u8> {
        (start..start + n).map(|i| b'0' + (i % 10) as u8).collect()
    };
    let column = |last: u8| -> Vec<u8> {
        let mut k = digits(1, 30);
        k.extend([b'1', last]);
        k
    };
    FileDecryptionProperties::builder()
        .footer_key(digits(0, 32))
        .column_key("double_field", column(b'2'))
        .column_key("float_field", column(b'3'))
        .column_key("boolean_field", column(b'4'))
        .column_key("int32_field", column(b'5'))
        .column_key("ba_field", column(b'6'))
        .column_key("flba_field", column(b'7'))
        .column_key("int64_field.list.element", column(b'8'))
        .column_key("int96_field", column(b'9'))
}

fn with_prefix(name: &str, b: FileDecryptionPropertiesBuilder) -> FileDecryptionPropertiesBuilder {
    if name.contains("disable_aad_storage") {
        b.aad_prefix(b"tester".to_vec())
    } else {
        b
    }
}

fn options(b: FileDecryptionPropertiesBuilder) -> ReadOptions {
    ReadOptions::default().decryption(b.build().unwrap())
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            if k <= c.len() {
                s.push(A[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Checks row `i` of the test files (parquet-java's generator): boolean i%2==0, int32 i
/// (TIME millis), int64 [2i, 2i+1] * 10^12, float i*1.1f, double i*1.1111111, ba_field
/// "parquet%03d" on even rows (null on odd), flba_field ten bytes of i.
fn check_row(i: usize, line: &str) {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let at = |k: &str| {
        v.get(k)
            .unwrap_or_else(|| panic!("row {i}: no {k} in {line}"))
    };
    assert_eq!(
        at("boolean_field").as_bool(),
        Some(i.is_multiple_of(2)),
        "row {i}"
    );
    assert_eq!(
        at("int32_field").as_str(),
        Some(format!("00:00:00.{i:03}").as_str()),
        "row {i}"
    );
    let t = 1_000_000_000_000i64;
    let list: Vec<i64> = at("int64_field")
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    assert_eq!(
        list,
        vec![2 * i as i64 * t, (2 * i as i64 + 1) * t],
        "row {i}"
    );
    assert!(at("int96_field").is_string(), "row {i}");
    assert_eq!(
        at("float_field").as_f64().unwrap() as f32,
        i as f32 * 1.1f32,
        "row {i}"
    );
    assert_eq!(
        at("double_field").as_f64().unwrap(),
        i as f64 * 1.1111111,
        "row {i}"
    );
    if i.is_multiple_of(2) {
        assert_eq!(
            at("ba_field").as_str(),
            Some(base64(format!("parquet{i:03}").as_bytes()).as_str()),
            "row {i}"
        );
    } else {
        assert!(at("ba_field").is_null(), "row {i}");
    }
    assert_eq!(
        at("flba_field").as_str(),
        Some(base64(&[i as u8; 10]).as_str()),
        "row {i}"
    );
}

fn check_rows(name: &str, rows: &[String]) {
    assert_eq!(rows.len(), 50, "{name}");
    for (i, r) in rows.iter().enumerate() {
        check_row(i, r);
    }
}

fn column_index(reader: &FileReader<Vec<u8>>, path: &str) -> usize {
    reader
        .schema()
        .columns()
        .iter()
        .position(|c| c.path.to_string() == path)
        .unwrap_or_else(|| panic!("no column {path}"))
}

#[test]
fn every_128_bit_file_decrypts() {
    let mut all = Vec::new();
    for name in FILES_128 {
        let rows = common::rows_json(read(name), options(with_prefix(name, keys128())))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        check_rows(name, &rows);
        all.push(rows);
    }
    assert!(all.windows(2).all(|w| w[0] == w[1]));

    let rows = common::rows_json(read(BLOOM_FILE), options(keys128())).unwrap();
    assert_eq!(rows.len(), 2000);
    for (i, line) in rows.iter().enumerate() {
        let want = format!(
            r#"{{"double_field":{},"float_field":{},"int32_field":{i},"name":"name_{i}"}}"#,
            serde_json::Value::from(i as f64 + 0.5),
            serde_json::Value::from(i as f32 as f64 + 0.25),
        );
        let (a, b): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(line).unwrap(),
            serde_json::from_str(&want).unwrap(),
        );
        assert!(common::json_eq(&a, &b), "row {i}: {line} vs {want}");
    }
}

#[test]
fn every_256_bit_file_decrypts() {
    let mut all = Vec::new();
    for name in FILES_256 {
        let path = format!("aes256/{name}");
        let rows = common::rows_json(read(&path), options(with_prefix(name, keys256())))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        check_rows(&path, &rows);
        all.push(rows);
    }
    assert!(all.windows(2).all(|w| w[0] == w[1]));
    // The same rows as the 128-bit files (whose int64_field is a bare repeated column).
    let small = common::rows_json(read(FILES_128[0]), options(keys128())).unwrap();
    assert_eq!(all[0], small);
}

#[test]
fn files_report_their_encryption() {
    let r = |name: &str, b| FileReader::with_options(read(name), options(b)).unwrap();
    let uniform = r("uniform_encryption.parquet.encrypted", keys128());
    let m = uniform.metadata();
    assert!(m.is_encrypted() && m.has_encrypted_footer());
    assert_eq!(m.encryption_algorithm(), Some(Algorithm::AesGcmV1));
    assert!((0..8).all(|c| m.is_column_encrypted(c) && m.is_column_readable(c)));

    let ctr = r(
        "encrypt_columns_and_footer_ctr.parquet.encrypted",
        keys128(),
    );
    assert_eq!(
        ctr.metadata().encryption_algorithm(),
        Some(Algorithm::AesGcmCtrV1)
    );
    let double = column_index(&ctr, "double_field");
    assert!(ctr.column_chunk(0, double).unwrap().is_encrypted());
    let boolean = column_index(&ctr, "boolean_field");
    assert!(!ctr.column_chunk(0, boolean).unwrap().is_encrypted());

    let plain = r(
        "encrypt_columns_plaintext_footer.parquet.encrypted",
        keys128(),
    );
    assert!(plain.metadata().is_encrypted() && !plain.metadata().has_encrypted_footer());
    let plain_reader =
        FileReader::new(read("datapage_v1-snappy-compressed-checksum.parquet")).unwrap();
    assert!(!plain_reader.metadata().is_encrypted());
}

#[test]
fn encrypted_footer_needs_keys() {
    for name in [
        "uniform_encryption.parquet.encrypted",
        "encrypt_columns_and_footer.parquet.encrypted",
    ] {
        let e = FileReader::new(read(name)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
        assert!(e.to_string().contains("encrypted footer"), "{e}");
        assert!(e.to_string().contains("footer key"), "{e}");
    }
    // Wrong footer key.
    let wrong = FileDecryptionProperties::builder()
        .footer_key(b"0123456789012346".to_vec())
        .build()
        .unwrap();
    let e = FileReader::with_options(
        read("uniform_encryption.parquet.encrypted"),
        ReadOptions::default().decryption(wrong),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    assert!(e.to_string().contains("footer"), "{e}");
    // A retrieved key of a bad length.
    let short = FileDecryptionProperties::builder()
        .key_retriever(std::sync::Arc::new(|_: &[u8]| Ok(b"0123".to_vec())))
        .build()
        .unwrap();
    let e = FileReader::with_options(
        read("uniform_encryption.parquet.encrypted"),
        ReadOptions::default().decryption(short),
    )
    .unwrap_err();
    assert!(e.to_string().contains("footer key"), "{e}");
}

#[test]
fn column_keys_are_needed_only_for_their_columns() {
    let name = "encrypt_columns_and_footer.parquet.encrypted";
    // Footer key only: the footer-key columns read, the column-key ones fail clearly.
    let footer_only = FileDecryptionProperties::builder().footer_key(FOOTER_128.to_vec());
    let reader = FileReader::with_options(read(name), options(footer_only)).unwrap();
    let float = column_index(&reader, "float_field");
    let double = column_index(&reader, "double_field");
    assert!(!reader.metadata().is_column_readable(float));
    let e = reader.read_column(0, float).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    assert!(
        e.to_string().contains("no key for column float_field"),
        "{e}"
    );
    assert!(reader.read_column(0, double).is_err());
    assert!(reader.bloom_filter(0, double).is_err());
    assert!(parquet_serde::__internals::column_index(&reader, 0, double).is_err());
    let int32 = column_index(&reader, "int32_field");
    let batch = reader.read_column(0, int32).unwrap();
    assert_eq!(batch.values, ColumnValues::Int32((0..50).collect()));

    // A wrong column key: the column fails with the module named, the others read.
    let wrong = keys128().column_key("double_field", b"1234567890123459".to_vec());
    let reader = FileReader::with_options(read(name), options(wrong)).unwrap();
    let e = reader.read_column(0, double).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    let text = e.to_string();
    assert!(
        text.contains("double_field") && text.contains("column metadata"),
        "{e}"
    );
    let batch = reader.read_column(0, float).unwrap();
    assert_eq!(
        batch.values,
        ColumnValues::Float((0..50).map(|i| i as f32 * 1.1f32).collect())
    );
}

#[test]
fn key_retriever_finds_keys_by_metadata() {
    let retriever = |id: &[u8]| -> parquet_serde::Result<Vec<u8>> {
        match id {
            b"kf" => Ok(FOOTER_128.to_vec()),
            b"kc1" => Ok(DOUBLE_128.to_vec()),
            b"kc2" => Ok(FLOAT_128.to_vec()),
            _ => Err(parquet_serde::Error::new(
                ErrorKind::Crypto,
                "unknown key id",
            )),
        }
    };
    for name in FILES_128.iter().chain([&BLOOM_FILE]) {
        let b = FileDecryptionProperties::builder().key_retriever(std::sync::Arc::new(retriever));
        let rows = common::rows_json(read(name), options(with_prefix(name, b)))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = common::rows_json(read(name), options(with_prefix(name, keys128()))).unwrap();
        assert_eq!(rows, want, "{name}");
    }
}

#[test]
fn plaintext_footer_reads_plaintext_columns_without_keys() {
    let name = "encrypt_columns_plaintext_footer.parquet.encrypted";
    let reader = FileReader::new(read(name)).unwrap();
    assert!(reader.metadata().is_encrypted());
    let double = column_index(&reader, "double_field");
    let float = column_index(&reader, "float_field");
    for c in 0..reader.schema().num_columns() {
        let r = reader.read_column(0, c);
        if c == double || c == float {
            let e = r.unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
            let path = reader.schema().columns()[c].path.to_string();
            assert!(
                e.to_string().contains(&format!("no key for column {path}")),
                "{e}"
            );
        } else {
            r.unwrap();
        }
    }
    let int32 = column_index(&reader, "int32_field");
    assert_eq!(
        reader.read_column(0, int32).unwrap().values,
        ColumnValues::Int32((0..50).collect())
    );
    // The stripped metadata of the encrypted column has no statistics; decrypted, it has.
    assert!(reader
        .metadata()
        .column_statistics(0, double)
        .is_none_or(|s| s.min.is_none()));
    let keyed = FileReader::with_options(read(name), options(keys128())).unwrap();
    let stats = keyed.metadata().column_statistics(0, double).unwrap();
    assert!(stats.min.is_some() && stats.max.is_some(), "{stats:?}");
}

#[test]
fn plaintext_footer_signature_is_verified() {
    let name = "encrypt_columns_plaintext_footer.parquet.encrypted";
    let mut bytes = read(name);
    let n = bytes.len();
    // The signature is the 28 bytes before the footer length and magic.
    bytes[n - 8 - 5] ^= 1;
    let e = FileReader::with_options(bytes.clone(), options(keys128())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    assert!(e.to_string().contains("signature"), "{e}");
    // Without the footer key (or with verification off) the plaintext columns still read.
    FileReader::new(bytes.clone()).unwrap();
    let no_verify = keys128().verify_plaintext_footer(false);
    let rows = common::rows_json(bytes, options(no_verify)).unwrap();
    check_rows(name, &rows);
}

#[test]
fn aad_prefix_rules() {
    let name = "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted";
    let e = FileReader::with_options(read(name), options(keys128())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    assert!(e.to_string().contains("AAD prefix"), "{e}");
    let wrong = keys128().aad_prefix(b"tester2".to_vec());
    let e = FileReader::with_options(read(name), options(wrong)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    let right = keys128().aad_prefix(b"tester".to_vec());
    check_rows(
        name,
        &common::rows_json(read(name), options(right)).unwrap(),
    );

    // Stored prefix: reads without one, fails with another one.
    let name = "encrypt_columns_and_footer_aad.parquet.encrypted";
    check_rows(
        name,
        &common::rows_json(read(name), options(keys128())).unwrap(),
    );
    let wrong = keys128().aad_prefix(b"other".to_vec());
    let e = FileReader::with_options(read(name), options(wrong)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    assert!(e.to_string().contains("AAD prefix mismatch"), "{e}");
    // A prefix given for a file written without one.
    let name = "encrypt_columns_and_footer.parquet.encrypted";
    let given = keys128().aad_prefix(b"tester".to_vec());
    let e = FileReader::with_options(read(name), options(given)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
}

#[test]
fn bloom_filters_and_page_indexes_of_encrypted_columns() {
    let reader = FileReader::with_options(read(BLOOM_FILE), options(keys128())).unwrap();
    let double = column_index(&reader, "double_field");
    let float = column_index(&reader, "float_field");
    let fd = reader
        .bloom_filter(0, double)
        .unwrap()
        .expect("double_field bloom filter");
    let ff = reader
        .bloom_filter(0, float)
        .unwrap()
        .expect("float_field bloom filter");
    for i in 0..2000 {
        assert!(fd.check_f64(i as f64 + 0.5), "double {i}");
        assert!(ff.check_f32(i as f32 + 0.25), "float {i}");
    }
    let absent = (0..200).filter(|i| fd.check_f64(*i as f64 + 0.75)).count();
    assert!(absent < 20, "{absent} of 200 absent values pass the filter");
    let absent = (0..200).filter(|i| ff.check_f32(*i as f32 + 0.75)).count();
    assert!(absent < 20, "{absent} of 200 absent values pass the filter");

    // Page indexes of encrypted columns, where written.
    let mut indexes = 0;
    for file in FILES_128.iter().chain([&BLOOM_FILE]) {
        let reader =
            FileReader::with_options(read(file), options(with_prefix(file, keys128()))).unwrap();
        for c in 0..reader.schema().num_columns() {
            let Some(pi) = reader.page_index(0, c).unwrap() else {
                continue;
            };
            indexes += 1;
            assert!(!pi.pages.is_empty());
            let rows = reader.metadata().row_group(0).unwrap().num_rows();
            assert_eq!(pi.pages.last().unwrap().rows.end, rows, "{file} column {c}");
            // A row selection inside the chunk reads through the page locations.
            let sel = RowSelection::from_ranges([3..5, 40..41]);
            let batch = reader.read_column_rows(0, c, &sel).unwrap();
            let whole = reader.read_column(0, c).unwrap();
            if c == column_index(&reader, "int32_field") {
                assert_eq!(batch.values, ColumnValues::Int32(vec![3, 4, 40]));
            }
            assert!(batch.num_levels() <= whole.num_levels());
        }
    }
    assert!(indexes > 0, "no encrypted page index in the corpus files");
}

/// Offset of the first page of column `path` in row group 0.
fn chunk_start(reader: &FileReader<Vec<u8>>, path: &str) -> usize {
    let c = column_index(reader, path);
    let md = reader.metadata().row_group(0).unwrap().column(c).unwrap();
    assert!(md.has_metadata());
    match md.dictionary_page_offset() {
        Some(d) if d > 0 && d < md.data_page_offset() => d as usize,
        _ => md.data_page_offset() as usize,
    }
}

#[test]
fn altered_modules_fail_with_their_name() {
    let name = "encrypt_columns_and_footer.parquet.encrypted";
    let bytes = read(name);
    let reader = FileReader::with_options(bytes.clone(), options(keys128())).unwrap();
    let double = column_index(&reader, "double_field");
    let start = chunk_start(&reader, "double_field");
    let header_len = u32::from_le_bytes(bytes[start..start + 4].try_into().unwrap()) as usize + 4;

    // A byte inside the first page header module.
    let mut bad = bytes.clone();
    bad[start + 20] ^= 0x40;
    let r = FileReader::with_options(bad, options(keys128())).unwrap();
    let e = r.read_column(0, double).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    assert!(e.to_string().contains("page header"), "{e}");
    assert!(e.to_string().contains("double_field"), "{e}");

    // A byte inside the first page body.
    let mut bad = bytes.clone();
    bad[start + header_len + 20] ^= 0x40;
    let r = FileReader::with_options(bad, options(keys128())).unwrap();
    let e = r.read_column(0, double).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    let text = e.to_string();
    assert!(text.contains("page failed AES-GCM"), "{e}");

    // Two bytes of the encrypted FileMetaData swapped.
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let mut bad = bytes.clone();
    let (a, b) = (n - 8 - footer_len / 3, n - 8 - footer_len / 4);
    assert_ne!(bad[a], bad[b]);
    bad.swap(a, b);
    let e = FileReader::with_options(bad, options(keys128())).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Crypto | ErrorKind::Corrupt),
        "{e}"
    );

    // A huge length prefix on a page header module.
    let mut bad = bytes.clone();
    bad[start..start + 4].copy_from_slice(&0x7fff_fff0u32.to_le_bytes());
    let r = FileReader::with_options(bad, options(keys128())).unwrap();
    assert!(r.read_column(0, double).is_err());
}

#[test]
fn truncated_files_fail() {
    let bytes = read("encrypt_columns_and_footer.parquet.encrypted");
    for len in (0..bytes.len()).step_by(97) {
        assert!(FileReader::with_options(bytes[..len].to_vec(), options(keys128())).is_err());
    }
}

/// Every single-byte change to a file whose every module is AES-GCM either fails or leaves
/// the decoded rows unchanged (a changed key id, say): never wrong data, never a panic.
#[test]
fn altered_bytes_never_give_wrong_rows() {
    let name = "uniform_encryption.parquet.encrypted";
    let bytes = read(name);
    let good = common::rows_json(bytes.clone(), options(keys128())).unwrap();
    let indexes = |bytes: Vec<u8>| -> Vec<Option<PageIndex>> {
        let Ok(r) = FileReader::with_options(bytes, options(keys128())) else {
            return Vec::new();
        };
        (0..r.schema().num_columns())
            .map(|c| r.page_index(0, c).ok().flatten())
            .collect()
    };
    let good_indexes = indexes(bytes.clone());
    let mut failed = 0;
    for at in (0..bytes.len()).step_by(5) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        match common::rows_json(bad.clone(), options(keys128())) {
            Ok(rows) => assert_eq!(rows, good, "byte {at} changed the rows"),
            Err(_) => failed += 1,
        }
        for (c, pi) in indexes(bad).into_iter().enumerate() {
            if pi.is_some() {
                assert_eq!(pi, good_indexes[c], "byte {at} changed page index {c}");
            }
        }
    }
    assert!(failed > 0);
}

#[derive(Debug, PartialEq, serde::Deserialize)]
struct BloomRow {
    double_field: f64,
    float_field: f32,
    int32_field: i32,
    name: String,
}

/// The typed reader and its filter (statistics, dictionaries, Bloom filters, page index)
/// over an encrypted file.
#[test]
fn typed_filter_on_encrypted_file() {
    use parquet_serde::filter::{col, FilterOptions};
    use parquet_serde::Reader;
    let query = |p: parquet_serde::filter::Predicate, o: FilterOptions| -> Vec<BloomRow> {
        Reader::<_, BloomRow>::with_options(read(BLOOM_FILE), options(keys128()))
            .unwrap()
            .filter_with_options(p, o)
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap()
    };
    for o in [FilterOptions::default(), FilterOptions::none()] {
        let got = query(col("double_field").eq(1234.5), o);
        assert_eq!(
            got,
            vec![BloomRow {
                double_field: 1234.5,
                float_field: 1234.25,
                int32_field: 1234,
                name: "name_1234".into()
            }]
        );
        assert!(query(col("double_field").eq(1234.75), o).is_empty());
        let got = query(col("int32_field").between(100, 102), o);
        assert_eq!(
            got.iter().map(|r| r.int32_field).collect::<Vec<_>>(),
            [100, 101, 102]
        );
    }
    // Without the column keys the typed reader fails on the encrypted columns it needs.
    let footer_only = FileDecryptionProperties::builder().footer_key(FOOTER_128.to_vec());
    let r = Reader::<_, BloomRow>::with_options(read(BLOOM_FILE), options(footer_only))
        .unwrap()
        .collect::<Result<Vec<_>, _>>();
    let e = r.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
}

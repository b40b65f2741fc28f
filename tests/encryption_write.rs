//! The write side of Parquet modular encryption, checked without our own reader:
//! - DuckDB reads uniformly encrypted files with the footer key and gets the rows written;
//! - the bytes of every configuration are taken apart by hand (footer, column metadata,
//!   page headers and bodies, page indexes, Bloom filters), each module decrypted with the
//!   key and AAD the specification gives it, and every offset and length checked;
//! - pyarrow, without keys, reads the plaintext columns of a plaintext-footer file.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use parquet_serde::__internals::format;
use parquet_serde::__internals::format::{
    BloomFilterHeader, ColumnChunk, ColumnCryptoMetaData, ColumnIndex, ColumnMetaData,
    EncryptionAlgorithm, FileCryptoMetaData, FileMetaData, OffsetIndex, PageHeader,
};
use parquet_serde::core::column::DataPageVersion;
// The module ciphers and AADs, to decrypt what the writer wrote by hand (not API).
use parquet_serde::__internals::encryption::{
    file_aad, footer_aad, module_aad, module_len, ModuleKey, ModuleType, CTR_OVERHEAD,
    GCM_OVERHEAD, SIGNATURE_LEN,
};
use parquet_serde::core::encryption::{Algorithm, FileEncryptionProperties};
use parquet_serde::core::page::PageType;
use parquet_serde::{Compression, ParquetSchema, WriterOptions};
use serde::Serialize;
use serde_json::{json, Value as J};

const K128: &[u8] = b"0123456789012345";
const K192: &[u8] = b"012345678901234567890123";
const K256: &[u8] = b"01234567890123456789012345678901";
const KCOL: &[u8] = b"1234567890123450";

#[derive(Debug, Clone, Serialize, ParquetSchema)]
struct Rec {
    id: i64,
    name: Option<String>,
    score: Option<f64>,
    flag: bool,
    small: i32,
    tags: Vec<i32>,
}

/// Leaf paths of `Rec`, in column order.
const PATHS: [&str; 6] = ["id", "name", "score", "flag", "small", "tags.list.element"];

fn rows(n: usize) -> Vec<Rec> {
    (0..n)
        .map(|i| Rec {
            id: i as i64 * 3 - 100,
            name: (i % 7 != 0).then(|| format!("name-{}", i % 23)),
            score: (i % 5 != 1).then_some(i as f64 * 0.5),
            flag: i % 3 == 0,
            small: (i % 10) as i32,
            tags: (0..i % 4).map(|t| (i + t) as i32).collect(),
        })
        .collect()
}

fn base_options() -> WriterOptions {
    WriterOptions::default()
        .row_group_rows(1200)
        .page_row_limit(250)
        .bloom_filter("name", Default::default())
        .bloom_filter("id", Default::default())
}

fn write(rows: &[Rec], options: WriterOptions) -> Vec<u8> {
    let mut w = parquet_serde::Writer::<_, Rec>::new(Vec::new(), options).unwrap();
    w.write_all(rows).unwrap();
    w.into_inner().unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Runs `script` with the test Python and `args`; its stdout.
fn run_python(script: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(common::python())
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// DuckDB takes a key string of 16, 24 or 32 characters as the key itself (and decodes
/// other strings as base64), so ASCII test keys go in as they are.
const DUCKDB_READ: &str = r#"
import json, sys, duckdb
path, key = sys.argv[1], bytes.fromhex(sys.argv[2]).decode('ascii')
con = duckdb.connect()
con.execute("PRAGMA add_parquet_key('k', '%s')" % key)
cols = []
try:
    for c in ['id', 'name', 'score', 'flag', 'small']:
        cols.append([r[0] for r in con.execute(
            "SELECT %s FROM read_parquet(?, encryption_config={footer_key: 'k'})" % c,
            [path]).fetchall()])
except Exception as e:
    print('ERROR', str(e).splitlines()[0])
    sys.exit(0)
for r in zip(*cols):
    print(json.dumps(list(r)))
"#;

/// The flat columns of `rows` (what DuckDB is asked for).
fn expected_flat(rows: &[Rec]) -> Vec<J> {
    rows.iter()
        .map(|r| json!([r.id, r.name, r.score, r.flag, r.small]))
        .collect()
}

fn duckdb_rows(path: &Path, key: &[u8]) -> Result<Vec<J>, String> {
    let out = run_python(DUCKDB_READ, &[path.to_str().unwrap(), &hex(key)]);
    if let Some(err) = out.strip_prefix("ERROR") {
        return Err(err.trim().to_string());
    }
    Ok(out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect())
}

fn assert_rows(got: &[J], want: &[J], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: row count");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(common::json_eq(g, w), "{what}: row {i}: {g} != {w}");
    }
}

/// DuckDB 2.0 reads one flat column per query, of one data page per chunk (any number of
/// row groups); it fails with "Computed AES tag differs" when a query reads two encrypted
/// columns, on the second data page of a chunk, with Bloom filters and on list columns (it
/// fails on two columns of parquet-java's `uniform_encryption.parquet.encrypted` too). So
/// these files keep one page per chunk and no Bloom filter, and DuckDB reads the flat
/// columns one query each (the structural tests below check multi-page chunks, lists and
/// Bloom filters against the specification's AADs).
fn duckdb_options() -> WriterOptions {
    WriterOptions::default()
        .row_group_rows(1200)
        .page_row_limit(5000)
}

#[test]
fn duckdb_reads_uniformly_encrypted_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = rows(3000);
    let want = expected_flat(&data);
    let base_options = duckdb_options;
    // (name, key, options, whether DuckDB 2.0 reads it)
    let cases: Vec<(&str, &[u8], WriterOptions, bool)> = vec![
        ("k128 v1 dict", K128, base_options(), true),
        (
            "k256 v1 dict zstd",
            K256,
            base_options().compression(Compression::Zstd(3)),
            true,
        ),
        (
            "k192 v1 plain",
            K192,
            base_options().dictionary(false),
            true,
        ),
        (
            "k256 v2 plain zstd",
            K256,
            base_options()
                .data_page_version(DataPageVersion::V2)
                .dictionary(false)
                .compression(Compression::Zstd(3)),
            false,
        ),
        (
            "k192 v2 dict no checksums",
            K192,
            base_options()
                .data_page_version(DataPageVersion::V2)
                .checksums(false),
            false,
        ),
        (
            "k256 v1 uncompressed plain",
            K256,
            base_options()
                .compression(Compression::Uncompressed)
                .dictionary(false),
            true,
        ),
    ];
    for (name, key, options, must_read) in cases {
        let props = FileEncryptionProperties::builder(key.to_vec())
            .build()
            .unwrap();
        let bytes = write(&data, options.encryption(props));
        assert_eq!(&bytes[..4], b"PARE");
        let path = dir
            .path()
            .join(format!("{}.parquet", name.replace(' ', "_")));
        std::fs::write(&path, &bytes).unwrap();
        match (duckdb_rows(&path, key), must_read) {
            (Ok(got), _) => assert_rows(&got, &want, name),
            (Err(e), false) => eprintln!("DuckDB cannot read {name}: {e}"),
            (Err(e), true) => panic!("DuckDB cannot read {name}: {e}"),
        }
    }
}

/// What DuckDB makes of a stored AAD prefix: it reads the file (the prefix is in the
/// file) or refuses the prefix with an error; it never returns wrong rows.
#[test]
fn duckdb_with_stored_aad_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let data = rows(500);
    let props = FileEncryptionProperties::builder(K128.to_vec())
        .aad_prefix(b"table/part=1".to_vec())
        .build()
        .unwrap();
    let path = dir.path().join("prefix.parquet");
    std::fs::write(&path, write(&data, duckdb_options().encryption(props))).unwrap();
    match duckdb_rows(&path, K128) {
        Ok(got) => assert_rows(&got, &expected_flat(&data), "aad prefix"),
        Err(e) => eprintln!("DuckDB does not read files with an AAD prefix: {e}"),
    }
}

/// A file taken apart by hand.
struct Parsed {
    bytes: Vec<u8>,
    file_aad: Vec<u8>,
    algorithm: EncryptionAlgorithm,
    /// The footer's FileMetaData (decrypted when the footer is encrypted).
    meta: FileMetaData,
}

/// DuckDB writes an encrypted file (its own layout: no aad_file_unique, an empty AAD for every
/// module, no column crypto metadata, page sizes before encryption); we read DuckDB's rows.
const DUCKDB_WRITE: &str = r#"
import json, sys, duckdb
path, key = sys.argv[1], bytes.fromhex(sys.argv[2]).decode('ascii')
con = duckdb.connect()
con.execute("SET force_mbedtls_unsafe = 'true'")
con.execute("PRAGMA add_parquet_key('k', '%s')" % key)
con.execute("COPY (SELECT range AS id, 'name' || (range %% 7) AS name, "
            "CASE WHEN range %% 5 = 0 THEN NULL ELSE range / 4.0 END AS score, "
            "[range, range + 1] AS pair FROM range(3000)) "
            "TO '%s' (ENCRYPTION_CONFIG {footer_key: 'k'}, ROW_GROUP_SIZE 1000)" % path)
for r in con.execute("SELECT id, name, score, pair FROM read_parquet(?, "
                     "encryption_config={footer_key: 'k'})", [path]).fetchall():
    print(json.dumps([r[0], r[1], float(r[2]) if r[2] is not None else None, r[3]]))
"#;

#[test]
fn we_read_duckdb_encrypted_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("duck.parquet");
    let out = run_python(DUCKDB_WRITE, &[path.to_str().unwrap(), &hex(K128)]);
    let want: Vec<J> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(want.len(), 3000);
    let bytes = std::fs::read(&path).unwrap();
    let keys = parquet_serde::core::encryption::FileDecryptionProperties::builder()
        .footer_key(K128.to_vec())
        .build()
        .unwrap();
    let options = parquet_serde::ReadOptions::default().decryption(keys);
    let got: Vec<J> = common::rows_json(bytes.clone(), options)
        .unwrap()
        .iter()
        .map(|l| {
            let v: J = serde_json::from_str(l).unwrap();
            json!([v["id"], v["name"], v["score"], v["pair"]])
        })
        .collect();
    assert_rows(&got, &want, "DuckDB-encrypted file");
    // A wrong key is still an error.
    let wrong = parquet_serde::core::encryption::FileDecryptionProperties::builder()
        .footer_key(b"1234567890123450".to_vec())
        .build()
        .unwrap();
    let e = common::rows_json(
        bytes,
        parquet_serde::ReadOptions::default().decryption(wrong),
    )
    .unwrap_err();
    assert_eq!(e.kind(), parquet_serde::ErrorKind::Crypto, "{e}");
}

fn algorithm_parts(a: &EncryptionAlgorithm) -> (Option<Vec<u8>>, Vec<u8>, Option<bool>, bool) {
    match a {
        EncryptionAlgorithm::AesGcmV1(g) => (
            g.aad_prefix.clone(),
            g.aad_file_unique.clone().unwrap(),
            g.supply_aad_prefix,
            false,
        ),
        EncryptionAlgorithm::AesGcmCtrV1(g) => (
            g.aad_prefix.clone(),
            g.aad_file_unique.clone().unwrap(),
            g.supply_aad_prefix,
            true,
        ),
        other => panic!("unexpected algorithm {other:?}"),
    }
}

/// Opens the footer with `footer_key`; `prefix` is the AAD prefix the reader supplies.
fn parse(bytes: Vec<u8>, footer_key: &[u8], prefix: Option<&[u8]>) -> Parsed {
    let n = bytes.len();
    let magic = &bytes[n - 4..];
    assert_eq!(&bytes[..4], magic);
    let len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let footer = &bytes[n - 8 - len..n - 8];
    let key = ModuleKey::new(footer_key).unwrap();
    if magic == b"PARE" {
        let (crypto, used) = format::decode::<FileCryptoMetaData>(footer).unwrap();
        let (stored, unique, supply, _) = algorithm_parts(&crypto.encryption_algorithm);
        assert_eq!(unique.len(), 8);
        assert_eq!(supply == Some(true), stored.is_none() && prefix.is_some());
        let faad = file_aad(stored.as_deref().or(prefix).unwrap_or_default(), &unique);
        let module = &footer[used..];
        assert_eq!(module_len(module).unwrap(), module.len());
        let plain = key
            .gcm_decrypt(module, &footer_aad(&faad), ModuleType::Footer)
            .unwrap();
        let (meta, used) = format::decode::<FileMetaData>(&plain).unwrap();
        assert_eq!(used, plain.len());
        assert!(meta.encryption_algorithm.is_none());
        Parsed {
            bytes,
            file_aad: faad,
            algorithm: crypto.encryption_algorithm,
            meta,
        }
    } else {
        assert_eq!(magic, b"PAR1");
        let (meta, used) = format::decode::<FileMetaData>(footer).unwrap();
        assert_eq!(footer.len() - used, SIGNATURE_LEN);
        let algorithm = meta
            .encryption_algorithm
            .clone()
            .expect("encryption_algorithm");
        let (stored, unique, _, _) = algorithm_parts(&algorithm);
        let faad = file_aad(stored.as_deref().or(prefix).unwrap_or_default(), &unique);
        key.verify_signature(&footer[..used], &footer_aad(&faad), &footer[used..])
            .unwrap();
        Parsed {
            bytes,
            file_aad: faad,
            algorithm,
            meta,
        }
    }
}

/// How a test expects column `c` to be encrypted: its key, or `None` for plaintext.
type KeyOf<'a> = &'a dyn Fn(usize) -> Option<&'static [u8]>;

/// Checks every column chunk of `p`: metadata, pages, page indexes and Bloom filters.
fn check_chunks(p: &Parsed, key_of: KeyOf, footer_key: &[u8], plaintext_footer: bool) -> usize {
    let ctr = algorithm_parts(&p.algorithm).3;
    let mut data_pages = 0;
    for (rg, group) in p.meta.row_groups.iter().enumerate() {
        assert_eq!(group.ordinal, Some(rg as i16));
        for (c, chunk) in group.columns.iter().enumerate() {
            let key = key_of(c);
            let md = column_metadata(p, rg, c, chunk, key, footer_key, plaintext_footer);
            assert_eq!(md.path_in_schema.join("."), PATHS[c]);
            data_pages += check_pages(p, rg, c, &md, key, ctr);
            check_indexes(p, rg, c, chunk, &md, key);
        }
    }
    data_pages
}

/// The full ColumnMetaData of a chunk, decrypted if need be; checks the crypto metadata
/// and the redaction of a plaintext footer.
fn column_metadata(
    p: &Parsed,
    rg: usize,
    c: usize,
    chunk: &ColumnChunk,
    key: Option<&[u8]>,
    footer_key: &[u8],
    plaintext_footer: bool,
) -> ColumnMetaData {
    let Some(key) = key else {
        assert!(chunk.crypto_metadata.is_none() && chunk.encrypted_column_metadata.is_none());
        return chunk.meta_data.clone().unwrap();
    };
    let with_footer_key = key == footer_key;
    match chunk.crypto_metadata.as_ref().unwrap() {
        ColumnCryptoMetaData::EncryptionWithFooterKey => assert!(with_footer_key),
        ColumnCryptoMetaData::EncryptionWithColumnKey(k) => {
            assert!(!with_footer_key);
            assert_eq!(k.path_in_schema.join("."), PATHS[c]);
            assert_eq!(k.key_metadata.as_deref(), Some(PATHS[c].as_bytes()));
        }
        other => panic!("{other:?}"),
    }
    if with_footer_key && !plaintext_footer {
        assert!(chunk.encrypted_column_metadata.is_none());
        return chunk.meta_data.clone().unwrap();
    }
    let sealed = chunk.encrypted_column_metadata.as_ref().unwrap();
    let aad = module_aad(&p.file_aad, ModuleType::ColumnMetaData, rg, c, 0).unwrap();
    let plain = ModuleKey::new(key)
        .unwrap()
        .gcm_decrypt(sealed, &aad, ModuleType::ColumnMetaData)
        .unwrap();
    let full = format::decode::<ColumnMetaData>(&plain).unwrap().0;
    assert!(full.statistics.is_some() && full.encoding_stats.is_some());
    if plaintext_footer {
        let shown = chunk.meta_data.as_ref().unwrap();
        assert!(shown.statistics.is_none());
        assert!(shown.encoding_stats.is_none() && shown.size_statistics.is_none());
        assert!(shown.bloom_filter_offset.is_none() && shown.bloom_filter_length.is_none());
        assert_eq!(shown.data_page_offset, full.data_page_offset);
        assert_eq!(shown.total_compressed_size, full.total_compressed_size);
        assert_eq!(shown.num_values, full.num_values);
    } else {
        assert!(chunk.meta_data.is_none());
    }
    full
}

/// Walks the pages of a chunk, decrypting each header and body; returns the data pages.
fn check_pages(
    p: &Parsed,
    rg: usize,
    c: usize,
    md: &ColumnMetaData,
    key: Option<&[u8]>,
    ctr: bool,
) -> usize {
    let start = md.dictionary_page_offset.unwrap_or(md.data_page_offset) as usize;
    let end = start + md.total_compressed_size as usize;
    let mut at = start;
    let mut ordinal = 0;
    let mut values = 0i64;
    let key = key.map(|k| ModuleKey::new(k).unwrap());
    while at < end {
        let (header, header_len) = match &key {
            Some(k) => {
                let n = module_len(&p.bytes[at..]).unwrap();
                let dict = at == start && md.dictionary_page_offset.is_some();
                let module = if dict {
                    ModuleType::DictionaryPageHeader
                } else {
                    ModuleType::DataPageHeader
                };
                let aad = module_aad(&p.file_aad, module, rg, c, ordinal).unwrap();
                let plain = k.gcm_decrypt(&p.bytes[at..at + n], &aad, module).unwrap();
                let (h, used) = format::decode::<PageHeader>(&plain).unwrap();
                assert_eq!(used, plain.len());
                (h, n)
            }
            None => format::decode::<PageHeader>(&p.bytes[at..]).unwrap(),
        };
        let body_at = at + header_len;
        let size = header.compressed_page_size as usize;
        let body = &p.bytes[body_at..body_at + size];
        if let Some(crc) = header.crc {
            // Over the page as written: the encrypted module in encrypted columns.
            assert_eq!(crc, crc32(body) as i32);
        }
        if let Some(k) = &key {
            assert_eq!(module_len(body).unwrap(), size);
            let dict = header.r#type == PageType::DictionaryPage;
            let module = if dict {
                ModuleType::DictionaryPage
            } else {
                ModuleType::DataPage
            };
            let plain = if ctr {
                assert!(size >= CTR_OVERHEAD);
                k.ctr_decrypt(body, module).unwrap()
            } else {
                let aad = module_aad(&p.file_aad, module, rg, c, ordinal).unwrap();
                k.gcm_decrypt(body, &aad, module).unwrap()
            };
            let overhead = if ctr { CTR_OVERHEAD } else { GCM_OVERHEAD };
            assert_eq!(plain.len() + overhead, size);
            if md.codec == format::CompressionCodec::Uncompressed {
                assert_eq!(plain.len(), header.uncompressed_page_size as usize);
            }
        }
        if header.r#type != PageType::DictionaryPage {
            if at == md.data_page_offset as usize {
                assert_eq!(ordinal, 0);
            }
            values += header
                .data_page_header
                .as_ref()
                .map(|h| h.num_values)
                .or(header.data_page_header_v2.as_ref().map(|h| h.num_values))
                .unwrap() as i64;
            ordinal += 1;
        }
        at = body_at + size;
    }
    assert_eq!(at, end, "pages fill total_compressed_size exactly");
    assert_eq!(values, md.num_values);
    ordinal
}

fn crc32(b: &[u8]) -> u32 {
    // Bitwise CRC-32 (IEEE), independent of the library's.
    let mut crc = !0u32;
    for &x in b {
        crc ^= x as u32;
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

/// Decrypts (or decodes) the module of `len` bytes at `offset`, checking the length.
fn module_at(
    p: &Parsed,
    offset: i64,
    len: usize,
    key: Option<&ModuleKey>,
    aad: &[u8],
    m: ModuleType,
) -> Vec<u8> {
    let bytes = &p.bytes[offset as usize..offset as usize + len];
    match key {
        Some(k) => {
            assert_eq!(module_len(bytes).unwrap(), len);
            k.gcm_decrypt(bytes, aad, m).unwrap()
        }
        None => bytes.to_vec(),
    }
}

fn check_indexes(
    p: &Parsed,
    rg: usize,
    c: usize,
    chunk: &ColumnChunk,
    md: &ColumnMetaData,
    key: Option<&[u8]>,
) {
    let key = key.map(|k| ModuleKey::new(k).unwrap());
    let aad = |m| module_aad(&p.file_aad, m, rg, c, 0).unwrap();
    let oi_plain = module_at(
        p,
        chunk.offset_index_offset.unwrap(),
        chunk.offset_index_length.unwrap() as usize,
        key.as_ref(),
        &aad(ModuleType::OffsetIndex),
        ModuleType::OffsetIndex,
    );
    let (oi, used) = format::decode::<OffsetIndex>(&oi_plain).unwrap();
    assert_eq!(used, oi_plain.len());
    // Page locations tile the data pages exactly.
    let mut at = md.data_page_offset;
    for l in &oi.page_locations {
        assert_eq!(l.offset, at);
        at += l.compressed_page_size as i64;
    }
    let start = md.dictionary_page_offset.unwrap_or(md.data_page_offset);
    assert_eq!(at, start + md.total_compressed_size);
    if let (Some(off), Some(len)) = (chunk.column_index_offset, chunk.column_index_length) {
        let ci_plain = module_at(
            p,
            off,
            len as usize,
            key.as_ref(),
            &aad(ModuleType::ColumnIndex),
            ModuleType::ColumnIndex,
        );
        let (ci, used) = format::decode::<ColumnIndex>(&ci_plain).unwrap();
        assert_eq!(used, ci_plain.len());
        assert_eq!(ci.null_pages.len(), oi.page_locations.len());
    }
    if let Some(off) = md.bloom_filter_offset {
        let total = md.bloom_filter_length.unwrap() as usize;
        let (header, header_len) = match &key {
            Some(k) => {
                let n = module_len(&p.bytes[off as usize..]).unwrap();
                let plain = module_at(
                    p,
                    off,
                    n,
                    Some(k),
                    &aad(ModuleType::BloomFilterHeader),
                    ModuleType::BloomFilterHeader,
                );
                (format::decode::<BloomFilterHeader>(&plain).unwrap().0, n)
            }
            None => format::decode::<BloomFilterHeader>(&p.bytes[off as usize..]).unwrap(),
        };
        let bitset = module_at(
            p,
            off + header_len as i64,
            total - header_len,
            key.as_ref(),
            &aad(ModuleType::BloomFilterBitset),
            ModuleType::BloomFilterBitset,
        );
        assert_eq!(bitset.len(), header.num_bytes as usize);
    }
}

fn props(key: &[u8]) -> parquet_serde::core::encryption::FileEncryptionPropertiesBuilder {
    FileEncryptionProperties::builder(key.to_vec())
}

fn structural(
    options: WriterOptions,
    prefix: Option<&[u8]>,
    key_of: KeyOf,
    plaintext_footer: bool,
) -> Parsed {
    let footer_key = options
        .encryption_properties()
        .unwrap()
        .footer_key()
        .to_vec();
    let data = rows(3000);
    let bytes = write(&data, options);
    let p = parse(bytes, &footer_key, prefix);
    assert_eq!(p.meta.num_rows, 3000);
    assert_eq!(p.meta.row_groups.len(), 3);
    let pages = check_chunks(&p, key_of, &footer_key, plaintext_footer);
    assert!(pages > 3 * PATHS.len(), "{pages} data pages");
    p
}

#[test]
fn uniform_gcm_128() {
    let o = base_options().compression(Compression::Uncompressed);
    let p = structural(
        o.encryption(props(K128).build().unwrap()),
        None,
        &|_| Some(K128),
        false,
    );
    assert!(matches!(p.algorithm, EncryptionAlgorithm::AesGcmV1(_)));
}

#[test]
fn uniform_ctr_256_v2_with_footer_key_metadata() {
    let e = props(K256)
        .algorithm(Algorithm::AesGcmCtrV1)
        .footer_key_metadata(b"kf".to_vec())
        .build()
        .unwrap();
    let o = base_options()
        .data_page_version(DataPageVersion::V2)
        .compression(Compression::Uncompressed);
    let p = structural(o.encryption(e), None, &|_| Some(K256), false);
    assert!(matches!(p.algorithm, EncryptionAlgorithm::AesGcmCtrV1(_)));
    let n = p.bytes.len();
    let len = u32::from_le_bytes(p.bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let crypto = format::decode::<FileCryptoMetaData>(&p.bytes[n - 8 - len..])
        .unwrap()
        .0;
    assert_eq!(crypto.key_metadata, Some(b"kf".to_vec()));
}

/// Column keys (one of 192 bits, two columns sharing a key), a column with the footer key,
/// the rest plaintext, encrypted footer, stored AAD prefix.
#[test]
fn column_keys_encrypted_footer() {
    let e = props(K128)
        .column_key("name", K192.to_vec(), Some(b"name".to_vec()))
        .column_key("score", KCOL.to_vec(), Some(b"score".to_vec()))
        .column_key(
            "tags.list.element",
            KCOL.to_vec(),
            Some(b"tags.list.element".to_vec()),
        )
        .column_with_footer_key("id")
        .aad_prefix(b"tbl".to_vec())
        .build()
        .unwrap();
    let key_of = |c: usize| match c {
        0 => Some(K128),
        1 => Some(K192),
        2 | 5 => Some(KCOL),
        _ => None,
    };
    let p = structural(base_options().encryption(e), None, &key_of, false);
    let (stored, _, supply, _) = algorithm_parts(&p.algorithm);
    assert_eq!(stored.as_deref(), Some(&b"tbl"[..]));
    assert_eq!(supply, Some(false));
}

/// Column keys, plaintext footer (signed), a footer-key column, AES_GCM_CTR_V1, an AAD
/// prefix the reader supplies.
#[test]
fn column_keys_plaintext_footer_supplied_prefix() {
    let e = props(K256)
        .plaintext_footer(true)
        .algorithm(Algorithm::AesGcmCtrV1)
        .column_key("name", KCOL.to_vec(), Some(b"name".to_vec()))
        .column_with_footer_key("score")
        .aad_prefix(b"secret-prefix".to_vec())
        .store_aad_prefix(false)
        .footer_key_metadata(b"kf".to_vec())
        .build()
        .unwrap();
    let key_of = |c: usize| match c {
        1 => Some(KCOL),
        2 => Some(K256),
        _ => None,
    };
    let p = structural(
        base_options().encryption(e),
        Some(b"secret-prefix"),
        &key_of,
        true,
    );
    let (stored, _, supply, _) = algorithm_parts(&p.algorithm);
    assert_eq!(stored, None);
    assert_eq!(supply, Some(true));
    assert_eq!(p.meta.footer_signing_key_metadata, Some(b"kf".to_vec()));
}

/// Legacy readers (pyarrow without keys) read the plaintext columns of a plaintext-footer
/// file.
#[test]
fn pyarrow_reads_plaintext_columns_without_keys() {
    let e = props(K128)
        .plaintext_footer(true)
        .column_key("name", KCOL.to_vec(), None)
        .column_key("score", KCOL.to_vec(), None)
        .build()
        .unwrap();
    let data = rows(2500);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plain_footer.parquet");
    std::fs::write(&path, write(&data, base_options().encryption(e))).unwrap();
    let script = r#"
import json, sys
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1], columns=['id', 'flag', 'small', 'tags'])
for r in t.to_pylist():
    print(json.dumps([r['id'], r['flag'], r['small'], r['tags']]))
"#;
    let got: Vec<J> = run_python(script, &[path.to_str().unwrap()])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want: Vec<J> = data
        .iter()
        .map(|r| json!([r.id, r.flag, r.small, r.tags]))
        .collect();
    assert_rows(&got, &want, "plaintext columns");
}

#[test]
fn chunks_bound_to_their_row_group() {
    use parquet_serde::core::column::ColumnBatch;
    use parquet_serde::core::file::FileWriter;
    use parquet_serde::core::values::ColumnValues;
    let schema: parquet_serde::core::schema::Schema =
        "message m { required int64 a; }".parse().unwrap();
    let o = WriterOptions::default().encryption(props(K128).build().unwrap());
    let mut w = FileWriter::new(Vec::new(), schema, o).unwrap();
    let batch = ColumnBatch {
        values: ColumnValues::Int64(vec![1, 2]),
        def_levels: vec![],
        rep_levels: vec![],
    };
    let mut first = w.column_writer(0).unwrap();
    let mut early = w.column_writer(0).unwrap();
    first.write(&batch).unwrap();
    early.write(&batch).unwrap();
    w.write_row_group(vec![first.close().unwrap()]).unwrap();
    // Made before row group 0 was written: encrypted for row group 0.
    let err = w.write_row_group(vec![early.close().unwrap()]).unwrap_err();
    assert!(
        err.to_string().contains("encrypted for row group 0"),
        "{err}"
    );
}

#[test]
fn options_refuse_unknown_encrypted_columns() {
    let schema: parquet_serde::core::schema::Schema =
        "message m { required int64 a; }".parse().unwrap();
    let o = WriterOptions::default().encryption(
        props(K128)
            .column_key("b", KCOL.to_vec(), None)
            .build()
            .unwrap(),
    );
    assert!(o.validate(&schema).is_err());
    assert!(parquet_serde::core::file::FileWriter::new(Vec::new(), schema, o).is_err());
}

#[test]
fn unencrypted_output_unchanged_by_none() {
    let data = rows(100);
    let a = write(&data, base_options());
    let b = write(&data, base_options().encryption(None));
    assert_eq!(a, b);
    assert_eq!(&a[..4], b"PAR1");
}

#[derive(Serialize, ParquetSchema)]
struct LogLine {
    ts: i64,
    level: &'static str,
    service: String,
    request_id: String,
    status: Option<i32>,
    latency_ms: i32,
    message: String,
}

/// Write time of a flat log workload, plaintext and uniformly encrypted (AES_GCM_V1):
/// `cargo test --release --test encryption_write overhead -- --ignored --nocapture`.
#[test]
#[ignore]
fn overhead() {
    const LEVELS: [&str; 4] = ["DEBUG", "INFO", "WARN", "ERROR"];
    let rows: Vec<LogLine> = (0..1_000_000u64)
        .map(|i| {
            let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            LogLine {
                ts: 1_700_000_000_000 + i as i64 * 7,
                level: LEVELS[(h >> 60) as usize % 4],
                service: format!("svc-{}", (h >> 40) % 12),
                request_id: format!("{:016x}", h),
                status: (h % 10 != 0).then_some(200 + (h % 5) as i32 * 100),
                latency_ms: (h % 2000) as i32,
                message: format!(
                    "request {} handled in {} ms by worker {}",
                    i,
                    h % 2000,
                    h % 64
                ),
            }
        })
        .collect();
    let time = |options: &WriterOptions| {
        let mut best = f64::MAX;
        let mut size = 0;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let bytes = parquet_serde::to_vec_with(&rows, options.clone()).unwrap();
            best = best.min(t.elapsed().as_secs_f64());
            size = bytes.len();
        }
        (best, size)
    };
    let plain = WriterOptions::default();
    let enc = plain.clone().encryption(props(K128).build().unwrap());
    let (tp, sp) = time(&plain);
    let (te, se) = time(&enc);
    println!(
        "plaintext {:.3} s ({sp} bytes), AES_GCM_V1 {:.3} s ({se} bytes): {:+.1}%",
        tp,
        te,
        (te / tp - 1.0) * 100.0
    );
}

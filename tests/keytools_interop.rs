//! Envelope encryption key tools against parquet-java's and pyarrow's: the key material of
//! parquet-testing's `external_key_material_java.parquet.encrypted`, and files pyarrow's
//! CryptoFactory writes (testdata/keytools_pyarrow.py). The data keys our retriever unwraps
//! are checked by decrypting each file's footer and column metadata by hand (AES-GCM
//! authenticates, so a wrong key cannot pass).

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use parquet_serde::__internals::format::{
    decode, ColumnCryptoMetaData, ColumnMetaData, EncryptionAlgorithm, FileCryptoMetaData,
    FileMetaData,
};
// The module ciphers, AADs and key material JSON, to decrypt and read by hand what the
// writers wrote (not API).
use parquet_serde::__internals::encryption::{
    file_aad, footer_aad, module_aad, ModuleKey, ModuleType, SIGNATURE_LEN,
};
use parquet_serde::__internals::keytools::{KeyMaterial, KeyMetadata};
use parquet_serde::core::encryption::FileDecryptionProperties;
use parquet_serde::core::keytools::{
    CryptoFactory, DecryptionConfiguration, InMemoryKms, KeyMaterialStore, KmsClient,
    KmsConnectionConfig,
};
use parquet_serde::ErrorKind;

fn master_keys() -> InMemoryKms {
    InMemoryKms::new([
        ("kf", b"0123456789012345".to_vec()),
        ("kc1", b"1234567890123450".to_vec()),
        ("kc2", b"1234567890123451".to_vec()),
    ])
    .unwrap()
}

fn factory(kms: InMemoryKms) -> CryptoFactory {
    let kms = Arc::new(kms);
    CryptoFactory::new(move |_| Ok(kms.clone() as Arc<dyn KmsClient>))
}

fn decryption(path: Option<&Path>) -> FileDecryptionProperties {
    factory(master_keys())
        .file_decryption_properties(
            &KmsConnectionConfig::default(),
            &DecryptionConfiguration::default(),
            path,
        )
        .unwrap()
}

/// What decrypting a file's metadata by hand found.
#[derive(Debug)]
struct Decrypted {
    metadata: FileMetaData,
    footer_key: Vec<u8>,
    /// Column path -> (column key, decrypted ColumnMetaData), for columns with their own key.
    column_keys: BTreeMap<String, (Vec<u8>, ColumnMetaData)>,
    /// Column path -> key metadata, for columns with their own key.
    column_key_metadata: BTreeMap<String, Vec<u8>>,
}

fn aad_parts(alg: &EncryptionAlgorithm) -> (Vec<u8>, Vec<u8>) {
    match alg {
        EncryptionAlgorithm::AesGcmV1(a) => (
            a.aad_prefix.clone().unwrap_or_default(),
            a.aad_file_unique.clone().unwrap_or_default(),
        ),
        EncryptionAlgorithm::AesGcmCtrV1(a) => (
            a.aad_prefix.clone().unwrap_or_default(),
            a.aad_file_unique.clone().unwrap_or_default(),
        ),
        other => panic!("unknown algorithm {other:?}"),
    }
}

/// Reads the footer at the end of `bytes` (encrypted `PARE` or signed plaintext `PAR1`) with
/// the keys `props` finds, then decrypts the ColumnMetaData of every column-key column.
fn decrypt_metadata(
    bytes: &[u8],
    props: &FileDecryptionProperties,
) -> parquet_serde::Result<Decrypted> {
    let n = bytes.len();
    assert!(n >= 12, "file too short");
    let len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let footer = &bytes[n - 8 - len..n - 8];
    let (metadata, footer_key, file_aad) = match &bytes[n - 4..] {
        b"PARE" => {
            let (crypto, used) = decode::<FileCryptoMetaData>(footer)?;
            let (prefix, unique) = aad_parts(&crypto.encryption_algorithm);
            let file_aad = file_aad(&prefix, &unique);
            let key = props.footer_key(crypto.key_metadata.as_deref())?;
            let plain = ModuleKey::new(&key)?.gcm_decrypt(
                &footer[used..],
                &footer_aad(&file_aad),
                ModuleType::Footer,
            )?;
            let (md, _) = decode::<FileMetaData>(&plain)?;
            (md, key, file_aad)
        }
        b"PAR1" => {
            let (md, used) = decode::<FileMetaData>(footer)?;
            assert_eq!(footer.len() - used, SIGNATURE_LEN);
            let alg = md.encryption_algorithm.as_ref().expect("signed footer");
            let (prefix, unique) = aad_parts(alg);
            let file_aad = file_aad(&prefix, &unique);
            let key = props.footer_key(md.footer_signing_key_metadata.as_deref())?;
            ModuleKey::new(&key)?.verify_signature(
                &footer[..used],
                &footer_aad(&file_aad),
                &footer[used..],
            )?;
            (md, key, file_aad)
        }
        other => panic!("bad magic {other:?}"),
    };
    let mut column_keys = BTreeMap::new();
    let mut column_key_metadata = BTreeMap::new();
    for (rg_index, rg) in metadata.row_groups.iter().enumerate() {
        let rg_ordinal = rg.ordinal.map_or(rg_index, |o| o as usize);
        for (col, chunk) in rg.columns.iter().enumerate() {
            let Some(ColumnCryptoMetaData::EncryptionWithColumnKey(with_key)) =
                &chunk.crypto_metadata
            else {
                continue;
            };
            let path = with_key.path_in_schema.join(".");
            let key = props.column_key(&path, with_key.key_metadata.as_deref())?;
            let module = chunk
                .encrypted_column_metadata
                .as_deref()
                .expect("encrypted column metadata");
            let aad = module_aad(&file_aad, ModuleType::ColumnMetaData, rg_ordinal, col, 0)?;
            let plain =
                ModuleKey::new(&key)?.gcm_decrypt(module, &aad, ModuleType::ColumnMetaData)?;
            let (cmd, _) = decode::<ColumnMetaData>(&plain)?;
            assert_eq!(cmd.path_in_schema.join("."), path);
            column_key_metadata.insert(
                path.clone(),
                with_key.key_metadata.clone().unwrap_or_default(),
            );
            column_keys.insert(path, (key, cmd));
        }
    }
    Ok(Decrypted {
        metadata,
        footer_key,
        column_keys,
        column_key_metadata,
    })
}

fn java_file() -> PathBuf {
    common::corpus().join("data/external_key_material_java.parquet.encrypted")
}

#[test]
fn java_external_key_material_names_the_index_keys() {
    let store = KeyMaterialStore::load(&java_file()).unwrap();
    let mut ids = BTreeMap::new();
    for id in store.key_ids() {
        let m = KeyMaterial::parse(store.get(id).unwrap()).unwrap();
        assert!(m.double_wrapping.is_some(), "{id}");
        assert_eq!(m.is_footer_key, id == "footerKey");
        ids.insert(id.to_string(), m.master_key_id);
    }
    let expected: BTreeMap<String, String> = [
        ("columnKey0", "kc1"),
        ("columnKey1", "kc2"),
        ("footerKey", "kf"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(ids, expected);
}

#[test]
fn java_external_key_material_decrypts_the_footer() {
    let path = java_file();
    let bytes = common::read(&path);
    let d = decrypt_metadata(&bytes, &decryption(Some(&path))).unwrap();
    assert_eq!(d.footer_key.len(), 16);
    assert!(d.metadata.num_rows > 0);
    // This file's encrypted columns are `integers` (material columnKey0, master key kc1) and
    // `strings` (columnKey1, kc2).
    let reference = |path: &str| match KeyMetadata::parse(&d.column_key_metadata[path]).unwrap() {
        KeyMetadata::External { key_reference } => key_reference,
        other => panic!("{other:?}"),
    };
    assert_eq!(reference("integers"), "columnKey0");
    assert_eq!(reference("strings"), "columnKey1");
    assert_eq!(
        d.column_keys.keys().collect::<Vec<_>>(),
        ["integers", "strings"]
    );
    for (path, (key, cmd)) in &d.column_keys {
        assert_eq!(key.len(), 16, "{path}");
        assert_eq!(cmd.num_values, d.metadata.num_rows, "{path}");
    }
    let (k1, _) = &d.column_keys["integers"];
    let (k2, _) = &d.column_keys["strings"];
    assert_ne!(k1, k2);
    assert_ne!(k1, &d.footer_key);
}

#[test]
fn java_external_key_material_file_reads_whole() {
    // The file reader with the key tools' retriever: every column of every row decrypts.
    let path = java_file();
    let bytes = common::read(&path);
    let options = parquet_serde::ReadOptions::default().decryption(decryption(Some(&path)));
    let lines = common::rows_json(bytes, options).unwrap();
    assert_eq!(lines.len(), 100);
    for (i, line) in lines.iter().enumerate() {
        let letter = (b'a' + (i % 10) as u8) as char;
        assert_eq!(
            line,
            &format!(r#"{{"integers":{i},"strings":"{letter}{i}"}}"#),
            "row {i}"
        );
    }
}

#[test]
fn java_external_key_material_failures() {
    let path = java_file();
    let bytes = common::read(&path);
    // No path: the external material cannot be found.
    let e = decrypt_metadata(&bytes, &decryption(None)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    // Master keys swapped: unwrapping fails.
    let swapped = InMemoryKms::new([
        ("kf", b"1234567890123450".to_vec()),
        ("kc1", b"0123456789012345".to_vec()),
        ("kc2", b"1234567890123451".to_vec()),
    ])
    .unwrap();
    let props = factory(swapped)
        .file_decryption_properties(
            &KmsConnectionConfig::default(),
            &DecryptionConfiguration::default(),
            Some(&path),
        )
        .unwrap();
    let e = decrypt_metadata(&bytes, &props).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
    // The data file elsewhere, without its key material file.
    let dir = tempfile::tempdir().unwrap();
    let moved = dir
        .path()
        .join("external_key_material_java.parquet.encrypted");
    std::fs::write(&moved, &bytes).unwrap();
    let e = decrypt_metadata(&bytes, &decryption(Some(&moved))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io, "{e}");
}

#[derive(Debug, serde::Deserialize)]
struct PyFile {
    name: String,
    path: PathBuf,
    double_wrapping: bool,
    /// (master key id, hex key) handed to the KMS's wrap_key: the data keys in single
    /// wrapping mode, the key encryption keys in double wrapping mode.
    wrapped: Vec<(String, String)>,
    rows: i64,
}

fn python_script() -> PathBuf {
    common::testdata().join("keytools_pyarrow.py")
}

fn pyarrow_write(dir: &Path) -> Vec<PyFile> {
    let out = Command::new(common::python())
        .arg(python_script())
        .arg("write")
        .arg(dir)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn python_kms_client_unwraps_a_java_wrapped_key() {
    let out = Command::new(common::python())
        .arg(python_script())
        .arg("selftest")
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pyarrow_crypto_factory_files_give_their_data_keys() {
    let dir = tempfile::tempdir().unwrap();
    let files = pyarrow_write(dir.path());
    assert_eq!(files.len(), 6);
    for f in &files {
        let bytes = std::fs::read(&f.path).unwrap();
        let d = decrypt_metadata(&bytes, &decryption(Some(&f.path)))
            .unwrap_or_else(|e| panic!("{}: {e}", f.name));
        assert_eq!(d.metadata.num_rows, f.rows, "{}", f.name);
        let uniform = f.name.starts_with("uniform");
        let expected_columns: &[&str] = match f.name.as_str() {
            _ if uniform => &[],
            "columns_double" => &["a", "c", "d.list.element"],
            _ => &["a", "c"],
        };
        assert_eq!(
            d.column_keys.keys().collect::<Vec<_>>(),
            expected_columns,
            "{}",
            f.name
        );
        if f.name.ends_with("256_ctr") {
            assert_eq!(d.footer_key.len(), 32);
            assert!(matches!(
                footer_crypto(&bytes).0.encryption_algorithm,
                EncryptionAlgorithm::AesGcmCtrV1(_)
            ));
        }
        if !f.double_wrapping {
            // Single wrapping: the KMS saw exactly the data keys our retriever returned.
            let mut ours = vec![("kf".to_string(), hex(&d.footer_key))];
            for (path, (key, _)) in &d.column_keys {
                let master = if path == "c" { "kc2" } else { "kc1" };
                ours.push((master.to_string(), hex(key)));
            }
            let mut theirs = f.wrapped.clone();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{}", f.name);
        } else {
            // Double wrapping: the KMS wrapped one KEK per master key.
            let masters: Vec<&str> = f.wrapped.iter().map(|(m, _)| m.as_str()).collect();
            let expected: &[&str] = if uniform {
                &["kf"]
            } else {
                &["kf", "kc1", "kc2"]
            };
            assert_eq!(masters, expected, "{}", f.name);
        }
        // External key material: the key metadata refers to the file beside it.
        if f.name.contains("external") {
            let (crypto, _) = footer_crypto(&bytes);
            let m = KeyMetadata::parse(crypto.key_metadata.as_deref().unwrap()).unwrap();
            assert_eq!(
                m,
                KeyMetadata::External {
                    key_reference: "footerKey".into()
                }
            );
            let e = decrypt_metadata(&bytes, &decryption(None)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        }
    }
}

fn footer_crypto(bytes: &[u8]) -> (FileCryptoMetaData, usize) {
    let n = bytes.len();
    let len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    decode::<FileCryptoMetaData>(&bytes[n - 8 - len..n - 8]).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One key our CryptoFactory made: the file it is for, its key metadata, the data key.
fn our_keys(
    props: &parquet_serde::core::encryption::FileEncryptionProperties,
    path: &Path,
) -> Vec<(serde_json::Value, String)> {
    use parquet_serde::core::encryption::ColumnEncryption;
    let entry = |metadata: &[u8]| {
        serde_json::json!({
            "path": path,
            "metadata": std::str::from_utf8(metadata).unwrap(),
        })
    };
    let mut keys = vec![(
        entry(props.footer_key_metadata().unwrap()),
        hex(props.footer_key()),
    )];
    for c in props.columns().values() {
        if let ColumnEncryption::ColumnKey {
            key,
            key_metadata: Some(m),
        } = c
        {
            keys.push((entry(m), hex(key)));
        }
    }
    keys
}

#[test]
fn pyarrow_parses_and_unwraps_our_key_material() {
    use parquet_serde::core::keytools::EncryptionConfiguration;
    let dir = tempfile::tempdir().unwrap();
    let factory = factory(master_keys());
    let kms = KmsConnectionConfig::default();
    let base = EncryptionConfiguration::new("kf")
        .column_keys("kc1", ["a", "d.list.element"])
        .column_keys("kc2", ["c"]);
    let configs = [
        ("internal_double", base.clone()),
        ("internal_single", base.clone().double_wrapping(false)),
        ("external_double", base.clone().internal_key_material(false)),
        (
            "external_single_256",
            base.clone()
                .internal_key_material(false)
                .double_wrapping(false)
                .data_key_length_bits(256),
        ),
        (
            "uniform_192",
            EncryptionConfiguration::new("kf")
                .uniform_encryption(true)
                .data_key_length_bits(192),
        ),
    ];
    let mut entries = Vec::new();
    let mut expected = Vec::new();
    for (name, config) in &configs {
        let path = dir.path().join(format!("{name}.parquet"));
        let props = factory
            .file_encryption_properties(&kms, config, Some(&path))
            .unwrap();
        for (entry, key) in our_keys(&props, &path) {
            entries.push(entry);
            expected.push(key);
        }
    }
    assert_eq!(expected.len(), 4 * 4 + 1);
    let keys_file = dir.path().join("keys.json");
    std::fs::write(&keys_file, serde_json::to_vec(&entries).unwrap()).unwrap();
    let out = Command::new(common::python())
        .arg(python_script())
        .arg("unwrap")
        .arg(&keys_file)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let theirs: Vec<&str> = theirs.iter().map(|v| v["key"].as_str().unwrap()).collect();
    assert_eq!(theirs, expected);
}

/// Whole-file round trips through the encrypting writer and decrypting reader.
mod with_writer_and_reader {
    use super::*;
    use parquet_serde::core::keytools::EncryptionConfiguration;
    use parquet_serde::{ParquetSchema, ReadOptions, WriterOptions};

    #[derive(serde::Serialize, ParquetSchema)]
    struct Row {
        a: i64,
        b: String,
        c: f64,
        d: Vec<i32>,
    }

    fn rows() -> Vec<Row> {
        (0..10)
            .map(|i| Row {
                a: i,
                b: format!("s{i}"),
                c: i as f64 * 1.5,
                d: vec![i as i32, i as i32 + 1],
            })
            .collect()
    }

    fn expected_json() -> Vec<serde_json::Value> {
        (0..10)
            .map(|i| {
                serde_json::json!({"a": i, "b": format!("s{i}"), "c": i as f64 * 1.5,
                    "d": [i, i + 1]})
            })
            .collect()
    }

    #[test]
    fn pyarrow_reads_files_we_encrypt_with_the_key_tools() {
        let dir = tempfile::tempdir().unwrap();
        let factory = factory(master_keys());
        let kms = KmsConnectionConfig::default();
        let base = EncryptionConfiguration::new("kf")
            .column_keys("kc1", ["a", "d.list.element"])
            .column_keys("kc2", ["c"]);
        let configs = [
            (
                "uniform",
                EncryptionConfiguration::new("kf").uniform_encryption(true),
            ),
            ("columns_double", base.clone()),
            ("columns_single", base.clone().double_wrapping(false)),
            (
                "columns_plaintext_footer",
                base.clone().plaintext_footer(true),
            ),
            (
                "columns_external",
                base.clone().internal_key_material(false),
            ),
            (
                "uniform_256_ctr",
                EncryptionConfiguration::new("kf")
                    .uniform_encryption(true)
                    .data_key_length_bits(256)
                    .encryption_algorithm(parquet_serde::core::encryption::Algorithm::AesGcmCtrV1),
            ),
        ];
        let mut paths = Vec::new();
        for (name, config) in &configs {
            let path = dir.path().join(format!("{name}.parquet.encrypted"));
            let props = factory
                .file_encryption_properties(&kms, config, Some(&path))
                .unwrap();
            let bytes =
                parquet_serde::to_vec_with(&rows(), WriterOptions::default().encryption(props))
                    .unwrap();
            std::fs::write(&path, &bytes).unwrap();
            // Our reader, with the key tools' retriever.
            let dec = decryption(Some(&path));
            let ours = common::rows_json(bytes, ReadOptions::default().decryption(dec)).unwrap();
            let ours: Vec<serde_json::Value> = ours
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert!(
                ours.iter()
                    .zip(expected_json())
                    .all(|(a, b)| common::json_eq(a, &b)),
                "{name}: {ours:?}"
            );
            paths.push(path);
        }
        let out = Command::new(common::python())
            .arg(python_script())
            .arg("read")
            .args(&paths)
            .output()
            .expect("run python");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), paths.len());
        for (path, line) in paths.iter().zip(lines) {
            let got: serde_json::Value = serde_json::from_str(line).unwrap();
            let want = serde_json::Value::Array(expected_json());
            assert!(common::json_eq(&got, &want), "{}: {got}", path.display());
        }
    }

    #[test]
    fn we_read_pyarrow_crypto_factory_files() {
        let dir = tempfile::tempdir().unwrap();
        for f in pyarrow_write(dir.path()) {
            let bytes = std::fs::read(&f.path).unwrap();
            let dec = decryption(Some(&f.path));
            let lines = common::rows_json(bytes, ReadOptions::default().decryption(dec))
                .unwrap_or_else(|e| panic!("{}: {e}", f.name));
            let got: Vec<serde_json::Value> = lines
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(got.len(), 10, "{}", f.name);
            assert!(
                got.iter()
                    .zip(expected_json())
                    .all(|(a, b)| common::json_eq(a, &b)),
                "{}: {got:?}",
                f.name
            );
        }
    }
}

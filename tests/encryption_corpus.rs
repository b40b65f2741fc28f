//! Parquet Modular Encryption: every encrypted file of the parquet-testing corpus decrypts
//! with the keys of its INDEX.md, and wrong or missing keys fail with Crypto errors.

mod common;

use parquet_serde::encryption::FileDecryptionProperties;
use parquet_serde::file::FileReader;
use parquet_serde::ReadOptions;

fn read(name: &str) -> Vec<u8> {
    std::fs::read(common::corpus().join("data").join(name)).unwrap()
}

fn keys128() -> parquet_serde::encryption::FileDecryptionPropertiesBuilder {
    FileDecryptionProperties::builder()
        .footer_key(b"0123456789012345".to_vec())
        .column_key("double_field", b"1234567890123450".to_vec())
        .column_key("float_field", b"1234567890123451".to_vec())
}

#[test]
fn explore() {
    for name in [
        "uniform_encryption.parquet.encrypted",
        "encrypt_columns_and_footer.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted",
    ] {
        let bytes = read(name);
        let opts = ReadOptions::default().decryption(keys128().build().unwrap());
        let r = FileReader::with_options(bytes.clone(), opts.clone()).unwrap();
        println!("{name}: {} rgs\n{}", r.num_row_groups(), r.schema());
        let rows = common::rows_json(bytes, opts).unwrap();
        for l in rows.iter().take(3) {
            println!("{l}");
        }
        println!("{} rows", rows.len());
    }
}

//! Encrypted Parquet files: explicit keys (a sensitive column under its own key, the footer
//! signed in plaintext so other columns stay readable without keys), then envelope encryption
//! through a KMS client, the way pyarrow's and parquet-java's key tools do it.
//!
//! `cargo run --example encryption --features keytools`

use std::sync::Arc;

use parquet_serde::core::encryption::{FileDecryptionProperties, FileEncryptionProperties};
use parquet_serde::core::keytools::{
    CryptoFactory, DecryptionConfiguration, EncryptionConfiguration, InMemoryKms, KmsClient,
    KmsConnectionConfig,
};
use parquet_serde::{ParquetSchema, ReadOptions, WriterOptions};
use serde::{Deserialize, Serialize};

#[derive(Debug, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Payment {
    id: u64,
    merchant: String,
    card_number: String,
    amount_cents: i64,
}

fn main() -> parquet_serde::Result<()> {
    let rows: Vec<Payment> = (0..1000)
        .map(|i| Payment {
            id: i,
            merchant: format!("shop-{}", i % 7),
            card_number: format!("4111-0000-0000-{i:04}"),
            amount_cents: (i as i64 * 137) % 10_000,
        })
        .collect();

    // 1. Explicit keys: `card_number` under its own key, the footer signed (PAR1), other
    //    columns in plaintext.
    let footer_key = b"0123456789012345".to_vec();
    let card_key = b"1234567890123450".to_vec();
    let encryption = FileEncryptionProperties::builder(footer_key.clone())
        .column_key(
            "card_number",
            card_key.clone(),
            Some(b"card-key-v1".to_vec()),
        )
        .plaintext_footer(true)
        .aad_prefix(b"payments/2026-11-22".to_vec())
        .build()?;
    let bytes = parquet_serde::to_vec_with(&rows, WriterOptions::default().encryption(encryption))?;

    let keys = FileDecryptionProperties::builder()
        .footer_key(footer_key)
        .column_key("card_number", card_key)
        .build()?;
    let back: Vec<Payment> =
        parquet_serde::from_slice_with(&bytes, ReadOptions::default().decryption(keys))?;
    assert_eq!(back, rows);
    println!(
        "explicit keys: {} rows, {} bytes, read back",
        back.len(),
        bytes.len()
    );

    // Without keys, a type that leaves out the encrypted column still reads.
    #[derive(Debug, Deserialize)]
    struct Public {
        id: u64,
        merchant: String,
    }
    let public: Vec<Public> = parquet_serde::from_slice(&bytes)?;
    println!(
        "no keys: first row id={} merchant={}",
        public[0].id, public[0].merchant
    );
    let err = parquet_serde::from_slice::<Payment>(&bytes).unwrap_err();
    println!("no keys, all columns: {err}");

    // 2. Envelope encryption: random data keys wrapped by master keys held in a KMS. Here an
    //    in-memory KMS; in production a `KmsClient` calling Vault, AWS KMS, ...
    let kms: Arc<dyn KmsClient> = Arc::new(InMemoryKms::new([
        ("footer-master", b"0123456789012345".to_vec()),
        ("pci-master", b"1234567890123451".to_vec()),
    ])?);
    let factory = CryptoFactory::new(move |_config: &KmsConnectionConfig| Ok(kms.clone()));
    let config =
        EncryptionConfiguration::new("footer-master").column_keys("pci-master", ["card_number"]);
    let connection = KmsConnectionConfig::default();
    let encryption = factory.file_encryption_properties(&connection, &config, None)?;
    let bytes = parquet_serde::to_vec_with(&rows, WriterOptions::default().encryption(encryption))?;
    let decryption = factory.file_decryption_properties(
        &connection,
        &DecryptionConfiguration::default(),
        None,
    )?;
    let back: Vec<Payment> =
        parquet_serde::from_slice_with(&bytes, ReadOptions::default().decryption(decryption))?;
    assert_eq!(back, rows);
    println!("key tools: {} rows read back through the KMS", back.len());
    Ok(())
}

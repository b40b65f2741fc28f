//! Local key wrapping: a key encrypted under another key with AES-GCM, as the key tools of
//! parquet-java (`KeyToolkit.encryptKeyLocally`) and Arrow C++ (`EncryptKeyLocally`) do it.
//!
//! The wrapped form is `base64(nonce (12) | ciphertext | tag (16))` (standard alphabet with
//! padding) - a GCM module without the 4-byte length prefix. The AAD is the caller's: the
//! master key id (UTF-8) when a KMS wraps with a master key, the raw KEK id when a data key
//! is wrapped with a key encryption key in double wrapping mode.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use crate::core::encryption::{ModuleKey, ModuleType, LENGTH_LEN, NONCE_LEN, TAG_LEN};
use crate::error::{Error, ErrorKind, Result};

/// Encrypts `key` with `wrapping_key` (16, 24 or 32 bytes) and `aad` under AES-GCM, and
/// returns the base64 text of `nonce | ciphertext | tag`.
pub fn encrypt_key_locally(key: &[u8], wrapping_key: &[u8], aad: &[u8]) -> Result<String> {
    let cipher = ModuleKey::new(wrapping_key).map_err(|e| e.context("wrapping a key"))?;
    let mut module = Vec::with_capacity(key.len() + LENGTH_LEN + NONCE_LEN + TAG_LEN);
    cipher.gcm_encrypt(key, aad, &mut module)?;
    // `gcm_encrypt` always writes the 4-byte length prefix first; the wrapped form omits it.
    Ok(STANDARD.encode(&module[LENGTH_LEN..]))
}

/// Decrypts a key wrapped by [`encrypt_key_locally`] (or by parquet-java / Arrow C++) with
/// `wrapping_key` and `aad`. Bad base64, a short input, a wrong key or a wrong AAD are
/// [`ErrorKind::Crypto`] errors.
pub fn decrypt_key_locally(wrapped: &str, wrapping_key: &[u8], aad: &[u8]) -> Result<Vec<u8>> {
    let cipher = ModuleKey::new(wrapping_key).map_err(|e| e.context("unwrapping a key"))?;
    let body = decode_base64(wrapped, "wrapped key")?;
    if body.len() < NONCE_LEN + TAG_LEN {
        return Err(Error::new(
            ErrorKind::Crypto,
            format!(
                "wrapped key of {} bytes is shorter than a nonce and a tag ({})",
                body.len(),
                NONCE_LEN + TAG_LEN
            ),
        ));
    }
    let len = u32::try_from(body.len())
        .map_err(|_| Error::new(ErrorKind::Crypto, "wrapped key too long"))?;
    let mut module = Vec::with_capacity(LENGTH_LEN + body.len());
    module.extend_from_slice(&len.to_le_bytes());
    module.extend_from_slice(&body);
    cipher
        .gcm_decrypt(&module, aad, ModuleType::Footer)
        .map_err(|_| {
            Error::new(
                ErrorKind::Crypto,
                "wrapped key failed AES-GCM authentication: wrong master key or key \
                 encryption key, wrong master key id, or the key material was altered",
            )
        })
}

/// Base64 (standard alphabet, padded) decoding with a Crypto error naming `what`.
pub(crate) fn decode_base64(text: &str, what: &str) -> Result<Vec<u8>> {
    STANDARD.decode(text.trim()).map_err(|e| {
        Error::new(
            ErrorKind::Crypto,
            format!("{what} is not valid base64: {e}"),
        )
        .with_source(e)
    })
}

/// Base64 (standard alphabet, padded) encoding.
pub(crate) fn encode_base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KF: &[u8] = b"0123456789012345";

    #[test]
    fn round_trip_all_key_sizes() {
        for wrapping in [&[7u8; 16][..], &[8u8; 24][..], &[9u8; 32][..]] {
            for key in [&[1u8; 16][..], &[2u8; 24][..], &[3u8; 32][..]] {
                let w = encrypt_key_locally(key, wrapping, b"aad").unwrap();
                assert_eq!(decode_base64(&w, "x").unwrap().len(), key.len() + 28);
                assert_eq!(decrypt_key_locally(&w, wrapping, b"aad").unwrap(), key);
            }
        }
    }

    #[test]
    fn wrong_key_or_aad_fails() {
        let w = encrypt_key_locally(&[5u8; 16], KF, b"kf").unwrap();
        let e = decrypt_key_locally(&w, KF, b"kc1").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto);
        let e = decrypt_key_locally(&w, b"1234567890123450", b"kf").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto);
    }

    #[test]
    fn java_in_memory_kms_wrapped_kek() {
        // A KEK wrapped by parquet-java's test InMemoryKMS with master key `kf` (AAD = "kf"),
        // from parquet-testing's _KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json.
        let kek = decrypt_key_locally(
            "kWHNReXsULhmTplhvImESLFTXV91t5CyoqaEVYLk7k0jD8oeTDDJCUnIiCs=",
            KF,
            b"kf",
        )
        .unwrap();
        assert_eq!(kek.len(), 16);
    }

    #[test]
    fn bad_inputs_are_errors() {
        for bad in ["", "!!!", "AAAA", "kWHNReXsULhmTplh"] {
            let e = decrypt_key_locally(bad, KF, b"kf").unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Crypto, "{bad}");
        }
        // Every truncation of a valid wrapped key fails without panicking.
        let w = encrypt_key_locally(&[5u8; 16], KF, b"kf").unwrap();
        let raw = decode_base64(&w, "x").unwrap();
        for n in 0..raw.len() {
            assert!(decrypt_key_locally(&encode_base64(&raw[..n]), KF, b"kf").is_err());
        }
        let e = encrypt_key_locally(&[5u8; 16], b"short", b"kf").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn encrypt_key_locally_example() {
        use crate::core::keytools::local_wrap::{decrypt_key_locally, encrypt_key_locally};
        let wrapped = encrypt_key_locally(b"a 16-byte DEK...", b"0123456789012345", b"kf").unwrap();
        assert_eq!(wrapped.len(), 60); // base64 of 12 + 16 + 16 bytes
        let key = decrypt_key_locally(&wrapped, b"0123456789012345", b"kf").unwrap();
        assert_eq!(key, b"a 16-byte DEK...");
    }
}

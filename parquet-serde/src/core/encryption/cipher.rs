//! AES-GCM and AES-CTR module ciphers: the serialized forms of section 5.1 of the modular
//! encryption specification, footer signatures, and the per-key GCM invocation limit.
//!
//! A GCM module is `length (4 bytes LE) | nonce (12) | ciphertext | tag (16)`, a CTR module
//! `length (4 bytes LE) | nonce (12) | ciphertext`; `length` counts the bytes after it.

use std::sync::atomic::{AtomicU64, Ordering};

use aes::{Aes128, Aes192, Aes256};
use aes_gcm::aead::rand_core::RngCore;
use aes_gcm::aead::{AeadInPlace, KeyInit, OsRng};
use aes_gcm::{AesGcm, Nonce, Tag};
use ctr::cipher::{KeyIvInit, StreamCipher};

use super::ModuleType;
use crate::error::{Error, ErrorKind, Result};

/// Bytes of a nonce.
pub const NONCE_LEN: usize = 12;
/// Bytes of a GCM authentication tag.
pub const TAG_LEN: usize = 16;
/// Bytes of the length prefix of every module.
pub const LENGTH_LEN: usize = 4;
/// Extra bytes of a GCM module over its plaintext.
pub const GCM_OVERHEAD: usize = LENGTH_LEN + NONCE_LEN + TAG_LEN;
/// Extra bytes of a CTR module over its plaintext.
pub const CTR_OVERHEAD: usize = LENGTH_LEN + NONCE_LEN;
/// Bytes of a plaintext footer's signature (nonce and tag).
pub const SIGNATURE_LEN: usize = NONCE_LEN + TAG_LEN;
/// GCM invocations allowed per key with random nonces (NIST SP 800-38D, section 8.3).
pub const MAX_GCM_INVOCATIONS: u64 = 1 << 32;

type Aes128Gcm = AesGcm<Aes128, aes_gcm::aead::consts::U12>;
type Aes192Gcm = AesGcm<Aes192, aes_gcm::aead::consts::U12>;
type Aes256Gcm = AesGcm<Aes256, aes_gcm::aead::consts::U12>;

enum Gcm {
    A128(Box<Aes128Gcm>),
    A192(Box<Aes192Gcm>),
    A256(Box<Aes256Gcm>),
}

/// An AES key (128, 192 or 256 bits) ready to encrypt and decrypt modules. It counts its GCM
/// invocations and refuses to encrypt once 2^32 are reached.
pub struct ModuleKey {
    gcm: Gcm,
    key: Vec<u8>,
    invocations: AtomicU64,
}

impl std::fmt::Debug for ModuleKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print key bytes.
        write!(f, "ModuleKey({} bits)", self.key.len() * 8)
    }
}

impl ModuleKey {
    /// A key from its bytes: 16, 24 or 32 of them.
    pub fn new(key: &[u8]) -> Result<Self> {
        let gcm = match key.len() {
            16 => Gcm::A128(Box::new(Aes128Gcm::new_from_slice(key).map_err(key_err)?)),
            24 => Gcm::A192(Box::new(Aes192Gcm::new_from_slice(key).map_err(key_err)?)),
            32 => Gcm::A256(Box::new(Aes256Gcm::new_from_slice(key).map_err(key_err)?)),
            n => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("AES key of {n} bytes: keys must have 16, 24 or 32 bytes"),
                ))
            }
        };
        Ok(ModuleKey {
            gcm,
            key: key.to_vec(),
            invocations: AtomicU64::new(0),
        })
    }

    /// Key length in bits.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn bits(&self) -> usize {
        self.key.len() * 8
    }

    /// Number of GCM encryptions (modules and signatures) made with this key so far.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn gcm_invocations(&self) -> u64 {
        self.invocations.load(Ordering::Relaxed)
    }

    fn count_invocation(&self) -> Result<()> {
        let before = self.invocations.fetch_add(1, Ordering::Relaxed);
        if before >= MAX_GCM_INVOCATIONS {
            return Err(Error::new(
                ErrorKind::Crypto,
                "this key has made 2^32 AES-GCM encryptions, the limit for random nonces; \
                 write further data with another key",
            ));
        }
        Ok(())
    }

    fn seal(&self, nonce: &[u8; NONCE_LEN], aad: &[u8], buf: &mut [u8]) -> Result<Tag> {
        let nonce = Nonce::from_slice(nonce);
        let r = match &self.gcm {
            Gcm::A128(c) => c.encrypt_in_place_detached(nonce, aad, buf),
            Gcm::A192(c) => c.encrypt_in_place_detached(nonce, aad, buf),
            Gcm::A256(c) => c.encrypt_in_place_detached(nonce, aad, buf),
        };
        r.map_err(|_| Error::new(ErrorKind::Crypto, "AES-GCM encryption failed"))
    }

    fn open(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> bool {
        let nonce = Nonce::from_slice(nonce);
        let tag = Tag::from_slice(tag);
        let r = match &self.gcm {
            Gcm::A128(c) => c.decrypt_in_place_detached(nonce, aad, buf, tag),
            Gcm::A192(c) => c.decrypt_in_place_detached(nonce, aad, buf, tag),
            Gcm::A256(c) => c.decrypt_in_place_detached(nonce, aad, buf, tag),
        };
        r.is_ok()
    }

    /// Appends the GCM module of `plaintext` (length, nonce, ciphertext, tag) to `out`.
    pub fn gcm_encrypt(&self, plaintext: &[u8], aad: &[u8], out: &mut Vec<u8>) -> Result<()> {
        self.count_invocation()?;
        let body = module_length(plaintext.len() + NONCE_LEN + TAG_LEN)?;
        let nonce = random_nonce();
        out.reserve(plaintext.len() + GCM_OVERHEAD);
        out.extend_from_slice(&body.to_le_bytes());
        out.extend_from_slice(&nonce);
        let start = out.len();
        out.extend_from_slice(plaintext);
        let tag = self.seal(&nonce, aad, &mut out[start..])?;
        out.extend_from_slice(&tag);
        Ok(())
    }

    /// Appends the CTR module of `plaintext` (length, nonce, ciphertext) to `out`. CTR modules
    /// are not authenticated: only data pages of `AES_GCM_CTR_V1` files use them.
    pub fn ctr_encrypt(&self, plaintext: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let body = module_length(plaintext.len() + NONCE_LEN)?;
        let nonce = random_nonce();
        out.reserve(plaintext.len() + CTR_OVERHEAD);
        out.extend_from_slice(&body.to_le_bytes());
        out.extend_from_slice(&nonce);
        let start = out.len();
        out.extend_from_slice(plaintext);
        self.ctr_apply(&nonce, &mut out[start..]);
        Ok(())
    }

    /// Decrypts a whole GCM module (with its length prefix) and checks its tag against `aad`.
    /// A wrong key, wrong AAD or any changed byte is an error naming `module`.
    pub fn gcm_decrypt(&self, module: &[u8], aad: &[u8], what: ModuleType) -> Result<Vec<u8>> {
        let body = module_body(module, NONCE_LEN + TAG_LEN, what)?;
        let (nonce, rest) = body.split_at(NONCE_LEN);
        let (ciphertext, tag) = rest.split_at(rest.len() - TAG_LEN);
        let mut plain = ciphertext.to_vec();
        if !self.open(nonce, aad, &mut plain, tag) {
            return Err(Error::new(
                ErrorKind::Crypto,
                format!(
                    "{} failed AES-GCM authentication: wrong key, wrong AAD prefix, or the module \
                     was altered or moved",
                    what.name()
                ),
            ));
        }
        Ok(plain)
    }

    /// Decrypts a whole CTR module (with its length prefix). CTR has no tag: a changed byte
    /// gives changed plaintext, not an error.
    pub fn ctr_decrypt(&self, module: &[u8], what: ModuleType) -> Result<Vec<u8>> {
        let body = module_body(module, NONCE_LEN, what)?;
        let (nonce, ciphertext) = body.split_at(NONCE_LEN);
        let mut plain = ciphertext.to_vec();
        let mut n = [0u8; NONCE_LEN];
        n.copy_from_slice(nonce);
        self.ctr_apply(&n, &mut plain);
        Ok(plain)
    }

    fn ctr_apply(&self, nonce: &[u8; NONCE_LEN], buf: &mut [u8]) {
        // IV = nonce followed by a 32-bit big-endian counter starting at 1.
        let mut iv = [0u8; 16];
        iv[..NONCE_LEN].copy_from_slice(nonce);
        iv[15] = 1;
        // Key lengths were checked in `new`, so construction cannot fail.
        match self.key.len() {
            16 => ctr::Ctr32BE::<Aes128>::new_from_slices(&self.key, &iv)
                .expect("16-byte key and IV")
                .apply_keystream(buf),
            24 => ctr::Ctr32BE::<Aes192>::new_from_slices(&self.key, &iv)
                .expect("24-byte key and IV")
                .apply_keystream(buf),
            _ => ctr::Ctr32BE::<Aes256>::new_from_slices(&self.key, &iv)
                .expect("32-byte key and IV")
                .apply_keystream(buf),
        }
    }

    /// The 28-byte signature of a plaintext footer: a fresh nonce and the GCM tag of the
    /// serialized `FileMetaData` under `aad` (the ciphertext itself is dropped).
    pub fn sign(&self, footer: &[u8], aad: &[u8]) -> Result<[u8; SIGNATURE_LEN]> {
        self.count_invocation()?;
        let nonce = random_nonce();
        let mut buf = footer.to_vec();
        let tag = self.seal(&nonce, aad, &mut buf)?;
        let mut sig = [0u8; SIGNATURE_LEN];
        sig[..NONCE_LEN].copy_from_slice(&nonce);
        sig[NONCE_LEN..].copy_from_slice(&tag);
        Ok(sig)
    }

    /// Checks a plaintext footer's signature: encrypts `footer` with the signature's nonce and
    /// compares tags. Fails when the footer, the signature, the key or the AAD differ.
    pub fn verify_signature(&self, footer: &[u8], aad: &[u8], signature: &[u8]) -> Result<()> {
        if signature.len() != SIGNATURE_LEN {
            return Err(Error::corrupt(format!(
                "plaintext footer signature of {} bytes, expected {SIGNATURE_LEN}",
                signature.len()
            )));
        }
        let mut nonce = [0u8; NONCE_LEN];
        nonce.copy_from_slice(&signature[..NONCE_LEN]);
        let mut buf = footer.to_vec();
        let tag = self.seal(&nonce, aad, &mut buf)?;
        // Constant-time comparison of the tags.
        let diff = tag
            .iter()
            .zip(&signature[NONCE_LEN..])
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        if diff != 0 {
            return Err(Error::new(
                ErrorKind::Crypto,
                "plaintext footer signature does not verify: wrong footer key or AAD prefix, or \
                 the footer or its signature was altered",
            ));
        }
        Ok(())
    }
}

/// The length of the module starting at `bytes` (its 4-byte prefix plus the body), so that
/// stream readers know how many bytes to fetch. Errors when fewer than 4 bytes are given or
/// the length is negative as an `i32`.
pub fn module_len(bytes: &[u8]) -> Result<usize> {
    let Some(prefix) = bytes.get(..LENGTH_LEN) else {
        return Err(Error::corrupt(format!(
            "encrypted module truncated: {} bytes, need at least the 4-byte length",
            bytes.len()
        )));
    };
    let len = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]);
    if len > i32::MAX as u32 {
        return Err(Error::corrupt(format!(
            "encrypted module length {len} is negative as i32"
        )));
    }
    Ok(LENGTH_LEN + len as usize)
}

fn module_body(module: &[u8], min_body: usize, what: ModuleType) -> Result<&[u8]> {
    let total = module_len(module).map_err(|e| e.context(what.name()))?;
    if total != module.len() {
        return Err(Error::corrupt(format!(
            "{}: encrypted module length prefix says {} bytes, the module has {}",
            what.name(),
            total - LENGTH_LEN,
            module.len().saturating_sub(LENGTH_LEN)
        )));
    }
    let body = &module[LENGTH_LEN..];
    if body.len() < min_body {
        return Err(Error::corrupt(format!(
            "{}: encrypted module of {} bytes is shorter than its nonce and tag ({min_body})",
            what.name(),
            body.len()
        )));
    }
    Ok(body)
}

fn module_length(body: usize) -> Result<u32> {
    if body > i32::MAX as usize {
        return Err(Error::invalid_argument(format!(
            "module of {body} bytes exceeds the 2^31-1 limit of encrypted modules"
        )));
    }
    Ok(body as u32)
}

fn random_nonce() -> [u8; NONCE_LEN] {
    let mut nonce = [0u8; NONCE_LEN];
    OsRng.fill_bytes(&mut nonce);
    nonce
}

fn key_err(_: aes_gcm::aes::cipher::InvalidLength) -> Error {
    Error::invalid_argument("AES key length must be 16, 24 or 32 bytes")
}

/// Random bytes from the operating system, for file-unique AAD parts and data keys.
pub fn random_bytes(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    OsRng.fill_bytes(&mut v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Vec<ModuleKey> {
        [16usize, 24, 32]
            .iter()
            .map(|&n| ModuleKey::new(&(0..n as u8).collect::<Vec<_>>()).unwrap())
            .collect()
    }

    #[test]
    fn gcm_round_trip_all_key_sizes() {
        for key in keys() {
            for len in [0usize, 1, 15, 16, 17, 1000] {
                let plain: Vec<u8> = (0..len).map(|i| i as u8).collect();
                let mut m = vec![9u8; 3]; // appends after existing bytes
                key.gcm_encrypt(&plain, b"aad", &mut m).unwrap();
                assert_eq!(m.len(), 3 + len + GCM_OVERHEAD);
                assert_eq!(module_len(&m[3..]).unwrap(), len + GCM_OVERHEAD);
                let back = key
                    .gcm_decrypt(&m[3..], b"aad", ModuleType::DataPage)
                    .unwrap();
                assert_eq!(back, plain, "{} bits", key.bits());
            }
        }
    }

    #[test]
    fn gcm_detects_every_flipped_byte_wrong_aad_and_wrong_key() {
        let key = ModuleKey::new(b"0123456789012345").unwrap();
        let mut m = Vec::new();
        key.gcm_encrypt(b"hello, parquet", b"aad", &mut m).unwrap();
        for i in 0..m.len() {
            let mut bad = m.clone();
            bad[i] ^= 0x40;
            assert!(
                key.gcm_decrypt(&bad, b"aad", ModuleType::ColumnIndex)
                    .is_err(),
                "byte {i}"
            );
        }
        let e = key
            .gcm_decrypt(&m, b"aae", ModuleType::ColumnIndex)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto);
        assert!(e.to_string().contains("column index"), "{e}");
        let other = ModuleKey::new(b"1234567890123450").unwrap();
        assert!(other.gcm_decrypt(&m, b"aad", ModuleType::Footer).is_err());
        for cut in 0..m.len() {
            assert!(key
                .gcm_decrypt(&m[..cut], b"aad", ModuleType::Footer)
                .is_err());
        }
    }

    #[test]
    fn ctr_round_trip_and_layout() {
        for key in keys() {
            let plain: Vec<u8> = (0..100u8).collect();
            let mut m = Vec::new();
            key.ctr_encrypt(&plain, &mut m).unwrap();
            assert_eq!(m.len(), 100 + CTR_OVERHEAD);
            assert_ne!(&m[CTR_OVERHEAD..], &plain[..]);
            assert_eq!(key.ctr_decrypt(&m, ModuleType::DataPage).unwrap(), plain);
        }
    }

    #[test]
    fn ctr_keystream_is_nonce_then_counter_from_one() {
        // GCM encrypts with the CTR keystream of J0 = nonce || 1 incremented, starting at
        // counter 2. So CTR from counter 1 over (16 zero bytes ++ P) must yield GCM's
        // ciphertext of P after its first block: a check of the IV layout against aes-gcm.
        let key = ModuleKey::new(&hex("2b7e151628aed2a6abf7158809cf4f3c")).unwrap();
        let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| 0xf0 + i as u8);
        let plain: Vec<u8> = (0..40u8).collect();
        let mut gcm = plain.clone();
        key.seal(&nonce, b"", &mut gcm).unwrap();
        let mut ctr = vec![0u8; 16];
        ctr.extend_from_slice(&plain);
        key.ctr_apply(&nonce, &mut ctr);
        assert_eq!(&ctr[16..], &gcm[..]);
        // And the cipher itself is AES: NIST SP 800-38A F.5.1, first block.
        let mut block = hex("6bc1bee22e409f96e93d7e117393172a");
        ctr::Ctr128BE::<Aes128>::new_from_slices(
            &hex("2b7e151628aed2a6abf7158809cf4f3c"),
            &hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"),
        )
        .unwrap()
        .apply_keystream(&mut block);
        assert_eq!(block, hex("874d6191b620e3261bef6864990db6ce"));
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn signature_verifies_and_detects_changes() {
        let key = ModuleKey::new(&[7u8; 32]).unwrap();
        let sig = key.sign(b"footer bytes", b"F\x00").unwrap();
        key.verify_signature(b"footer bytes", b"F\x00", &sig)
            .unwrap();
        assert!(key
            .verify_signature(b"footer bytez", b"F\x00", &sig)
            .is_err());
        assert!(key
            .verify_signature(b"footer bytes", b"G\x00", &sig)
            .is_err());
        let mut bad = sig;
        bad[3] ^= 1;
        assert!(key
            .verify_signature(b"footer bytes", b"F\x00", &bad)
            .is_err());
        assert!(key
            .verify_signature(b"footer bytes", b"F\x00", &sig[..27])
            .is_err());
        assert_eq!(key.gcm_invocations(), 1);
    }

    #[test]
    fn invocation_limit_enforced() {
        let key = ModuleKey::new(&[1u8; 16]).unwrap();
        key.invocations
            .store(MAX_GCM_INVOCATIONS - 1, Ordering::Relaxed);
        let mut out = Vec::new();
        key.gcm_encrypt(b"x", b"", &mut out).unwrap();
        let e = key.gcm_encrypt(b"x", b"", &mut out).unwrap_err();
        assert!(e.to_string().contains("2^32"), "{e}");
        assert!(key.sign(b"f", b"").is_err());
    }

    #[test]
    fn bad_key_lengths_rejected() {
        for n in [0usize, 8, 15, 17, 31, 33, 64] {
            let e = ModuleKey::new(&vec![0u8; n]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        }
    }

    #[test]
    fn nonces_differ() {
        let key = ModuleKey::new(&[1u8; 16]).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        key.gcm_encrypt(b"same", b"", &mut a).unwrap();
        key.gcm_encrypt(b"same", b"", &mut b).unwrap();
        assert_ne!(a[4..16], b[4..16]);
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn gcm_encrypt_example() {
        use crate::core::encryption::{ModuleKey, ModuleType};
        let key = ModuleKey::new(b"0123456789012345").unwrap();
        let mut module = Vec::new();
        key.gcm_encrypt(b"page bytes", b"aad", &mut module).unwrap();
        assert_eq!(module.len(), 10 + 32);
        let back = key
            .gcm_decrypt(&module, b"aad", ModuleType::DataPage)
            .unwrap();
        assert_eq!(back, b"page bytes");
    }
}

//! High-level encryption and decryption settings of the key tools: master key ids per column,
//! wrapping mode, caching, key material storage.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::core::encryption::Algorithm;
use crate::error::{Error, Result};

/// Default lifetime of cached KMS clients and key encryption keys: 10 minutes.
pub const DEFAULT_CACHE_LIFETIME: Duration = Duration::from_secs(600);

/// What to encrypt with which master keys, and how (pyarrow's `EncryptionConfiguration`,
/// parquet-java's `parquet.encryption.*` properties).
///
/// ```
/// use parquet_serde::core::keytools::EncryptionConfiguration;
/// let config = EncryptionConfiguration::new("kf")
///     .column_keys("kc1", ["double_field"])
///     .column_keys("kc2", ["float_field", "a.b.list.element"])
///     .double_wrapping(false);
/// assert_eq!(config.column_keys["kc2"].len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncryptionConfiguration {
    /// Id of the master key that wraps the footer key.
    pub footer_key: String,
    /// Master key id -> dotted paths of the columns encrypted with (a data key wrapped by)
    /// that master key. Either this is non-empty or `uniform_encryption` is set.
    pub column_keys: BTreeMap<String, Vec<String>>,
    /// Encrypt the footer and every column with the footer key.
    pub uniform_encryption: bool,
    /// The encryption algorithm (default `AES_GCM_V1`).
    pub encryption_algorithm: Algorithm,
    /// Write a plaintext (signed) footer (default false). As in Arrow C++, it only applies
    /// with column keys; uniformly encrypted files always get an encrypted footer.
    pub plaintext_footer: bool,
    /// Wrap data keys with key encryption keys that the KMS wraps (default true), rather
    /// than having the KMS wrap every data key.
    pub double_wrapping: bool,
    /// Lifetime of cached KMS clients and key encryption keys (default 10 minutes).
    pub cache_lifetime: Duration,
    /// Keep key material in the file's key metadata (default true), rather than in
    /// `_KEY_MATERIAL_FOR_<file name>.json` next to the file.
    pub internal_key_material: bool,
    /// Length of the random data keys: 128 (default), 192 or 256 bits.
    pub data_key_length_bits: u32,
}

impl EncryptionConfiguration {
    /// Settings with the footer's master key id and every default; add column keys or set
    /// [`uniform_encryption`](Self::uniform_encryption).
    pub fn new(footer_key: impl Into<String>) -> Self {
        EncryptionConfiguration {
            footer_key: footer_key.into(),
            column_keys: BTreeMap::new(),
            uniform_encryption: false,
            encryption_algorithm: Algorithm::AesGcmV1,
            plaintext_footer: false,
            double_wrapping: true,
            cache_lifetime: DEFAULT_CACHE_LIFETIME,
            internal_key_material: true,
            data_key_length_bits: 128,
        }
    }

    /// Encrypts `columns` (dotted paths) with data keys wrapped by master key `master_key_id`.
    pub fn column_keys<I, S>(mut self, master_key_id: &str, columns: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.column_keys
            .entry(master_key_id.to_string())
            .or_default()
            .extend(columns.into_iter().map(Into::into));
        self
    }

    /// Adds the column keys of parquet-java's `parquet.encryption.column.keys` form:
    /// `"masterKeyID:col1,col2;masterKeyID2:col3"`.
    ///
    /// ```
    /// use parquet_serde::core::keytools::EncryptionConfiguration;
    /// let config = EncryptionConfiguration::new("kf")
    ///     .column_keys_str("kc1: double_field; kc2: float_field, int32_field")
    ///     .unwrap();
    /// assert_eq!(config.column_keys["kc2"], ["float_field", "int32_field"]);
    /// ```
    pub fn column_keys_str(mut self, spec: &str) -> Result<Self> {
        for part in spec.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, columns)) = part.split_once(':') else {
                return Err(Error::invalid_argument(format!(
                    "column keys entry {part:?} is not `masterKeyID:column,column`"
                )));
            };
            let key = key.trim();
            if key.is_empty() {
                return Err(Error::invalid_argument(
                    "empty master key id in column keys",
                ));
            }
            let columns: Vec<&str> = columns.split(',').map(str::trim).collect();
            self = self.column_keys(key, columns);
        }
        Ok(self)
    }

    /// Sets [`uniform_encryption`](Self::uniform_encryption).
    pub fn uniform_encryption(mut self, uniform: bool) -> Self {
        self.uniform_encryption = uniform;
        self
    }

    /// Sets [`encryption_algorithm`](Self::encryption_algorithm).
    pub fn encryption_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.encryption_algorithm = algorithm;
        self
    }

    /// Sets [`plaintext_footer`](Self::plaintext_footer).
    pub fn plaintext_footer(mut self, plaintext: bool) -> Self {
        self.plaintext_footer = plaintext;
        self
    }

    /// Sets [`double_wrapping`](Self::double_wrapping).
    pub fn double_wrapping(mut self, double: bool) -> Self {
        self.double_wrapping = double;
        self
    }

    /// Sets [`cache_lifetime`](Self::cache_lifetime).
    pub fn cache_lifetime(mut self, lifetime: Duration) -> Self {
        self.cache_lifetime = lifetime;
        self
    }

    /// Sets [`internal_key_material`](Self::internal_key_material).
    pub fn internal_key_material(mut self, internal: bool) -> Self {
        self.internal_key_material = internal;
        self
    }

    /// Sets [`data_key_length_bits`](Self::data_key_length_bits).
    pub fn data_key_length_bits(mut self, bits: u32) -> Self {
        self.data_key_length_bits = bits;
        self
    }

    /// Checks the settings; returns (column path, master key id) pairs in a stable order.
    pub(crate) fn validate(&self) -> Result<Vec<(&str, &str)>> {
        if self.footer_key.is_empty() {
            return Err(Error::invalid_argument("empty footer master key id"));
        }
        if !matches!(self.data_key_length_bits, 128 | 192 | 256) {
            return Err(Error::invalid_argument(format!(
                "data key length {} bits: must be 128, 192 or 256",
                self.data_key_length_bits
            )));
        }
        let has_columns = self.column_keys.values().any(|c| !c.is_empty());
        if self.uniform_encryption && has_columns {
            return Err(Error::invalid_argument(
                "cannot set both column keys and uniform encryption",
            ));
        }
        if !self.uniform_encryption && !has_columns {
            return Err(Error::invalid_argument(
                "either column keys or uniform encryption must be set",
            ));
        }
        let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
        let mut pairs = Vec::new();
        for (key, columns) in &self.column_keys {
            if key.is_empty() {
                return Err(Error::invalid_argument(
                    "empty master key id in column keys",
                ));
            }
            if columns.is_empty() {
                return Err(Error::invalid_argument(format!(
                    "no columns to encrypt with master key {key}"
                )));
            }
            for c in columns {
                if c.is_empty() {
                    return Err(Error::invalid_argument(format!(
                        "empty column name in column keys for master key {key}"
                    )));
                }
                if let Some(other) = seen.insert(c, key) {
                    return Err(Error::invalid_argument(format!(
                        "column {c} is given two master keys ({other} and {key})"
                    )));
                }
                pairs.push((c.as_str(), key.as_str()));
            }
        }
        Ok(pairs)
    }
}

/// Settings of the key tools on the reading side (pyarrow's `DecryptionConfiguration`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecryptionConfiguration {
    /// Lifetime of cached KMS clients and key encryption keys (default 10 minutes).
    pub cache_lifetime: Duration,
}

impl Default for DecryptionConfiguration {
    fn default() -> Self {
        DecryptionConfiguration {
            cache_lifetime: DEFAULT_CACHE_LIFETIME,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        let ok = EncryptionConfiguration::new("kf").column_keys("kc1", ["a", "b"]);
        assert_eq!(ok.validate().unwrap(), [("a", "kc1"), ("b", "kc1")]);
        assert!(EncryptionConfiguration::new("kf")
            .uniform_encryption(true)
            .validate()
            .is_ok());
        let bad = [
            EncryptionConfiguration::new("kf"),
            EncryptionConfiguration::new("").uniform_encryption(true),
            ok.clone().uniform_encryption(true),
            ok.clone().data_key_length_bits(64),
            ok.clone().column_keys("kc2", ["a"]),
            ok.clone().column_keys("kc2", [""]),
            ok.clone().column_keys("", ["c"]),
        ];
        for b in bad {
            assert!(b.validate().is_err(), "{b:?}");
        }
        assert!(ok.clone().data_key_length_bits(256).validate().is_ok());
    }

    #[test]
    fn column_keys_string_form() {
        let c = EncryptionConfiguration::new("kf")
            .column_keys_str(" kc1 : a , b ; kc2:c;")
            .unwrap();
        assert_eq!(c.column_keys["kc1"], ["a", "b"]);
        assert_eq!(c.column_keys["kc2"], ["c"]);
        assert!(EncryptionConfiguration::new("kf")
            .column_keys_str("kc1")
            .is_err());
        assert!(EncryptionConfiguration::new("kf")
            .column_keys_str(":a")
            .is_err());
        let empty_col = EncryptionConfiguration::new("kf")
            .column_keys_str("kc1:a,,b")
            .unwrap();
        assert!(empty_col.validate().is_err());
    }
}

//! The fast path of an unshredded VARIANT column: a value that serializes as a Variant's
//! own bytes (a [`Variant`](crate::variant::Variant), or the frames the `tracing` layer
//! builds) has its metadata and value put as they are, once their headers check out,
//! instead of being decoded into a `Variant` and encoded again.

use serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, Result};
use std::cell::RefCell;

use crate::variant::{blob, value_size, Metadata};

use super::shredder::Shredder;
use crate::reject::{answer_false, reject_containers};

/// Puts `value` at the VARIANT group whose leaves are `metadata` and `value_leaf` when it
/// is a Variant frame with valid headers. `Ok(false)`: not such a value, nothing was put
/// (the caller takes the general path).
pub(crate) fn put_frame<T: Serialize + ?Sized>(
    sh: &mut Shredder,
    metadata: u32,
    value_leaf: u32,
    rep: i16,
    value: &T,
) -> Result<bool> {
    let mut reached = false;
    let sink = Sink {
        sh,
        metadata,
        value: value_leaf,
        rep,
        in_token: false,
        reached: &mut reached,
    };
    match value.serialize(sink) {
        Ok(put) => Ok(put),
        // Errors before the frame's bytes are the look ending at a compound value.
        Err(_) if !reached => Ok(false),
        Err(e) => Err(e),
    }
}

/// Metadata kept for the check cache when at most this long.
const CACHED_METADATA_BYTES: usize = 512;
/// Metadata dictionaries remembered as checked, per thread.
const CACHED_METADATA: usize = 8;

thread_local! {
    /// Metadata bytes this thread checked lately: rows repeat a few dictionaries (one per
    /// `tracing` callsite and span, one per struct shape), so most checks are a compare.
    static CHECKED: RefCell<(Vec<Vec<u8>>, usize)> = const { RefCell::new((Vec::new(), 0)) };
}

/// Whether `metadata` is a valid dictionary: remembered, or checked whole now.
fn metadata_ok(metadata: &[u8]) -> bool {
    let cached = CHECKED.try_with(|c| {
        let Ok(mut c) = c.try_borrow_mut() else {
            return Metadata::new(metadata).is_ok();
        };
        if c.0.iter().any(|m| m.as_slice() == metadata) {
            return true;
        }
        if Metadata::new(metadata).is_err() {
            return false;
        }
        if metadata.len() <= CACHED_METADATA_BYTES {
            let (entries, next) = &mut *c;
            if entries.len() < CACHED_METADATA {
                entries.push(metadata.to_vec());
            } else {
                entries[*next] = metadata.to_vec();
                *next = (*next + 1) % CACHED_METADATA;
            }
        }
        true
    });
    cached.unwrap_or_else(|_| Metadata::new(metadata).is_ok())
}

struct Sink<'a> {
    sh: &'a mut Shredder,
    metadata: u32,
    value: u32,
    rep: i16,
    /// Inside the newtype that marks a Variant's bytes.
    in_token: bool,
    /// Set once the frame's bytes are being put: errors from then on are real.
    reached: &'a mut bool,
}

impl Sink<'_> {
    /// Ends the look at the first compound value.
    fn reject(&self) -> Error {
        Error::data("not a variant frame")
    }
}

impl ser::Serializer for Sink<'_> {
    type Ok = bool;
    type Error = Error;
    type SerializeSeq = Impossible<bool, Error>;
    type SerializeTuple = Impossible<bool, Error>;
    type SerializeTupleStruct = Impossible<bool, Error>;
    type SerializeTupleVariant = Impossible<bool, Error>;
    type SerializeMap = Impossible<bool, Error>;
    type SerializeStruct = Impossible<bool, Error>;
    type SerializeStructVariant = Impossible<bool, Error>;

    fn serialize_bytes(self, bytes: &[u8]) -> Result<bool> {
        if !self.in_token {
            return Ok(false);
        }
        let Ok((metadata, value)) = blob::split(bytes) else {
            return Ok(false);
        };
        // Bytes whose headers do not check out take the general path, which reports them.
        if !metadata_ok(metadata) || value_size(value).ok() != Some(value.len()) {
            return Ok(false);
        }
        *self.reached = true;
        self.sh.put_bytes(self.metadata, self.rep, metadata)?;
        self.sh.put_bytes(self.value, self.rep, value)?;
        Ok(true)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        mut self,
        name: &'static str,
        value: &T,
    ) -> Result<bool> {
        self.in_token = name == blob::TOKEN;
        value.serialize(self)
    }

    answer_false!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str)
    );
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<bool> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool> {
        Ok(false)
    }
    reject_containers!();
}

#[cfg(test)]
mod tests {
    use serde::{Serialize, Serializer};

    use crate::variant::{blob, Variant};

    /// A VARIANT column of raw frames.
    struct Raw(Vec<u8>);

    impl Serialize for Raw {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(blob::TOKEN, &blob::Frame(&self.0))
        }
    }

    impl crate::ParquetSchema for Raw {
        fn parquet_node(
            name: &str,
            attrs: &crate::core::schema::typed::FieldAttrs,
        ) -> crate::core::schema::SchemaNode {
            Variant::parquet_node(name, attrs)
        }
    }

    #[derive(Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Row {
        v: Raw,
    }

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Back {
        v: Variant,
    }

    #[test]
    fn frames_are_put_as_they_are_and_bad_ones_refused() {
        let v = Variant::object([("a", Variant::Int8(1)), ("b", Variant::from("x"))]);
        let (metadata, value) = v.encode();
        let rows = [Row {
            v: Raw(blob::frame(&metadata, &value)),
        }];
        let bytes = crate::to_vec(&rows).unwrap();
        let back: Vec<Back> = crate::from_slice(&bytes).unwrap();
        assert_eq!(back, [Back { v }]);
        // Bad headers go the general way, which reports them: an error, not a panic.
        for bad in [
            vec![],
            vec![9, 9],
            blob::frame(&[0x11, 0, 0], &[0xff]),
            blob::frame(&[7], &[0]),
            // Metadata checked (and remembered) above, with a bad value.
            blob::frame(&metadata, &value[..value.len() - 1]),
            blob::frame(&metadata, &[value.as_slice(), &[0]].concat()),
        ] {
            let rows = [Row {
                v: Raw(bad.clone()),
            }];
            assert!(crate::to_vec(&rows).is_err(), "{bad:?}");
        }
    }
}

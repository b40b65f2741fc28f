//! Macros for the crate's small serializers that take only some of serde's calls (a
//! serializer of map keys, of one scalar, a probe that looks for a marker): the calls they
//! do not take fail with the serializer's own `self.reject()` error, or answer `false`.
//! Both `ser/` and `variant/` use them, so they sit below both; they import nothing.

/// Declares scalar methods that fail with `self.reject()`.
macro_rules! reject {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {$(
        fn $method(self, $(_: $ty),*) -> Result<Self::Ok> {
            Err(self.reject())
        }
    )*};
}

/// Declares the methods that start a container (sequence, tuple, map, struct and their
/// variants), each failing with `self.reject()`; `but_struct` leaves out `serialize_struct`
/// for a serializer that takes structs.
macro_rules! reject_containers {
    () => {
        reject_containers!(but_struct);
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
            Err(self.reject())
        }
    };
    (but_struct) => {
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
            Err(self.reject())
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
            Err(self.reject())
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            Err(self.reject())
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err(self.reject())
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
            Err(self.reject())
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err(self.reject())
        }
    };
}

/// Declares scalar methods of a probe (`Ok = bool`) that answer `false`.
macro_rules! answer_false {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {$(
        fn $method(self, $(_: $ty),*) -> Result<bool> {
            Ok(false)
        }
    )*};
}

pub(crate) use {answer_false, reject, reject_containers};

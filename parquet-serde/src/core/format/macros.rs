//! Declarative macros that turn a Thrift struct or union description into a Rust type with
//! its compact-protocol codec.
//!
//! ```text
//! thrift_struct! {
//!     /// doc
//!     pub struct KeyValue {
//!         /// doc
//!         1: required key: String,
//!         /// doc
//!         2: optional value: String,
//!     }
//! }
//! ```
//! A `required` field is a plain field; a missing one is an error naming struct and field,
//! unless it has a default (`2: required file_offset: i64 = 0`). An `optional` field is an
//! `Option`. A field whose id is known but whose wire type is not the expected one is skipped,
//! as are unknown fields.

/// The Rust type of a struct field: `required T` is `T`, `optional T` is `Option<T>`.
macro_rules! thrift_field_type {
    (required $ty:ty) => { $ty };
    (optional $ty:ty) => { Option<$ty> };
}

/// Defines a struct (deriving `Debug, Clone, PartialEq`) and its codec.
macro_rules! thrift_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $id:literal : $req:ident $field:ident : $ty:ty $(= $default:expr)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: thrift_field_type!($req $ty),
            )*
        }

        thrift_struct_codec! {
            $name { $( $id : $req $field : $ty $(= $default)? ),* }
        }
    };
}

/// Implements the codec of an existing struct from its field list.
macro_rules! thrift_struct_codec {
    (
        $name:ident {
            $( $id:literal : $req:ident $field:ident : $ty:ty $(= $default:expr)? ),* $(,)?
        }
    ) => {
        impl<'a> $crate::core::format::ThriftDecode<'a> for $name {
            #[allow(unused_mut)]
            fn decode(r: &mut $crate::core::format::CompactReader<'a>) -> $crate::Result<Self> {
                #[allow(unused_imports)]
                use $crate::core::format::codec::{FieldDecode, Wire};
                r.struct_begin()?;
                $( let mut $field: Option<$ty> = None; )*
                let mut last_id: i16 = 0;
                while let Some((wire, id)) = r.field_begin(&mut last_id)? {
                    match id {
                        $(
                            $id if wire == <$ty as Wire>::WIRE => {
                                $field = Some(<$ty as FieldDecode<'a>>::read(r)?);
                            }
                        )*
                        _ => r.skip(wire)?,
                    }
                }
                r.struct_end();
                Ok($name {
                    $(
                        $field: thrift_struct_codec!(
                            @finish r, $name, $req, $field, $id $(, $default)?
                        ),
                    )*
                })
            }
        }

        impl $crate::core::format::ThriftEncode for $name {
            fn encode(&self, w: &mut $crate::core::format::CompactWriter) {
                #[allow(unused_imports)]
                use $crate::core::format::codec::FieldEncode;
                w.struct_begin();
                $( thrift_struct_codec!(@write w, self, $req, $field, $id); )*
                w.struct_end();
            }
        }

        impl $crate::core::format::codec::Wire for $name {
            const WIRE: $crate::core::format::WireType = $crate::core::format::WireType::Struct;
        }

        impl<'a> $crate::core::format::codec::FieldDecode<'a> for $name {
            #[inline]
            fn read(r: &mut $crate::core::format::CompactReader<'a>) -> $crate::Result<Self> {
                <$name as $crate::core::format::ThriftDecode<'a>>::decode(r)
            }
        }

        impl $crate::core::format::codec::FieldEncode for $name {
            #[inline]
            fn write(&self, w: &mut $crate::core::format::CompactWriter) {
                $crate::core::format::ThriftEncode::encode(self, w)
            }
        }
    };

    (@finish $r:ident, $name:ident, required, $field:ident, $id:literal) => {
        match $field {
            Some(v) => v,
            None => {
                return Err($crate::core::format::codec::missing_field(
                    stringify!($name),
                    stringify!($field),
                    $id,
                    $r.position(),
                ))
            }
        }
    };
    (@finish $r:ident, $name:ident, required, $field:ident, $id:literal, $default:expr) => {
        match $field {
            Some(v) => v,
            None => $default,
        }
    };
    (@finish $r:ident, $name:ident, optional, $field:ident, $id:literal) => {
        $field
    };

    (@write $w:ident, $s:ident, required, $field:ident, $id:literal) => {
        FieldEncode::write_field(&$s.$field, $id, $w)
    };
    (@write $w:ident, $s:ident, optional, $field:ident, $id:literal) => {
        if let Some(v) = &$s.$field {
            FieldEncode::write_field(v, $id, $w)
        }
    };
}

/// Defines a union as a Rust enum (deriving `Debug, Clone, PartialEq`) with an
/// `Unknown(i16)` variant, and its codec. Members are `id: Variant` (an empty struct member)
/// or `id: Variant(StructType)`.
macro_rules! thrift_union {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $id:literal : $variant:ident $(($inner:ty))?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub enum $name {
            $(
                $(#[$vmeta])*
                $variant $(($inner))?,
            )*
            /// A member this library does not know, by field id; its value was skipped.
            Unknown(i16),
        }

        thrift_union_codec! {
            $name { $( $id : $variant $(($inner))? ),* }
        }
    };
}

/// Implements the codec of an existing union enum (see [`thrift_union!`]).
macro_rules! thrift_union_codec {
    (
        $name:ident {
            $( $id:literal : $variant:ident $(($inner:ty))? ),* $(,)?
        }
    ) => {
        impl<'a> $crate::core::format::ThriftDecode<'a> for $name {
            fn decode(r: &mut $crate::core::format::CompactReader<'a>) -> $crate::Result<Self> {
                use $crate::core::format::codec;
                r.struct_begin()?;
                let mut last_id: i16 = 0;
                let (wire, id) = codec::union_member(r, stringify!($name), &mut last_id)?;
                let value = match id {
                    $(
                        $id => {
                            codec::union_member_is_struct(r, stringify!($name), id, wire)?;
                            thrift_union_codec!(@read r, $name, $variant $(, $inner)?)
                        }
                    )*
                    other => {
                        r.skip(wire)?;
                        $name::Unknown(other)
                    }
                };
                codec::union_end(r, stringify!($name), &mut last_id)?;
                Ok(value)
            }
        }

        impl $crate::core::format::ThriftEncode for $name {
            /// An `Unknown(id)` member is written as an empty struct with that id.
            fn encode(&self, w: &mut $crate::core::format::CompactWriter) {
                w.struct_begin();
                $( thrift_union_codec!(@write w, self, $name, $id, $variant $(, $inner)?); )*
                if let $name::Unknown(id) = self {
                    w.write_empty_struct_field(*id);
                }
                w.struct_end();
            }
        }

        impl $crate::core::format::codec::Wire for $name {
            const WIRE: $crate::core::format::WireType = $crate::core::format::WireType::Struct;
        }

        impl<'a> $crate::core::format::codec::FieldDecode<'a> for $name {
            #[inline]
            fn read(r: &mut $crate::core::format::CompactReader<'a>) -> $crate::Result<Self> {
                <$name as $crate::core::format::ThriftDecode<'a>>::decode(r)
            }
        }

        impl $crate::core::format::codec::FieldEncode for $name {
            #[inline]
            fn write(&self, w: &mut $crate::core::format::CompactWriter) {
                $crate::core::format::ThriftEncode::encode(self, w)
            }
        }
    };

    (@read $r:ident, $name:ident, $variant:ident) => {{
        $r.skip($crate::core::format::WireType::Struct)?;
        $name::$variant
    }};
    (@read $r:ident, $name:ident, $variant:ident, $inner:ty) => {
        $name::$variant(<$inner as $crate::core::format::ThriftDecode<'_>>::decode($r)?)
    };

    (@write $w:ident, $s:ident, $name:ident, $id:literal, $variant:ident) => {
        if let $name::$variant = $s {
            $w.write_empty_struct_field($id);
        }
    };
    (@write $w:ident, $s:ident, $name:ident, $id:literal, $variant:ident, $inner:ty) => {
        if let $name::$variant(inner) = $s {
            $w.write_field_header($crate::core::format::WireType::Struct, $id);
            $crate::core::format::ThriftEncode::encode(inner, $w);
        }
    };
}

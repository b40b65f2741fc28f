//! `#[parquet(assemble)]` against serde's derive: every shape below is defined twice, in
//! module `s` with `#[derive(Deserialize)]` (serde's path) and in module `a` with
//! `#[parquet(assemble)]` (the derive's `Deserialize`, whose fields the reader hands by index),
//! with the same serde attributes. Rows of random values (seeded by proptest) are written
//! with the `s` type and read back as both: the values must be equal, and so must the
//! errors (kind, message, location) when the file is another shape's (missing columns,
//! other types, other nullability).

#![allow(dead_code, clippy::type_complexity)]

use std::collections::BTreeMap;

use parquet_serde::{ParquetSchema, Reader};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------------
// Random values

/// A small deterministic generator (xorshift), seeded by proptest.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

trait Gen: Sized {
    fn gen(r: &mut Rng) -> Self;
}

impl Gen for i64 {
    fn gen(r: &mut Rng) -> Self {
        match r.below(4) {
            0 => i64::MIN,
            1 => i64::MAX,
            _ => r.next() as i64 >> r.below(60),
        }
    }
}
impl Gen for i32 {
    fn gen(r: &mut Rng) -> Self {
        (r.next() as i32) >> r.below(30)
    }
}
impl Gen for i16 {
    fn gen(r: &mut Rng) -> Self {
        r.next() as i16
    }
}
impl Gen for u8 {
    fn gen(r: &mut Rng) -> Self {
        r.next() as u8
    }
}
impl Gen for u32 {
    fn gen(r: &mut Rng) -> Self {
        r.next() as u32
    }
}
impl Gen for f64 {
    fn gen(r: &mut Rng) -> Self {
        (r.next() as i64 >> 20) as f64 / 1024.0
    }
}
impl Gen for f32 {
    fn gen(r: &mut Rng) -> Self {
        (r.next() as i32 >> 12) as f32 / 64.0
    }
}
impl Gen for bool {
    fn gen(r: &mut Rng) -> Self {
        r.below(2) == 0
    }
}
impl Gen for String {
    fn gen(r: &mut Rng) -> Self {
        let n = r.below(12);
        (0..n)
            .map(|_| ['a', 'b', 'é', '1', ' ', '😀'][r.below(6) as usize])
            .collect()
    }
}
impl<T: Gen> Gen for Option<T> {
    fn gen(r: &mut Rng) -> Self {
        (r.below(3) != 0).then(|| T::gen(r))
    }
}
impl<T: Gen> Gen for Vec<T> {
    fn gen(r: &mut Rng) -> Self {
        (0..r.below(4)).map(|_| T::gen(r)).collect()
    }
}
impl<T: Gen> Gen for BTreeMap<String, T> {
    fn gen(r: &mut Rng) -> Self {
        (0..r.below(4))
            .map(|_| (String::gen(r), T::gen(r)))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The shapes

/// One struct, serde-derived (`serde`) or assembled (`asm`).
macro_rules! def {
    (serde, $name:ident, [$($m:tt)*], $( [$($fm:tt)*] $f:ident : $t:ty ),*) => {
        #[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq, Default)]
        $($m)*
        pub struct $name { $( $($fm)* pub $f : $t ),* }
        def!(@gen $name, $($f),*);
    };
    (asm, $name:ident, [$($m:tt)*], $( [$($fm:tt)*] $f:ident : $t:ty ),*) => {
        #[derive(Serialize, ParquetSchema, Debug, Clone, PartialEq, Default)]
        #[parquet(assemble)]
        $($m)*
        pub struct $name { $( $($fm)* pub $f : $t ),* }
        def!(@gen $name, $($f),*);
    };
    (@gen $name:ident, $($f:ident),*) => {
        impl Gen for $name {
            fn gen(r: &mut Rng) -> Self {
                $name { $( $f: Gen::gen(r) ),* }
            }
        }
    };
}

/// The types shapes nest, in each module (enums are serde's in both: the attribute goes on
/// structs).
macro_rules! common {
    ($side:ident) => {
        def!($side, Inner, [], [] x: i64, [] s: String);
        def!($side, Deep, [], [] inner: Inner, [] tag: Option<String>);
        def!($side, WithDefault, [], [#[serde(default)]] y: Option<i32>, [] z: Vec<String>);
        def!($side, Renamed, [#[serde(rename_all = "camelCase")]], [] first_name: String,
             [#[serde(alias = "years")]] age_years: i32);

        #[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq, Default)]
        pub enum Level {
            #[default]
            Info,
            Warn,
            Error,
        }
        impl Gen for Level {
            fn gen(r: &mut Rng) -> Self {
                [Level::Info, Level::Warn, Level::Error][r.below(3) as usize].clone()
            }
        }

        #[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
        pub enum Event {
            Click { x: i32, y: i32 },
            Key(String),
            Idle,
        }
        impl Default for Event {
            fn default() -> Self {
                Event::Idle
            }
        }
        impl Gen for Event {
            fn gen(r: &mut Rng) -> Self {
                match r.below(3) {
                    0 => Event::Click { x: Gen::gen(r), y: Gen::gen(r) },
                    1 => Event::Key(Gen::gen(r)),
                    _ => Event::Idle,
                }
            }
        }

        pub fn seven() -> i64 {
            7
        }
    };
}

/// Every shape in both modules, and the list of checks.
macro_rules! shapes {
    ($( $shape:ident [$($m:tt)*] { $( [$($fm:tt)*] $f:ident : $t:ty ),* $(,)? } )*) => {
        pub mod s {
            use super::*;
            common!(serde);
            $( def!(serde, $shape, [$($m)*], $( [$($fm)*] $f : $t ),*); )*
        }
        pub mod a {
            use super::*;
            common!(asm);
            $( def!(asm, $shape, [$($m)*], $( [$($fm)*] $f : $t ),*); )*
        }

        /// Names of the shapes, in order.
        const SHAPES: &[&str] = &[$(stringify!($shape)),*];

        /// One file per shape, written with the serde type.
        fn files(seed: u64, rows: usize) -> Vec<Vec<u8>> {
            let mut r = Rng(seed | 1);
            vec![$({
                let v: Vec<s::$shape> = (0..rows).map(|_| Gen::gen(&mut r)).collect();
                parquet_serde::to_vec(&v).expect(concat!("write ", stringify!($shape)))
            }),*]
        }

        /// Reads `file` as every shape both ways; returns how many reads succeeded.
        fn read_all(file: &[u8], from: &str) -> usize {
            let mut ok = 0;
            $( ok += usize::from(same::<s::$shape, a::$shape>(file, stringify!($shape), from)); )*
            ok
        }
    };
}

shapes! {
    Flat [] { [] a: i64, [] b: String, [] c: f64, [] d: bool }
    Ints [] { [] a: i32, [] b: i16, [] c: u32, [] d: i64 }
    Floats [] { [] a: f32, [] b: f64 }
    Opts [] { [] a: Option<i64>, [] b: Option<String>, [] c: Option<bool> }
    OptFloats [] { [] a: Option<f64>, [] b: Option<f32> }
    Lists [] { [] a: Vec<i64>, [] b: Vec<String> }
    OptLists [] { [] a: Option<Vec<i32>>, [] b: Vec<Option<String>> }
    ListOfLists [] { [] a: Vec<Vec<i64>> }
    Maps [] { [] a: BTreeMap<String, i64> }
    MapOfOpts [] { [] a: BTreeMap<String, Option<String>>, [] b: i32 }
    MapOfLists [] { [] a: BTreeMap<String, Vec<i32>> }
    Nested [] { [] id: i64, [] inner: Inner }
    NestedOpt [] { [] id: i64, [] inner: Option<Inner> }
    NestedList [] { [] items: Vec<Inner> }
    NestedDeep [] { [] deep: Deep, [] more: Vec<Deep> }
    NestedMap [] { [] m: BTreeMap<String, Inner> }
    NestedDefault [] { [] w: WithDefault, [] n: i32 }
    NestedRenamed [] { [] r: Renamed, [] rs: Option<Vec<Renamed>> }
    UnitEnum [] { [] level: Level, [] msg: String }
    OptEnum [] { [] level: Option<Level> }
    DataEnum [] { [] ev: Event, [] n: i64 }
    ListEnum [] { [] evs: Vec<Event> }
    RenameField [] { [#[serde(rename = "A")]] a: i64, [#[serde(rename = "bee")]] b: String }
    RenameAllCamel [#[serde(rename_all = "camelCase")]] { [] user_id: i64, [] user_name: String }
    RenameAllUpper [#[serde(rename_all = "SCREAMING_SNAKE_CASE")]] { [] user_id: i64, [] ok: bool }
    RenameAllKebab [#[serde(rename_all = "kebab-case")]] { [] long_name: Option<String>, [] x: i32 }
    RenameContainer [#[serde(rename = "Other")]] { [] a: i64 }
    AliasField [] { [#[serde(alias = "b")]] a: i64, [] c: String }
    AliasMany [] { [#[serde(alias = "a", alias = "d")]] x: i32, [] y: Option<i64> }
    DefaultField [] { [] a: i64, [#[serde(default)]] b: String, [#[serde(default)]] c: Vec<i32> }
    DefaultPath [] { [] a: i32, [#[serde(default = "seven")]] b: i64 }
    DefaultContainer [#[serde(default)]] { [] a: i64, [] b: String, [] c: Option<bool> }
    SkipField [] { [] a: i64, [#[serde(skip)]] b: String, [] c: i32 }
    SkipDe [] { [] a: i64, [#[serde(skip_deserializing)]] b: Option<String> }
    SkipDefault [] { [#[serde(skip, default = "seven")]] a: i64, [] b: bool }
    SkipInDefault [#[serde(default)]] { [#[serde(skip)]] a: i64, [] b: Option<i32> }
    DenyUnknown [#[serde(deny_unknown_fields)]] { [] a: i64, [] b: Option<String> }
    WithBytes [] { [#[serde(with = "serde_bytes")]] a: Vec<u8>, [] b: i32 }
    SubsetA [] { [] a: i64 }
    SubsetB [] { [] b: String }
    SubsetAB [] { [] b: String, [] a: i64 }
    WideA [] { [] a: i64, [] b: String, [] c: f64, [] d: bool, [] e: i32, [] f: Option<i64> }
    Narrow [] { [] a: i32 }
    OptA [] { [] a: Option<i64>, [] b: Option<String> }
    StrA [] { [] a: String }
    LogFlat [] {
        [] ts: i64, [] level: Level, [] target: String, [] message: String,
        [] thread: Option<String>, [] line: Option<u32>, [] span_id: Option<i64>,
    }
    LogNested [] {
        [] ts: i64, [] message: String, [] fields: BTreeMap<String, String>,
        [] spans: Vec<Inner>, [] error: Option<Deep>,
    }
    Mixed [#[serde(rename_all = "camelCase")]] {
        [#[serde(alias = "ident")]] the_id: i64, [#[serde(default)]] some_list: Vec<Option<i32>>,
        [#[serde(skip)]] cache: Option<String>, [] the_event: Option<Event>,
    }
    ManyFields [] {
        [] f0: i64, [] f1: i64, [] f2: String, [] f3: Option<String>, [] f4: f64, [] f5: bool,
        [] f6: i32, [] f7: Vec<i64>, [] f8: Option<Inner>, [] f9: BTreeMap<String, i32>,
        [] f10: u32, [] f11: Option<f32>,
    }
    OneOpt [] { [] only: Option<Vec<Inner>> }
    TwoNested [] { [] left: Inner, [] right: Option<Deep>, [] both: Vec<WithDefault> }
}

// ---------------------------------------------------------------------------------------------
// The comparison

/// What a read gave, in a form that compares values (Debug) and errors (kind, text with
/// the location).
fn outcome<T: std::fmt::Debug>(r: parquet_serde::Result<T>) -> Result<String, String> {
    r.map(|v| format!("{v:?}"))
        .map_err(|e| format!("{:?}: {e}", e.kind()))
}

/// Reads `file` as `S` and as `A`, by `from_slice` and row by row through `Reader`; panics
/// when they differ. Whether the `from_slice` read succeeded.
fn same<S, A>(file: &[u8], shape: &str, from: &str) -> bool
where
    S: serde::de::DeserializeOwned + std::fmt::Debug,
    A: serde::de::DeserializeOwned + std::fmt::Debug,
{
    let s = outcome(parquet_serde::from_slice::<S>(file));
    let a = outcome(parquet_serde::from_slice::<A>(file));
    assert_eq!(s, a, "{from} file read as {shape}");
    let s_rows = rows(Reader::<_, S>::new(file));
    let a_rows = rows(Reader::<_, A>::new(file));
    assert_eq!(s_rows, a_rows, "{from} file read row by row as {shape}");
    s.is_ok()
}

/// Every row a `Reader` gives (or the error of its open).
fn rows<T: serde::de::DeserializeOwned + std::fmt::Debug>(
    reader: parquet_serde::Result<Reader<&[u8], T>>,
) -> Vec<Result<String, String>> {
    match reader {
        Ok(r) => r.map(outcome).collect(),
        Err(e) => vec![outcome::<()>(Err(e))],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Every shape's file read as every shape: the derive's assembler and serde agree on
    /// values and errors.
    #[test]
    fn assembled_rows_equal_serde_rows(seed in any::<u64>(), rows in 1usize..20) {
        let files = files(seed, rows);
        let mut ok = 0;
        for (file, from) in files.iter().zip(SHAPES) {
            ok += read_all(file, from);
        }
        // Each shape reads its own file, and some read others'.
        prop_assert!(ok >= SHAPES.len(), "{ok} reads succeeded");
        prop_assert!(ok < SHAPES.len() * SHAPES.len(), "no read failed");
    }
}

#[test]
fn there_are_at_least_fifty_shapes() {
    assert!(SHAPES.len() >= 50, "{}", SHAPES.len());
}

/// The assembled type is also a serde type like any other: JSON round trips through it the
/// same as through serde's derive (names, aliases, defaults, unknown fields).
#[test]
fn assembled_types_read_json_as_serde_does() {
    let inputs = [
        r#"{"a": 1, "c": "x"}"#,
        r#"{"b": 1, "c": "x"}"#,
        r#"{"a": 1, "b": 2, "c": "x"}"#,
        r#"{"a": 1}"#,
        r#"{"a": 1, "c": "x", "zzz": [1]}"#,
        r#"[1, "x"]"#,
        r#"[1]"#,
    ];
    for input in inputs {
        let s = serde_json::from_str::<s::AliasField>(input).map_err(|e| e.to_string());
        let a = serde_json::from_str::<a::AliasField>(input).map_err(|e| e.to_string());
        assert_eq!(format!("{s:?}"), format!("{a:?}"), "{input}");
    }
    for input in [
        r#"{"a": 1}"#,
        r#"{"a": 1, "b": "x", "c": 3}"#,
        r#"[1, null]"#,
        "[]",
    ] {
        let s = serde_json::from_str::<s::DenyUnknown>(input).map_err(|e| e.to_string());
        let a = serde_json::from_str::<a::DenyUnknown>(input).map_err(|e| e.to_string());
        assert_eq!(format!("{s:?}"), format!("{a:?}"), "{input}");
    }
    for input in [r#"{}"#, r#"{"b": 2}"#, r#"[]"#, r#"[3, 4]"#] {
        let s = serde_json::from_str::<s::DefaultPath>(input).map_err(|e| e.to_string());
        let a = serde_json::from_str::<a::DefaultPath>(input).map_err(|e| e.to_string());
        assert_eq!(format!("{s:?}"), format!("{a:?}"), "{input}");
        let s = serde_json::from_str::<s::DefaultContainer>(input).map_err(|e| e.to_string());
        let a = serde_json::from_str::<a::DefaultContainer>(input).map_err(|e| e.to_string());
        assert_eq!(format!("{s:?}"), format!("{a:?}"), "{input}");
    }
}

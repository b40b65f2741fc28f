//! The derive's direct writer on nested rows (derived structs inside structs, `Option<Struct>`,
//! `Vec` of scalars and of structs, `Option<Vec<..>>`, lists of lists, maps), against the serde
//! path (the same rows through a wrapper whose `ParquetSchema` has no direct writer): the
//! files are byte for byte the same, they read back as the rows written, and a value a
//! nested column refuses gives the same error both ways.

use std::collections::{BTreeMap, HashMap};

use parquet_serde::core::schema::typed::{ColumnOptions, FieldAttrs};
use parquet_serde::core::schema::SchemaNode;
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize, Serializer};

/// The rows of `T` through serde only: the same schema and options, no direct writer.
struct SerdeOnly<'a, T>(&'a T);

impl<T: Serialize> Serialize for SerdeOnly<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<T: ParquetSchema> ParquetSchema for SerdeOnly<'_, T> {
    const PARQUET_MESSAGE_NAME: &'static str = T::PARQUET_MESSAGE_NAME;

    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        T::parquet_node(name, attrs)
    }

    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        T::parquet_collect_column_options(path, out)
    }
}

/// A small deterministic generator (xorshift), seeded by proptest.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random value of the type.
trait Rand {
    fn rand(r: &mut Rng) -> Self;
}

macro_rules! rand_int {
    ($($t:ty),*) => {$(
        impl Rand for $t {
            fn rand(r: &mut Rng) -> Self {
                // Small values, and the extremes of the type.
                match r.below(8) {
                    0 => <$t>::MIN,
                    1 => <$t>::MAX,
                    _ => r.next() as $t,
                }
            }
        }
    )*};
}

rand_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Rand for f32 {
    fn rand(r: &mut Rng) -> Self {
        // Finite: NaN is not equal to itself in the read-back comparison.
        (r.next() as i32) as f32 / 7.0
    }
}

impl Rand for f64 {
    fn rand(r: &mut Rng) -> Self {
        (r.next() as i64) as f64 / 3.0
    }
}

impl Rand for bool {
    fn rand(r: &mut Rng) -> Self {
        r.below(2) == 1
    }
}

impl Rand for String {
    fn rand(r: &mut Rng) -> Self {
        let n = r.below(6) as usize;
        (0..n)
            .map(|_| ['a', 'z', '\u{e9}', '\u{4e16}', ' '][r.below(5) as usize])
            .collect()
    }
}

impl<T: Rand> Rand for Option<T> {
    fn rand(r: &mut Rng) -> Self {
        (r.below(3) != 0).then(|| T::rand(r))
    }
}

impl<T: Rand> Rand for Vec<T> {
    fn rand(r: &mut Rng) -> Self {
        // Empty vecs often.
        let n = r.below(4) as usize;
        (0..n).map(|_| T::rand(r)).collect()
    }
}

impl<V: Rand> Rand for BTreeMap<String, V> {
    fn rand(r: &mut Rng) -> Self {
        let n = r.below(3);
        (0..n).map(|k| (format!("k{k}"), V::rand(r))).collect()
    }
}

impl<V: Rand> Rand for HashMap<i32, V> {
    fn rand(r: &mut Rng) -> Self {
        let n = r.below(4);
        (0..n).map(|k| (k as i32 * 3 - 2, V::rand(r))).collect()
    }
}

/// Derived structs with a `Rand` impl.
macro_rules! shapes {
    ($( $name:ident { $($f:ident : $t:ty),* $(,)? } )*) => {$(
        #[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
        struct $name { $($f: $t),* }

        impl Rand for $name {
            fn rand(r: &mut Rng) -> Self {
                $name { $($f: <$t as Rand>::rand(r)),* }
            }
        }
    )*};
}

shapes! {
    // Depth 1.
    Leaf { a: i32, s: String }
    Scalars { i8: i8, u16: u16, u32: u32, u64: u64, f32: f32, f64: f64, b: bool }
    Options { x: Option<i64>, t: Option<String>, b: Option<bool>, f: Option<f32> }
    Lists { v: Vec<i64>, vs: Vec<String>, e: Vec<u32>, vo: Vec<Option<i16>> }
    OptLists { ov: Option<Vec<i16>>, ovs: Option<Vec<String>>, ovo: Option<Vec<Option<u8>>> }
    Lists2 { vv: Vec<Vec<i32>>, ovv: Option<Vec<Vec<String>>> }
    // Depth 2.
    Nested { id: i64, inner: Leaf }
    OptStruct { id: u8, o: Option<Leaf>, p: Option<Scalars> }
    VecStruct { items: Vec<Leaf>, opts: Vec<Options> }
    OptVecStruct { ovs: Option<Vec<Leaf>>, vos: Vec<Option<Leaf>>, vvs: Vec<Vec<Leaf>> }
    WithMap { m: BTreeMap<String, i64>, inner: Option<Lists>, after: String }
    // Maps of optional text, of structs, of lists; maps in an Option and in a list.
    Maps { a: BTreeMap<String, Option<String>>, b: Option<BTreeMap<String, Leaf>>, c: Vec<HashMap<i32, Vec<i64>>>, d: HashMap<i32, Option<Options>> }
    // Depth 3.
    Depth3 { a: Nested, b: Option<OptStruct>, c: Vec<VecStruct>, d: f64 }
    Depth3b { d: Vec<Nested>, e: Option<OptVecStruct>, f: Option<Vec<OptLists>> }
    Depth3c { w: Vec<WithMap>, x: Option<Lists2>, y: Option<Nested> }
}

/// Writes `n` random rows of `T` from `seed` both ways: the same bytes, and they read back.
fn check<T>(seed: u64, n: usize)
where
    T: Rand + Serialize + ParquetSchema + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let mut r = Rng(seed | 1);
    let rows: Vec<T> = (0..n).map(|_| T::rand(&mut r)).collect();
    let direct = parquet_serde::to_vec(&rows).expect("the direct path writes");
    let wrapped: Vec<SerdeOnly<'_, T>> = rows.iter().map(SerdeOnly).collect();
    let serde = parquet_serde::to_vec(&wrapped).expect("the serde path writes");
    assert!(direct == serde, "the files differ for seed {seed}");
    let back: Vec<T> = parquet_serde::from_slice(&direct).expect("the file reads");
    assert_eq!(back, rows);
}

macro_rules! property_tests {
    ($($test:ident: $shape:ident),* $(,)?) => {
        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
            $(
                #[test]
                fn $test(seed in proptest::prelude::any::<u64>(), n in 1usize..40) {
                    check::<$shape>(seed, n);
                }
            )*
        }
    };
}

property_tests! {
    leaf: Leaf,
    scalars: Scalars,
    options: Options,
    lists: Lists,
    opt_lists: OptLists,
    lists_of_lists: Lists2,
    nested: Nested,
    opt_struct: OptStruct,
    vec_struct: VecStruct,
    opt_vec_struct: OptVecStruct,
    with_map: WithMap,
    maps: Maps,
    depth3: Depth3,
    depth3b: Depth3b,
    depth3c: Depth3c,
}

#[test]
fn many_rows_over_several_pages_and_row_groups() {
    // Rows enough for several pages per column, with a small row-group size.
    let mut r = Rng(99);
    let rows: Vec<Depth3b> = (0..3000).map(|_| Depth3b::rand(&mut r)).collect();
    let options = parquet_serde::WriterOptions::default().row_group_rows(700);
    let direct = parquet_serde::to_vec_with(&rows, &options).unwrap();
    let wrapped: Vec<SerdeOnly<'_, Depth3b>> = rows.iter().map(SerdeOnly).collect();
    let serde = parquet_serde::to_vec_with(&wrapped, &options).unwrap();
    assert!(direct == serde);
    let back: Vec<Depth3b> = parquet_serde::from_slice(&direct).unwrap();
    assert_eq!(back, rows);
}

#[derive(Serialize, ParquetSchema, Clone)]
struct Price {
    #[parquet(decimal(precision = 4, scale = 2))]
    price: i64,
}

#[derive(Serialize, ParquetSchema, Clone)]
struct Basket {
    id: i32,
    prices: Vec<Price>,
    best: Option<Price>,
}

fn basket(id: i32, price: i64) -> Basket {
    Basket {
        id,
        prices: vec![Price { price: 1 }, Price { price }],
        best: Some(Price { price: 2 }),
    }
}

#[test]
fn a_value_a_nested_column_refuses_is_the_same_error_both_ways() {
    let rows = vec![basket(0, 5), basket(1, 12_345), basket(2, 7)];
    let wrapped: Vec<SerdeOnly<'_, Basket>> = rows.iter().map(SerdeOnly).collect();
    let serde = parquet_serde::to_vec(&wrapped).unwrap_err().to_string();
    let direct = parquet_serde::to_vec(&rows).unwrap_err().to_string();
    assert_eq!(direct, serde);
    assert!(direct.contains("prices"), "{direct}");
    assert!(direct.contains("row 1"), "{direct}");
    // After a refused row the writer writes the next ones as the serde path does.
    let mut w = parquet_serde::Writer::new(Vec::new(), Default::default()).unwrap();
    let mut s = parquet_serde::Writer::new(Vec::new(), Default::default()).unwrap();
    for (row, wrapped) in rows.iter().zip(&wrapped) {
        let a = w.write(row).is_ok();
        let b = s.write(wrapped).is_ok();
        assert_eq!(a, b);
    }
    assert!(w.close().unwrap().0 == s.close().unwrap().0);
}

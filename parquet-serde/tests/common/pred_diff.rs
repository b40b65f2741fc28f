//! The random differential test of predicates against DuckDB (issue 28), shared by its two
//! halves: `tests/predicate_duckdb.rs` (the library: `Predicate::parse`, on a file and on a
//! Hive folder) and `parquet-serde/tests/cli_where_duckdb.rs` (the command line's `--where`,
//! which only a test of the `parquet-serde` package can run). Both include this file with
//! `#[path]`; it is not part of `common`, so the other tests do not compile it.
//!
//! A table has one column of every type predicates take (see [`columns`]), random values
//! with nulls, several row groups and small pages with the page index, dictionaries and
//! Bloom filters on some columns; it is written by this library's [`ValueWriter`] to one file
//! and, split by `id % 3`, to a Hive folder `part=0/1/2`. A predicate is drawn from the whole
//! grammar with literals near and at the values present, and is rendered twice: in this
//! library's syntax and as DuckDB SQL with the same meaning. DuckDB runs every predicate of
//! a table in one Python process (`testdata/pred_diff_duckdb.py`) and is the oracle.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use parquet_serde::core::schema::Schema;
use parquet_serde::core::schema::TimeUnit;
use parquet_serde::options::BloomFilterOptions;
use parquet_serde::record::ValueWriter;
use parquet_serde::variant::Variant;
use parquet_serde::{Value, WriterOptions};

/// Which parts of the grammar the library has: a part off is not drawn. Every part is on
/// once issue 28's semantics have landed; the names say which part each flag covers.
#[derive(Clone, Copy, Debug)]
pub struct Grammar {
    /// `like` / `not like` with `%` and `_`.
    pub like: bool,
    /// `in (.., null)` and `not in (.., null)`.
    pub in_null: bool,
    /// bare boolean columns, `is [not] true|false`.
    pub booleans: bool,
    /// `a < b` between two columns.
    pub column_vs_column: bool,
    /// literals on DECIMAL columns (exact, whole or with a fraction).
    pub decimals: bool,
    /// text literals on DATE / TIME / TIMESTAMP / INT96 columns, finer than the unit,
    /// date-only on a timestamp, a timestamp on a date.
    pub times: bool,
    /// INT96 columns.
    pub int96: bool,
    /// UUID text literals.
    pub uuid: bool,
    /// FLOAT16 columns.
    pub float16: bool,
    /// `a = 1.0` on an integer column.
    pub float_on_int: bool,
    /// VARIANT paths (`v.a = 5`).
    pub variant: bool,
}

impl Grammar {
    /// What the grammar had before issue 28.
    pub const BEFORE: Grammar = Grammar {
        like: false,
        in_null: false,
        booleans: false,
        column_vs_column: false,
        decimals: false,
        times: false,
        int96: false,
        uuid: false,
        float16: true,
        float_on_int: false,
        variant: false,
    };

    /// What has landed so far (pred-core: exact decimals and times; pred-variant: paths).
    pub const LANDED: Grammar = Grammar {
        like: false,
        in_null: false,
        booleans: false,
        column_vs_column: false,
        ..Grammar::ALL
    };

    /// Everything issue 28 asks for.
    pub const ALL: Grammar = Grammar {
        like: true,
        in_null: true,
        booleans: true,
        column_vs_column: true,
        decimals: true,
        times: true,
        int96: true,
        uuid: true,
        float16: true,
        float_on_int: true,
        variant: true,
    };
}

/// A deterministic generator (SplitMix64): the same seed, the same tables and predicates.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True with probability `p` percent.
    pub fn chance(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    /// An integer in `lo..=hi`.
    pub fn range(&mut self, lo: i128, hi: i128) -> i128 {
        let span = (hi as u128).wrapping_sub(lo as u128) + 1;
        let r = ((self.next() as u128) << 64 | self.next() as u128) % span;
        (lo as u128).wrapping_add(r) as i128
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// A column's type, as the generator knows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A signed or unsigned integer of `bits` (8, 16, 32, 64).
    Int { bits: u32, signed: bool },
    /// FLOAT.
    F32,
    /// DOUBLE.
    F64,
    /// FLOAT16.
    F16,
    /// BOOLEAN.
    Bool,
    /// STRING.
    Str,
    /// ENUM.
    Enum,
    /// UUID.
    Uuid,
    /// DECIMAL(precision, scale) on INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY.
    Decimal {
        physical: &'static str,
        precision: u32,
        scale: u32,
    },
    /// DATE.
    Date,
    /// TIME in `unit` (0 ms, 1 µs, 2 ns), local.
    Time { unit: u32 },
    /// TIMESTAMP in `unit` (0 ms, 1 µs, 2 ns), UTC-adjusted or local.
    Ts { unit: u32, utc: bool },
    /// INT96 (nanoseconds, local).
    Int96,
    /// An unshredded VARIANT.
    Variant,
}

/// A column: its name and type.
#[derive(Clone, Debug)]
pub struct Col {
    /// The column's name.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
}

const fn c(name: &'static str, kind: Kind) -> Col {
    Col { name, kind }
}

/// Every column of a table (besides `id`).
pub fn columns() -> Vec<Col> {
    use Kind::*;
    vec![
        c(
            "i8",
            Int {
                bits: 8,
                signed: true,
            },
        ),
        c(
            "i16",
            Int {
                bits: 16,
                signed: true,
            },
        ),
        c(
            "i32",
            Int {
                bits: 32,
                signed: true,
            },
        ),
        c(
            "i64",
            Int {
                bits: 64,
                signed: true,
            },
        ),
        c(
            "u8",
            Int {
                bits: 8,
                signed: false,
            },
        ),
        c(
            "u16",
            Int {
                bits: 16,
                signed: false,
            },
        ),
        c(
            "u32",
            Int {
                bits: 32,
                signed: false,
            },
        ),
        c(
            "u64",
            Int {
                bits: 64,
                signed: false,
            },
        ),
        c("f32", F32),
        c("f64", F64),
        c("f16", F16),
        c("flag", Bool),
        c("s", Str),
        c("e", Enum),
        c("uid", Uuid),
        c(
            "d32",
            Decimal {
                physical: "int32",
                precision: 9,
                scale: 2,
            },
        ),
        c(
            "d64",
            Decimal {
                physical: "int64",
                precision: 18,
                scale: 4,
            },
        ),
        c(
            "dfix",
            Decimal {
                physical: "fixed_len_byte_array(12)",
                precision: 27,
                scale: 6,
            },
        ),
        c(
            "dbin",
            Decimal {
                physical: "binary",
                precision: 38,
                scale: 10,
            },
        ),
        c(
            "dbin0",
            Decimal {
                physical: "binary",
                precision: 20,
                scale: 0,
            },
        ),
        c("dt", Date),
        c("tm_ms", Time { unit: 0 }),
        c("tm_us", Time { unit: 1 }),
        c("tm_ns", Time { unit: 2 }),
        c(
            "ts_ms",
            Ts {
                unit: 0,
                utc: false,
            },
        ),
        c(
            "ts_us",
            Ts {
                unit: 1,
                utc: false,
            },
        ),
        c(
            "ts_ns",
            Ts {
                unit: 2,
                utc: false,
            },
        ),
        c("tz_ms", Ts { unit: 0, utc: true }),
        c("tz_us", Ts { unit: 1, utc: true }),
        c("tz_ns", Ts { unit: 2, utc: true }),
        c("i96", Int96),
        c("v", Variant),
    ]
}

fn unit_name(unit: u32) -> &'static str {
    ["MILLIS", "MICROS", "NANOS"][unit as usize]
}

/// Units per second.
fn per_second(unit: u32) -> i64 {
    [1_000, 1_000_000, 1_000_000_000][unit as usize]
}

fn time_unit(unit: u32) -> TimeUnit {
    [TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos][unit as usize]
}

impl Col {
    /// The schema line of this column.
    fn schema_line(&self) -> String {
        let n = self.name;
        match self.kind {
            Kind::Int { bits, signed } => {
                let phys = if bits == 64 { "int64" } else { "int32" };
                if bits == 32 && signed {
                    format!("optional int32 {n};")
                } else if bits == 64 && signed {
                    format!("optional int64 {n};")
                } else {
                    format!("optional {phys} {n} (INTEGER({bits},{signed}));")
                }
            }
            Kind::F32 => format!("optional float {n};"),
            Kind::F64 => format!("optional double {n};"),
            Kind::F16 => format!("optional fixed_len_byte_array(2) {n} (FLOAT16);"),
            Kind::Bool => format!("optional boolean {n};"),
            Kind::Str => format!("optional binary {n} (STRING);"),
            Kind::Enum => format!("optional binary {n} (ENUM);"),
            Kind::Uuid => format!("optional fixed_len_byte_array(16) {n} (UUID);"),
            Kind::Decimal {
                physical,
                precision,
                scale,
            } => format!("optional {physical} {n} (DECIMAL({precision},{scale}));"),
            Kind::Date => format!("optional int32 {n} (DATE);"),
            Kind::Time { unit } => {
                let phys = if unit == 0 { "int32" } else { "int64" };
                format!("optional {phys} {n} (TIME({},false));", unit_name(unit))
            }
            Kind::Ts { unit, utc } => {
                format!("optional int64 {n} (TIMESTAMP({},{utc}));", unit_name(unit))
            }
            Kind::Int96 => format!("optional int96 {n};"),
            Kind::Variant => format!(
                "optional group {n} (VARIANT(1)) {{ required binary metadata; required binary value; }}"
            ),
        }
    }

    /// The range of an integer column.
    fn int_range(&self) -> (i128, i128) {
        match self.kind {
            Kind::Int { bits, signed: true } => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            Kind::Int {
                bits,
                signed: false,
            } => (0, (1i128 << bits) - 1),
            Kind::Decimal { precision, .. } => {
                let m = 10i128.pow(precision) - 1;
                (-m, m)
            }
            _ => unreachable!(),
        }
    }
}

/// A generated cell: the value in the generator's terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Null.
    Null,
    /// Integers, decimals (unscaled), dates (days), times and timestamps (units), INT96
    /// (nanoseconds).
    I(i128),
    /// FLOAT, DOUBLE, FLOAT16.
    F(f64),
    /// BOOLEAN.
    B(bool),
    /// STRING, ENUM.
    S(String),
    /// UUID.
    U([u8; 16]),
    /// VARIANT: an object.
    V(BTreeMap<String, VCell>),
}

/// A field of a VARIANT object.
#[derive(Clone, Debug, PartialEq)]
pub enum VCell {
    /// An integer (stored in the narrowest width).
    I(i64),
    /// A double.
    F(f64),
    /// A string.
    S(String),
    /// A boolean.
    B(bool),
    /// A decimal: unscaled, scale.
    D(i64, u8),
    /// A nested object.
    O(BTreeMap<String, VCell>),
    /// An array.
    A(Vec<VCell>),
}

const STRINGS: &[&str] = &[
    "",
    "a",
    "ab",
    "abc",
    "abd",
    "b",
    "B",
    "o'k",
    "x%y",
    "a_c",
    "Zebra",
    "zebra",
    "ñu",
    "日本",
    "alpha beta",
    "alpha",
    "1",
    "10",
    "9",
];
const ENUMS: &[&str] = &["RED", "GREEN", "BLUE", "red"];

/// 2026-11-24T00:00:00Z in seconds.
const BASE_SECONDS: i64 = 1_795_478_400;
/// 2026-11-24 in days since the epoch.
const BASE_DAYS: i64 = 20_781;

/// A table: its seed, columns and rows (`rows[i]` has id `i`).
pub struct Table {
    /// The seed it was drawn from.
    pub seed: u64,
    /// Its columns (besides `id`).
    pub cols: Vec<Col>,
    /// Its rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
    /// The few values each column draws from most of the time (so that equality matches).
    pools: Vec<Vec<Cell>>,
}

fn uuid_bytes(r: &mut Rng) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&r.next().to_be_bytes());
    b[8..].copy_from_slice(&r.next().to_be_bytes());
    b
}

fn f16_round(x: f64) -> f64 {
    x // the generator only draws values FLOAT16 holds exactly (quarters up to ±512)
}

/// One random value of column `col` (never null).
fn random_cell(col: &Col, r: &mut Rng) -> Cell {
    match col.kind {
        Kind::Int { .. } => {
            let (lo, hi) = col.int_range();
            Cell::I(match r.below(4) {
                0 => *r.pick(&[lo, hi, 0, 1, lo + 1, hi - 1]),
                1 => r.range(-300, 300).clamp(lo, hi),
                _ => r.range(lo, hi),
            })
        }
        Kind::F32 | Kind::F64 | Kind::F16 => {
            let special = [f64::NAN, 0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY];
            let f = match r.below(5) {
                0 => *r.pick(&special),
                _ if col.kind == Kind::F16 => f16_round(r.range(-2048, 2048) as f64 / 4.0),
                1 => r.range(-1 << 40, 1 << 40) as f64 * 1024.0,
                _ => r.range(-4000, 4000) as f64 / 4.0,
            };
            // the value the column holds
            Cell::F(if col.kind == Kind::F64 {
                f
            } else {
                f as f32 as f64
            })
        }
        Kind::Bool => Cell::B(r.chance(50)),
        Kind::Str => Cell::S(if r.chance(80) {
            r.pick(STRINGS).to_string()
        } else {
            let n = r.below(5);
            (0..n)
                .map(|_| *r.pick(&['a', 'b', 'c', '_', '%', 'é', 'Z', ' ']))
                .collect()
        }),
        Kind::Enum => Cell::S(r.pick(ENUMS).to_string()),
        Kind::Uuid => Cell::U(uuid_bytes(r)),
        Kind::Decimal { scale, .. } => {
            let (lo, hi) = col.int_range();
            let unit = 10i128.pow(scale);
            Cell::I(match r.below(4) {
                0 => *r.pick(&[lo, hi, 0, 1, -1, unit, -unit]),
                1 => r.range(-300, 300) * unit / 4,
                _ => r.range(lo, hi) / 10i128.pow(r.below(scale as u64 + 1) as u32),
            })
        }
        Kind::Date => Cell::I(match r.below(5) {
            0 => *r.pick(&[0, -1, 1, -719_162, 2_932_896]) as i128,
            _ => (BASE_DAYS + r.range(-40, 40) as i64) as i128,
        }),
        Kind::Time { unit } => {
            let day = 86_400 * per_second(unit) as i128;
            Cell::I(match r.below(4) {
                0 => *r.pick(&[0, day - 1, per_second(unit) as i128 * 43_200]),
                _ => r.range(0, day - 1),
            })
        }
        Kind::Ts { unit, .. } => {
            let ps = per_second(unit) as i128;
            let s = BASE_SECONDS as i128 + r.range(-3 * 86_400, 3 * 86_400);
            // 9999-12-31T23:59:59, or on nanosecond columns 2^62 ns (year 2116): DuckDB
            // takes i64::MAX as infinity.
            let last = if unit == 2 {
                1 << 62
            } else {
                ps * 253_402_300_799
            };
            Cell::I(match r.below(6) {
                0 => *r.pick(&[0, -1, 1, last, -last]),
                1 => s * ps,
                _ => s * ps + r.range(0, ps - 1),
            })
        }
        Kind::Int96 => {
            // DuckDB reads INT96 in microseconds: whole microseconds only.
            let s = BASE_SECONDS as i128 + r.range(-3 * 86_400, 3 * 86_400);
            Cell::I(s * 1_000_000_000 + r.range(0, 999_999) * 1_000)
        }
        Kind::Variant => {
            let mut m = BTreeMap::new();
            if r.chance(80) {
                let a = match r.below(6) {
                    0 => VCell::S(r.range(-50, 50).to_string()),
                    1 => VCell::F(r.range(-200, 200) as f64 / 4.0),
                    2 => VCell::D(r.range(-5000, 5000) as i64, 2),
                    3 => VCell::S("x".into()),
                    _ => {
                        let small = r.range(-50, 50) as i64;
                        let wide = r.range(-100_000, 100_000) as i64;
                        VCell::I(*r.pick(&[small, wide, i64::MAX, -5_000_000_000]))
                    }
                };
                m.insert("a".into(), a);
            }
            if r.chance(70) {
                m.insert("s".into(), VCell::S(r.pick(STRINGS).to_string()));
            }
            if r.chance(50) {
                m.insert("b".into(), VCell::B(r.chance(50)));
            }
            if r.chance(40) {
                let len = r.below(3) as usize;
                let items = (0..len)
                    .map(|_| match r.below(3) {
                        0 => VCell::S(r.range(-5, 5).to_string()),
                        _ => VCell::I(r.range(-20, 20) as i64),
                    })
                    .collect();
                m.insert("arr".into(), VCell::A(items));
            }
            if r.chance(60) {
                let mut n = BTreeMap::new();
                n.insert("x".into(), VCell::I(r.range(-20, 20) as i64));
                m.insert("n".into(), VCell::O(n));
            }
            Cell::V(m)
        }
    }
}

impl Table {
    /// A random table of `rows` rows from `seed`.
    ///
    /// [`ValueWriter`] does not write INT96: the INT96 column is in tables of its own
    /// (`int96`), with an `i64` and two timestamp columns, written by the core
    /// [`FileWriter`](parquet_serde::core::file::FileWriter).
    pub fn new(seed: u64, rows: usize, grammar: &Grammar, int96: bool) -> Table {
        let mut r = Rng::new(seed);
        let cols: Vec<Col> = columns()
            .into_iter()
            .filter(|c| {
                if int96 {
                    ["i96", "ts_us", "ts_ns", "i64"].contains(&c.name)
                } else {
                    c.kind != Kind::Int96 && (grammar.float16 || c.kind != Kind::F16)
                }
            })
            .collect();
        let pools: Vec<Vec<Cell>> = cols
            .iter()
            .map(|c| (0..6).map(|_| random_cell(c, &mut r)).collect())
            .collect();
        let null_pct: Vec<u64> = cols.iter().map(|_| *r.pick(&[0, 5, 20, 50, 100])).collect();
        let rows = (0..rows)
            .map(|_| {
                cols.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        if r.chance(null_pct[i]) {
                            Cell::Null
                        } else if r.chance(60) {
                            r.pick(&pools[i]).clone()
                        } else {
                            random_cell(c, &mut r)
                        }
                    })
                    .collect()
            })
            .collect();
        Table {
            seed,
            cols,
            rows,
            pools,
        }
    }

    /// The schema text of the table.
    pub fn schema_text(&self) -> String {
        let mut s = String::from("message t {\n  required int64 id;\n");
        for c in &self.cols {
            let _ = writeln!(s, "  {}", c.schema_line());
        }
        s.push('}');
        s
    }

    fn value(&self, col: &Col, cell: &Cell) -> Value {
        match (cell, col.kind) {
            (Cell::Null, _) => Value::Null,
            (Cell::I(i), Kind::Int { signed: true, .. }) => Value::Int(*i as i64),
            (Cell::I(i), Kind::Int { signed: false, .. }) => Value::UInt(*i as u64),
            (Cell::I(i), Kind::Decimal { scale, .. }) => Value::Decimal {
                unscaled: i.to_be_bytes().to_vec(),
                scale: scale as i32,
            },
            (Cell::I(i), Kind::Date) => Value::Date(*i as i32),
            (Cell::I(i), Kind::Time { unit }) => Value::Time {
                value: *i as i64,
                unit: time_unit(unit),
            },
            (Cell::I(i), Kind::Ts { unit, utc }) => Value::Timestamp {
                value: *i as i64,
                unit: time_unit(unit),
                utc,
            },
            (Cell::I(i), Kind::Int96) => Value::Timestamp {
                value: *i as i64,
                unit: TimeUnit::Nanos,
                utc: false,
            },
            (Cell::F(f), Kind::F32) => Value::Float(*f as f32),
            (Cell::F(f), Kind::F16) => Value::Float16(*f as f32),
            (Cell::F(f), _) => Value::Double(*f),
            (Cell::B(b), _) => Value::Bool(*b),
            (Cell::S(s), _) => Value::String(s.clone()),
            (Cell::U(u), _) => Value::Uuid(*u),
            (Cell::V(m), _) => Value::Variant(variant_object(m)),
            (cell, kind) => panic!("no value of {kind:?} from {cell:?}"),
        }
    }

    /// Writes the table to `path` (several row groups, small pages with the page index,
    /// dictionaries on some columns, Bloom filters on others) and, split by `id % 3`, to the
    /// Hive folder `hive` (`part=0/`, `part=1/`, `part=2/`); with statistics in IEEE 754
    /// total order (floats) and chronological order (INT96) when `orders`.
    pub fn write(&self, path: &Path, hive: &Path, orders: bool) {
        if self.cols.iter().any(|c| c.kind == Kind::Int96) {
            return self.write_core(path, hive, orders);
        }
        let schema: Schema = self.schema_text().parse().expect("schema");
        let mut r = Rng::new(self.seed ^ 0xB100);
        let mut options = WriterOptions::default()
            .row_group_rows(40 + r.below(80) as usize)
            .page_row_limit(5 + r.below(20) as usize)
            .page_index(true)
            .dictionary(r.chance(50))
            .float_total_order(orders)
            .int96_timestamp_order(orders);
        for c in &self.cols {
            if c.kind == Kind::Variant {
                continue;
            }
            if r.chance(25) {
                options = options.bloom_filter(c.name, BloomFilterOptions::default());
            }
            if r.chance(30) {
                options = options.column_dictionary(c.name, r.chance(50));
            }
        }
        let row = |i: usize| {
            let mut fields = vec![("id".to_string(), Value::Int(i as i64))];
            for (c, cell) in self.cols.iter().zip(&self.rows[i]) {
                fields.push((c.name.to_string(), self.value(c, cell)));
            }
            Value::Group(fields)
        };
        let mut w = ValueWriter::new(Vec::new(), schema.clone(), options.clone()).unwrap();
        for i in 0..self.rows.len() {
            w.write(&row(i)).unwrap_or_else(|e| panic!("row {i}: {e}"));
        }
        std::fs::write(path, w.into_inner().unwrap()).unwrap();
        for part in 0..3 {
            let dir = hive.join(format!("part={part}"));
            std::fs::create_dir_all(&dir).unwrap();
            let mut w = ValueWriter::new(Vec::new(), schema.clone(), options.clone()).unwrap();
            for i in (part..self.rows.len()).step_by(3) {
                w.write(&row(i)).unwrap();
            }
            std::fs::write(dir.join("data.parquet"), w.into_inner().unwrap()).unwrap();
        }
    }
}

impl Table {
    /// [`write`](Self::write) through the core `FileWriter`, for tables with INT96.
    fn write_core(&self, path: &Path, hive: &Path, orders: bool) {
        let ids: Vec<usize> = (0..self.rows.len()).collect();
        self.write_core_rows(path, &ids, orders);
        for part in 0..3 {
            let dir = hive.join(format!("part={part}"));
            std::fs::create_dir_all(&dir).unwrap();
            let ids: Vec<usize> = (part..self.rows.len()).step_by(3).collect();
            self.write_core_rows(&dir.join("data.parquet"), &ids, orders);
        }
    }

    fn write_core_rows(&self, path: &Path, ids: &[usize], orders: bool) {
        use parquet_serde::core::column::ColumnBatch;
        use parquet_serde::core::file::FileWriter;
        use parquet_serde::core::values::{ColumnValues, Int96};
        let schema: Schema = self.schema_text().parse().expect("schema");
        let mut r = Rng::new(self.seed ^ 0xC0DE);
        let group = 30 + r.below(60) as usize;
        let options = WriterOptions::default()
            .page_row_limit(5 + r.below(20) as usize)
            .page_index(true)
            .dictionary(r.chance(50))
            .float_total_order(orders)
            .int96_timestamp_order(orders);
        let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
        for rows in ids.chunks(group) {
            let mut chunks = Vec::new();
            let ids = ColumnValues::Int64(rows.iter().map(|&i| i as i64).collect());
            let mut batches = vec![ColumnBatch {
                values: ids,
                def_levels: vec![],
                rep_levels: vec![],
            }];
            for (c, col) in self.cols.iter().enumerate() {
                let cells: Vec<&Cell> = rows.iter().map(|&i| &self.rows[i][c]).collect();
                let def_levels = cells.iter().map(|x| (**x != Cell::Null) as i16).collect();
                let present = cells.iter().filter_map(|x| match x {
                    Cell::I(v) => Some(*v),
                    _ => None,
                });
                let values = match col.kind {
                    Kind::Int96 => {
                        ColumnValues::Int96(present.map(|v| Int96::from_nanos(v as i64)).collect())
                    }
                    _ => ColumnValues::Int64(present.map(|v| v as i64).collect()),
                };
                batches.push(ColumnBatch {
                    values,
                    def_levels,
                    rep_levels: vec![],
                });
            }
            for (c, batch) in batches.iter().enumerate() {
                let mut cw = w.column_writer(c).unwrap();
                cw.write(batch).unwrap();
                chunks.push(cw.close().unwrap());
            }
            w.write_row_group(chunks).unwrap();
        }
        let (bytes, _) = w.close().unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

fn variant_object(m: &BTreeMap<String, VCell>) -> Variant {
    Variant::object(m.iter().map(|(k, v)| (k.clone(), variant(v))))
}

fn variant(v: &VCell) -> Variant {
    match v {
        VCell::I(i) => Variant::int(*i),
        VCell::F(f) => Variant::Double(*f),
        VCell::S(s) => Variant::String(s.clone()),
        VCell::B(b) => Variant::Bool(*b),
        VCell::D(u, s) => Variant::Decimal8 {
            unscaled: *u,
            scale: *s,
        },
        VCell::O(o) => variant_object(o),
        VCell::A(a) => Variant::Array(a.iter().map(variant).collect()),
    }
}

/// A literal in both syntaxes.
#[derive(Clone, Debug)]
pub struct Lit {
    /// This library's text.
    pub ours: String,
    /// DuckDB's SQL.
    pub duck: String,
}

fn lit(both: impl Into<String>) -> Lit {
    let s = both.into();
    Lit {
        ours: s.clone(),
        duck: s,
    }
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// `unscaled / 10^scale` as decimal text.
pub fn decimal_text(unscaled: i128, scale: u32) -> String {
    let neg = unscaled < 0;
    let digits = unscaled.unsigned_abs().to_string();
    let s = if scale == 0 {
        digits
    } else {
        let d = format!("{digits:0>width$}", width = scale as usize + 1);
        let (a, b) = d.split_at(d.len() - scale as usize);
        format!("{a}.{b}")
    };
    if neg {
        format!("-{s}")
    } else {
        s
    }
}

fn civil(days: i64) -> (i64, u32, u32) {
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn date_text(days: i64) -> String {
    let (y, m, d) = civil(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `HH:MM:SS[.fraction]` of `nanos` since midnight, with `digits` fractional digits
/// (trailing zeros kept).
fn time_text(nanos: i64, digits: u32) -> String {
    let s = nanos / 1_000_000_000;
    let frac = nanos % 1_000_000_000;
    let mut t = format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if digits > 0 {
        let f = format!("{frac:09}");
        let _ = write!(t, ".{}", &f[..digits as usize]);
    }
    t
}

/// Date and time text of `nanos` since the epoch, `T`-separated.
fn timestamp_text(nanos: i128, digits: u32) -> String {
    let days = nanos.div_euclid(86_400_000_000_000) as i64;
    let rest = nanos.rem_euclid(86_400_000_000_000) as i64;
    format!("{}T{}", date_text(days), time_text(rest, digits))
}

fn uuid_text(u: &[u8; 16]) -> String {
    let h: String = u.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

fn float_text(f: f64) -> String {
    if f == 0.0 && f.is_sign_negative() {
        "-0.0".into()
    } else if f.fract() == 0.0 {
        format!("{f:.1}")
    } else {
        format!("{f}")
    }
}

/// Nanoseconds in one unit.
fn unit_nanos(unit: u32) -> i128 {
    [1_000_000, 1_000, 1][unit as usize]
}

impl Table {
    /// A value of column `i` to compare with: one present, or near one, or an extreme.
    fn some_cell(&self, i: usize, r: &mut Rng) -> Cell {
        let present: Vec<&Cell> = if r.chance(70) {
            self.rows
                .iter()
                .map(|row| &row[i])
                .filter(|c| **c != Cell::Null)
                .collect()
        } else {
            Vec::new()
        };
        if !present.is_empty() {
            (*r.pick(&present)).clone()
        } else if r.chance(50) {
            r.pick(&self.pools[i]).clone()
        } else {
            random_cell(&self.cols[i], r)
        }
    }

    /// A literal for column `i` (`None` when the grammar cannot write one yet).
    fn literal(&self, i: usize, r: &mut Rng, g: &Grammar) -> Option<Lit> {
        let col = &self.cols[i];
        let cell = self.some_cell(i, r);
        Some(match (col.kind, cell) {
            (Kind::Int { .. }, Cell::I(v)) => {
                let (lo, hi) = col.int_range();
                let v = (v + r.range(-1, 1) * (r.chance(50) as i128)).clamp(lo - 1, hi + 1);
                if g.float_on_int && r.chance(10) && v.unsigned_abs() < 1 << 50 {
                    lit(format!("{v}.0"))
                } else {
                    lit(v.to_string())
                }
            }
            (Kind::F32 | Kind::F64 | Kind::F16, Cell::F(f)) => {
                if !f.is_finite() {
                    return Some(lit(float_text(*r.pick(&[0.0, -0.0, 1.5, -3.25]))));
                }
                let f = f + *r.pick(&[0.0, 0.0, 0.25, -0.25]);
                // FLOAT and FLOAT16 columns: a literal FLOAT holds exactly, so that DuckDB
                // (which casts it to FLOAT) and an exact comparison agree.
                let f = if col.kind == Kind::F64 {
                    f
                } else {
                    f as f32 as f64
                };
                if f.fract() == 0.0 && f.abs() < 1e15 && r.chance(30) {
                    lit(format!("{}", f as i64))
                } else {
                    lit(float_text(f))
                }
            }
            (Kind::Str | Kind::Enum, Cell::S(s)) => {
                let s = match r.below(5) {
                    0 => format!("{s}a"),
                    1 => s
                        .chars()
                        .take(s.chars().count().saturating_sub(1))
                        .collect(),
                    _ => s,
                };
                lit(quote(&s))
            }
            (Kind::Uuid, Cell::U(u)) => {
                if !g.uuid {
                    return None;
                }
                let t = uuid_text(&u);
                lit(quote(&if r.chance(20) { t.to_uppercase() } else { t }))
            }
            (Kind::Bool, Cell::B(b)) => lit(b.to_string()),
            (
                Kind::Decimal {
                    scale, precision, ..
                },
                Cell::I(v),
            ) => {
                if !g.decimals {
                    return None;
                }
                // The literal: the value, or a neighbour, at a scale of 0..=scale+3 digits,
                // never more than 38 digits.
                let extra = r.below(4) as u32;
                let s = if r.chance(25) {
                    r.below(scale as u64 + 1) as u32
                } else {
                    scale + extra
                };
                let s = s.min(38 - precision.min(38) + scale).min(37);
                let v = if s >= scale {
                    v * 10i128.pow(s - scale) + r.range(-1, 1) * r.chance(50) as i128
                } else {
                    v / 10i128.pow(scale - s) + r.range(-1, 1) * r.chance(30) as i128
                };
                // Within the column's integer digits: DuckDB casts the literal to the
                // column's precision and fails beyond it (and reads more than 38 digits as
                // a DOUBLE).
                let bound = 10i128.pow(precision - scale + s) - 1;
                lit(decimal_text(v.clamp(-bound, bound), s))
            }
            (Kind::Date, Cell::I(d)) => {
                if !g.times {
                    // ISO dates were taken before issue 28.
                    return Some(lit(quote(&date_text(d as i64))));
                }
                let d = d as i64 + r.range(-1, 1) as i64;
                if r.chance(25) {
                    // A timestamp on a DATE column compares with the day's midnight by
                    // its exact instant: DuckDB does so with a typed `TIMESTAMP` /
                    // `TIMESTAMPTZ` literal (it would cut untyped text to its date).
                    // Midnight half the time, else any second, some with microseconds.
                    let micros = r.range(0, 999_999) * 1_000 * r.chance(30) as i128;
                    let t = d as i128 * 86_400_000_000_000
                        + (r.range(0, 86_399) * 1_000_000_000 + micros) * r.chance(50) as i128;
                    let text = timestamp_text(t, if micros == 0 { 0 } else { 6 });
                    let (text, ty) = match r.below(3) {
                        0 => (format!("{text}Z"), "TIMESTAMPTZ"),
                        1 => (format!("{text}-05:00"), "TIMESTAMPTZ"),
                        _ => (text, "TIMESTAMP"),
                    };
                    Lit {
                        ours: quote(&text),
                        duck: format!("{}::{ty}", quote(&text)),
                    }
                } else {
                    lit(quote(&date_text(d)))
                }
            }
            (Kind::Time { unit }, Cell::I(t)) => {
                if !g.times {
                    return None;
                }
                let nanos = t as i64 * unit_nanos(unit) as i64;
                // at most microseconds except on nanosecond columns
                let max_digits = if unit == 2 { 9 } else { 6 };
                let digits = *r.pick(&[0, 3, 6, max_digits]);
                let step = 10i64.pow(9 - digits);
                let nanos = (nanos / step + r.range(-1, 1) as i64 * r.chance(50) as i64)
                    .clamp(0, 86_400_000_000_000 / step - 1)
                    * step;
                let text = quote(&time_text(nanos, digits));
                Lit {
                    ours: text.clone(),
                    duck: if unit == 2 {
                        format!("{text}::TIME_NS")
                    } else {
                        format!("{text}::TIME")
                    },
                }
            }
            (Kind::Ts { unit, utc }, Cell::I(t)) => {
                if !g.times {
                    return None;
                }
                self.ts_literal(t * unit_nanos(unit), unit == 2, utc, r)?
            }
            (Kind::Int96, Cell::I(t)) => {
                if !g.times {
                    return None;
                }
                self.ts_literal(t, false, false, r)?
            }
            (kind, cell) => panic!("literal of {kind:?} from {cell:?}"),
        })
    }

    /// A timestamp literal near `nanos`: date only, or with 0, 3, 6 (9 on nanosecond
    /// columns) fractional digits, with `Z` or an offset on UTC-adjusted columns.
    fn ts_literal(&self, nanos: i128, ns: bool, utc: bool, r: &mut Rng) -> Option<Lit> {
        let day = 86_400_000_000_000i128;
        if r.chance(15) {
            let d = nanos.div_euclid(day) as i64 + r.range(0, 1) as i64;
            let t = date_text(d);
            return Some(Lit {
                ours: quote(&t),
                duck: format!("{}::{}", quote(&t), duck_ts_type(ns, utc)),
            });
        }
        let digits = *r.pick(if ns {
            &[0, 3, 6, 9][..]
        } else {
            &[0, 3, 6][..]
        });
        let step = 10i128.pow(9 - digits);
        let n = (nanos.div_euclid(step) + r.range(-1, 1) * r.chance(50) as i128) * step;
        let (suffix, shift) = if utc {
            match r.below(4) {
                0 => ("", 0),
                1 => ("Z", 0),
                2 => ("+02:00", 2 * 3_600_000_000_000i128),
                _ => ("-05:30", -(5 * 3_600_000_000_000i128 + 30 * 60_000_000_000)),
            }
        } else {
            ("", 0)
        };
        let text = format!("{}{suffix}", timestamp_text(n + shift, digits));
        Some(Lit {
            ours: quote(&text),
            duck: format!("{}::{}", quote(&text), duck_ts_type(ns, utc)),
        })
    }
}

/// DuckDB's type of a TIMESTAMP column (nanoseconds or not, UTC-adjusted or not).
fn duck_ts_type(ns: bool, utc: bool) -> &'static str {
    match (ns, utc) {
        (false, false) => "TIMESTAMP",
        (false, true) => "TIMESTAMPTZ",
        (true, false) => "TIMESTAMP_NS",
        (true, true) => "TIMESTAMPTZ_NS",
    }
}

/// A predicate in both syntaxes, with a note of its kind for the counts.
#[derive(Clone, Debug)]
pub struct Pred {
    /// This library's text (`Predicate::parse`, `--where`).
    pub ours: String,
    /// DuckDB's `WHERE` condition.
    pub duck: String,
    /// The kind of a test of a literal against a column of another kind of type (text
    /// against a boolean): a refusal is allowed (and counted by kind); an answer must be
    /// DuckDB's.
    pub incomparable: Option<&'static str>,
}

const OPS: &[&str] = &["=", "!=", "<", "<=", ">", ">="];

/// Columns that compare with each other (their types are compatible).
const PAIRS: &[(&str, &str)] = &[
    ("i8", "i16"),
    ("i32", "i64"),
    ("u32", "i64"),
    ("u64", "i64"),
    ("u8", "i8"),
    ("f32", "f64"),
    ("f16", "f32"),
    ("i32", "f64"),
    ("d32", "d64"),
    ("dfix", "dbin"),
    ("d64", "i64"),
    ("dbin0", "u64"),
    ("s", "e"),
    ("ts_ms", "ts_us"),
    // not nanoseconds against a coarser unit: DuckDB fails to widen the far values
    ("tz_ms", "tz_us"),
    ("tm_ms", "tm_us"),
    ("dt", "ts_us"),
];

impl Table {
    fn index(&self, name: &str) -> Option<usize> {
        self.cols.iter().position(|c| c.name == name)
    }

    /// A random predicate (depth-limited).
    pub fn predicate(&self, r: &mut Rng, g: &Grammar, depth: u32) -> Pred {
        if depth > 0 && r.chance(35) {
            let a = self.predicate(r, g, depth - 1);
            let b = self.predicate(r, g, depth - 1);
            let inc = a.incomparable.or(b.incomparable);
            return match r.below(3) {
                0 => Pred {
                    ours: format!("({} and {})", a.ours, b.ours),
                    duck: format!("(({}) AND ({}))", a.duck, b.duck),
                    incomparable: inc,
                },
                1 => Pred {
                    ours: format!("({} or {})", a.ours, b.ours),
                    duck: format!("(({}) OR ({}))", a.duck, b.duck),
                    incomparable: inc,
                },
                _ => Pred {
                    ours: format!("not ({})", a.ours),
                    duck: format!("NOT ({})", a.duck),
                    incomparable: a.incomparable,
                },
            };
        }
        loop {
            if let Some(p) = self.test(r, g) {
                return p;
            }
        }
    }

    /// A leaf test, or `None` when the draw is not in the grammar.
    fn test(&self, r: &mut Rng, g: &Grammar) -> Option<Pred> {
        if g.column_vs_column && r.chance(6) {
            let (a, b) = *r.pick(PAIRS);
            let (a, b) = if r.chance(50) { (a, b) } else { (b, a) };
            self.index(a)?;
            self.index(b)?;
            let op = *r.pick(OPS);
            return Some(Pred {
                ours: format!("{a} {op} {b}"),
                duck: format!("{a} {op} {b}"),
                incomparable: None,
            });
        }
        let i = r.below(self.cols.len() as u64) as usize;
        let col = &self.cols[i];
        let name = col.name;
        if col.kind == Kind::Variant {
            return if g.variant {
                Some(self.variant_test(r))
            } else {
                None
            };
        }
        let p = |ours: String, duck: String| {
            Some(Pred {
                ours,
                duck,
                incomparable: None,
            })
        };
        match r.below(16) {
            0 => {
                let n = if r.chance(50) { "" } else { " not" };
                let dn = if n.is_empty() { "" } else { " NOT" };
                p(format!("{name} is{n} null"), format!("{name} IS{dn} NULL"))
            }
            1 | 2 => {
                let (lo, hi) = (self.literal(i, r, g)?, self.literal(i, r, g)?);
                let n = if r.chance(30) { " not" } else { "" };
                p(
                    format!("{name}{n} between {} and {}", lo.ours, hi.ours),
                    format!(
                        "{name}{} BETWEEN {} AND {}",
                        n.to_uppercase(),
                        lo.duck,
                        hi.duck
                    ),
                )
            }
            3 | 4 => {
                let k = 1 + r.below(4);
                let mut lits: Vec<Lit> = (0..k)
                    .map(|_| self.literal(i, r, g))
                    .collect::<Option<_>>()?;
                if g.in_null && r.chance(30) {
                    let at = r.below(lits.len() as u64 + 1) as usize;
                    lits.insert(at, lit("null"));
                }
                let n = if r.chance(30) { " not" } else { "" };
                let ours: Vec<&str> = lits.iter().map(|l| l.ours.as_str()).collect();
                let duck: Vec<&str> = lits.iter().map(|l| l.duck.as_str()).collect();
                p(
                    format!("{name}{n} in ({})", ours.join(", ")),
                    format!("{name}{} IN ({})", n.to_uppercase(), duck.join(", ")),
                )
            }
            5 if matches!(col.kind, Kind::Str | Kind::Enum) => {
                if !g.like {
                    return None;
                }
                let pat = self.like_pattern(i, r);
                let n = if r.chance(25) { " not" } else { "" };
                p(
                    format!("{name}{n} like {}", quote(&pat)),
                    format!("{name}{} LIKE {}", n.to_uppercase(), quote(&pat)),
                )
            }
            6 if col.kind == Kind::Bool => {
                if !g.booleans {
                    return None;
                }
                match r.below(4) {
                    0 => p(name.into(), name.into()),
                    1 => p(format!("not {name}"), format!("NOT {name}")),
                    _ => {
                        let n = if r.chance(40) { " not" } else { "" };
                        let v = if r.chance(50) { "true" } else { "false" };
                        p(
                            format!("{name} is{n} {v}"),
                            format!("{name} IS{} {}", n.to_uppercase(), v.to_uppercase()),
                        )
                    }
                }
            }
            7 if r.chance(40) => {
                // A literal of another kind of type: this may be refused (counted by kind);
                // an answer must be DuckDB's.
                let (kind, literal) = match col.kind {
                    // Text as DuckDB casts it to BOOLEAN; numbers against the booleans as
                    // 0 and 1 (decimals and floats by `=`, `!=` and `in` only).
                    Kind::Bool => *r.pick(&[
                        ("text vs BOOLEAN", "'maybe'"),
                        ("text vs BOOLEAN", "'true'"),
                        ("text vs BOOLEAN", "'T'"),
                        ("text vs BOOLEAN", "'0'"),
                        ("text vs BOOLEAN", "'no'"),
                        ("text vs BOOLEAN", "'2'"),
                        ("number vs BOOLEAN", "1"),
                        ("number vs BOOLEAN", "0"),
                        ("number vs BOOLEAN", "2"),
                        ("number vs BOOLEAN", "-1"),
                        ("number vs BOOLEAN", "1.0"),
                        ("number vs BOOLEAN", "0.5"),
                        ("number vs BOOLEAN", "1e0"),
                        ("number vs BOOLEAN", "18446744073709551615"),
                    ]),
                    Kind::Str | Kind::Enum => ("number vs text", *r.pick(&["5", "1.5"])),
                    Kind::Int { .. } | Kind::Decimal { .. } | Kind::F32 | Kind::F64 | Kind::F16 => {
                        *r.pick(&[
                            ("text vs number", "'5'"),
                            ("text vs number", "'x'"),
                            ("text vs number", "' 5.0 '"),
                            ("boolean vs number", "true"),
                            ("boolean vs number", "false"),
                        ])
                    }
                    Kind::Uuid => ("number vs UUID", "5"),
                    _ => ("number vs date/time", "5"),
                };
                let (ours, duck) = match r.below(4) {
                    0 => {
                        let other = *r.pick(&["true", "1", "2", "false"]);
                        let n = if r.chance(30) { " not" } else { "" };
                        (
                            format!("{name}{n} in ({literal}, {other})"),
                            format!("{name}{} IN ({literal}, {other})", n.to_uppercase()),
                        )
                    }
                    1 => {
                        let other = *r.pick(&["true", "1", "false", "0"]);
                        (
                            format!("{name} between {literal} and {other}"),
                            format!("{name} BETWEEN {literal} AND {other}"),
                        )
                    }
                    _ => {
                        let op = *r.pick(OPS);
                        (
                            format!("{name} {op} {literal}"),
                            format!("{name} {op} {literal}"),
                        )
                    }
                };
                Some(Pred {
                    ours,
                    duck,
                    incomparable: Some(kind),
                })
            }
            _ => {
                let l = self.literal(i, r, g)?;
                let op = *r.pick(OPS);
                p(
                    format!("{name} {op} {}", l.ours),
                    format!("{name} {op} {}", l.duck),
                )
            }
        }
    }

    /// A `like` pattern built from a value present: a prefix, a suffix or an infix with
    /// `%`, some characters replaced by `_`.
    fn like_pattern(&self, i: usize, r: &mut Rng) -> String {
        let s = match self.some_cell(i, r) {
            Cell::S(s) => s,
            _ => String::new(),
        };
        let chars: Vec<char> = s.chars().collect();
        let n = chars.len();
        let a = r.below(n as u64 + 1) as usize;
        let b = a + r.below((n - a) as u64 + 1) as usize;
        let mut core: String = chars[a..b]
            .iter()
            .map(|&ch| if r.chance(20) { '_' } else { ch })
            .collect();
        if r.chance(15) {
            core.push('_');
        }
        match r.below(4) {
            0 => core,
            1 => format!("{core}%"),
            2 => format!("%{core}"),
            _ => format!("%{core}%"),
        }
    }

    /// A test on a VARIANT path: DuckDB compares
    /// `TRY_CAST(variant_extract(...) AS T)` with the literal, `T` the literal's type
    /// (`BIGINT` for a whole number, `DOUBLE` with a fraction, `VARCHAR`, `BOOLEAN`): a
    /// value that does not cast, or a missing path, is null.
    fn variant_test(&self, r: &mut Rng) -> Pred {
        // (our path, the steps of DuckDB's variant_extract)
        let paths: &[(&str, &[&str])] = &[
            ("a", &["'a'"]),
            ("a", &["'a'"]),
            ("s", &["'s'"]),
            ("b", &["'b'"]),
            ("n.x", &["'n'", "'x'"]),
            ("arr[1]", &["'arr'", "1"]),
            ("arr[2]", &["'arr'", "2"]),
            ("zz", &["'zz'"]),
            ("n", &["'n'"]),
            // the whole value
            ("", &[]),
        ];
        let (path, steps) = *r.pick(paths);
        let mut expr = "v".to_string();
        for step in steps {
            expr = format!("variant_extract({expr}, {step})");
        }
        let ours_path = if path.is_empty() {
            "v".to_string()
        } else {
            format!("v.{path}")
        };
        if r.chance(10) {
            let n = if r.chance(50) { " not" } else { "" };
            // `is null`: the value is missing or a variant null (a value that does not cast
            // is not null)
            return Pred {
                ours: format!("{ours_path} is{n} null"),
                duck: format!("{expr} IS{} NULL", n.to_uppercase()),
                incomparable: None,
            };
        }
        // One literal and the type DuckDB casts the value to. Not text on `n` or the whole
        // value, objects:
        // DuckDB casts objects and arrays to a text form of its own, where this library
        // takes them as null (the one documented difference, `filter/variant_path.rs`).
        let text = path != "n" && !path.is_empty();
        let literal = |r: &mut Rng| -> (Lit, &'static str) {
            let k = r.below(8);
            match if !text && (5..=6).contains(&k) { 0 } else { k } {
                0..=2 => {
                    let v = if r.chance(70) {
                        r.range(-60, 60) as i64
                    } else {
                        *r.pick(&[0i64, i64::MAX, -5_000_000_000, 12, 13])
                    };
                    (lit(v.to_string()), "BIGINT")
                }
                3 | 4 => {
                    let v = r.range(-800, 800) as f64 / 4.0;
                    (lit(float_text(v)), "DOUBLE")
                }
                5 | 6 => (lit(quote(r.pick::<&str>(STRINGS))), "VARCHAR"),
                _ => (lit(if r.chance(50) { "true" } else { "false" }), "BOOLEAN"),
            }
        };
        let cast = |ty: &str| format!("TRY_CAST({expr} AS {ty})");
        match r.below(6) {
            0 => {
                let k = 1 + r.below(3);
                let lits: Vec<(Lit, &str)> = (0..k).map(|_| literal(r)).collect();
                let n = if r.chance(30) { " not" } else { "" };
                let ours: Vec<&str> = lits.iter().map(|(l, _)| l.ours.as_str()).collect();
                // each literal with its own type: `in` is `= a or = b`
                let any: Vec<String> = lits
                    .iter()
                    .map(|(l, ty)| format!("{} = {}", cast(ty), l.duck))
                    .collect();
                let duck = format!("({})", any.join(" OR "));
                Pred {
                    ours: format!("{ours_path}{n} in ({})", ours.join(", ")),
                    duck: if n.is_empty() {
                        duck
                    } else {
                        format!("NOT {duck}")
                    },
                    incomparable: None,
                }
            }
            1 => {
                let (lo, lt) = literal(r);
                let (hi, ht) = literal(r);
                Pred {
                    ours: format!("{ours_path} between {} and {}", lo.ours, hi.ours),
                    duck: format!(
                        "({} >= {} AND {} <= {})",
                        cast(lt),
                        lo.duck,
                        cast(ht),
                        hi.duck
                    ),
                    incomparable: None,
                }
            }
            _ => {
                let (l, ty) = literal(r);
                let op = *r.pick(OPS);
                Pred {
                    ours: format!("{ours_path} {op} {}", l.ours),
                    duck: format!("{} {op} {}", cast(ty), l.duck),
                    incomparable: None,
                }
            }
        }
    }
}

/// DuckDB's answer to one predicate: the ids on the file and on the Hive folder, or its
/// error.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The ids selected, ascending.
    Ids(Vec<i64>),
    /// The query failed with this message.
    Error(String),
}

/// Runs every predicate of one table through DuckDB in one Python process: for each pair,
/// the answer to the first on `file` and to the second on the Hive folder `hive`.
pub fn duckdb(
    python: &Path,
    script: &Path,
    file: &Path,
    hive: &Path,
    preds: &[(Pred, Pred)],
) -> Vec<(Answer, Answer)> {
    let job = serde_json::json!({
        "file": file,
        "hive": hive,
        "where": preds.iter().map(|p| p.0.duck.as_str()).collect::<Vec<_>>(),
        "hive_where": preds.iter().map(|p| p.1.duck.as_str()).collect::<Vec<_>>(),
    });
    let job_path = file.with_extension("json");
    std::fs::write(&job_path, job.to_string()).unwrap();
    let out = Command::new(python)
        .arg(script)
        .arg(&job_path)
        .output()
        .expect("python");
    assert!(
        out.status.success(),
        "{} {}: {}",
        script.display(),
        job_path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), preds.len(), "one answer per predicate");
    let one = |v: &serde_json::Value| match v {
        serde_json::Value::Array(ids) => {
            Answer::Ids(ids.iter().map(|i| i.as_i64().unwrap()).collect())
        }
        other => Answer::Error(other["error"].as_str().unwrap_or("?").to_string()),
    };
    answers
        .iter()
        .map(|a| (one(&a["file"]), one(&a["hive"])))
        .collect()
}

/// How an answer that failed after printing rows begins (a refusal must come first).
pub const ROWS_BEFORE_ERROR: &str = "rows printed before the error";

/// The tally of a run, printed at the end.
#[derive(Default, Debug)]
pub struct Tally {
    /// Tables drawn.
    pub tables: usize,
    /// Predicates checked.
    pub predicates: usize,
    /// Answers compared (a predicate on the file and on the Hive folder: two).
    pub compared: usize,
    /// Answers equal to DuckDB's.
    pub agreements: usize,
    /// Refusals on both sides, by kind.
    pub refusals: BTreeMap<String, usize>,
    /// Answers where DuckDB refuses, by kind (only kinds where this library documents a
    /// meaning: an integer on a date or time column is its stored units).
    pub answered_refused: BTreeMap<String, usize>,
    /// Every difference, described.
    pub differences: Vec<String>,
    /// How long the run took.
    pub seconds: f64,
}

impl Tally {
    /// Records our answer `ours` to `pred` (on `what`, a file or folder of table `seed`)
    /// against DuckDB's.
    pub fn record(
        &mut self,
        seed: u64,
        what: &str,
        pred: &Pred,
        ours: Result<Vec<i64>, String>,
        duck: &Answer,
    ) {
        self.compared += 1;
        match (&ours, duck, pred.incomparable) {
            (Ok(a), Answer::Ids(b), _) if a == b => self.agreements += 1,
            // an integer on a DATE / TIME / TIMESTAMP column compares with the stored
            // units (as `col("ts").between(1_000, 2_000)`); DuckDB refuses it
            (Ok(_), Answer::Error(_), Some(kind @ "number vs date/time")) => {
                *self.answered_refused.entry(kind.to_string()).or_default() += 1;
            }
            // A refusal where DuckDB refuses too (a binder error: a boolean ordered against
            // a decimal or float, a number against text, a UUID or a date)
            (Err(e), Answer::Error(_), Some(kind)) if !e.starts_with(ROWS_BEFORE_ERROR) => {
                *self.refusals.entry(kind.to_string()).or_default() += 1;
            }
            // DuckDB casts text ('maybe', 'x') to the column's type, and a text column to a
            // number literal's type, only when a row reaches the comparison (after other
            // terms of an `or` / `and`, in a Hive folder the partitions it reads), so it may
            // answer; a refusal of text that does not cast is all that is asked; so is one where
            // DuckDB folds the term away before its cast fails and answers no row (`i96 != 5
            // and i96 between <high> and <low>`)
            (Err(e), Answer::Ids(ids), Some(kind))
                if (kind.starts_with("text vs") || kind == "number vs text" || ids.is_empty())
                    && !e.starts_with(ROWS_BEFORE_ERROR) =>
            {
                *self.refusals.entry(kind.to_string()).or_default() += 1;
            }
            _ => {
                let show = |ids: &Vec<i64>| {
                    if ids.len() > 12 {
                        format!("{} ids {:?}...", ids.len(), &ids[..12])
                    } else {
                        format!("{ids:?}")
                    }
                };
                let ours = match &ours {
                    Ok(ids) => show(ids),
                    Err(e) => format!("error: {e}"),
                };
                let duck = match duck {
                    Answer::Ids(ids) => show(ids),
                    Answer::Error(e) => format!("error: {e}"),
                };
                self.differences.push(format!(
                    "seed {seed} {what}: `{}` (DuckDB `{}`): ours {ours}, DuckDB {duck}",
                    pred.ours, pred.duck
                ));
            }
        }
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let seconds = self.seconds;
        format!(
            "{} tables, {} predicates, {} answers compared: {} agreements, {} differences, refusals {:?}, answered where DuckDB refuses {:?}, {seconds:.1} s",
            self.tables,
            self.predicates,
            self.compared,
            self.agreements,
            self.differences.len(),
            self.refusals,
            self.answered_refused
        )
    }
}

/// A scratch folder for one table: `t.parquet` and `hive/`.
pub fn table_paths(dir: &Path, seed: u64) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("t{seed}.parquet")),
        dir.join(format!("hive{seed}")),
    )
}

/// `p` and a test of the Hive folder's partition key `part` (0, 1 or 2; DuckDB reads it as
/// BIGINT).
fn with_partition(p: &Pred, r: &mut Rng) -> Pred {
    let k = r.below(3);
    let (key, conj) = match r.below(5) {
        0 => (format!("part = {k}"), "and"),
        1 => (format!("part != {k}"), "or"),
        2 => (format!("part in ({k}, {})", (k + 1) % 3), "and"),
        3 => (format!("part >= {k}"), "and"),
        _ => (format!("part between {k} and 2"), "or"),
    };
    Pred {
        ours: format!("({key} {conj} ({}))", p.ours),
        duck: format!(
            "(({}) {} ({}))",
            key.replace("between", "BETWEEN").replace(" and ", " AND "),
            conj.to_uppercase(),
            p.duck
        ),
        incomparable: p.incomparable,
    }
}

/// Our answer to a predicate (this library's text) on a file or folder: the ids selected,
/// or the error.
pub type Ask<'a> = dyn Fn(&Path, &str) -> Result<Vec<i64>, String> + 'a;

/// How a run is set up.
pub struct Run<'a> {
    /// The grammar drawn from.
    pub grammar: Grammar,
    /// The tables' seeds.
    pub seeds: Vec<u64>,
    /// Rows per table.
    pub rows: usize,
    /// Predicates per table.
    pub predicates: usize,
    /// Only every `every`-th predicate is checked (all are drawn, so a seed draws the same
    /// predicates whatever the sample).
    pub every: usize,
    /// Python with DuckDB, and `testdata/pred_diff_duckdb.py`.
    pub python: PathBuf,
    /// The DuckDB script.
    pub script: PathBuf,
    /// Our answer on a file.
    pub on_file: &'a Ask<'a>,
    /// Our answer on a Hive folder.
    pub on_folder: &'a Ask<'a>,
    /// Write statistics in IEEE 754 total order (floats) and chronological order (INT96).
    pub orders: bool,
}

/// The seeds of a run: `PRED_DIFF_SEED=N` replays table `N` alone, `PRED_DIFF_TABLES=N`
/// runs `N` tables, else `tables`; they start at seed `PRED_DIFF_FIRST` (1 unless set).
pub fn seeds(tables: u64) -> Vec<u64> {
    let env = |name: &str| {
        std::env::var(name)
            .ok()
            .map(|v| v.parse::<u64>().unwrap_or_else(|_| panic!("{name}={v:?}")))
    };
    match env("PRED_DIFF_SEED") {
        Some(s) => vec![s],
        None => {
            let first = env("PRED_DIFF_FIRST").unwrap_or(1);
            (first..first + env("PRED_DIFF_TABLES").unwrap_or(tables)).collect()
        }
    }
}

impl Run<'_> {
    /// Draws every table, writes it, asks DuckDB and us, and tallies the answers.
    pub fn run(&self) -> Tally {
        let start = std::time::Instant::now();
        let tmp = tempfile::tempdir().unwrap();
        // PRED_DIFF_KEEP=DIR keeps the tables (and DuckDB's jobs) in DIR, to look at
        let dir =
            std::env::var_os("PRED_DIFF_KEEP").map_or(tmp.path().to_path_buf(), PathBuf::from);
        let mut tally = Tally::default();
        for &seed in &self.seeds {
            // every fifth table is an INT96 table (see `Table::new`)
            let table = Table::new(
                seed,
                self.rows,
                &self.grammar,
                self.grammar.int96 && seed % 5 == 0,
            );
            let (file, hive) = table_paths(&dir, seed);
            table.write(&file, &hive, self.orders);
            let mut r = Rng::new(seed.wrapping_mul(7919));
            // On the Hive folder, every third predicate also tests the partition key.
            let preds: Vec<(Pred, Pred)> = (0..self.predicates)
                .map(|i| {
                    let p = table.predicate(&mut r, &self.grammar, 2);
                    let h = if i % 3 == 1 {
                        with_partition(&p, &mut r)
                    } else {
                        p.clone()
                    };
                    (p, h)
                })
                .enumerate()
                .filter(|(i, _)| i % self.every == 0)
                .map(|(_, p)| p)
                .collect();
            let answers = duckdb(&self.python, &self.script, &file, &hive, &preds);
            for ((pred, hive_pred), (duck_file, duck_hive)) in preds.iter().zip(&answers) {
                tally.record(
                    seed,
                    "file",
                    pred,
                    (self.on_file)(&file, &pred.ours),
                    duck_file,
                );
                tally.record(
                    seed,
                    "hive",
                    hive_pred,
                    (self.on_folder)(&hive, &hive_pred.ours),
                    duck_hive,
                );
            }
            tally.tables += 1;
            tally.predicates += preds.len();
        }
        tally.seconds = start.elapsed().as_secs_f64();
        tally
    }
}

impl Tally {
    /// Prints the summary and every difference; fails when there is a difference or fewer
    /// than `min_predicates` predicates were checked (a run of one seed is not counted).
    pub fn check(&self, min_predicates: usize) {
        let summary = self.summary();
        println!("{summary}");
        for d in &self.differences {
            println!("{d}");
        }
        assert!(
            self.differences.is_empty(),
            "{summary}\nfirst differences (replay one with PRED_DIFF_SEED=N):\n{}",
            self.differences
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert!(
            self.tables == 1 || self.predicates >= min_predicates,
            "{summary}"
        );
    }
}

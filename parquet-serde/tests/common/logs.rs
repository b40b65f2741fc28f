//! The application-log workload of the typed benchmarks and tests, shaped as
//! shared/tools/compare-arrow's: a flat record and a nested event, deterministic from a
//! seed. Included by path (`#[path = ...] mod logs;`) from benches/ and tests/.
#![allow(dead_code)]

use std::collections::BTreeMap;

use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};

/// A small deterministic generator (xorshift), so runs compare.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub const LEVELS: [&str; 5] = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"];
const WORDS: [&str; 16] = [
    "request", "handled", "user", "cache", "miss", "hit", "db", "query", "timeout", "retry",
    "session", "opened", "closed", "payload", "bytes", "ok",
];

/// A log message: 3 to 12 words, a quarter of them with `=number`.
pub fn message(r: &mut Rng) -> String {
    let n = 3 + r.below(10) as usize;
    let mut s = String::with_capacity(80);
    for k in 0..n {
        if k > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[r.below(16) as usize]);
        if r.below(4) == 0 {
            s.push('=');
            s.push_str(&r.below(100_000).to_string());
        }
    }
    s
}

/// A flat log line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
pub struct LogFlat {
    pub ts_micros: i64,
    pub level: String,
    pub target: String,
    pub message: String,
    pub latency_ms: f64,
    pub status: i32,
    pub user_id: Option<i64>,
    pub request_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
pub struct Http {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub latency_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
pub struct Span {
    pub name: String,
    pub dur_us: i64,
}

/// An event with a list of tags, a string map, an optional group and a list of groups.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
pub struct Event {
    pub ts_micros: i64,
    pub level: String,
    pub message: String,
    pub tags: Vec<String>,
    pub attrs: BTreeMap<String, String>,
    pub http: Option<Http>,
    pub spans: Vec<Span>,
}

/// `n` flat log lines.
pub fn flat_rows(n: usize) -> Vec<LogFlat> {
    let mut r = Rng::new(42);
    let mut ts = 1_700_000_000_000_000i64;
    (0..n)
        .map(|_| {
            ts += r.below(1000) as i64;
            LogFlat {
                ts_micros: ts,
                level: LEVELS[r.below(5) as usize].to_string(),
                target: format!("app::module{}::sub{}", r.below(10), r.below(5)),
                message: message(&mut r),
                latency_ms: r.below(1_000_000) as f64 / 1000.0,
                status: [200, 200, 201, 404, 500][r.below(5) as usize],
                user_id: (r.below(10) >= 3).then(|| r.below(100_000) as i64),
                request_id: format!("{:016x}", r.next()),
            }
        })
        .collect()
}

/// `n` nested events.
pub fn nested_rows(n: usize) -> Vec<Event> {
    let mut r = Rng::new(7);
    let mut ts = 1_700_000_000_000_000i64;
    (0..n)
        .map(|_| {
            ts += r.below(1000) as i64;
            let (ntags, nattrs, nspans) = (r.below(5), r.below(4), r.below(4));
            Event {
                ts_micros: ts,
                level: LEVELS[r.below(5) as usize].to_string(),
                message: message(&mut r),
                tags: (0..ntags).map(|_| format!("tag{}", r.below(20))).collect(),
                attrs: (0..nattrs)
                    .map(|k| {
                        (
                            format!("key{}", k * 3 + r.below(3)),
                            format!("v{}", r.below(1000)),
                        )
                    })
                    .collect(),
                http: (r.below(3) != 0).then(|| Http {
                    method: ["GET", "POST", "PUT", "DELETE"][r.below(4) as usize].to_string(),
                    path: format!("/api/v1/items/{}", r.below(10_000)),
                    status: [200, 201, 404, 500][r.below(4) as usize],
                    latency_ms: r.below(100_000) as f64 / 100.0,
                }),
                spans: (0..nspans)
                    .map(|_| Span {
                        name: format!("span{}", r.below(30)),
                        dur_us: r.below(1_000_000) as i64,
                    })
                    .collect(),
            }
        })
        .collect()
}

//! `parquet-serde cat` over every case of parquet-testing's `shredded_variant/cases.json`.
//!
//! Each case with expected `*.variant.bin` files prints, row by row, the JSON of the variant
//! those bytes hold, digit for digit: the printed text of every leaf is read back and compared
//! exactly with the decoded expected value (decimals as unscaled integer and scale, floats and
//! doubles bit for bit, dates and timestamps against the `time` crate), never through `f64`.
//! Each case that expects an error exits non-zero with a message naming the file, and no panic.
//! Random variant numbers print as DuckDB prints them (decimals with the same digits, floats
//! and doubles the same values).

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use base64::Engine;
use parquet_serde::variant::Variant;
use serde_json::value::RawValue;
use time::{Duration, OffsetDateTime};

fn dir() -> PathBuf {
    common::corpus_dir("shredded_variant")
}

/// Runs `parquet-serde cat <file>`: exit code, stdout, stderr.
fn cat(file: &str) -> (i32, String, String) {
    let path = dir().join(file);
    assert!(path.is_file(), "{}: no such case file", path.display());
    let out = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .arg("cat")
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The expected variant of one row (`None` for a null row).
fn expected(file: &serde_json::Value) -> Option<Variant> {
    let name = file.as_str()?;
    let bytes = common::read(&dir().join(name));
    Some(Variant::decode_concatenated(&bytes).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// The decimal text `text` as (unscaled, scale), read without floating point.
fn parse_decimal(text: &str) -> Option<(i128, u8)> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() || !(int.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let unscaled: i128 = format!("{int}{frac}").parse().ok()?;
    Some((
        if negative { -unscaled } else { unscaled },
        frac.len().try_into().ok()?,
    ))
}

/// `value` as a JSON string, or an error quoting `raw`.
fn string(raw: &str) -> Result<String, String> {
    serde_json::from_str(raw).map_err(|_| format!("{raw} is not a JSON string"))
}

/// The RFC 3339 text of `ns` nanoseconds after the epoch with `digits` fractional digits.
fn timestamp(ns: i128, digits: usize, utc: bool) -> String {
    let t = OffsetDateTime::from_unix_timestamp_nanos(ns).unwrap();
    let frac = format!("{:09}", t.nanosecond());
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{}{}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        &frac[..digits],
        if utc { "Z" } else { "" }
    )
}

/// Checks that `raw`, the JSON text `cat` printed, is `want` exactly.
fn check(want: &Variant, raw: &str) -> Result<(), String> {
    let mismatch = |what: &str| Err(format!("printed {raw}, expected {what} ({want:?})"));
    let text_is = |expect: String| {
        if string(raw)? == expect {
            Ok(())
        } else {
            mismatch(&expect)
        }
    };
    match want {
        Variant::Null if raw == "null" => Ok(()),
        Variant::Null => mismatch("null"),
        Variant::Bool(b) if raw == b.to_string() => Ok(()),
        Variant::Bool(_) => mismatch("the same boolean"),
        Variant::Int8(_) | Variant::Int16(_) | Variant::Int32(_) | Variant::Int64(_) => {
            let want = want.as_i64().unwrap();
            match raw.parse::<i64>() {
                Ok(got) if got == want => Ok(()),
                _ => mismatch(&want.to_string()),
            }
        }
        Variant::Float(f) => match raw.parse::<f32>() {
            Ok(got) if got.to_bits() == f.to_bits() => Ok(()),
            _ => mismatch("the same f32"),
        },
        Variant::Double(f) => match raw.parse::<f64>() {
            Ok(got) if got.to_bits() == f.to_bits() => Ok(()),
            _ => mismatch("the same f64"),
        },
        Variant::Decimal4 { .. } | Variant::Decimal8 { .. } | Variant::Decimal16 { .. } => {
            let (unscaled, scale) = want.as_decimal().unwrap();
            // A whole decimal of scale 0 may print as an integer, any other as a string.
            let got = match raw.strip_prefix('"') {
                Some(_) => parse_decimal(&string(raw)?),
                None if scale == 0 => raw.parse::<i128>().ok().map(|u| (u, 0)),
                None => None,
            };
            if got == Some((unscaled, scale)) {
                Ok(())
            } else {
                mismatch(&format!("{unscaled} scaled by 10^-{scale}"))
            }
        }
        Variant::String(s) => text_is(s.clone()),
        Variant::Binary(b) => {
            let got = base64::engine::general_purpose::STANDARD
                .decode(string(raw)?)
                .map_err(|e| format!("{raw}: {e}"))?;
            if &got == b {
                Ok(())
            } else {
                mismatch("the same bytes")
            }
        }
        Variant::Date(d) => {
            let date = (OffsetDateTime::UNIX_EPOCH + Duration::days((*d).into())).date();
            text_is(format!(
                "{:04}-{:02}-{:02}",
                date.year(),
                u8::from(date.month()),
                date.day()
            ))
        }
        Variant::Time(us) => {
            let t = timestamp(i128::from(*us) * 1000, 6, false);
            text_is(t[11..].to_string())
        }
        Variant::TimestampMicros(us) => text_is(timestamp(i128::from(*us) * 1000, 6, true)),
        Variant::TimestampNtzMicros(us) => text_is(timestamp(i128::from(*us) * 1000, 6, false)),
        Variant::TimestampNanos(ns) => text_is(timestamp((*ns).into(), 9, true)),
        Variant::TimestampNtzNanos(ns) => text_is(timestamp((*ns).into(), 9, false)),
        Variant::Uuid(u) => {
            let hex: String = u.iter().map(|b| format!("{b:02x}")).collect();
            text_is(format!(
                "{}-{}-{}-{}-{}",
                &hex[..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..]
            ))
        }
        Variant::Array(items) => {
            let got: Vec<Box<RawValue>> =
                serde_json::from_str(raw).map_err(|_| format!("{raw} is not an array"))?;
            if got.len() != items.len() {
                return mismatch(&format!("{} items", items.len()));
            }
            for (i, (w, g)) in items.iter().zip(&got).enumerate() {
                check(w, g.get()).map_err(|e| format!("[{i}]: {e}"))?;
            }
            Ok(())
        }
        Variant::Object(fields) => {
            let got: BTreeMap<String, Box<RawValue>> =
                serde_json::from_str(raw).map_err(|_| format!("{raw} is not an object"))?;
            if !got.keys().eq(fields.keys()) {
                return mismatch("the same field names");
            }
            for (name, w) in fields {
                check(w, got[name].get()).map_err(|e| format!(".{name}: {e}"))?;
            }
            Ok(())
        }
    }
}

/// Checks one case; `Ok(false)` for an entry with no files.
fn check_case(case: &serde_json::Value) -> Result<bool, String> {
    let Some(file) = case["parquet_file"].as_str() else {
        return Ok(false);
    };
    let (code, out, err) = cat(file);
    if let Some(message) = case["error_message"].as_str() {
        // Not 0, and not 101 (a panic), with a one-line message naming the file.
        return if code != 0
            && code != 101
            && !err.contains("panicked")
            && err.starts_with("parquet-serde: ")
            && err.contains(file)
        {
            Ok(true)
        } else {
            Err(format!(
                "expected a clean error ({message}); exit {code}, stdout {out:?}, stderr {err:?}"
            ))
        };
    }
    if code != 0 {
        return Err(format!("exit {code}: {err}"));
    }
    let want: Vec<Option<Variant>> = match case.get("variant_files") {
        Some(serde_json::Value::Array(files)) => files.iter().map(expected).collect(),
        _ => vec![expected(&case["variant_file"])],
    };
    let lines: Vec<&str> = out.lines().collect();
    if lines.len() != want.len() {
        return Err(format!(
            "{} rows printed, expected {}",
            lines.len(),
            want.len()
        ));
    }
    for (i, (line, want)) in lines.iter().zip(&want).enumerate() {
        let row: BTreeMap<String, Box<RawValue>> =
            serde_json::from_str(line).map_err(|e| format!("row {i}: {e}: {line}"))?;
        let got = row.get("var").map_or("null", |v| v.get());
        let result = match want {
            None if got == "null" => Ok(()),
            None => Err(format!("printed {got}, expected null")),
            Some(w) => check(w, got),
        };
        result.map_err(|e| format!("row {i}: {e}"))?;
    }
    Ok(true)
}

#[test]
fn cat_prints_every_shredded_variant_case_digit_for_digit() {
    let cases: Vec<serde_json::Value> =
        serde_json::from_slice(&common::read(&dir().join("cases.json")))
            .expect("cases.json parses");
    assert_eq!(cases.len(), 138);
    let (mut with_files, mut errors, mut empty, mut failures) = (0, 0, 0, Vec::new());
    for case in &cases {
        match check_case(case) {
            Ok(true) if case.get("error_message").is_some() => errors += 1,
            Ok(true) => with_files += 1,
            Ok(false) => empty += 1,
            Err(e) => failures.push(format!(
                "case {} ({}): {e}",
                case["case_number"], case["test"]
            )),
        }
    }
    println!(
        "cat over shredded_variant: {with_files} cases equal their .variant.bin, \
         {errors} error cases fail cleanly, {} failed, {empty} entries without files",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((with_files, errors, empty), (131, 6, 1));
}

#[test]
fn the_decimal_check_reads_text_exactly() {
    // The check itself: digits an f64 would lose are told apart.
    let d = Variant::decimal(-123_456_789_987_654_321, 9).unwrap();
    assert!(check(&d, r#""-123456789.987654321""#).is_ok());
    assert!(check(&d, "-123456789.98765433").is_err());
    assert!(check(&d, r#""-123456789.98765433""#).is_err());
    assert!(check(&d, r#""-123456789.9876543210""#).is_err());
    assert!(check(&Variant::decimal(7, 0).unwrap(), "7").is_ok());
    assert!(check(&Variant::Float(0.1), "0.10000000149011612").is_ok());
    assert!(check(&Variant::Float(0.1), "0.1000001").is_err());
    assert!(check(&Variant::Double(0.1), "0.10000000149011612").is_err());
}

/// A random variant number for row `i`, by turn a decimal4, decimal8 or decimal16 (random
/// digits up to the type's precision, random scale up to it), a finite float, a finite
/// double or an int64.
fn random_number(rng: &mut u64, i: usize) -> Variant {
    let mut next = || {
        // SplitMix64: a fixed seed, so a failure repeats.
        *rng = rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    // A random integer of at most `digits` decimal digits, of either sign.
    let mut digits = |max_digits: u32| -> (i128, u64) {
        let n = next() % u64::from(max_digits) + 1;
        let limit = 10_i128.pow(n as u32);
        let magnitude = (i128::from(next()) << 64 | i128::from(next())).rem_euclid(limit);
        let sign = if next() % 2 == 0 { 1 } else { -1 };
        (sign * magnitude, next())
    };
    match i % 6 {
        0 => {
            let (u, r) = digits(9);
            Variant::Decimal4 {
                unscaled: u as i32,
                scale: (r % 10) as u8,
            }
        }
        1 => {
            let (u, r) = digits(18);
            Variant::Decimal8 {
                unscaled: u as i64,
                scale: (r % 19) as u8,
            }
        }
        2 => {
            let (u, r) = digits(38);
            Variant::Decimal16 {
                unscaled: u,
                scale: (r % 39) as u8,
            }
        }
        3 => loop {
            let f = f32::from_bits(next() as u32);
            if f.is_finite() {
                break Variant::Float(f);
            }
        },
        4 => loop {
            let f = f64::from_bits(next());
            if f.is_finite() {
                break Variant::Double(f);
            }
        },
        _ => Variant::Int64(next() as i64),
    }
}

/// DuckDB's JSON text of the `v` column of each row of the file `argv[1]`, as `[id, text]`.
const DUCKDB_VARIANT_JSON: &str = r#"
import duckdb, json, sys
con = duckdb.connect()
for id, text in con.execute("SELECT id, v::JSON::VARCHAR FROM read_parquet(?) ORDER BY id", [sys.argv[1]]).fetchall():
    print(json.dumps([id, text]))
"#;

#[test]
fn cat_prints_random_variant_numbers_as_duckdb_does_digit_for_digit() {
    #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    struct Row {
        id: i64,
        v: Variant,
    }
    let mut rng = 29;
    let rows: Vec<Row> = (0..1200)
        .map(|i| Row {
            id: i as i64,
            v: random_number(&mut rng, i),
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("numbers.parquet");
    parquet_serde::to_path(&path, &rows).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .arg("cat")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let row: BTreeMap<String, Box<RawValue>> = serde_json::from_str(l).unwrap();
            row["v"].get().to_string()
        })
        .collect();
    let duckdb = common::python_json_lines(&["-c", DUCKDB_VARIANT_JSON, path.to_str().unwrap()]);
    assert_eq!((ours.len(), duckdb.len()), (rows.len(), rows.len()));
    let mut compared = [0; 3];
    for ((row, ours), theirs) in rows.iter().zip(&ours).zip(&duckdb) {
        assert_eq!(theirs[0].as_i64(), Some(row.id));
        let theirs = theirs[1].as_str().unwrap();
        // Ours must also read back exactly as the value written.
        check(&row.v, ours).unwrap_or_else(|e| panic!("row {}: {e}", row.id));
        let same = match row.v {
            // DuckDB prints the widened f64 of a float; the same f32 either way.
            Variant::Float(_) => {
                compared[0] += 1;
                ours.parse::<f32>().ok().map(f32::to_bits)
                    == theirs.parse::<f64>().ok().map(|f| (f as f32).to_bits())
            }
            Variant::Double(_) => {
                compared[1] += 1;
                ours.parse::<f64>().ok().map(f64::to_bits)
                    == theirs.parse::<f64>().ok().map(f64::to_bits)
            }
            // Decimals: our string holds the digits DuckDB prints as a number.
            _ => {
                compared[2] += 1;
                ours.trim_matches('"') == theirs
            }
        };
        assert!(
            same,
            "row {} {:?}: cat {ours}, DuckDB {theirs}",
            row.id, row.v
        );
    }
    println!(
        "{} floats, {} doubles, {} decimals and integers equal DuckDB's",
        compared[0], compared[1], compared[2]
    );
}

//! The VARIANT frames of event fields, and batches written as `LogEvent` rows.

use crate::variant::{blob, Variant, VariantRef};

use super::batch::{Batch, Cursor, Head, Parts, BATCH_EVENTS};
use super::fields::{Fields, EMPTY_FRAME};
use super::hub::Hub;
use super::layer::Overflow;
use super::row::{LogEvent, LogLevel, SpanRecord};

/// Decodes a frame, checking it against the crate's own encoding of `expected` too.
fn decode(frame: &[u8]) -> Variant {
    let (metadata, value) = blob::split(frame).unwrap();
    VariantRef::new(metadata, value).unwrap();
    Variant::decode(metadata, value).unwrap()
}

fn frame(fields: &mut Fields) -> Vec<u8> {
    let mut out = Vec::new();
    fields.encode(&mut out);
    out
}

#[test]
fn typed_field_values_round_trip_as_variant() {
    let mut f = Fields::default();
    f.int("small", -3);
    f.int("i16", 1_000);
    f.int("i32", -100_000);
    f.int("i64", i64::MIN);
    f.uint("u", 200);
    f.uint("u_max_i64", i64::MAX as u64);
    f.uint("u_big", u64::MAX);
    f.int128("i128_small", 7);
    f.int128("i128_big", -(10i128.pow(30)));
    f.uint128("u128_huge", u128::MAX);
    f.double("ratio", 0.25);
    f.double("nan", f64::NAN);
    f.bool("yes", true);
    f.bool("no", false);
    f.str("route", "/users");
    f.str("long", &"x".repeat(300));
    f.debug("who", &("ann", 7));
    f.display("shown", &format_args!("{}-{}", 1, 2));
    let v = decode(&frame(&mut f));
    let get = |k: &str| v.get(k).cloned().unwrap_or_else(|| panic!("{k} missing"));
    assert_eq!(get("small"), Variant::Int8(-3));
    assert_eq!(get("i16"), Variant::Int16(1_000));
    assert_eq!(get("i32"), Variant::Int32(-100_000));
    assert_eq!(get("i64"), Variant::Int64(i64::MIN));
    assert_eq!(get("u"), Variant::Int16(200));
    assert_eq!(get("u_max_i64"), Variant::Int64(i64::MAX));
    assert_eq!(
        get("u_big"),
        Variant::Decimal16 {
            unscaled: i128::from(u64::MAX),
            scale: 0
        }
    );
    assert_eq!(get("i128_small"), Variant::Int8(7));
    assert_eq!(get("i128_big").as_decimal(), Some((-(10i128.pow(30)), 0)));
    assert_eq!(
        get("u128_huge").as_str(),
        Some(u128::MAX.to_string().as_str())
    );
    assert_eq!(get("ratio"), Variant::Double(0.25));
    assert!(matches!(get("nan"), Variant::Double(x) if x.is_nan()));
    assert_eq!(get("yes"), Variant::Bool(true));
    assert_eq!(get("no"), Variant::Bool(false));
    assert_eq!(get("route").as_str(), Some("/users"));
    assert_eq!(get("long").as_str(), Some("x".repeat(300).as_str()));
    assert_eq!(get("who").as_str(), Some("(\"ann\", 7)"));
    assert_eq!(get("shown").as_str(), Some("1-2"));
    let Variant::Object(all) = &v else {
        panic!("not an object: {v:?}")
    };
    assert_eq!(all.len(), 18);
}

#[test]
fn frames_match_the_crate_encoding() {
    let mut f = Fields::default();
    f.str("b", "two");
    f.int("a", 1);
    f.bool("c", true);
    let expected = Variant::object([
        ("a", Variant::Int8(1)),
        ("b", Variant::from("two")),
        ("c", Variant::Bool(true)),
    ]);
    let (metadata, value) = expected.encode();
    assert_eq!(frame(&mut f), blob::frame(&metadata, &value));
    // No fields: an empty object.
    assert_eq!(decode(&EMPTY_FRAME), Variant::object::<&str>([]));
    assert_eq!(frame(&mut Fields::default()), EMPTY_FRAME);
}

#[test]
fn a_field_recorded_again_replaces_its_value() {
    let mut f = Fields::default();
    f.str("attempt", "first");
    f.int("attempt", 3);
    let v = decode(&frame(&mut f));
    assert_eq!(v, Variant::object([("attempt", Variant::Int8(3))]));
}

#[test]
fn values_recorded_again_and_again_keep_the_text_small() {
    let mut f = Fields::default();
    f.int("n", 1);
    for i in 0..10_000 {
        f.str("state", &format!("step {i} of a long-running span"));
        f.compact();
    }
    let v = decode(&frame(&mut f));
    assert_eq!(
        v.get("state").and_then(Variant::as_str),
        Some("step 9999 of a long-running span")
    );
    assert_eq!(v.get("n"), Some(&Variant::Int8(1)));
    // At most twice the live text plus a little, not 10,000 values' worth.
    assert!(f.text_len() <= 2 * 32 + 256 + 32, "{}", f.text_len());
}

#[test]
fn large_objects_use_wide_offsets() {
    // 40 fields of 2 KiB each: offsets above 64 KiB.
    static NAMES: [&str; 40] = [
        "f00", "f01", "f02", "f03", "f04", "f05", "f06", "f07", "f08", "f09", "f10", "f11", "f12",
        "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20", "f21", "f22", "f23", "f24", "f25",
        "f26", "f27", "f28", "f29", "f30", "f31", "f32", "f33", "f34", "f35", "f36", "f37", "f38",
        "f39",
    ];
    let mut f = Fields::default();
    for (i, n) in NAMES.iter().enumerate().rev() {
        f.str(n, &i.to_string().repeat(2048 / i.to_string().len()));
    }
    let v = decode(&frame(&mut f));
    for (i, n) in NAMES.iter().enumerate() {
        assert!(v
            .get(n)
            .and_then(Variant::as_str)
            .unwrap()
            .starts_with(&i.to_string()));
    }
}

/// A batch of two events: one with a message, fields and a span; one without.
fn sample_batch() -> Batch {
    let mut batch = Batch {
        thread_id: 4,
        thread_name: Some("worker".into()),
        ..Batch::default()
    };
    let mut parts = Parts::default();
    let mut f = Fields::default();
    f.uint("status", 500);
    f.double("latency_ms", 1.5);
    f.encode(&mut parts.fields);
    parts.message.push_str("request failed");
    parts.has_message = true;
    let mut span = Fields::default();
    span.str("route", "/users");
    span.encode(&mut parts.span_bytes);
    parts.spans.push(("request", 0..parts.span_bytes.len()));
    let head = Head {
        ts: 1_795_525_200_000_000,
        level: LogLevel::Error,
        target: "app",
        module_path: Some("app::http"),
        file: Some("src/http.rs"),
        line: Some(42),
        message: None,
        fields: 0..0,
        spans: 0..0,
        dropped: None,
    };
    batch.push(head.clone(), &parts);
    parts.clear();
    parts.fields.extend_from_slice(&EMPTY_FRAME);
    batch.push(
        Head {
            level: LogLevel::Info,
            line: None,
            ..head
        },
        &parts,
    );
    batch
}

/// The bytes of a file of `rows` (the writer's default options).
fn file_of<T: serde::Serialize + crate::ParquetSchema>(rows: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = crate::ser::Writer::new(&mut out, crate::WriterOptions::default()).unwrap();
    for r in rows {
        w.write(r).unwrap();
    }
    w.close().unwrap();
    out
}

/// The plain layer's files stay byte for byte what they were before the Iceberg row came
/// (length and CRC-32 of the sample batch's file, taken at 6909fa2), and are the file of
/// the same rows written as `LogEvent`s.
#[test]
fn the_plain_rows_are_written_byte_for_byte_as_before() {
    let batch = sample_batch();
    let mut out = Vec::new();
    let mut w = crate::ser::Writer::new(&mut out, crate::WriterOptions::default()).unwrap();
    let mut cursor = Cursor { batch, at: 0 };
    for at in 0..2 {
        cursor.at = at;
        w.write(&cursor).unwrap();
    }
    w.close().unwrap();
    let rows: Vec<LogEvent> = crate::from_slice(&out).unwrap();
    assert_eq!(file_of(&rows), out);
    assert_eq!((out.len(), crc32fast::hash(&out)), (3448, 414_658_908));
}

#[test]
fn a_batch_is_written_and_read_back_as_log_events() {
    let batch = sample_batch();
    let mut out = Vec::new();
    let mut w = crate::ser::Writer::new(&mut out, crate::WriterOptions::default()).unwrap();
    let mut cursor = Cursor { batch, at: 0 };
    for at in 0..2 {
        cursor.at = at;
        w.write(&cursor).unwrap();
    }
    w.close().unwrap();
    let rows: Vec<LogEvent> = crate::from_slice(&out).unwrap();
    assert_eq!(
        rows[0],
        LogEvent {
            ts: 1_795_525_200_000_000,
            level: LogLevel::Error,
            target: "app".into(),
            message: Some("request failed".into()),
            module_path: Some("app::http".into()),
            file: Some("src/http.rs".into()),
            line: Some(42),
            thread_name: Some("worker".into()),
            thread_id: 4,
            fields: Variant::object([
                ("latency_ms", Variant::Double(1.5)),
                ("status", Variant::Int16(500)),
            ]),
            spans: vec![SpanRecord {
                name: "request".into(),
                fields: Variant::object([("route", Variant::from("/users"))]),
            }],
            dropped: None,
        }
    );
    assert_eq!(rows[1].level, LogLevel::Info);
    assert_eq!(rows[1].message, None);
    assert_eq!(rows[1].fields, Variant::object::<&str>([]));
    assert!(rows[1].spans.is_empty());
    // A cursor past the end is an error, not a panic.
    cursor.at = 2;
    let mut out = Vec::new();
    let mut w = crate::ser::Writer::new(&mut out, crate::WriterOptions::default()).unwrap();
    assert!(w.write(&cursor).is_err());
}

fn head(level: LogLevel) -> Head {
    Head {
        ts: 0,
        level,
        target: "app",
        module_path: None,
        file: None,
        line: None,
        message: None,
        fields: 0..0,
        spans: 0..0,
        dropped: None,
    }
}

#[test]
fn a_batch_counts_each_events_real_size() {
    let mut batch = Batch::default();
    let empty = batch.size_bytes();
    let mut parts = Parts::default();
    parts.message.push_str("twelve bytes");
    parts.has_message = true;
    parts.fields.extend_from_slice(&EMPTY_FRAME);
    parts.span_bytes.extend_from_slice(&EMPTY_FRAME);
    parts.spans.push(("request", 0..EMPTY_FRAME.len()));
    batch.push(head(LogLevel::Info), &parts);
    let one = batch.size_bytes() - empty;
    let head_bytes = std::mem::size_of::<Head>();
    let span_head = std::mem::size_of::<super::batch::SpanHead>();
    assert_eq!(one, head_bytes + span_head + 12 + 2 * EMPTY_FRAME.len());
    // What the builder's docs say: a head of about 140 bytes, 32 more per span.
    assert!((100..=160).contains(&head_bytes), "{head_bytes}");
    assert_eq!(span_head, 32);
    batch.push(head(LogLevel::Info), &parts);
    assert_eq!(batch.size_bytes() - empty, 2 * one);
}

/// A hub with room for one full batch, that batch queued, and a full partial batch in the
/// slot: the next event finds no room.
fn full_hub(overflow: Overflow) -> (std::sync::Arc<Hub>, std::sync::Arc<super::hub::Slot>) {
    let hub = std::sync::Arc::new(Hub::new(1, usize::MAX, overflow));
    let slot = hub.register(1, None);
    let parts = Parts::default();
    // 128 events fill the partial batch; the 129th hands it over (room for it); 128 more
    // fill the next.
    for _ in 0..2 * BATCH_EVENTS {
        assert!(hub.push(&slot, head(LogLevel::Info), &parts));
    }
    (hub, slot)
}

#[test]
fn when_the_room_is_full_each_policy_drops_or_waits_by_level() {
    let parts = Parts::default();
    for (overflow, info_kept, warn_waits) in [
        (Overflow::Drop, false, false),
        (Overflow::DropBelowWarn, false, true),
        (Overflow::Block, true, true),
    ] {
        if overflow != Overflow::Block {
            let (hub, slot) = full_hub(overflow);
            assert_eq!(hub.push(&slot, head(LogLevel::Info), &parts), info_kept);
            assert_eq!(hub.dropped.load(std::sync::atomic::Ordering::Relaxed), 1);
        }
        for level in [LogLevel::Warn, LogLevel::Error] {
            let (hub, slot) = full_hub(overflow);
            let pusher = {
                let (hub, slot) = (hub.clone(), slot.clone());
                std::thread::spawn(move || hub.push(&slot, head(level), &Parts::default()))
            };
            std::thread::sleep(std::time::Duration::from_millis(100));
            if warn_waits {
                assert!(!pusher.is_finished(), "{overflow:?} {level:?} did not wait");
                // The writer takes the waiting batch: room again.
                let mut out = Vec::new();
                hub.take(false, &mut out);
                assert_eq!(out.len(), 1);
                assert!(pusher.join().unwrap(), "{overflow:?} {level:?}");
                assert_eq!(hub.dropped.load(std::sync::atomic::Ordering::Relaxed), 0);
            } else {
                assert!(!pusher.join().unwrap(), "{overflow:?} {level:?} kept");
                assert_eq!(hub.dropped.load(std::sync::atomic::Ordering::Relaxed), 1);
            }
        }
    }
}

#[test]
fn the_room_in_bytes_bounds_the_batches_waiting() {
    // Room for 1.5 batches of events of 1 KiB (a batch is handed over at 32 KiB): the
    // second batch finds none.
    let parts = Parts {
        message: "x".repeat(1024),
        has_message: true,
        ..Parts::default()
    };
    let one = {
        let mut b = Batch::default();
        while !b.is_full() {
            b.push(head(LogLevel::Info), &parts);
        }
        assert!(b.events.len() < BATCH_EVENTS);
        b.size_bytes()
    };
    let hub = Hub::new(usize::MAX, one + one / 2, Overflow::Drop);
    let slot = hub.register(1, None);
    let mut kept = 0;
    for _ in 0..10 * BATCH_EVENTS {
        kept += usize::from(hub.push(&slot, head(LogLevel::Info), &parts));
    }
    let dropped = hub.dropped.load(std::sync::atomic::Ordering::Relaxed) as usize;
    assert_eq!(kept + dropped, 10 * BATCH_EVENTS);
    assert!(dropped > 0);
    let mut out = Vec::new();
    hub.take(true, &mut out);
    let queued: usize = out.iter().map(|b| b.events.len()).sum();
    assert_eq!(queued, kept);
    // One full batch waited (room for 1.5), plus the slot's own partial batch.
    assert_eq!(out.len(), 2);
}

/// The Iceberg row: the same columns, counters signed, `line` a long, the fields' VARIANT
/// objects as JSON text (a `u64` above `i64::MAX` stays exact in it).
#[cfg(feature = "iceberg")]
#[test]
fn the_iceberg_row_holds_signed_counters_and_json_fields() {
    use super::iceberg_row::{IcebergCursor, IcebergEvent, IcebergSpan};
    use super::worker::Row;
    use crate::core::schema::ParquetSchema;

    let mut batch = sample_batch();
    let mut parts = Parts::default();
    let mut f = Fields::default();
    f.uint("big", u64::MAX);
    f.int128("neg", -(10i128.pow(30)));
    f.str("quote", "a \"b\"");
    f.encode(&mut parts.fields);
    batch.push(
        Head {
            dropped: Some(7),
            ..head(LogLevel::Warn)
        },
        &parts,
    );
    let mut row = IcebergCursor::from_cursor(Cursor { batch, at: 0 });
    let mut rows = Vec::new();
    let mut out = Vec::new();
    let mut w = crate::ser::Writer::new(&mut out, crate::WriterOptions::default()).unwrap();
    for at in 0..3 {
        row.cursor_mut().at = at;
        row.prepare().unwrap();
        w.write(&row).unwrap();
    }
    w.close().unwrap();
    rows.extend(crate::from_slice::<IcebergEvent>(&out).unwrap());
    assert_eq!(
        rows[0],
        IcebergEvent {
            ts: 1_795_525_200_000_000,
            level: LogLevel::Error,
            target: "app".into(),
            message: Some("request failed".into()),
            module_path: Some("app::http".into()),
            file: Some("src/http.rs".into()),
            line: Some(42),
            thread_name: Some("worker".into()),
            thread_id: 4,
            fields: r#"{"latency_ms":1.5,"status":500}"#.into(),
            spans: vec![IcebergSpan {
                name: "request".into(),
                fields: r#"{"route":"/users"}"#.into(),
            }],
            dropped: None,
        }
    );
    assert_eq!((rows[1].fields.as_str(), rows[1].line), ("{}", None));
    assert!(rows[1].spans.is_empty());
    assert_eq!(
        rows[2].fields,
        format!(
            r#"{{"big":{},"neg":"-1{}","quote":"a \"b\""}}"#,
            u64::MAX,
            "0".repeat(30)
        )
    );
    assert_eq!(rows[2].dropped, Some(7));
    // The schema, as the table maps it: every column has a v2 type, `fields` a string.
    let iceberg = |schema: &crate::core::schema::Schema| {
        let (schema, _) = crate::iceberg::field_ids::with_field_ids(schema, None)?;
        crate::iceberg::schema::iceberg_schema(&schema, 0).map(|s| s.to_json())
    };
    let (schema, _) = crate::ser::schema_of::<IcebergCursor>().unwrap();
    assert_eq!(
        IcebergCursor::PARQUET_MESSAGE_NAME,
        LogEvent::PARQUET_MESSAGE_NAME
    );
    let json = iceberg(&schema).unwrap();
    let types: Vec<(&str, String)> = json["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["type"].to_string()))
        .collect();
    let simple = |t: &str| format!("\"{t}\"");
    assert_eq!(types[0], ("ts", simple("timestamptz")));
    assert_eq!(types[6], ("line", simple("long")));
    assert_eq!(types[8], ("thread_id", simple("long")));
    assert_eq!(types[9], ("fields", simple("string")));
    assert_eq!(types[11], ("dropped", simple("long")));
    assert!(types[10]
        .1
        .contains(r#""name":"fields","required":true,"type":"string""#));
    // The plain row's schema is refused, as it was.
    let (plain, _) = crate::ser::schema_of::<LogEvent>().unwrap();
    assert!(iceberg(&plain).is_err());
}

/// A counter above `i64::MAX` is an error naming the column, never a clamped value.
#[cfg(feature = "iceberg")]
#[test]
fn an_iceberg_counter_above_i64_max_is_an_error_not_a_clamp() {
    use super::iceberg_row::IcebergCursor;
    use super::worker::Row;

    let mut batch = sample_batch();
    batch.thread_id = u64::MAX;
    let mut row = IcebergCursor::from_cursor(Cursor { batch, at: 0 });
    let e = row.prepare().unwrap_err();
    assert!(e.to_string().contains("thread_id"), "{e}");
    assert!(e.to_string().contains(&u64::MAX.to_string()), "{e}");

    let mut batch = Batch::default();
    let parts = Parts {
        fields: EMPTY_FRAME.to_vec(),
        ..Parts::default()
    };
    batch.push(
        Head {
            dropped: Some(1 << 63),
            ..head(LogLevel::Warn)
        },
        &parts,
    );
    let mut row = IcebergCursor::from_cursor(Cursor { batch, at: 0 });
    let e = row.prepare().unwrap_err();
    assert!(e.to_string().contains("dropped"), "{e}");
}

/// On the writer thread, an event whose counter does not fit Iceberg's long is not written,
/// and the error is reported and counted; the other events and the file go on.
#[cfg(feature = "iceberg")]
#[test]
fn the_writer_thread_reports_an_event_it_cannot_write_for_iceberg() {
    use super::iceberg_row::{IcebergCursor, IcebergEvent};
    use crate::exec::Reports;
    use crate::logs::LogWriter;

    let dir = tempfile::tempdir().unwrap();
    let writer = LogWriter::<IcebergCursor>::builder(dir.path())
        .open()
        .unwrap();
    let hub = std::sync::Arc::new(Hub::new(4, usize::MAX, Overflow::Block));
    let parts = Parts {
        fields: EMPTY_FRAME.to_vec(),
        ..Parts::default()
    };
    let huge = hub.register(u64::MAX, None);
    let fine = hub.register(2, None);
    assert!(hub.push(&huge, head(LogLevel::Info), &parts));
    assert!(hub.push(&fine, head(LogLevel::Warn), &parts));
    hub.request_shutdown();
    let reports = std::sync::Arc::new(Reports::new(None));
    super::worker::run(
        writer,
        hub,
        std::time::Duration::from_secs(60),
        reports.clone(),
    );
    assert_eq!(reports.count(), 1);
    let e = reports.take_last().unwrap().to_string();
    assert!(e.contains("thread_id") && e.contains("not written"), "{e}");
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let rows: Vec<IcebergEvent> = crate::from_path(&files[0]).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].thread_id, rows[0].level), (2, LogLevel::Warn));
}

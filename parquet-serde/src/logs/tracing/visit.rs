//! Fields of events and spans, read with `tracing`'s visitor into typed values.

use std::collections::BTreeMap;
use std::fmt::Write;

use tracing::field::{Field, Visit};

use super::row::FieldValue;

/// Collects fields; the `message` field goes apart when `message` is given.
pub(crate) struct Collect<'a> {
    /// Where the fields go.
    pub fields: &'a mut BTreeMap<String, FieldValue>,
    /// Where the `message` field goes, for events.
    pub message: Option<&'a mut Option<String>>,
}

impl Collect<'_> {
    fn put(&mut self, field: &Field, value: FieldValue) {
        self.fields.insert(field.name().to_string(), value);
    }
}

impl Visit for Collect<'_> {
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(
            field,
            FieldValue {
                float: Some(value),
                ..FieldValue::default()
            },
        );
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(
            field,
            FieldValue {
                int: Some(value),
                ..FieldValue::default()
            },
        );
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(
            field,
            FieldValue {
                uint: Some(value),
                ..FieldValue::default()
            },
        );
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(
            field,
            FieldValue {
                bool: Some(value),
                ..FieldValue::default()
            },
        );
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            if let Some(m) = self.message.as_mut() {
                **m = Some(value.to_string());
                return;
            }
        }
        self.put(
            field,
            FieldValue {
                str: Some(value.to_string()),
                ..FieldValue::default()
            },
        );
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.record_str(field, &value.to_string());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let mut text = String::new();
        let _ = write!(text, "{value:?}");
        self.record_str(field, &text);
    }
}

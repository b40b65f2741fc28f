//! Fields of events and spans, read with `tracing`'s visitor into typed [`Fields`].

use std::fmt::Write;

use tracing::field::{Field, Visit};

use super::fields::{Capped, Fields};

/// Collects fields; the `message` field goes apart when `message` is given.
pub(crate) struct Collect<'a> {
    /// Where the fields go.
    pub fields: &'a mut Fields,
    /// Where the text of the `message` field goes (for events), and whether there was one.
    pub message: Option<(&'a mut String, &'a mut bool)>,
}

impl Collect<'_> {
    /// The message buffer, when `field` is the message of an event (it is cleared first:
    /// a second `message` replaces the first).
    fn message_for(&mut self, field: &Field) -> Option<&mut String> {
        if field.name() != "message" {
            return None;
        }
        let (text, seen) = self.message.as_mut()?;
        text.clear();
        **seen = true;
        Some(text)
    }
}

impl Visit for Collect<'_> {
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.fields.double(field.name(), value);
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.fields.int(field.name(), value);
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.fields.uint(field.name(), value);
    }

    fn record_i128(&mut self, field: &Field, value: i128) {
        self.fields.int128(field.name(), value);
    }

    fn record_u128(&mut self, field: &Field, value: u128) {
        self.fields.uint128(field.name(), value);
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.fields.bool(field.name(), value);
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        match self.message_for(field) {
            Some(m) => {
                let _ = Capped::new(m).write_str(value);
            }
            None => self.fields.str(field.name(), value),
        }
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        match self.message_for(field) {
            Some(m) => {
                let _ = write!(Capped::new(m), "{value}");
            }
            None => self.fields.display(field.name(), &value),
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        match self.message_for(field) {
            Some(m) => {
                let _ = write!(Capped::new(m), "{value:?}");
            }
            None => self.fields.debug(field.name(), value),
        }
    }
}

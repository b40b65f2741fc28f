//! [`TracingLayer`]: encodes each `tracing` event on the calling thread (its fields and
//! its spans' fields as VARIANT bytes, its message as text, its metadata as `&'static str`)
//! into the thread's batch, which the writer thread takes (see [`hub`](super::hub)).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use super::batch::{Head, Parts};
use super::fields::{Fields, EMPTY_FRAME};
use super::hub::{Hub, Slot};
use super::visit::Collect;
use crate::logs::names::now_micros;

/// What to do with an event when the writer thread is behind: the batches waiting for it
/// fill the layer's room (see [`capacity_bytes`](super::TracingLayerBuilder::capacity_bytes)
/// and [`capacity`](super::TracingLayerBuilder::capacity)).
///
/// Dropped events are counted, never lost silently: the counts are written as rows of their
/// own ([`LogEvent::dropped`](super::LogEvent::dropped)) and reported through
/// [`on_error`](super::TracingLayerBuilder::on_error), if set, at most once a second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Overflow {
    /// Wait for room: no event is lost, and a slow disk slows the application.
    Block,
    /// Drop the event and count it, whatever its level: the application never waits.
    Drop,
    /// The default: drop and count events below `WARN` (`TRACE`, `DEBUG`, `INFO`); `WARN`
    /// and `ERROR` events wait for room, so none is lost, and only a writer that stays
    /// behind while the application logs warnings slows the application.
    #[default]
    DropBelowWarn,
}

impl Overflow {
    /// Whether an event of `level` waits for room (else it is dropped and counted).
    pub(crate) fn waits(self, level: super::LogLevel) -> bool {
        match self {
            Overflow::Block => true,
            Overflow::Drop => false,
            Overflow::DropBelowWarn => level >= super::LogLevel::Warn,
        }
    }
}

/// A `tracing_subscriber` layer that writes every event as a row of Parquet files (see
/// the [module docs](crate::logs#the-tracing-layer)). Made by
/// [`TracingLayer::builder`]; the writing happens on a thread of its own, which the
/// [`TracingGuard`](super::TracingGuard) stops.
#[derive(Debug)]
pub struct TracingLayer {
    pub(crate) hub: Arc<Hub>,
}

/// A span's fields, kept in its extensions: as recorded, and as a VARIANT frame.
struct SpanFields {
    fields: Fields,
    frame: Vec<u8>,
}

impl SpanFields {
    fn encode(&mut self) {
        self.frame.clear();
        self.fields.encode(&mut self.frame);
    }
}

/// What a thread keeps: its number and name, its slot in each layer, buffers to reuse.
struct Local {
    thread_id: u64,
    thread_name: Option<Arc<str>>,
    /// (hub id, slot) for each layer this thread has logged to.
    slots: Vec<(u64, Arc<Slot>)>,
    /// The buffers of the event being encoded (taken out meanwhile: an event logged from
    /// inside a field's `Debug` finds none and uses its own).
    parts: Option<Box<Parts>>,
}

impl Local {
    fn new() -> Local {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Local {
            thread_id: NEXT.fetch_add(1, Ordering::Relaxed),
            thread_name: std::thread::current().name().map(Arc::from),
            slots: Vec::new(),
            parts: None,
        }
    }

    /// This thread's slot in `hub`, made at the first event.
    fn slot(&mut self, hub: &Hub) -> &Arc<Slot> {
        let at = match self.slots.iter().position(|(id, _)| *id == hub.id) {
            Some(at) => at,
            None => {
                // Slots of layers that have stopped are of no further use.
                self.slots.retain(|(_, s)| !Hub::is_closed(s));
                let slot = hub.register(self.thread_id, self.thread_name.clone());
                self.slots.push((hub.id, slot));
                self.slots.len() - 1
            }
        };
        &self.slots[at].1
    }
}

thread_local! {
    static LOCAL: RefCell<Local> = RefCell::new(Local::new());
}

impl<S> Layer<S> for TracingLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut fields = SpanFields {
            fields: Fields::with_capacity(attrs.metadata().fields().len()),
            frame: Vec::new(),
        };
        attrs.record(&mut Collect {
            fields: &mut fields.fields,
            message: None,
        });
        fields.encode();
        span.extensions_mut().insert(fields);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        // Record into a copy: the value's `Debug` runs without the extensions' lock.
        let Some(mut fields) = span
            .extensions()
            .get::<SpanFields>()
            .map(|f| f.fields.clone())
        else {
            return;
        };
        values.record(&mut Collect {
            fields: &mut fields,
            message: None,
        });
        fields.compact();
        let mut extensions = span.extensions_mut();
        if let Some(f) = extensions.get_mut::<SpanFields>() {
            f.fields = fields;
            f.encode();
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        // An event from the writer thread itself (an error callback that logs) could wait
        // on its own writer forever: it is counted as dropped instead.
        if self.hub.stopped() || super::worker::on_writer_thread() {
            self.hub.drop_events(1);
            return;
        }
        let ts = now_micros();
        let mut parts = LOCAL
            .try_with(|l| l.try_borrow_mut().ok().and_then(|mut l| l.parts.take()))
            .ok()
            .flatten()
            .unwrap_or_default();
        parts.clear();
        let mut fields = std::mem::take(&mut parts.scratch);
        fields.clear();
        {
            let Parts {
                message,
                has_message,
                ..
            } = &mut *parts;
            event.record(&mut Collect {
                fields: &mut fields,
                message: Some((message, has_message)),
            });
        }
        fields.encode(&mut parts.fields);
        parts.scratch = fields;
        if let Some(scope) = ctx.event_scope(event) {
            for span in scope.from_root() {
                let start = parts.span_bytes.len();
                match span.extensions().get::<SpanFields>() {
                    Some(f) => parts.span_bytes.extend_from_slice(&f.frame),
                    None => parts.span_bytes.extend_from_slice(&EMPTY_FRAME),
                }
                let end = parts.span_bytes.len();
                parts.spans.push((span.name(), start..end));
            }
        }
        let meta = event.metadata();
        let head = Head {
            ts,
            level: (*meta.level()).into(),
            target: meta.target(),
            module_path: meta.module_path(),
            file: meta.file(),
            line: meta.line(),
            message: None,
            fields: 0..0,
            spans: 0..0,
            dropped: None,
        };
        let mut head = Some(head);
        let _ = LOCAL.try_with(|l| {
            if let Ok(mut l) = l.try_borrow_mut() {
                if let Some(head) = head.take() {
                    self.hub.push(l.slot(&self.hub), head, &parts);
                }
                if l.parts.is_none() {
                    l.parts = Some(std::mem::take(&mut parts));
                }
            }
        });
        if let Some(head) = head {
            // The thread is ending (its locals are gone): a slot of its own, which the
            // writer thread forgets once it has taken the event.
            let slot = self.hub.register(0, None);
            self.hub.push(&slot, head, &parts);
        }
    }
}

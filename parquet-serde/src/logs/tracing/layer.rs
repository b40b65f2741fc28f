//! [`TracingLayer`]: turns each `tracing` event into a [`LogEvent`] and hands it to the
//! writer thread through a bounded channel.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::Arc;

use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use super::row::{FieldValue, LogEvent, SpanRecord};
use super::visit::Collect;
use super::worker::Message;
use crate::logs::names::now_micros;

/// What to do with an event when the channel to the writer thread is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Overflow {
    /// Wait for room: no event is lost, and a slow disk slows the application.
    Block,
    /// Drop the event and count it: the application never waits. The counts are written
    /// as rows of their own ([`LogEvent::dropped`]).
    #[default]
    Drop,
}

/// A `tracing_subscriber` layer that writes every event as a row of Parquet files (see
/// the [module docs](crate::logs#the-tracing-layer)). Made by
/// [`TracingLayer::builder`]; the writing happens on a thread of its own, which the
/// [`TracingGuard`](super::TracingGuard) stops.
#[derive(Debug)]
pub struct TracingLayer {
    pub(crate) sender: SyncSender<Message>,
    pub(crate) overflow: Overflow,
    pub(crate) dropped: Arc<AtomicU64>,
}

/// A span's fields, kept in its extensions.
struct SpanFields(BTreeMap<String, FieldValue>);

thread_local! {
    /// This thread's number and name, fixed at its first event.
    static THREAD: (u64, Option<String>) = {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let current = std::thread::current();
        (NEXT.fetch_add(1, Ordering::Relaxed), current.name().map(str::to_string))
    };
}

impl<S> Layer<S> for TracingLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut fields = BTreeMap::new();
        attrs.record(&mut Collect {
            fields: &mut fields,
            message: None,
        });
        span.extensions_mut().insert(SpanFields(fields));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut extensions = span.extensions_mut();
        if let Some(SpanFields(fields)) = extensions.get_mut::<SpanFields>() {
            values.record(&mut Collect {
                fields,
                message: None,
            });
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        // An event from the writer thread itself (an error callback that logs) could wait
        // on its own channel forever: it is counted as dropped instead.
        if super::worker::on_writer_thread() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let meta = event.metadata();
        let mut fields = BTreeMap::new();
        let mut message = None;
        event.record(&mut Collect {
            fields: &mut fields,
            message: Some(&mut message),
        });
        let spans = ctx.event_scope(event).map_or_else(Vec::new, |scope| {
            scope
                .from_root()
                .map(|span| SpanRecord {
                    name: span.name().to_string(),
                    fields: span
                        .extensions()
                        .get::<SpanFields>()
                        .map(|f| f.0.clone())
                        .unwrap_or_default(),
                })
                .collect()
        });
        let (thread_id, thread_name) = THREAD
            .try_with(|(id, name)| (*id, name.clone()))
            .unwrap_or((0, None));
        let row = LogEvent {
            ts: now_micros(),
            level: (*meta.level()).into(),
            target: meta.target().to_string(),
            message,
            module_path: meta.module_path().map(str::to_string),
            file: meta.file().map(str::to_string),
            line: meta.line(),
            thread_name,
            thread_id,
            fields,
            spans,
            dropped: None,
        };
        let message = Message::Event(Box::new(row));
        let sent = match self.overflow {
            Overflow::Block => self.sender.send(message).is_ok(),
            Overflow::Drop => match self.sender.try_send(message) {
                Ok(()) => true,
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
            },
        };
        if !sent {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

//! The writer thread of the `tracing` layer: batches of events from the application
//! threads' slots into a [`LogWriter`], flushed on time, closed on shutdown. Errors, panics
//! and counts of dropped events go to the error callback, never to the application;
//! errors are also counted and the last one kept, for the guard to give back. Nothing is
//! printed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::exec::Reports;
use crate::logs::names::now_micros;
use crate::logs::LogWriter;

use super::batch::{Batch, Cursor, Head, Parts};
use super::fields::EMPTY_FRAME;
use super::hub::Hub;
use super::row::LogLevel;

/// What the writer thread writes each event as: a view of one event of a batch, as the
/// plain [`LogEvent`](super::LogEvent) row ([`Cursor`]) or, for an Iceberg table, the
/// Iceberg row (`iceberg_row.rs`).
pub(crate) trait Row:
    serde::Serialize + crate::ParquetSchema + Default + Send + 'static
{
    /// The batch and the event the row is of.
    fn cursor(&self) -> &Cursor;
    /// The same, to point at another event or swap the batch.
    fn cursor_mut(&mut self) -> &mut Cursor;
    /// A row over `cursor`.
    fn from_cursor(cursor: Cursor) -> Self;
    /// Makes the row of the event at the cursor ready to write; an error means the event
    /// cannot be written (it is reported and counted, and the file goes on).
    fn prepare(&mut self) -> crate::Result<()> {
        Ok(())
    }
}

impl Row for Cursor {
    fn cursor(&self) -> &Cursor {
        self
    }

    fn cursor_mut(&mut self) -> &mut Cursor {
        self
    }

    fn from_cursor(cursor: Cursor) -> Self {
        cursor
    }
}

/// Reports errors to the callback at most one a second (the others are counted in the
/// next report; every one is counted and kept in [`Reports`]), and counts of dropped
/// events, at most one a second too (each report counts the events dropped since the
/// previous one; the counts are also written as rows).
struct Reporter {
    reports: Arc<Reports>,
    /// When an error was last given to the callback.
    errors: Throttle,
    suppressed: u64,
    /// When dropped events were last reported.
    dropped: Throttle,
    /// Dropped events not reported yet.
    unreported_dropped: u64,
}

/// Reports come at most this often.
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// When one kind of report was last made: the next is due [`REPORT_EVERY`] after it.
#[derive(Default)]
struct Throttle(Option<Instant>);

impl Throttle {
    /// Whether a report now would come too soon after the last one.
    fn too_soon(&self) -> bool {
        self.0.is_some_and(|t| t.elapsed() < REPORT_EVERY)
    }

    /// Notes a report made now.
    fn reported(&mut self) {
        self.0 = Some(Instant::now());
    }
}

impl Reporter {
    fn new(reports: Arc<Reports>) -> Reporter {
        Reporter {
            reports,
            errors: Throttle::default(),
            suppressed: 0,
            dropped: Throttle::default(),
            unreported_dropped: 0,
        }
    }

    /// Counts `n` dropped events, reported when a report is due.
    fn dropped(&mut self, n: u64) {
        self.unreported_dropped += n;
        self.report_dropped(false);
    }

    /// Reports the dropped events not reported yet, if any, when a second has passed since
    /// the last such report (or always, with `now`).
    fn report_dropped(&mut self, now: bool) {
        if self.unreported_dropped == 0 || (!now && self.dropped.too_soon()) {
            return;
        }
        let n = std::mem::take(&mut self.unreported_dropped);
        self.dropped.reported();
        self.reports.notify(&Error::new(
            crate::ErrorKind::Data,
            format!(
                "{n} events dropped since the last report: the log writer was behind \
                 (each count is also written as a row with `dropped` set)"
            ),
        ));
    }

    fn report(&mut self, e: Error) {
        if self.errors.too_soon() {
            self.suppressed += 1;
            self.reports.keep(e);
            return;
        }
        let e = if self.suppressed > 0 {
            e.context(format!(
                "{} more errors since the last report",
                self.suppressed
            ))
        } else {
            e
        };
        self.errors.reported();
        self.suppressed = 0;
        self.reports.report(e);
    }
}

thread_local! {
    /// Set on the writer thread.
    static WRITER_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the calling thread is a tracing layer's writer thread.
pub(crate) fn on_writer_thread() -> bool {
    WRITER_THREAD.try_with(|w| w.get()).unwrap_or(false)
}

/// Runs the writer thread until shutdown; a panic inside is reported, not propagated.
pub(crate) fn run<R: Row>(
    writer: LogWriter<R>,
    hub: Arc<Hub>,
    flush_interval: Duration,
    reports: Arc<Reports>,
) {
    WRITER_THREAD.with(|w| w.set(true));
    let mut reporter = Reporter::new(reports);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        work(writer, &hub, flush_interval, &mut reporter)
    }));
    if outcome.is_err() {
        // Slots refuse events from now on; waiting threads and flushes are released.
        let mut left = Vec::new();
        hub.stop(&mut left);
        let lost: usize = left.iter().map(|b| b.events.len()).sum();
        let lost = hub.dropped.swap(0, Ordering::Relaxed) + lost as u64;
        reporter.unreported_dropped += lost;
        reporter.report_dropped(true);
        reporter.errors = Throttle::default();
        reporter.report(Error::new(
            crate::ErrorKind::Internal,
            "the log writer thread panicked; later events are dropped",
        ));
    }
}

/// The writer thread's state: the log writer, the cursor rows are written through.
struct Work<'a, R> {
    writer: LogWriter<R>,
    hub: &'a Hub,
    cursor: R,
    reporter: &'a mut Reporter,
}

impl<R: Row> Work<'_, R> {
    /// Writes the events of `batches` in order (then recycles them), after a row counting
    /// the events dropped so far, if any.
    fn write(&mut self, batches: &mut Vec<Batch>) {
        self.write_dropped();
        for mut batch in batches.drain(..) {
            std::mem::swap(&mut self.cursor.cursor_mut().batch, &mut batch);
            self.hub.recycle(batch);
            for at in 0..self.cursor.cursor().batch.events.len() {
                self.cursor.cursor_mut().at = at;
                match self.cursor.prepare() {
                    Ok(()) => {
                        let result = self.writer.write(&self.cursor);
                        self.check(result);
                    }
                    // Not written, and nothing of it went into the file: reported, counted.
                    Err(e) => self.reporter.report(e),
                }
            }
        }
    }

    /// Writes a row counting the events dropped since the last one, if any were.
    fn write_dropped(&mut self) {
        let n = self.hub.dropped.swap(0, Ordering::Relaxed);
        if n == 0 {
            return;
        }
        self.reporter.dropped(n);
        let mut batch = Batch::default();
        batch.push(
            Head {
                ts: now_micros(),
                level: LogLevel::Warn,
                target: "parquet_serde::logs",
                module_path: None,
                file: None,
                line: None,
                message: None,
                fields: 0..0,
                spans: 0..0,
                dropped: Some(n),
            },
            &Parts {
                message: format!("{n} events dropped: the log writer was behind"),
                has_message: true,
                fields: EMPTY_FRAME.to_vec(),
                ..Parts::default()
            },
        );
        let mut row = R::from_cursor(Cursor { batch, at: 0 });
        match row.prepare() {
            Ok(()) => {
                let result = self.writer.write(&row);
                self.check(result);
            }
            Err(e) => self.reporter.report(e),
        }
    }

    fn flush(&mut self) {
        self.write_dropped();
        let result = self.writer.flush();
        self.check(result);
    }

    fn check(&mut self, result: crate::Result<()>) {
        if let Err(e) = result {
            self.reporter.report(e);
            // The file may be unusable: leave it to recovery, start a new one.
            self.writer.abandon_current();
        }
    }
}

fn work<R: Row>(
    writer: LogWriter<R>,
    hub: &Hub,
    flush_interval: Duration,
    reporter: &mut Reporter,
) {
    let mut w = Work {
        writer,
        hub,
        cursor: R::default(),
        reporter,
    };
    let mut batches = Vec::new();
    let mut next_flush = Instant::now() + flush_interval;
    loop {
        let wake = hub.wait(next_flush);
        // On the clock even under steady traffic; on the guard's asking; at the end.
        let due = Instant::now() >= next_flush || !wake.flushes.is_empty() || wake.shutdown;
        hub.take(due, &mut batches);
        w.write(&mut batches);
        w.reporter.report_dropped(false);
        if wake.shutdown {
            break;
        }
        if due {
            w.flush();
            next_flush = Instant::now() + flush_interval;
            for done in wake.flushes {
                let _ = done.send(());
            }
        }
    }
    // Events that came after the last look, then no more.
    hub.stop(&mut batches);
    w.write(&mut batches);
    w.write_dropped();
    let Work {
        writer, reporter, ..
    } = w;
    if let Err(e) = writer.close() {
        reporter.report(e);
    }
    reporter.report_dropped(true);
}

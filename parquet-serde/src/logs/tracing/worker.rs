//! The writer thread of the `tracing` layer: rows from the channel into a [`LogWriter`],
//! flushed on time, closed on shutdown. Errors and panics go to the error callback (or
//! standard error), never to the application.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::logs::names::now_micros;
use crate::logs::LogWriter;

use super::row::{LogEvent, LogLevel};

/// What the layer and the guard send to the writer thread.
#[derive(Debug)]
pub(crate) enum Message {
    /// One row.
    Event(Box<LogEvent>),
    /// Flush, then answer.
    Flush(SyncSender<()>),
    /// Close the files and stop.
    Shutdown,
}

/// Where writer errors go.
pub(crate) type OnError = Arc<dyn Fn(&Error) + Send + Sync>;

/// Reports errors, at most one a second (the others are counted in the next report).
struct Reporter {
    on_error: Option<OnError>,
    last: Option<Instant>,
    suppressed: u64,
}

impl Reporter {
    fn report(&mut self, e: Error) {
        if self
            .last
            .is_some_and(|t| t.elapsed() < Duration::from_secs(1))
        {
            self.suppressed += 1;
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
        self.last = Some(Instant::now());
        self.suppressed = 0;
        match &self.on_error {
            Some(f) => {
                // A panicking callback must not stop the writer.
                let _ = catch_unwind(AssertUnwindSafe(|| f(&e)));
            }
            None => eprintln!("parquet-serde tracing layer: {e}"),
        }
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
pub(crate) fn run(
    writer: LogWriter<LogEvent>,
    receiver: Receiver<Message>,
    dropped: Arc<AtomicU64>,
    flush_interval: Duration,
    on_error: Option<OnError>,
) {
    WRITER_THREAD.with(|w| w.set(true));
    let mut reporter = Reporter {
        on_error,
        last: None,
        suppressed: 0,
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        work(writer, &receiver, &dropped, flush_interval, &mut reporter)
    }));
    if outcome.is_err() {
        reporter.last = None;
        reporter.report(Error::new(
            crate::ErrorKind::Internal,
            "the log writer thread panicked; later events are dropped",
        ));
    }
}

fn work(
    mut writer: LogWriter<LogEvent>,
    receiver: &Receiver<Message>,
    dropped: &AtomicU64,
    flush_interval: Duration,
    reporter: &mut Reporter,
) {
    let mut next_flush = Instant::now() + flush_interval;
    loop {
        let wait = next_flush.saturating_duration_since(Instant::now());
        // Under steady traffic the channel never times out: flush on the clock anyway.
        let message = if wait.is_zero() {
            Err(RecvTimeoutError::Timeout)
        } else {
            receiver.recv_timeout(wait)
        };
        let result = match message {
            Ok(Message::Event(row)) => {
                write_dropped(&mut writer, dropped).and_then(|()| writer.write(&row))
            }
            Ok(Message::Flush(done)) => {
                let r = write_dropped(&mut writer, dropped).and_then(|()| writer.flush());
                next_flush = Instant::now() + flush_interval;
                let _ = done.send(());
                r
            }
            Err(RecvTimeoutError::Timeout) => {
                next_flush = Instant::now() + flush_interval;
                write_dropped(&mut writer, dropped).and_then(|()| writer.flush())
            }
            Ok(Message::Shutdown) | Err(RecvTimeoutError::Disconnected) => break,
        };
        if let Err(e) = result {
            reporter.report(e);
            // The file may be unusable: leave it to recovery, start a new one.
            writer.abandon_current();
        }
    }
    if let Err(e) = write_dropped(&mut writer, dropped) {
        reporter.report(e);
    }
    if let Err(e) = writer.close() {
        reporter.report(e);
    }
}

/// Writes a row counting the events dropped since the last one, if any were.
fn write_dropped(writer: &mut LogWriter<LogEvent>, dropped: &AtomicU64) -> crate::Result<()> {
    let n = dropped.swap(0, Ordering::Relaxed);
    if n == 0 {
        return Ok(());
    }
    writer.write(&LogEvent {
        ts: now_micros(),
        level: LogLevel::Warn,
        target: "parquet_serde::logs".to_string(),
        message: Some(format!(
            "{n} events dropped: the channel to the log writer was full"
        )),
        module_path: None,
        file: None,
        line: None,
        thread_name: None,
        thread_id: 0,
        fields: BTreeMap::new(),
        spans: Vec::new(),
        dropped: Some(n),
    })
}

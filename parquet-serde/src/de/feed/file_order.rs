//! [`FileOrder`]: every row group in file order, each decoded whole before its rows.

use crate::core::file::{ChunkReader, FileReader};
use crate::error::Result;

use super::super::rows::Assembly;
use super::in_order::load_column;
use super::read_ahead::ReadAhead;
use super::windows::{Spares, Windows};
use super::{columns, group_rows, install, worth_threads, Feeder, Group, GroupOrder};
use std::sync::Arc;

/// Feeds every row group in file order. With more than one thread allowed
/// ([`ReadOptions::threads`](crate::core::file::ReadOptions::threads)), a row group's columns are
/// shared out among that many threads (the calling one included), or were decoded ahead
/// while the rows of the row group before were read; and the next row group's decoding
/// starts on a background thread. Memory then holds two row groups.
///
/// With [`ReadOptions::batch_rows`](crate::ReadOptions::batch_rows), each row group larger
/// than that is fed a window of that many rows at a time instead (each window a [`Group`]
/// of its own, its columns shared out among the threads allowed), and nothing of it is
/// decoded ahead; smaller row groups are fed whole, as without windows.
#[derive(Debug, Default)]
pub(in crate::de) struct FileOrder {
    order: GroupOrder,
    /// The next row group, being decoded on a background thread.
    ahead: Option<ReadAhead>,
    /// The row group being fed window by window.
    windows: Option<Windows>,
    /// The buffers of windows read, for the next ones (of every row group).
    spares: Option<Arc<Spares>>,
}

impl FileOrder {
    /// Feeds from the first row group on.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes the projected columns of row group `rg` into `asm`; its row count.
    fn load<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        rg: usize,
    ) -> Result<usize> {
        asm.clear_cursors();
        let rows = group_rows(file, rg)?;
        let threads = file.options().threads;
        let projected = &asm.projected;
        let cursors = match self.ahead.take() {
            Some(ahead) if ahead.row_group() == rg => ahead.finish(),
            _ => columns(file, rg, projected, threads, |col| {
                load_column(file, rg, rows, col)
            }),
        };
        let next = rg + 1;
        if next < file.num_row_groups()
            && worth_threads(file, next, projected, threads)
            && decoded_whole(file, next)
        {
            self.ahead = ReadAhead::start(file, next, projected);
        }
        install(asm, cursors)?;
        Ok(rows)
    }
}

/// Whether row group `rg` is decoded whole: always, but with
/// [`ReadOptions::batch_rows`](crate::ReadOptions::batch_rows) only when it is no larger
/// than a window (a larger one is read window by window).
fn decoded_whole<R: ChunkReader>(file: &FileReader<R>, rg: usize) -> bool {
    match file.options().batch_rows {
        Some(window) => group_rows(file, rg).is_ok_and(|rows| rows <= window),
        None => true,
    }
}

impl FileOrder {
    /// The next window of the row group being read window by window (`window` rows at
    /// most), opening the next row group when that one ended.
    fn next_window<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        window: usize,
    ) -> Option<Result<Group>> {
        loop {
            if let Some(windows) = &mut self.windows {
                if let Some(group) = windows.next_group() {
                    let spares = self.spares.as_deref();
                    let loaded = load_window(file, asm, windows, spares, group);
                    if loaded.is_err() {
                        // A column that failed part-way leaves the others out of step: its
                        // row group ends here, and the next call goes on with the next one.
                        self.windows = None;
                    }
                    return Some(loaded);
                }
                // Taken first: a row group whose end is wrong is left behind either way.
                let mut ended = self.windows.take()?;
                if let Err(e) = ended.finish(file) {
                    return Some(Err(e));
                }
            }
            let (rg, first_row) = self.order.advance(file)?;
            // A row group no larger than a window is one: decoded whole, as without
            // windows (the next one ahead, when worth it).
            if decoded_whole(file, rg) {
                return Some(self.load(file, asm, rg).map(|rows| Group {
                    rg,
                    rows,
                    first_row,
                }));
            }
            let leaves = file.schema().columns().len();
            let spares = self
                .spares
                .get_or_insert_with(|| Spares::new(leaves))
                .clone();
            let opened = group_rows(file, rg).and_then(|rows| {
                Windows::open(file, (rg, first_row, rows), &asm.projected, window, spares)
            });
            match opened {
                Ok(windows) => self.windows = Some(windows),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Decodes window `group` of `windows` into `asm`, in the buffers of the window before
/// (its cursors' buffers go to `spares` first).
fn load_window<R: ChunkReader>(
    file: &FileReader<R>,
    asm: &mut Assembly,
    windows: &mut Windows,
    spares: Option<&Spares>,
    group: Group,
) -> Result<Group> {
    if let Some(spares) = spares {
        spares.take_back(&mut asm.st.cursors);
    }
    asm.clear_cursors();
    let projected = &asm.projected;
    let threads = windows.threads(&group, file.options().threads);
    let position = |col: usize| projected.iter().position(|&c| c == col).unwrap_or(0);
    let decoding = &*windows;
    let cursors = columns(file, windows.row_group(), projected, threads, |col| {
        decoding.decode(file, position(col), &group)
    });
    windows.advance(&group);
    install(asm, cursors)?;
    Ok(group)
}

impl Feeder for FileOrder {
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
    ) -> Option<Result<Group>> {
        if let Some(window) = file.options().batch_rows {
            return self.next_window(file, asm, window);
        }
        let (rg, first_row) = self.order.advance(file)?;
        Some(self.load(file, asm, rg).map(|rows| Group {
            rg,
            rows,
            first_row,
        }))
    }

    fn spares(&self) -> Option<Arc<Spares>> {
        self.spares.clone()
    }
}

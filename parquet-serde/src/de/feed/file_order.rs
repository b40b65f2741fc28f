//! [`FileOrder`]: every row group in file order, each decoded whole before its rows.

use crate::core::file::{ChunkReader, FileReader};
use crate::error::Result;

use super::super::rows::Assembly;
use super::in_order::load_column;
use super::read_ahead::ReadAhead;
use super::{columns, group_rows, install, worth_threads, Feeder, Group, GroupOrder};

/// Feeds every row group in file order. With more than one thread allowed
/// ([`ReadOptions::threads`](crate::core::file::ReadOptions::threads)), a row group's columns are
/// shared out among that many threads (the calling one included), or were decoded ahead
/// while the rows of the row group before were read; and the next row group's decoding
/// starts on a background thread. Memory then holds two row groups.
#[derive(Debug, Default)]
pub(in crate::de) struct FileOrder {
    order: GroupOrder,
    /// The next row group, being decoded on a background thread.
    ahead: Option<ReadAhead>,
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
        if next < file.num_row_groups() && worth_threads(file, next, projected, threads) {
            self.ahead = ReadAhead::start(file, next, projected);
        }
        install(asm, cursors)?;
        Ok(rows)
    }
}

impl Feeder for FileOrder {
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
    ) -> Option<Result<Group>> {
        let (rg, first_row) = self.order.advance(file)?;
        Some(self.load(file, asm, rg).map(|rows| Group {
            rg,
            rows,
            first_row,
        }))
    }
}

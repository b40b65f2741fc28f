//! [`OneGroup`]: a single row group, decoded in order on the thread that reads its rows
//! (each row group of a parallel read, see [`parallel`](super::super::parallel)).

use crate::core::file::{ChunkReader, FileReader};
use crate::error::Result;

use super::super::rows::Assembly;
use super::in_order::{in_order, load_column};
use super::{first_row, group_rows, install, Feeder, Group};

/// Feeds row group `rg` alone, its projected columns decoded on the calling thread.
#[derive(Debug)]
pub(in crate::de) struct OneGroup {
    rg: usize,
    done: bool,
}

impl OneGroup {
    /// Feeds row group `rg`.
    pub fn new(rg: usize) -> Self {
        OneGroup { rg, done: false }
    }
}

impl Feeder for OneGroup {
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
    ) -> Option<Result<Group>> {
        if std::mem::replace(&mut self.done, true) {
            return None;
        }
        let rg = self.rg;
        let loaded = (|| {
            let rows = group_rows(file, rg)?;
            let cursors = in_order(&asm.projected, |col| load_column(file, rg, rows, col));
            install(asm, cursors)?;
            Ok(Group {
                rg,
                rows,
                first_row: first_row(file, rg),
            })
        })();
        Some(loaded)
    }
}

//! Checking, before any row is read, that a dataset's whole predicate applies to its
//! schema: each test of a partition key compares with the key's values, and each other
//! test binds to the schema of every file read (a column it names is a leaf, each literal
//! compares with the column's type). The whole predicate is checked, before partition
//! pruning or constant folding removes any part of it, so that a predicate is refused on a
//! folder exactly when one of its files refuses it.

use std::fs::File;

use crate::core::file::{FileReader, ReadOptions};
use crate::error::Result;
use crate::filter::{bind_predicate, Predicate};

use super::list::DataFile;
use super::partition::PartitionValue;
use super::prune::{decide, Decided};
use super::rows::at_file;

/// A predicate to check, with what it is checked against.
#[derive(Debug, Clone)]
pub(crate) struct Check {
    predicate: Predicate,
    /// Each partition key with one of its non-null values (null when it has none): the
    /// key's type.
    keys: Vec<(String, PartitionValue)>,
    /// The files whose schemas the tests of file columns are bound to: those read, or the
    /// first file found when none is read.
    files: Vec<DataFile>,
}

impl Check {
    /// The check of `predicate` on a dataset of `all` files of which `selected` are read.
    pub(crate) fn new(predicate: Predicate, all: &[DataFile], selected: &[DataFile]) -> Check {
        let mut keys: Vec<(String, PartitionValue)> = Vec::new();
        for (k, v) in all.iter().flat_map(|f| f.partition_values()) {
            match keys.iter_mut().find(|(key, _)| key == k) {
                Some((_, old)) if *old == PartitionValue::Null => *old = v.clone(),
                Some(_) => {}
                None => keys.push((k.clone(), v.clone())),
            }
        }
        let files = if selected.is_empty() {
            all.iter().take(1).cloned().collect()
        } else {
            selected.to_vec()
        };
        Check {
            predicate,
            keys,
            files,
        }
    }

    /// Checks every test of the predicate: partition tests against the keys' values, the
    /// others bound to each file's schema (reading only its footer). The first test that
    /// cannot apply fails, naming the key, or the file's path. A file that cannot be opened
    /// is left to the reading, which reports it in its turn.
    pub(crate) fn run(&self, options: &ReadOptions) -> Result<()> {
        let mut tests = Vec::new();
        leaves(&self.predicate, &mut tests);
        let mut file_tests = Vec::new();
        for t in tests {
            // A test of a key is decided (and type checked) by the key's value; a column
            // compared with a key is left as a test with the key's value.
            if let Decided::Rows(q) = decide(t, &self.keys)? {
                file_tests.push(q);
            }
        }
        if file_tests.is_empty() {
            return Ok(());
        }
        for file in &self.files {
            let Ok(f) = File::open(file.path()) else {
                continue;
            };
            let Ok(mut reader) = FileReader::with_options(f, options.clone()) else {
                continue;
            };
            file.rename_by_id(&mut reader)
                .map_err(|e| at_file(e, file.path()))?;
            for t in &file_tests {
                bind_predicate(t, reader.schema()).map_err(|e| at_file(e, file.path()))?;
            }
        }
        Ok(())
    }
}

/// The tests of `p` (every node but `and`, `or`, `not` and the unknown constant).
fn leaves<'a>(p: &'a Predicate, out: &mut Vec<&'a Predicate>) {
    match p {
        Predicate::And(a, b) | Predicate::Or(a, b) => {
            leaves(a, out);
            leaves(b, out);
        }
        Predicate::Not(inner) => leaves(inner, out),
        Predicate::Unknown => {}
        test => out.push(test),
    }
}

//! [`Filter`]: a predicate bound to a file, pruned with statistics, Bloom filters,
//! dictionaries and the page index, then applied exactly to the remaining rows.

use std::collections::HashMap;

use crate::core::bloom::Sbbf;
use crate::core::column::ColumnBatch;
use crate::core::file::{
    local_ranges, take_rows, ChunkReader, FileReader, PageIndex, RowSelection,
};
use crate::core::format::{ColumnMetaData, Encoding, PageType};
use crate::core::geo::usable_bbox;
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};
use crate::record::Value;

use super::bind::{bind, Bound, Leaf, Test};
use super::eval::{combine, eval_leaf, TRUE};
use super::pair::eval_pair;
use super::predicate::{CmpOp, Predicate};
use super::prune::{bloom_may_match, dictionary_may_match, may_match, Facts};
use super::variant_path;

/// Which metadata a [`Filter`] uses to skip data (all on by default). Turning them off
/// changes only how much is read, never the rows selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterOptions {
    /// Skip row groups by column chunk min/max/null counts.
    pub statistics: bool,
    /// Skip row groups whose Bloom filters exclude the values of `eq` and `in_list` tests.
    pub bloom_filters: bool,
    /// Skip row groups whose dictionaries hold no value an `eq` or `in_list` test accepts
    /// (only for column chunks whose data pages are all dictionary-encoded).
    pub dictionaries: bool,
    /// Skip pages by the page index, and read only the pages holding candidate rows.
    pub page_index: bool,
}

impl Default for FilterOptions {
    fn default() -> Self {
        FilterOptions {
            statistics: true,
            bloom_filters: true,
            dictionaries: true,
            page_index: true,
        }
    }
}

impl FilterOptions {
    /// Every pruning off: a full scan filtered row by row.
    pub fn none() -> Self {
        FilterOptions {
            statistics: false,
            bloom_filters: false,
            dictionaries: false,
            page_index: false,
        }
    }
}

/// What a filter did: row groups skipped and why, rows left after each step.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilterReport {
    /// Row groups in the file.
    pub row_groups: usize,
    /// Row groups skipped by column chunk statistics.
    pub pruned_by_statistics: usize,
    /// Row groups skipped by Bloom filters.
    pub pruned_by_bloom_filter: usize,
    /// Row groups skipped by dictionaries.
    pub pruned_by_dictionary: usize,
    /// Rows in the file.
    pub rows_total: u64,
    /// Rows of the row groups left after row group pruning.
    pub rows_in_row_groups_read: u64,
    /// Rows left after page pruning: the rows whose predicate columns are decoded.
    pub rows_candidate: u64,
    /// Rows the predicate selects.
    pub rows_selected: u64,
}

/// The rows selected in each row group (row groups without rows left out).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// `(row group, rows)`, by increasing row group.
    pub row_groups: Vec<(usize, RowSelection)>,
    /// What the filter did.
    pub report: FilterReport,
}

impl Selection {
    /// Rows selected in all row groups.
    pub fn row_count(&self) -> u64 {
        self.row_groups.iter().map(|(_, s)| s.row_count()).sum()
    }
}

/// A [`Predicate`] bound to a file: columns resolved and literals checked.
///
/// ```
/// use parquet_serde::core::column::ColumnBatch;
/// use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
/// use parquet_serde::filter::col;
/// use parquet_serde::core::values::ColumnValues;
///
/// let schema = "message m { required int64 ts; required int32 code; }".parse()?;
/// let mut w = FileWriter::new(Vec::new(), schema, WriterOptions::default().page_row_limit(100))?;
/// let mut ts = w.column_writer(0)?;
/// ts.write(&ColumnBatch { values: ColumnValues::Int64((0..1000).collect()), def_levels: vec![], rep_levels: vec![] })?;
/// let mut code = w.column_writer(1)?;
/// code.write(&ColumnBatch { values: ColumnValues::Int32((0..1000).map(|i| i % 7).collect()), def_levels: vec![], rep_levels: vec![] })?;
/// w.write_row_group(vec![ts.close()?, code.close()?])?;
/// let (bytes, _) = w.close()?;
///
/// let reader = FileReader::new(bytes)?;
/// let filter = reader.filter(col("ts").between(250, 349).and(col("code").eq(3)))?;
/// let selection = filter.select()?;
/// assert_eq!(selection.row_count(), 14);
/// assert_eq!(selection.report.rows_candidate, 200); // two pages of 100 rows decoded
/// let rows = filter.read_rows(&["ts"])?;
/// assert_eq!(rows[0].get("ts"), Some(&parquet_serde::record::Value::Int(255)));
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct Filter<'r, R> {
    reader: &'r FileReader<R>,
    predicate: Predicate,
    bound: Bound,
    options: FilterOptions,
}

impl<R: ChunkReader> FileReader<R> {
    /// Binds `predicate` to this file's schema: see [`Filter`]. Fails when a column is not
    /// a leaf of the schema or a literal does not compare with its column.
    pub fn filter(&self, predicate: Predicate) -> Result<Filter<'_, R>> {
        let bound = bind(&predicate, self.schema())?;
        Ok(Filter::from_parts(
            self,
            predicate,
            bound,
            FilterOptions::default(),
        ))
    }
}

impl<'r, R> Filter<'r, R> {
    /// A filter from a predicate already bound to `reader`'s schema.
    pub(crate) fn from_parts(
        reader: &'r FileReader<R>,
        predicate: Predicate,
        bound: Bound,
        options: FilterOptions,
    ) -> Self {
        Filter {
            reader,
            predicate,
            bound,
            options,
        }
    }

    /// The predicate, its binding and the options, back.
    pub(crate) fn into_parts(self) -> (Predicate, Bound, FilterOptions) {
        (self.predicate, self.bound, self.options)
    }
}

/// Per row group cache of the metadata the leaves need.
#[derive(Default)]
pub(crate) struct Cache {
    blooms: HashMap<usize, Option<Sbbf>>,
    dictionaries: HashMap<usize, Option<ColumnValues>>,
    pages: HashMap<usize, Option<PageIndex>>,
}

/// Whether every data page of a chunk is dictionary-encoded.
fn all_dictionary_encoded(md: &ColumnMetaData) -> bool {
    let dict = |e: &Encoding| matches!(e, Encoding::PlainDictionary | Encoding::RleDictionary);
    match &md.encoding_stats {
        Some(stats) => {
            stats
                .iter()
                .any(|s| s.page_type == PageType::DictionaryPage)
                && stats
                    .iter()
                    .filter(|s| matches!(s.page_type, PageType::DataPage | PageType::DataPageV2))
                    .all(|s| dict(&s.encoding))
        }
        None => {
            md.encodings.iter().any(dict)
                && md
                    .encodings
                    .iter()
                    .all(|e| dict(e) || matches!(e, Encoding::Rle | Encoding::BitPacked))
        }
    }
}

#[derive(Default)]
struct Why {
    bloom: bool,
    dictionary: bool,
}

impl<'r, R: ChunkReader> Filter<'r, R> {
    /// Sets which metadata is used to skip data.
    pub fn with_options(mut self, options: FilterOptions) -> Self {
        self.options = options;
        self
    }

    /// The predicate.
    pub fn predicate(&self) -> &Predicate {
        &self.predicate
    }

    fn facts(&self, rg: usize, column: usize) -> Facts {
        let md = self.reader.metadata();
        let num_values = md
            .column_chunk(rg, column)
            .ok()
            .and_then(|c| c.meta_data.as_ref())
            .map_or(i64::MAX, |m| m.num_values);
        let mut facts = Facts::of_chunk(md.column_statistics(rg, column).as_ref(), num_values);
        facts.bbox = md
            .column_chunk(rg, column)
            .ok()
            .and_then(|c| c.meta_data.as_ref())
            .and_then(|m| m.geospatial_statistics.as_ref())
            .and_then(usable_bbox)
            .cloned();
        facts
    }

    /// Whether row group `rg` may hold a row passing `leaf`, by statistics; a path in a
    /// shredded VARIANT column asks its typed leaf where that holds every value.
    fn leaf_may_match(&self, rg: usize, leaf: &Leaf) -> bool {
        if let Test::VariantPath(v) = &leaf.test {
            let Some(p) = &v.pruning else {
                return true;
            };
            let typed_only = p
                .value
                .is_none_or(|c| self.facts(rg, c).all_null == Some(true));
            return !typed_only
                || self.tree(&p.typed, &mut |l| may_match(l, &self.facts(rg, l.column)));
        }
        may_match(leaf, &self.facts(rg, leaf.column))
    }

    fn tree(&self, b: &Bound, leaf: &mut impl FnMut(&Leaf) -> bool) -> bool {
        match b {
            Bound::Leaf(l) => leaf(l),
            // Column pairs are not pruned; a constant may select rows only when true.
            Bound::Pair(_) => true,
            Bound::Const(c) => *c == TRUE,
            Bound::And(v) => v.iter().all(|p| self.tree(p, leaf)),
            Bound::Or(v) => v.iter().any(|p| self.tree(p, leaf)),
        }
    }

    fn expensive_leaf(&self, rg: usize, leaf: &Leaf, cache: &mut Cache, why: &mut Why) -> bool {
        if self.options.statistics && !self.leaf_may_match(rg, leaf) {
            return false;
        }
        if !matches!(leaf.test, Test::Cmp(CmpOp::Eq, _) | Test::In(_)) || leaf.negated {
            return true;
        }
        let d = &self.reader.schema().columns()[leaf.column];
        if self.options.bloom_filters {
            let bloom = cache.blooms.entry(leaf.column).or_insert_with(|| {
                // A missing or unreadable filter only means no pruning.
                self.reader.bloom_filter(rg, leaf.column).ok().flatten()
            });
            if let Some(f) = bloom {
                if !bloom_may_match(leaf, d, f) {
                    why.bloom = true;
                    return false;
                }
                // A filter that says "maybe" makes the dictionary unlikely to help.
                return true;
            }
        }
        if self.options.dictionaries {
            let encoded = self
                .reader
                .metadata()
                .column_chunk(rg, leaf.column)
                .ok()
                .and_then(|c| c.meta_data.as_ref())
                .is_some_and(all_dictionary_encoded);
            if encoded {
                let dict = cache
                    .dictionaries
                    .entry(leaf.column)
                    .or_insert_with(|| self.reader.dictionary(rg, leaf.column).ok().flatten());
                if let Some(values) = dict {
                    if !dictionary_may_match(leaf, values) {
                        why.dictionary = true;
                        return false;
                    }
                }
            }
        }
        true
    }

    fn page_rows(
        &self,
        rg: usize,
        b: &Bound,
        all: &RowSelection,
        cache: &mut Cache,
    ) -> RowSelection {
        match b {
            Bound::Leaf(l) => {
                let pi = cache.pages.entry(l.column).or_insert_with(|| {
                    // A missing or inconsistent page index only means no page pruning.
                    self.reader.page_index(rg, l.column).ok().flatten()
                });
                match pi {
                    Some(pi) if pi.has_statistics() => RowSelection::from_ranges(
                        pi.pages
                            .iter()
                            .filter(|p| may_match(l, &Facts::of_page(p)))
                            .map(|p| p.rows.clone()),
                    ),
                    _ => all.clone(),
                }
            }
            Bound::Pair(_) => all.clone(),
            Bound::Const(c) if *c == TRUE => all.clone(),
            Bound::Const(_) => RowSelection::none(),
            Bound::And(v) => {
                let mut acc = all.clone();
                for p in v {
                    if acc.is_empty() {
                        break;
                    }
                    acc = acc.intersect(&self.page_rows(rg, p, all, cache));
                }
                acc
            }
            Bound::Or(v) => {
                let mut acc = RowSelection::none();
                for p in v {
                    acc = acc.union(&self.page_rows(rg, p, all, cache));
                    if acc == *all {
                        break;
                    }
                }
                acc
            }
        }
    }

    /// The candidate rows of each row group after pruning by statistics, Bloom filters,
    /// dictionaries and the page index: a superset of the rows the predicate selects.
    pub fn prune(&self) -> Result<Selection> {
        let (candidates, report) = self.prune_inner()?;
        Ok(Selection {
            row_groups: candidates.into_iter().map(|c| (c.rg, c.rows)).collect(),
            report,
        })
    }

    pub(crate) fn prune_inner(&self) -> Result<(Vec<Candidate>, FilterReport)> {
        let md = self.reader.metadata();
        let mut report = FilterReport {
            row_groups: md.num_row_groups(),
            rows_total: md
                .file
                .row_groups
                .iter()
                .map(|r| r.num_rows.max(0) as u64)
                .sum(),
            ..Default::default()
        };
        let mut out = Vec::new();
        for (rg, group) in md.file.row_groups.iter().enumerate() {
            let num_rows = group.num_rows.max(0) as u64;
            if num_rows == 0 {
                continue;
            }
            if self.options.statistics
                && !self.tree(&self.bound, &mut |l| self.leaf_may_match(rg, l))
            {
                report.pruned_by_statistics += 1;
                continue;
            }
            let mut cache = Cache::default();
            if self.options.bloom_filters || self.options.dictionaries {
                let mut why = Why::default();
                if !self.tree(&self.bound, &mut |l| {
                    self.expensive_leaf(rg, l, &mut cache, &mut why)
                }) {
                    if why.bloom {
                        report.pruned_by_bloom_filter += 1;
                    } else {
                        report.pruned_by_dictionary += 1;
                    }
                    continue;
                }
            }
            report.rows_in_row_groups_read += num_rows;
            let all = RowSelection::all(num_rows);
            let rows = if self.options.page_index {
                self.page_rows(rg, &self.bound, &all, &mut cache)
            } else {
                all
            };
            if !rows.is_empty() {
                report.rows_candidate += rows.row_count();
                out.push(Candidate { rg, rows, cache });
            }
        }
        Ok((out, report))
    }

    /// Page locations of a chunk for reading selected rows: from the cache, else the
    /// OffsetIndex (none when the page index is off or unusable: whole chunks are read).
    fn locations<'c>(
        &self,
        rg: usize,
        column: usize,
        cache: &'c mut Cache,
    ) -> Option<&'c PageIndex> {
        if !self.options.page_index {
            return None;
        }
        cache
            .pages
            .entry(column)
            .or_insert_with(|| self.reader.offset_pages(rg, column).ok().flatten())
            .as_ref()
    }

    fn select_inner(&self) -> Result<(Vec<Matched>, FilterReport)> {
        let (candidates, mut report) = self.prune_inner()?;
        let mut out = Vec::with_capacity(candidates.len());
        for c in candidates {
            if let Some(m) = self.match_candidate(c)? {
                report.rows_selected += m.selected.row_count();
                out.push(m);
            }
        }
        Ok((out, report))
    }

    /// Decodes the predicate's columns for a row group's candidate rows (only their pages,
    /// with an OffsetIndex) and tests them row by row: `None` when no row is selected.
    pub(crate) fn match_candidate(&self, candidate: Candidate) -> Result<Option<Matched>> {
        let Candidate {
            rg,
            rows: candidates,
            mut cache,
        } = candidate;
        let columns = self.bound.columns();
        let schema = self.reader.schema();
        let rows = candidates.row_count() as usize;
        let mut batches = HashMap::new();
        for &c in &columns {
            let pages = self.locations(rg, c, &mut cache).cloned();
            let batch = self
                .reader
                .read_rows_in_pages(rg, c, &candidates, pages.as_ref())?;
            batches.insert(c, batch);
        }
        let batch = |c: usize| {
            batches
                .get(&c)
                .ok_or_else(|| Error::invalid_argument("column not read"))
        };
        let truth = combine(
            &self.bound,
            rows,
            &mut |leaf| {
                let d = &schema.columns()[leaf.column];
                if let Test::VariantPath(v) = &leaf.test {
                    let get = |c: usize| Ok((batch(c)?, &schema.columns()[c]));
                    return variant_path::eval(v, leaf.negated, leaf.column, &get, rows)
                        .map_err(|e| e.with_row_group(rg).with_column(d.path.to_string()));
                }
                eval_leaf(
                    leaf,
                    batch(leaf.column)?,
                    d.max_def_level,
                    d.max_rep_level,
                    rows,
                )
                .map_err(|e| e.with_row_group(rg).with_column(d.path.to_string()))
            },
            &mut |pair| {
                let (l, r) = (&schema.columns()[pair.left], &schema.columns()[pair.right]);
                eval_pair(
                    pair,
                    (batch(pair.left)?, l.max_def_level),
                    (batch(pair.right)?, r.max_def_level),
                    rows,
                )
                .map_err(|e| {
                    e.with_row_group(rg)
                        .with_column(format!("{} and {}", l.path, r.path))
                })
            },
        )?;
        if truth.len() < rows {
            return Err(Error::corrupt("predicate evaluated on too few rows").with_row_group(rg));
        }
        // Map positions among the candidates back to row numbers.
        let mut ranges = Vec::new();
        let mut pos = 0usize;
        for r in candidates.ranges() {
            let len = (r.end - r.start) as usize;
            let part = RowSelection::from_mask(r.start, &mask(&truth[pos..pos + len]));
            ranges.extend(part.ranges().iter().cloned());
            pos += len;
        }
        let selected = RowSelection::from_ranges(ranges);
        if selected.is_empty() {
            return Ok(None);
        }
        Ok(Some(Matched {
            rg,
            candidates,
            selected,
            batches,
            cache,
        }))
    }

    /// Column `c` of a matched row group, for its selected rows only: taken from the
    /// predicate's batches when the predicate read it, else read (only the pages needed).
    /// Takes the row group by shared reference, so that its columns can be read on
    /// several threads; page locations the predicate looked up are reused.
    pub(crate) fn read_selected(&self, m: &Matched, c: usize) -> Result<ColumnBatch> {
        let d = self.reader.descriptor(c)?;
        Ok(match m.batches.get(&c) {
            Some(b) => {
                let local = local_ranges(m.candidates.ranges(), &m.selected);
                take_rows(b, d.max_def_level, d.max_rep_level, &local)
            }
            None => {
                // As `locations`, without filling the cache: no page index when it is
                // off or unusable (the whole chunk is read).
                let looked_up;
                let pages = match m.cache.pages.get(&c) {
                    _ if !self.options.page_index => None,
                    Some(pages) => pages.as_ref(),
                    None => {
                        looked_up = self.reader.offset_pages(m.rg, c).ok().flatten();
                        looked_up.as_ref()
                    }
                };
                self.reader
                    .read_rows_in_pages(m.rg, c, &m.selected, pages)?
            }
        })
    }

    /// The rows the predicate selects, by row group: pruning first, then the predicate's
    /// columns are decoded for the candidate rows (only their pages, with an OffsetIndex)
    /// and tested row by row.
    pub fn select(&self) -> Result<Selection> {
        let (matched, report) = self.select_inner()?;
        Ok(Selection {
            row_groups: matched.into_iter().map(|m| (m.rg, m.selected)).collect(),
            report,
        })
    }

    /// The selected rows as [`Value`] groups, keeping the leaf columns whose dotted paths
    /// are one of `columns` or lie below one (every leaf when empty; see
    /// [`Reader::select_columns`](crate::Reader::select_columns)). The rows are assembled as the
    /// filtered [`Reader`](crate::Reader) assembles them.
    pub fn read_rows(&self, columns: &[&str]) -> Result<Vec<Value>> {
        crate::de::filtered_rows_of(self.reader, self.predicate.clone(), self.options, columns)
    }
}

/// A row group left after pruning.
pub(crate) struct Candidate {
    pub rg: usize,
    pub rows: RowSelection,
    cache: Cache,
}

/// A row group with selected rows, and the predicate columns decoded for its candidates.
pub(crate) struct Matched {
    pub rg: usize,
    candidates: RowSelection,
    pub selected: RowSelection,
    batches: HashMap<usize, ColumnBatch>,
    cache: Cache,
}

fn mask(truth: &[u8]) -> Vec<bool> {
    truth.iter().map(|&t| t == TRUE).collect()
}

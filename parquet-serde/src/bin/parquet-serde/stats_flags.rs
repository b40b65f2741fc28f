//! The `rewrite` flags for statistics, page index, Bloom filters and sort keys, applied to
//! the `WriterOptions` the rewritten file is written with.

use clap::{Args, ValueEnum};
use parquet_serde::core::bloom::BloomFilterOptions;
use parquet_serde::core::file::{StatisticsLevel, WriterOptions};

/// Statistics settings of the written file.
#[derive(Debug, Clone, Default, Args)]
pub struct StatsArgs {
    /// Statistics per chunk, or per chunk and page [default: page]
    #[arg(long, value_name = "none|chunk|page", value_parser = parse_statistics)]
    pub statistics: Option<StatisticsLevel>,
    /// ColumnIndex/OffsetIndex after the row groups [default: on]
    #[arg(long, value_name = "on|off")]
    pub page_index: Option<Switch>,
    /// A Bloom filter for COLUMN (repeatable); NDV: expected distinct values per row group
    /// (default: counted), FPP: false positive probability (default 0.01)
    #[arg(long, value_name = "COLUMN[:NDV[:FPP]]", value_parser = parse_bloom_filter)]
    pub bloom_filter: Vec<BloomFilter>,
    /// Longest byte-string min/max [default: 64]
    #[arg(long, value_name = "BYTES|none", value_parser = parse_truncate)]
    pub truncate_stats: Option<Truncate>,
    /// Declared sort key (repeatable, in order)
    #[arg(long, value_name = "COLUMN[:desc][:nulls_first]", value_parser = parse_sorting_column)]
    pub sorting_column: Vec<SortingColumn>,
}

/// `on` or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// Write it.
    On,
    /// Leave it out.
    Off,
}

/// `--bloom-filter COLUMN[:NDV[:FPP]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct BloomFilter {
    /// Dotted column path.
    pub column: String,
    /// Its settings.
    pub options: BloomFilterOptions,
}

/// `--truncate-stats BYTES|none`: the longest min/max kept, `None` for no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Truncate(pub Option<usize>);

/// `--sorting-column COLUMN[:desc][:nulls_first]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortingColumn {
    /// Dotted column path.
    pub column: String,
    /// Descending order.
    pub descending: bool,
    /// Nulls before the values.
    pub nulls_first: bool,
}

impl StatsArgs {
    /// `options` with these settings.
    pub fn apply(&self, mut options: WriterOptions) -> WriterOptions {
        if let Some(level) = self.statistics {
            options = options.statistics(level);
        }
        if let Some(s) = self.page_index {
            options = options.page_index(s == Switch::On);
        }
        if let Some(Truncate(bytes)) = self.truncate_stats {
            options = options.statistics_truncate_length(bytes);
        }
        for b in &self.bloom_filter {
            options = options.bloom_filter(b.column.clone(), b.options);
        }
        for s in &self.sorting_column {
            options = options.sorting_column(s.column.clone(), s.descending, s.nulls_first);
        }
        options
    }
}

fn parse_statistics(s: &str) -> Result<StatisticsLevel, String> {
    s.parse()
        .map_err(|e: parquet_serde::Error| e.message().to_string())
}

fn parse_truncate(s: &str) -> Result<Truncate, String> {
    match s {
        "none" => Ok(Truncate(None)),
        _ => match s.parse::<usize>() {
            Ok(n) if n > 0 => Ok(Truncate(Some(n))),
            _ => Err("expected a positive byte count or none".to_string()),
        },
    }
}

/// `COLUMN[:NDV[:FPP]]`.
fn parse_bloom_filter(spec: &str) -> Result<BloomFilter, String> {
    let mut parts = spec.split(':');
    let column = parts
        .next()
        .filter(|c| !c.is_empty())
        .ok_or("expected COLUMN[:NDV[:FPP]], the column is missing")?;
    let mut options = BloomFilterOptions::default();
    if let Some(ndv) = parts.next().filter(|s| !s.is_empty()) {
        options.ndv = Some(
            ndv.parse()
                .map_err(|_| format!("NDV {ndv:?} is not a count"))?,
        );
    }
    if let Some(fpp) = parts.next() {
        match fpp.parse::<f64>() {
            Ok(f) if f > 0.0 && f < 1.0 => options.fpp = f,
            _ => return Err(format!("FPP {fpp:?} is not in (0, 1)")),
        }
    }
    if parts.next().is_some() {
        return Err("expected COLUMN[:NDV[:FPP]]".to_string());
    }
    Ok(BloomFilter {
        column: column.to_string(),
        options,
    })
}

/// `COLUMN[:desc|:asc][:nulls_first|:nulls_last]`.
fn parse_sorting_column(spec: &str) -> Result<SortingColumn, String> {
    let mut parts = spec.split(':');
    let column = parts
        .next()
        .filter(|c| !c.is_empty())
        .ok_or("the column is missing")?;
    let (mut descending, mut nulls_first) = (false, false);
    for p in parts {
        match p {
            "desc" => descending = true,
            "asc" => descending = false,
            "nulls_first" => nulls_first = true,
            "nulls_last" => nulls_first = false,
            other => {
                return Err(format!(
                    "unknown option {other:?} (desc, asc, nulls_first, nulls_last)"
                ))
            }
        }
    }
    Ok(SortingColumn {
        column: column.to_string(),
        descending,
        nulls_first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Stats {
        #[command(flatten)]
        stats: StatsArgs,
    }

    fn parse(s: &str) -> Result<WriterOptions, clap::Error> {
        let args = std::iter::once("t").chain(s.split_whitespace());
        Stats::try_parse_from(args).map(|a| a.stats.apply(WriterOptions::default()))
    }

    #[test]
    fn parses_every_flag() {
        let o = parse(
            "--statistics chunk --page-index off --bloom-filter id:1000:0.05 --bloom-filter name \
             --truncate-stats 16 --sorting-column ts:desc:nulls_first",
        )
        .unwrap();
        let x = o.column_options("x");
        assert!(x.statistics && !x.page_statistics, "chunk statistics only");
        assert!(!x.page_index);
        assert_eq!(x.statistics_truncate_length, Some(16));
        let id = o.column_options("id").bloom_filter.unwrap();
        assert_eq!((id.ndv, id.fpp), (Some(1000), 0.05));
        assert_eq!(o.column_options("name").bloom_filter.unwrap().ndv, None);
        assert_eq!(o.sorting_columns().len(), 1);
        assert!(o.sorting_columns()[0].descending && o.sorting_columns()[0].nulls_first);
        let o = parse("--truncate-stats none").unwrap();
        assert_eq!(o.column_options("x").statistics_truncate_length, None);
        let o = parse("").unwrap();
        assert_eq!(
            o.column_options("x"),
            WriterOptions::default().column_options("x")
        );
    }

    #[test]
    fn rejects_bad_values_naming_the_flag() {
        for bad in [
            "--statistics all",
            "--page-index yes",
            "--bloom-filter",
            "--bloom-filter :10",
            "--bloom-filter id:ten",
            "--bloom-filter id:10:2",
            "--bloom-filter id:10:0.1:x",
            "--truncate-stats 0",
            "--sorting-column ts:up",
        ] {
            let flag = bad.split_whitespace().next().unwrap();
            match parse(bad) {
                Ok(_) => panic!("{bad} was accepted"),
                Err(e) => assert!(e.to_string().contains(flag), "{bad}: {e}"),
            }
        }
    }
}

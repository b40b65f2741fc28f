//! The `rewrite` flags for statistics, page index, Bloom filters and sort keys, applied to
//! the `WriterOptions` the rewritten file is written with.
//!
//! ```text
//! --statistics none|chunk|page          statistics per chunk, or per chunk and page (default page)
//! --page-index on|off                   ColumnIndex/OffsetIndex after the row groups (default on)
//! --bloom-filter COLUMN[:NDV[:FPP]]     a Bloom filter for COLUMN (repeatable); NDV expected
//!                                       distinct values per row group (default: counted), FPP
//!                                       false positive probability (default 0.01)
//! --truncate-stats BYTES|none           longest byte-string min/max (default 64)
//! --sorting-column COLUMN[:desc][:nulls_first]
//!                                       declared sort key (repeatable, in order)
//! ```

use parquet_serde::core::bloom::BloomFilterOptions;
use parquet_serde::core::file::{StatisticsLevel, WriterOptions};

/// Applies the statistics flags among `args` to `options`; returns the options and the
/// arguments that are not statistics flags, in order.
pub(crate) fn apply(
    mut options: WriterOptions,
    args: &[String],
) -> Result<(WriterOptions, Vec<String>), String> {
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        options = match a.as_str() {
            "--statistics" => {
                let v = value("--statistics")?;
                let level: StatisticsLevel = v
                    .parse()
                    .map_err(|e: parquet_serde::Error| e.message().to_string())?;
                options.statistics(level)
            }
            "--page-index" => match value("--page-index")? {
                "on" => options.page_index(true),
                "off" => options.page_index(false),
                v => return Err(format!("--page-index: expected on or off, got {v}")),
            },
            "--truncate-stats" => match value("--truncate-stats")? {
                "none" => options.statistics_truncate_length(None),
                v => match v.parse::<usize>() {
                    Ok(n) if n > 0 => options.statistics_truncate_length(Some(n)),
                    _ => {
                        return Err(format!(
                            "--truncate-stats: expected a positive byte count or none, got {v}"
                        ))
                    }
                },
            },
            "--bloom-filter" => {
                let (column, bloom) = bloom_filter(value("--bloom-filter")?)?;
                options.bloom_filter(column, bloom)
            }
            "--sorting-column" => {
                let v = value("--sorting-column")?;
                let mut parts = v.split(':');
                let column = parts
                    .next()
                    .filter(|c| !c.is_empty())
                    .ok_or("--sorting-column needs a column")?;
                let (mut desc, mut nulls_first) = (false, false);
                for p in parts {
                    match p {
                        "desc" => desc = true,
                        "asc" => desc = false,
                        "nulls_first" => nulls_first = true,
                        "nulls_last" => nulls_first = false,
                        other => return Err(format!("--sorting-column: unknown option {other:?} (desc, asc, nulls_first, nulls_last)")),
                    }
                }
                options.sorting_column(column, desc, nulls_first)
            }
            _ => {
                rest.push(a.clone());
                options
            }
        };
    }
    Ok((options, rest))
}

/// `COLUMN[:NDV[:FPP]]`.
fn bloom_filter(spec: &str) -> Result<(&str, BloomFilterOptions), String> {
    let mut parts = spec.split(':');
    let column = parts
        .next()
        .filter(|c| !c.is_empty())
        .ok_or("--bloom-filter needs a column")?;
    let mut options = BloomFilterOptions::default();
    if let Some(ndv) = parts.next().filter(|s| !s.is_empty()) {
        options.ndv = Some(
            ndv.parse()
                .map_err(|_| format!("--bloom-filter {spec}: NDV {ndv:?} is not a count"))?,
        );
    }
    if let Some(fpp) = parts.next() {
        match fpp.parse::<f64>() {
            Ok(f) if f > 0.0 && f < 1.0 => options.fpp = f,
            _ => {
                return Err(format!(
                    "--bloom-filter {spec}: FPP {fpp:?} is not in (0, 1)"
                ))
            }
        }
    }
    if parts.next().is_some() {
        return Err(format!(
            "--bloom-filter {spec}: expected COLUMN[:NDV[:FPP]]"
        ));
    }
    Ok((column, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_every_flag() {
        let (o, rest) = apply(
            WriterOptions::default(),
            &args("in.parquet --statistics chunk --page-index off --bloom-filter id:1000:0.05 --bloom-filter name --truncate-stats 16 --sorting-column ts:desc:nulls_first out.parquet --compression zstd"),
        )
        .unwrap();
        assert_eq!(rest, args("in.parquet out.parquet --compression zstd"));
        assert!(o.column_options("x").statistics);
        assert!(!o.column_options("x").page_statistics);
        assert!(!o.column_options("x").page_index);
        assert_eq!(o.column_options("x").statistics_truncate_length, Some(16));
        let id = o.column_options("id").bloom_filter.unwrap();
        assert_eq!((id.ndv, id.fpp), (Some(1000), 0.05));
        assert_eq!(o.column_options("name").bloom_filter.unwrap().ndv, None);
        assert_eq!(o.sorting_columns().len(), 1);
        assert!(o.sorting_columns()[0].descending && o.sorting_columns()[0].nulls_first);
        let (o, _) = apply(WriterOptions::default(), &args("--truncate-stats none")).unwrap();
        assert_eq!(o.column_options("x").statistics_truncate_length, None);
    }

    #[test]
    fn rejects_bad_values() {
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
            assert!(
                apply(WriterOptions::default(), &args(bad)).is_err(),
                "{bad}"
            );
        }
    }
}

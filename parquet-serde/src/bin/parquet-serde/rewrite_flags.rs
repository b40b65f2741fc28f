//! Options of `rewrite` defined outside `rewrite.rs` (statistics, page index, bloom filters,
//! sorting columns, ...): add an entry to [`FLAGS`] and a case to [`apply`]. `rewrite`
//! parses `--name value` / `--name=value` / `--name` by these entries, applies its own
//! options, and hands every other one, in command-line order, to [`apply`] with the writer
//! options built so far (IN's layout is filled in afterwards for what stays unset).

use parquet_serde::WriterOptions;

/// One option of `rewrite` handled by [`apply`].
#[derive(Debug, Clone, Copy)]
pub struct ExtraFlag {
    /// Name without the leading `--`.
    pub name: &'static str,
    /// Whether it takes a value.
    pub takes_value: bool,
    /// One line of help, shown in the usage.
    pub help: &'static str,
}

/// The extra options: statistics, page index, Bloom filters, sort keys (parsed by
/// [`stats_flags`](crate::stats_flags)).
pub const FLAGS: &[ExtraFlag] = &[
    ExtraFlag {
        name: "statistics",
        takes_value: true,
        help: "none|chunk|page: statistics per chunk, or per chunk and page (default page)",
    },
    ExtraFlag {
        name: "page-index",
        takes_value: true,
        help: "on|off: ColumnIndex/OffsetIndex after the row groups (default on)",
    },
    ExtraFlag {
        name: "bloom-filter",
        takes_value: true,
        help: "COLUMN[:NDV[:FPP]]: a Bloom filter for COLUMN (repeatable)",
    },
    ExtraFlag {
        name: "truncate-stats",
        takes_value: true,
        help: "BYTES|none: longest byte-string min/max (default 64)",
    },
    ExtraFlag {
        name: "sorting-column",
        takes_value: true,
        help: "COLUMN[:desc][:nulls_first]: declared sort key (repeatable, in order)",
    },
];

/// Applies the extra option `name` (listed in [`FLAGS`]) with its value to `options`.
pub fn apply(name: &str, value: Option<&str>, options: &mut WriterOptions) -> Result<(), String> {
    let mut args = vec![format!("--{name}")];
    args.extend(value.map(str::to_string));
    let (applied, rest) = crate::stats_flags::apply(std::mem::take(options), &args)?;
    *options = applied;
    match rest.first() {
        None => Ok(()),
        Some(_) => Err(format!("unknown option --{name}")),
    }
}

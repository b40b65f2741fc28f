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

/// The extra options (none yet).
pub const FLAGS: &[ExtraFlag] = &[];

/// Applies the extra option `name` (listed in [`FLAGS`]) with its value to `options`.
pub fn apply(name: &str, value: Option<&str>, options: &mut WriterOptions) -> Result<(), String> {
    let _ = (value, options);
    Err(format!("unknown option --{name}"))
}

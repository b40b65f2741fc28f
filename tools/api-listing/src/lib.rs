//! The listing of a crate's public API, made from its sources with syn (stable toolchain; no
//! rustdoc JSON): every public item at its public path(s) with its full signature, its pub
//! fields, variants, inherent methods and trait impls, one line each, sorted.
//!
//! parquet-serde's listing is checked in as `parquet-serde/api.txt` (and the derive crate's as
//! `parquet-derive/api.txt`); the test `tests/listing.rs` regenerates both and fails on any
//! difference, so every change of the public surface is a reviewed diff.

mod attrs;
mod collect;
pub mod diff;
mod impls;
mod items;
mod load;
mod print;
mod qualify;
mod reach;
mod resolve;
mod signature;
mod traits;

use std::path::Path;

/// What an entry counts as in [`Counts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A struct, enum, union, trait, function, constant, static, type alias or macro at a
    /// public path (another crate's item re-exported included: rustdoc inlines it).
    Name,
    /// A `pub fn` of an inherent impl of a public type, or a method of a public trait.
    Method,
    /// A public module.
    Module,
}

/// One line of the listing.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The path it sorts by (an item's path; a member's path under its item's).
    pub key: Vec<String>,
    /// 0 for the item and its members, 1 for its trait impls.
    pub rank: u8,
    /// The line.
    pub text: String,
    /// What it counts as, if anything.
    pub count: Option<Count>,
}

/// The numbers of public names, methods and modules of a listing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Items at their public paths (see [`Count::Name`]).
    pub names: usize,
    /// Public methods (see [`Count::Method`]).
    pub methods: usize,
    /// Public modules, the crate root not included.
    pub modules: usize,
}

/// The public API of one crate.
pub struct Listing {
    /// The lines, sorted.
    pub entries: Vec<Entry>,
}

/// The header of every listing file.
pub const HEADER: &str = "\
# The public API of the crate, one line per item, sorted by path. Made by tools/api-listing
# (syn over the sources; do not edit). After a change to the public surface, update it with
#     cargo run -p api-listing -- write
# (or API_LISTING=overwrite cargo test -p api-listing) and review the diff.
# What is listed: every public item at its public path (its canonical path when every module on
# the way is public, else each path that re-exports it, as rustdoc does), with pub fields,
# variants, inherent pub methods, trait items and trait impls (derives marked #[derive]);
# `pub use A = B` is a second public path of an item listed at B. Types in signatures are as
# written, except this crate's public types and traits, at their public paths. cfg: every
# feature on, test off, x86_64 Linux. #[doc(hidden)] items are excluded (a hidden public module
# is named on one line). An item a macro_rules! invocation makes is named, without its members.
# Not listed: auto traits (Send, Sync, ...), blanket impls of other crates, impls that macro
# invocations make.
";

/// Makes the listing of the crate whose root file is `root` (`src/lib.rs`), named `krate`
/// (`parquet_serde`).
pub fn listing(root: &Path, krate: &str) -> Result<Listing, String> {
    let loaded = load::load(root)?;
    let resolved = resolve::resolve(loaded);
    let mut entries = collect::collect(&resolved, krate);
    entries.sort_by(|a, b| (&a.key, a.rank, &a.text).cmp(&(&b.key, b.rank, &b.text)));
    entries.dedup_by(|a, b| a.key == b.key && a.text == b.text);
    Ok(Listing { entries })
}

impl Listing {
    /// The listing file's text: [`HEADER`], then one line per entry.
    pub fn render(&self) -> String {
        let mut out = HEADER.to_string();
        out.push('\n');
        for e in &self.entries {
            out.push_str(&e.text);
            out.push('\n');
        }
        out
    }

    /// How many names, methods and modules it lists.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for e in &self.entries {
            match e.count {
                Some(Count::Name) => c.names += 1,
                Some(Count::Method) => c.methods += 1,
                Some(Count::Module) => c.modules += 1,
                None => {}
            }
        }
        c
    }
}

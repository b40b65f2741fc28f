//! `cargo run -p api-listing -- write | check | count [-v] [SRC_DIR] | print [SRC_DIR]`: writes
//! or checks the checked-in listings of parquet-serde's and parquet-derive's public API, or
//! prints the counts (`-v`: and the counted items) or the listing of a parquet-serde source
//! tree, such as an older commit's (`git archive COMMIT parquet-serde/src | tar -x -C DIR`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use api_listing::{diff, listing};

/// The workspace root (this package is `tools/api-listing`).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("write") => each(|file, text| {
            std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))
        }),
        Some("check") => each(|file, text| {
            let old = std::fs::read_to_string(file).unwrap_or_default();
            match diff::unified(&old, text, &file.display().to_string(), "generated") {
                d if d.is_empty() => Ok(()),
                d => Err(format!(
                    "{d}\nthe public API changed: cargo run -p api-listing -- write"
                )),
            }
        }),
        Some("count") => count(
            args.iter().skip(1).find(|a| *a != "-v").map(PathBuf::from),
            args.iter().any(|a| a == "-v"),
        ),
        Some("print") => print(args.get(1).map(PathBuf::from)),
        _ => {
            Err("usage: api-listing write | check | count [-v] [SRC_DIR] | print [SRC_DIR]".into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("api-listing: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The crates listed: (root file, crate name, listing file).
fn crates() -> Vec<(PathBuf, &'static str, PathBuf)> {
    let ws = workspace();
    vec![
        (
            ws.join("parquet-serde/src/lib.rs"),
            "parquet_serde",
            ws.join("parquet-serde/api.txt"),
        ),
        (
            ws.join("parquet-derive/src/lib.rs"),
            "parquet_derive",
            ws.join("parquet-derive/api.txt"),
        ),
    ]
}

fn each(mut f: impl FnMut(&Path, &str) -> Result<(), String>) -> Result<(), String> {
    for (root, name, file) in crates() {
        f(&file, &listing(&root, name)?.render())?;
    }
    Ok(())
}

/// Prints the listing of the tree `src` (parquet-serde/src by default), to compare two trees.
fn print(src: Option<PathBuf>) -> Result<(), String> {
    let src = src.unwrap_or_else(|| workspace().join("parquet-serde/src"));
    print!(
        "{}",
        listing(&src.join("lib.rs"), "parquet_serde")?.render()
    );
    Ok(())
}

/// Prints the counts of the tree `src` (parquet-serde/src by default); with `verbose`, the
/// counted names first, one a line, as `KIND path`.
fn count(src: Option<PathBuf>, verbose: bool) -> Result<(), String> {
    let src = src.unwrap_or_else(|| workspace().join("parquet-serde/src"));
    let listing = listing(&src.join("lib.rs"), "parquet_serde")?;
    if verbose {
        for e in &listing.entries {
            if let Some(kind) = e.count {
                println!("{kind:?} {}", e.key.join("::"));
            }
        }
    }
    let c = listing.counts();
    println!(
        "{}: {} public names, {} public methods, {} public modules",
        src.display(),
        c.names,
        c.methods,
        c.modules
    );
    Ok(())
}

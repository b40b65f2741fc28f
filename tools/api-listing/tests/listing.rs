//! The checked-in listings of the public API (`parquet-serde/api.txt`, `parquet-derive/api.txt`)
//! are what the sources give: any change of the public surface is a reviewed diff.
//! `API_LISTING=overwrite cargo test -p api-listing` rewrites them.

use std::path::Path;

use api_listing::{diff, listing};

#[test]
fn checked_in_listings_match_the_sources() {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let overwrite = std::env::var("API_LISTING").is_ok_and(|v| v == "overwrite");
    let mut failures = String::new();
    for (krate, name) in [
        ("parquet-serde", "parquet_serde"),
        ("parquet-derive", "parquet_derive"),
    ] {
        let file = ws.join(krate).join("api.txt");
        let text = listing(&ws.join(krate).join("src/lib.rs"), name)
            .unwrap_or_else(|e| panic!("listing {krate}: {e}"))
            .render();
        if overwrite {
            std::fs::write(&file, &text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            continue;
        }
        let old = std::fs::read_to_string(&file).unwrap_or_default();
        let d = diff::unified(&old, &text, &format!("{krate}/api.txt"), "the sources");
        if !d.is_empty() {
            failures.push_str(&format!(
                "The public API of {name} differs from {krate}/api.txt:\n{d}\n"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{failures}If the change is intended, update the listing and commit its diff:\n    \
         cargo run -p api-listing -- write\n(or API_LISTING=overwrite cargo test -p api-listing)"
    );
}

/// The cap on the public surface of `parquet_serde`: items at public paths (structs, enums,
/// traits, functions, type aliases, ... as rustdoc's `all.html` lists them with every feature
/// on). A new public item needs room: make one private, or fold it into a method.
const PUBLIC_ITEM_CAP: usize = 150;

#[test]
fn the_public_surface_stays_within_its_cap() {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let counts = listing(&ws.join("parquet-serde/src/lib.rs"), "parquet_serde")
        .unwrap_or_else(|e| panic!("listing parquet-serde: {e}"))
        .counts();
    assert!(
        counts.names <= PUBLIC_ITEM_CAP,
        "parquet_serde has {} public items, over the cap of {PUBLIC_ITEM_CAP}: see api.txt",
        counts.names
    );
    // The listing counts what rustdoc counts: a count far below the last known one would
    // mean the tool stopped seeing items, not that the surface shrank.
    assert!(
        counts.names > 100,
        "only {} public items listed",
        counts.names
    );
}

//! Compile-fail tests of `#[derive(ParquetSchema)]`: bad attributes are errors at the right
//! token. Regenerate the expected output with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    // `#[parquet(assemble)]`: each attribute and shape it cannot mirror is an error at the
    // attribute (or the generics) saying so.
    t.compile_fail("tests/ui/assemble/*.rs");
    // What it mirrors (rename, rename_all, alias, default, skip) compiles and reads as
    // serde's derive does. A passing case is built and run, not only checked: trybuild then
    // builds every dev-dependency in its own target folder (cold, ~4.5 min more and ~2 GB).
    t.pass("tests/ui/assemble/pass/*.rs");
}

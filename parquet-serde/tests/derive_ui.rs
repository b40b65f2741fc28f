//! Compile-fail tests of `#[derive(ParquetSchema)]`: bad attributes are errors at the right
//! token. Regenerate the expected output with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    // `#[parquet(assemble)]`: each attribute and shape it cannot mirror is an error at the
    // attribute (or the generics) saying so.
    t.compile_fail("tests/ui/assemble/*.rs");
}

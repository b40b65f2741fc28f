//! Compile-fail tests of `#[derive(ParquetSchema)]`: bad attributes are errors at the right
//! token. Regenerate the expected output with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

//! The listing of small synthetic crates written to a temporary folder: visibility, re-exports,
//! `cfg`, `#[doc(hidden)]`, methods and impls found where they are.

use api_listing::{listing, Counts};

/// Writes `files` (path under `src/`, text) and lists the crate `k`.
fn list(files: &[(&str, &str)]) -> (Vec<String>, Counts) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join("src").join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
    }
    let l = listing(&dir.path().join("src/lib.rs"), "k").unwrap();
    (
        l.entries.iter().map(|e| e.text.clone()).collect(),
        l.counts(),
    )
}

fn lib(text: &str) -> Vec<String> {
    list(&[("lib.rs", text)]).0
}

fn has(lines: &[String], line: &str) -> bool {
    lines.iter().any(|l| l == line)
}

fn mentions(lines: &[String], s: &str) -> bool {
    lines.iter().any(|l| l.contains(s))
}

#[test]
fn an_item_of_a_private_module_is_listed_at_its_re_export() {
    let l = lib("mod inner { pub struct S; pub fn f() {} }\npub use inner::{f, S};");
    assert!(has(&l, "pub struct k::S"), "{l:#?}");
    assert!(has(&l, "pub fn k::f()"), "{l:#?}");
    assert!(!mentions(&l, "inner"), "{l:#?}");
}

#[test]
fn a_glob_re_export_lists_the_pub_items_only() {
    let l = lib("mod inner { pub struct A; pub(crate) struct B; struct C; }\npub use inner::*;");
    assert!(has(&l, "pub struct k::A"), "{l:#?}");
    assert!(!mentions(&l, "k::B") && !mentions(&l, "k::C"), "{l:#?}");
}

#[test]
fn a_renamed_re_export_is_listed_by_its_new_name() {
    let l = lib("mod inner { pub struct S { pub x: u8 } pub trait Tr {} }\npub use inner::S as Renamed;\npub use inner::Tr as _;");
    assert!(has(&l, "pub struct k::Renamed { .. }"), "{l:#?}");
    assert!(has(&l, "pub k::Renamed::x: u8"), "{l:#?}");
    assert!(!mentions(&l, "k::S") && !mentions(&l, "k::_"), "{l:#?}");
}

#[test]
fn pub_crate_and_private_items_are_not_listed() {
    let l = lib("pub(crate) struct C;\npub mod m { pub(crate) fn g() {} fn p() {} pub fn h() {} }\npub struct F { pub a: u8, pub(crate) b: u8 }");
    assert!(has(&l, "pub fn k::m::h()"), "{l:#?}");
    assert!(
        !mentions(&l, "k::C") && !mentions(&l, "::g(") && !mentions(&l, "::p("),
        "{l:#?}"
    );
    assert!(
        has(&l, "pub struct k::F { /* private fields */ }"),
        "{l:#?}"
    );
    assert!(!mentions(&l, "k::F::b"), "{l:#?}");
}

#[test]
fn doc_hidden_items_are_excluded_and_hidden_modules_named() {
    let l = lib("#[doc(hidden)]\npub mod hid { pub struct H; }\n#[doc(hidden)]\npub struct X;\npub struct Y { #[doc(hidden)] pub f: u8, pub g: u8 }\n#[doc(hidden)]\npub use self::hid::H as Again;");
    assert!(has(&l, "#[doc(hidden)] mod k::hid (excluded)"), "{l:#?}");
    assert!(
        !mentions(&l, "k::hid::H") && !mentions(&l, "k::X") && !mentions(&l, "Again"),
        "{l:#?}"
    );
    assert!(
        !mentions(&l, "k::Y::f") && has(&l, "pub k::Y::g: u8"),
        "{l:#?}"
    );
}

#[test]
fn cfg_test_is_off_and_every_feature_on() {
    let l = lib("#[cfg(test)]\npub fn t() {}\n#[cfg(feature = \"x\")]\npub fn feat() {}\n#[cfg(not(feature = \"x\"))]\npub fn no_feat() {}\n#[cfg(all(feature = \"a\", not(test)))]\npub fn both() {}\n#[cfg_attr(feature = \"x\", doc(hidden))]\npub fn hidden_by_feature() {}\n#[cfg(test)]\nmod tests { impl super::S { pub fn in_test(&self) {} } }\npub struct S;");
    assert!(
        has(&l, "pub fn k::feat()") && has(&l, "pub fn k::both()"),
        "{l:#?}"
    );
    assert!(
        !mentions(&l, "k::t(") && !mentions(&l, "no_feat") && !mentions(&l, "in_test"),
        "{l:#?}"
    );
    assert!(!mentions(&l, "hidden_by_feature"), "{l:#?}");
}

#[test]
fn a_method_is_found_in_an_impl_of_another_module() {
    let l = lib("pub mod a { pub struct T; }\nmod b {\n    use crate::a::T;\n    impl T { pub fn m(&self) -> u8 { 0 } fn private(&self) {} pub(crate) fn internal(&self) {} }\n}\nmod c { impl super::a::T { pub fn n(mut self) {} } }");
    assert!(has(&l, "pub fn k::a::T::m(&self) -> u8"), "{l:#?}");
    assert!(has(&l, "pub fn k::a::T::n(self)"), "{l:#?}");
    assert!(
        !mentions(&l, "private") && !mentions(&l, "internal"),
        "{l:#?}"
    );
}

#[test]
fn derives_and_trait_impls_are_listed_with_normalized_trait_paths() {
    let l = lib("use std::fmt;\n#[derive(Debug, Clone, serde::Serialize)]\npub struct D<T> { pub x: T }\nimpl<T> fmt::Display for D<T> { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) } }\nimpl<T> From<T> for D<T> { fn from(x: T) -> Self { D { x } } }\nstruct Private;\nimpl Clone for Private { fn clone(&self) -> Self { Private } }");
    assert!(
        has(&l, "#[derive] impl<T> std::fmt::Debug for k::D<T>"),
        "{l:#?}"
    );
    assert!(
        has(&l, "#[derive] impl<T> std::clone::Clone for k::D<T>"),
        "{l:#?}"
    );
    assert!(
        has(&l, "#[derive] impl<T> serde::Serialize for k::D<T>"),
        "{l:#?}"
    );
    assert!(has(&l, "impl<T> std::fmt::Display for k::D<T>"), "{l:#?}");
    assert!(
        has(&l, "impl<T> std::convert::From<T> for k::D<T>"),
        "{l:#?}"
    );
    assert!(!mentions(&l, "Private"), "{l:#?}");
}

#[test]
fn a_local_trait_lists_its_items_and_its_impls_on_other_types() {
    let l = lib("pub trait Tr: Sized { const N: usize; type Out; fn req(&self) -> Self::Out; fn prov(&self) {} #[doc(hidden)] fn secret() {} }\nimpl Tr for u8 { const N: usize = 1; type Out = u8; fn req(&self) -> u8 { 0 } }\nstruct P;\nimpl Tr for P { const N: usize = 1; type Out = u8; fn req(&self) -> u8 { 0 } }");
    assert!(has(&l, "pub trait k::Tr: Sized"), "{l:#?}");
    assert!(
        has(&l, "const k::Tr::N: usize") && has(&l, "type k::Tr::Out"),
        "{l:#?}"
    );
    assert!(
        has(&l, "fn k::Tr::req(&self) -> Self::Out") && has(&l, "fn k::Tr::prov(&self) { .. }"),
        "{l:#?}"
    );
    assert!(
        has(&l, "impl k::Tr for u8") && !mentions(&l, "for P"),
        "{l:#?}"
    );
    assert!(!mentions(&l, "secret"), "{l:#?}");
}

#[test]
fn an_item_of_a_public_module_is_listed_once_and_re_exports_name_it() {
    let l = lib("pub mod a { pub struct S; }\npub use a::S;\nmod p { pub struct Q; }\npub mod f { pub use crate::p::Q; }\npub use f::Q;");
    assert!(
        has(&l, "pub struct k::a::S") && has(&l, "pub use k::S = k::a::S"),
        "{l:#?}"
    );
    assert!(!has(&l, "pub struct k::S"), "{l:#?}");
    // Q's first public name is f::Q; the root's re-exports that one.
    assert!(
        has(&l, "pub struct k::f::Q") && has(&l, "pub use k::Q = k::f::Q"),
        "{l:#?}"
    );
    assert!(!has(&l, "pub struct k::Q"), "{l:#?}");
}

#[test]
fn modules_are_followed_to_their_files() {
    let (l, _) = list(&[
        (
            "lib.rs",
            "pub mod x;\npub mod y;\n#[path = \"elsewhere/zz.rs\"]\npub mod z;",
        ),
        ("x.rs", "pub mod inner;\npub fn in_x() {}"),
        ("x/inner.rs", "pub fn in_inner() {}"),
        ("y/mod.rs", "pub mod deep;"),
        ("y/deep.rs", "pub const D: u8 = 1;"),
        ("elsewhere/zz.rs", "pub static Z: u8 = 1;"),
    ]);
    for line in [
        "pub fn k::x::in_x()",
        "pub fn k::x::inner::in_inner()",
        "pub const k::y::deep::D: u8",
        "pub static k::z::Z: u8",
        "mod k::y::deep",
    ] {
        assert!(has(&l, line), "{line} missing: {l:#?}");
    }
}

#[test]
fn signatures_print_in_full_on_one_line() {
    let l = lib("pub fn f<'a, T: Clone,>(x: &'a mut [T], mut y: Vec<Vec<u8>>) -> Option<&'a T>\nwhere\n    T: Send,\n{ None }\n#[non_exhaustive]\n#[derive(Debug)]\npub enum E { A, B(u8, String), #[deprecated(note = \"old\")] C { z: i64 } = 3 }\n#[must_use]\npub type R<T> = std::result::Result<T, E>;");
    assert!(has(&l, "pub fn k::f<'a, T: Clone>(x: &'a mut [T], y: Vec<Vec<u8>>) -> Option<&'a T> where T: Send"), "{l:#?}");
    assert!(has(&l, "#[non_exhaustive] pub enum k::E"), "{l:#?}");
    assert!(
        has(&l, "k::E::B(u8, String)")
            && has(&l, "#[deprecated(note = \"old\")] k::E::C { .. } = 3"),
        "{l:#?}"
    );
    assert!(has(&l, "k::E::C::z: i64"), "{l:#?}");
    assert!(
        has(
            &l,
            "#[must_use] pub type k::R<T> = std::result::Result<T, k::E>"
        ),
        "{l:#?}"
    );
}

#[test]
fn items_a_macro_makes_are_named() {
    let l = lib("macro_rules! make { ($(#[$m:meta])* $name:ident) => { $(#[$m])* pub struct $name; }; }\nmacro_rules! literal { ($($t:tt)*) => { $($t)* }; }\nmake! { /// doc\n Made }\nliteral! { pub enum Plain { A } }");
    assert!(
        has(&l, "pub struct k::Made (made by make!, members not listed)"),
        "{l:#?}"
    );
    assert!(
        has(
            &l,
            "pub enum k::Plain (made by literal!, members not listed)"
        ),
        "{l:#?}"
    );
}

#[test]
fn counts_are_names_methods_and_modules() {
    let (_, c) = list(&[(
        "lib.rs",
        "pub mod m { pub struct S; impl S { pub fn a(&self) {} pub fn b(&self) {} fn c(&self) {} } pub trait T { fn t(&self); } }\npub use m::S;\npub fn f() {}\npub const C: u8 = 0;",
    )]);
    // S, T, f, C (the root's S is a second name, not counted); a, b, t; m.
    assert_eq!(
        c,
        Counts {
            names: 4,
            methods: 3,
            modules: 1
        }
    );
}

#[test]
fn a_pub_use_that_names_nothing_is_reported() {
    let l = lib("mod a {}\npub use a::Missing;");
    assert!(has(&l, "unresolved: `pub use a::Missing` in k"), "{l:#?}");
}

#[test]
fn a_type_in_a_signature_is_named_by_its_public_path_however_it_is_imported() {
    let l = lib("mod inner { pub struct S; pub(crate) struct Hidden; }\npub use inner::S;\npub mod m {\n    use crate::inner::S as Alias;\n    use std::fmt;\n    pub fn f(x: Alias, h: &crate::inner::Hidden, w: &mut dyn fmt::Write) -> Option<super::S> { None }\n}");
    assert!(has(&l, "pub fn k::m::f(x: k::S, h: &crate::inner::Hidden, w: &mut dyn fmt::Write) -> Option<k::S>"), "{l:#?}");
}

#[test]
fn doc_inline_and_no_inline_are_followed() {
    let l = lib("pub mod a { pub struct S; }\n#[doc(inline)]\npub use a::S;\n#[doc(no_inline)]\npub use other_crate::Thing;\npub use other_crate::Inlined;");
    assert!(
        has(&l, "pub struct k::a::S") && has(&l, "pub struct k::S"),
        "{l:#?}"
    );
    let (_, c) = list(&[(
        "lib.rs",
        "#[doc(no_inline)]\npub use other_crate::Thing;\npub use other_crate::Inlined;",
    )]);
    assert_eq!(c.names, 1);
}

#[test]
fn a_generic_parameter_is_not_taken_for_a_type_of_the_same_name() {
    let l = lib("pub struct T;\npub fn f<T: Clone>(x: T) -> T { x }\npub fn g(x: T) -> T { x }");
    assert!(has(&l, "pub fn k::f<T: Clone>(x: T) -> T"), "{l:#?}");
    assert!(has(&l, "pub fn k::g(x: k::T) -> k::T"), "{l:#?}");
}

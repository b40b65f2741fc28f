//! Trait paths normalized: this crate's at their public paths, other crates' by the full path
//! their `use` names, the prelude's by their full `std` path.

use syn::PathArguments;

use crate::collect::Collector;
use crate::print::tokens;
use crate::resolve::Target;
use crate::signature::{join, segments};

/// The standard traits a derive or an unqualified `impl` names through the prelude.
pub(crate) fn prelude(name: &str) -> Option<&'static str> {
    Some(match name {
        "Clone" => "std::clone::Clone",
        "Copy" | "Send" | "Sync" | "Sized" | "Unpin" => {
            return Some(match name {
                "Copy" => "std::marker::Copy",
                "Send" => "std::marker::Send",
                "Sync" => "std::marker::Sync",
                "Sized" => "std::marker::Sized",
                _ => "std::marker::Unpin",
            })
        }
        "Debug" => "std::fmt::Debug",
        "Default" => "std::default::Default",
        "PartialEq" => "std::cmp::PartialEq",
        "Eq" => "std::cmp::Eq",
        "PartialOrd" => "std::cmp::PartialOrd",
        "Ord" => "std::cmp::Ord",
        "Hash" => "std::hash::Hash",
        "From" => "std::convert::From",
        "Into" => "std::convert::Into",
        "TryFrom" => "std::convert::TryFrom",
        "TryInto" => "std::convert::TryInto",
        "AsRef" => "std::convert::AsRef",
        "AsMut" => "std::convert::AsMut",
        "Iterator" => "std::iter::Iterator",
        "IntoIterator" => "std::iter::IntoIterator",
        "ExactSizeIterator" => "std::iter::ExactSizeIterator",
        "DoubleEndedIterator" => "std::iter::DoubleEndedIterator",
        "Extend" => "std::iter::Extend",
        "FromIterator" => "std::iter::FromIterator",
        "Drop" => "std::ops::Drop",
        "Fn" => "std::ops::Fn",
        "FnMut" => "std::ops::FnMut",
        "FnOnce" => "std::ops::FnOnce",
        "ToString" => "std::string::ToString",
        "ToOwned" => "std::borrow::ToOwned",
        _ => return None,
    })
}

impl Collector<'_> {
    /// The public paths of the type or trait `path` names from module `m`, and whether it
    /// names a definition of this crate at all.
    pub(crate) fn local(
        &self,
        m: usize,
        path: &syn::Path,
    ) -> (Option<Vec<Vec<String>>>, Option<Target>) {
        let target = self.r.resolve_path(m, &segments(path));
        match &target {
            Some(Target::Def(d)) => (
                Some(self.public.get(d).cloned().unwrap_or_default()),
                target,
            ),
            _ => (None, target),
        }
    }

    /// A trait path as written, normalized: a trait of this crate by its public path, another
    /// crate's by the full path its `use` names (`core::`/`alloc::` as `std::`), a prelude
    /// trait by its full path. `None` for a trait of this crate that is not public.
    pub(crate) fn trait_name(
        &self,
        m: usize,
        path: &syn::Path,
        qualified: &syn::Path,
    ) -> Option<String> {
        let args = match &qualified.segments.last()?.arguments {
            PathArguments::None => String::new(),
            a => tokens(a),
        };
        let (local, target) = self.local(m, path);
        let base = match (local, target) {
            (Some(paths), _) => join(paths.first()?),
            (None, Some(Target::Ext(p))) => {
                let mut p = p.clone();
                if p.len() == 1 {
                    if let Some(full) = prelude(&p[0]) {
                        return Some(format!("{full}{args}"));
                    }
                }
                if p[0] == "core" || p[0] == "alloc" {
                    p[0] = "std".into();
                }
                join(&p)
            }
            _ => {
                let segs = segments(path);
                match (segs.len(), prelude(&segs[0])) {
                    (1, Some(full)) => full.to_string(),
                    _ => segs.join("::"),
                }
            }
        };
        Some(format!("{base}{args}"))
    }
}

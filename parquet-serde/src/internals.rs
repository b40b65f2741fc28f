//! Not API, no semver promise: internal kernels re-exported for the crate's benches and
//! fuzz targets only (compiled with the non-default `internals` feature).

/// The Variant encoders and the borrowed, checked Variant view.
pub mod variant {
    pub use crate::variant::kernels::*;
}

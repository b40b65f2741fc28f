//! AFL target `page`: see [`targets::page`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::page(data));
}

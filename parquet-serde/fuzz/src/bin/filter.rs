//! AFL target `filter`: see [`targets::filter`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::filter(data));
}

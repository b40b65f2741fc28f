//! AFL target `variant`: see [`targets::variant`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::variant(data));
}

//! AFL target `read_1`: see [`targets::read_1`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::read_1(data));
}

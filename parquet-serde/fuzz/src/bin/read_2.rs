//! AFL target `read_2`: see [`targets::read_2`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::read_2(data));
}

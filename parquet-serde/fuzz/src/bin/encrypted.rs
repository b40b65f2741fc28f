//! AFL target `encrypted`: see [`targets::encrypted`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::encrypted(data));
}

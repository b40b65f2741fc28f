//! AFL target `wkb`: see [`targets::wkb`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::wkb(data));
}

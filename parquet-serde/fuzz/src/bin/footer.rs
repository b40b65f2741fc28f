//! AFL target `footer`: see [`targets::footer`].

#[path = "../../targets.rs"]
mod targets;

fn main() {
    afl::fuzz!(|data: &[u8]| targets::footer(data));
}

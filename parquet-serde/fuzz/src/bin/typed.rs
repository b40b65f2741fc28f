//! AFL target `typed`: see [`targets::typed`]. With `--seeds DIR` it writes the target's seed
//! files ([`targets::typed_seeds`]) into DIR instead of fuzzing.

#[path = "../../targets.rs"]
mod targets;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, dir] = args.as_slice() {
        if flag == "--seeds" {
            for (name, bytes) in targets::typed_seeds() {
                std::fs::write(std::path::Path::new(dir).join(name), bytes).expect("seed written");
            }
            return;
        }
    }
    afl::fuzz!(|data: &[u8]| targets::typed(data));
}

//! Compiles a copy of `graph/src/structure.rs` (and its `fast.rs`) into this crate, with one
//! function added: the chunked parse at any size. The real parse only splits files of 1 MiB
//! and more, and that threshold is private; fuzzing through the public API meant padding
//! every input to 1 MiB (3 executions a second). The copy is the source as it is, so the fast
//! path fuzzed here is the one that ships. Phase 2 of issue 13 may expose a hidden entry point
//! in the graph crate instead and drop this.

use std::path::Path;

fn main() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../graph/src");
    let structure = src.join("structure.rs");
    let fast = src.join("structure/fast.rs");
    println!("cargo:rerun-if-changed={}", structure.display());
    println!("cargo:rerun-if-changed={}", fast.display());
    let text = std::fs::read_to_string(&structure).expect("graph/src/structure.rs");
    let fast = fast.canonicalize().expect("graph/src/structure/fast.rs");
    let mut declared = false;
    let body: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with("//!"))
        .map(|l| {
            if l.trim() == "mod fast;" {
                declared = true;
                format!("#[path = {:?}]\nmod fast;", fast.display().to_string())
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(
        declared,
        "structure.rs no longer declares `mod fast;`: update fuzz/build.rs"
    );
    assert!(
        text.contains("fn parse_with(text: &str, parse: Parser, min_bytes: usize)"),
        "structure.rs no longer has parse_with(text, parse, min_bytes): update fuzz/build.rs"
    );
    let out = format!(
        "/// `graph/src/structure.rs`, compiled here (see build.rs).\n#[allow(dead_code, unused_imports, clippy::all)]\npub mod structure {{\n{}\n\n/// The chunked parse with the fast reader, at any size.\npub fn chunked_at_any_size(text: &str) -> Result<Structure, YamlError> {{\n    parse_with(text, parse_value, 0)\n}}\n}}\n",
        body.join("\n")
    );
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("structure_copy.rs");
    std::fs::write(dest, out).expect("write the copy");
}

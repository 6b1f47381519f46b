//! cargo-fuzz entry of `structure_diff`: its body is `ontoly_fuzz::structure_diff::run`, which
//! `cli/tests/fuzz_regressions.rs` also runs on stable over `fuzz/regressions/structure_diff/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ontoly_fuzz::structure_diff::run(data));

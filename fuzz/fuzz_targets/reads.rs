//! cargo-fuzz entry of `reads`: its body is `ontoly_fuzz::reads::run`, which
//! `cli/tests/fuzz_regressions.rs` also runs on stable over `fuzz/regressions/reads/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ontoly_fuzz::reads::run(data));

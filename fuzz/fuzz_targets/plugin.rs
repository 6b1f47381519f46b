//! cargo-fuzz entry of `plugin`: its body is `ontoly_fuzz::plugin::run`, which
//! `cli/tests/fuzz_regressions.rs` also runs on stable over `fuzz/regressions/plugin/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ontoly_fuzz::plugin::run(data));

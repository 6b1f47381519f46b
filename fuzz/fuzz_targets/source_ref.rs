//! cargo-fuzz entry of `source_ref`: its body is `ontoly_fuzz::source_ref::run`, which
//! `cli/tests/fuzz_regressions.rs` also runs on stable over `fuzz/regressions/source_ref/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ontoly_fuzz::source_ref::run(data));

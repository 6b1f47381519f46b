//! cargo-fuzz entry of `registry`: its body is `ontoly_fuzz::registry::run`, which
//! `cli/tests/fuzz_regressions.rs` also runs on stable over `fuzz/regressions/registry/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ontoly_fuzz::registry::run(data));

//! cargo-fuzz entry of `markers`: its body is `ontoly_fuzz::markers::run`, which
//! `cli/tests/fuzz_regressions.rs` also runs on stable over `fuzz/regressions/markers/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ontoly_fuzz::markers::run(data));

//! cargo-fuzz entry of `mcp_transport`: its body is `ontoly_fuzz::mcp_transport::run`, which
//! `cli/tests/fuzz_regressions.rs` also runs on stable over `fuzz/regressions/mcp_transport/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ontoly_fuzz::mcp_transport::run(data));

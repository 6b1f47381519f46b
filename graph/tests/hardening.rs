//! Issue 13 (hardening), library-level reproducers.
//!
//! (Phase 1 also had `a_graph_bin_written_elsewhere_is_not_served` here: a committed cache file
//! with rewritten texts and recomputed sums is served. That is out of scope, for the reasons in
//! docs/reliability.md, "What ontoly does not promise".)

/// Found by the `source_ref` fuzz target: `redact` takes the scheme from the first `://` of
/// the string, even when it comes after the user-info, and then keeps everything before it.
#[test]
fn redact_hides_user_info_before_a_later_scheme() {
    use ontoly_graph::formats::remote::redact;
    for s in [
        "u:SECRETPW@github.com/acme/x?next=https://example.org",
        "SECRETPW@github.com/acme/x#https://y",
    ] {
        let shown = redact(s);
        assert!(!shown.contains("SECRETPW"), "{s} → {shown}");
    }
}

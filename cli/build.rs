//! Records the git commit the binary is built from, for `ontoly --version`.
//!
//! `ONTOLY_COMMIT` (and `ONTOLY_COMMIT_DATE`) come from `git` when the source is a git checkout
//! and git is installed; otherwise from the same variables in the build environment (for
//! packagers building from a tarball); otherwise `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-env-changed=ONTOLY_COMMIT");
    println!("cargo:rerun-if-env-changed=ONTOLY_COMMIT_DATE");
    // Rebuild when HEAD moves: HEAD itself (a branch switch), the branch's ref, packed refs.
    for path in ["HEAD", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(p) = git(&["rev-parse", "--git-path", &branch]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    let commit = std::env::var("ONTOLY_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_string());
    let date = std::env::var("ONTOLY_COMMIT_DATE")
        .ok()
        .filter(|d| !d.is_empty())
        .or_else(|| git(&["log", "-1", "--format=%cs", "HEAD"]));
    println!("cargo:rustc-env=ONTOLY_COMMIT={commit}");
    println!(
        "cargo:rustc-env=ONTOLY_VERSION_LINE={} ({commit}{})",
        std::env::var("CARGO_PKG_VERSION").unwrap_or_default(),
        date.map(|d| format!(" {d}")).unwrap_or_default()
    );
}

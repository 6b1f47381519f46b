//! Shared by the hardening and resource-budget tests: workspaces built in a temp dir, and the
//! `ontoly` binary run under an address-space cap and a time limit, with its peak RSS.
//!
//! The cap is set in the child with `setrlimit(RLIMIT_AS)` and the child is reaped with
//! `wait4`, whose rusage gives the peak resident set; a child past its time limit is killed.
//! So a regression to unbounded memory or a hang fails the test instead of the machine.

#![allow(dead_code)] // each test file uses a part

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One MiB.
pub const MIB: u64 = 1 << 20;

/// Bounded runs take this lock: on a 2-core machine, several memory-heavy children at once
/// would measure each other.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The checked-in fixtures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/fixtures")
}

/// The demo workspace (pages, structure, registry and bare source repositories).
pub fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/demo")
}

/// Copies a directory tree (files and directories only).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        // A cache left by running ontoly in the source tree is not part of the fixture.
        if entry.file_name() == ".ontoly" {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A temp dir holding a copy of fixture `name` at `<tmp>/<name>` (the workspace name is part
/// of outputs, so it stays the fixture's).
pub fn workspace(name: &str) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path().join(name);
    copy_dir(&fixtures().join(name), &root);
    (t, root)
}

/// A temp dir holding a copy of the demo workspace at `<tmp>/demo`.
pub fn demo_workspace() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path().join("demo");
    copy_dir(&demo(), &root);
    (t, root)
}

/// Writes `text` at `root/rel`, creating directories.
pub fn write(root: &Path, rel: &str, text: impl AsRef<[u8]>) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// `RLIMIT_AS` of the child, in bytes.
    pub address_space: u64,
    /// Wall time before the child is killed.
    pub timeout: Duration,
}

impl Limits {
    /// A cap of `mib` MiB of address space and `secs` seconds.
    pub fn new(mib: u64, secs: u64) -> Limits {
        Limits {
            address_space: mib * MIB,
            timeout: Duration::from_secs(secs),
        }
    }
}

impl Default for Limits {
    /// Generous for the small workspaces of these tests: 1 GiB, 60 s.
    fn default() -> Limits {
        Limits::new(1024, 60)
    }
}

/// What a bounded run did.
#[derive(Debug)]
pub struct Outcome {
    /// The exit code, when the child exited.
    pub code: Option<i32>,
    /// The signal that ended the child, when one did.
    pub signal: Option<i32>,
    /// Whether the child was killed at the time limit.
    pub timed_out: bool,
    /// Standard output (lossy UTF-8).
    pub stdout: String,
    /// Standard error (lossy UTF-8).
    pub stderr: String,
    /// Peak resident set, in KiB (`ru_maxrss`).
    pub peak_rss_kib: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Outcome {
    /// Peak resident set in MiB.
    pub fn peak_mib(&self) -> f64 {
        self.peak_rss_kib as f64 / 1024.0
    }

    /// Whether the child ended on its own with an exit code (no signal, no time-out).
    pub fn finished(&self) -> bool {
        self.code.is_some() && !self.timed_out
    }

    /// A one-line summary for assertion messages.
    pub fn summary(&self) -> String {
        let cut = |s: &str| s.chars().take(400).collect::<String>();
        format!(
            "code {:?} signal {:?} timed_out {} peak {:.0} MiB in {:.2} s; stderr: {}; stdout: {}",
            self.code,
            self.signal,
            self.timed_out,
            self.peak_mib(),
            self.elapsed.as_secs_f64(),
            cut(&self.stderr),
            cut(&self.stdout)
        )
    }
}

/// Runs `ontoly args` in `dir` under `limits`, feeding `stdin` when given.
// The child is reaped by `wait4` below (for its rusage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
pub fn run(dir: &Path, args: &[&str], stdin: Option<&[u8]>, limits: Limits) -> Outcome {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ontoly"));
    cmd.current_dir(dir)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let cap = limits.address_space as libc::rlim_t;
    // SAFETY: setrlimit is async-signal-safe and touches no state shared with the parent.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: cap,
                rlim_max: cap,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("spawn ontoly");
    let feeder = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().expect("stdin");
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let pid = child.id() as libc::pid_t;
    let mut timed_out = false;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is our own child, not yet reaped.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage);
        }
        assert!(r == 0, "wait4 failed: {}", std::io::Error::last_os_error());
        if !timed_out && start.elapsed() > limits.timeout {
            timed_out = true;
            // SAFETY: signalling our own unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let stdout = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    let exited = libc::WIFEXITED(status);
    Outcome {
        code: exited.then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        timed_out,
        stdout,
        stderr,
        peak_rss_kib: usage.ru_maxrss.max(0) as u64,
        elapsed,
    }
}

/// `ontoly --workspace <root> args…` from the workspace's parent, under default limits.
pub fn ontoly(root: &Path, args: &[&str]) -> Outcome {
    ontoly_with(root, args, None, Limits::default())
}

/// Like [`ontoly`] with stdin and limits.
pub fn ontoly_with(root: &Path, args: &[&str], stdin: Option<&[u8]>, limits: Limits) -> Outcome {
    let name = root.file_name().and_then(|n| n.to_str()).expect("name");
    let mut all = vec!["--workspace", name];
    all.extend_from_slice(args);
    run(root.parent().expect("parent"), &all, stdin, limits)
}

/// Runs git in `dir` with fixed identities and dates, so commits have stable SHAs.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "ontoly tests")
        .env("GIT_AUTHOR_EMAIL", "tests@example.invalid")
        .env("GIT_COMMITTER_NAME", "ontoly tests")
        .env("GIT_COMMITTER_EMAIL", "tests@example.invalid")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

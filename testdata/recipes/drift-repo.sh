#!/usr/bin/env bash
# Creates the "drift" source repository used by the drift tests, deterministically: fixed
# names, emails and dates, so every commit id is the same on every machine.
#
#   drift-repo.sh DIR      (DIR must not exist)
#
# History (branch main; tag v1 = c1, annotated tag v2 = c3; branch feature = c2):
#   c1  base: src/ (Python), lib/ (Rust), pkg/, docs/, data/, README.md
#   c2  rename src/old_name.py -> src/new_name.py with one line of save() edited; move
#       helper() from src/util.py to the new src/helpers.py; rename docs/guide.md ->
#       docs/manual.md as is; move the whole directory pkg/ to vendor/pkg/
#   c3  src/app.py: two imports above everything, an edit inside beta(), Store.get moved
#       below Store.put, trailing spaces in Store.put (whitespace only), gamma() deleted;
#       src/dup.py: a new function above first() with the same body; src/trim.py: lines
#       deleted inside steps(); src/gone.py deleted, its legacy_mode() now in the new
#       src/modes.py;
#       lib/core.rs: a `use` line inserted after the first line and a new fn at the end;
#       data/table.txt: CRLF line endings turned into LF
# Prints the three commit ids, one per line.
set -euo pipefail
dir="$1"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME="${TMPDIR:-/tmp}" TZ=UTC LC_ALL=C
export GIT_AUTHOR_NAME="Ontoly Test" GIT_AUTHOR_EMAIL="test@ontoly.invalid"
export GIT_COMMITTER_NAME="Ontoly Test" GIT_COMMITTER_EMAIL="test@ontoly.invalid"
commit() {
  export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"
  git -C "$dir" add -A
  git -C "$dir" commit -q -m "$2"
  git -C "$dir" rev-parse HEAD
}
mkdir -p "$dir"
git -C "$dir" init -q -b main
git -C "$dir" config core.autocrlf false
git -C "$dir" config commit.gpgsign false
git -C "$dir" config tag.gpgsign false
mkdir -p "$dir"/{src,lib,docs,data}

# ---------------------------------------------------------------------------------- c1
cat > "$dir/src/app.py" <<'EOF'
"""The app module: small functions to cite."""

import os


def alpha(x):
    """Alpha doubles."""
    y = x * 2
    return y


def beta(x):
    """Beta triples."""
    y = x * 3
    return y


class Store:
    """A key-value store."""

    def __init__(self):
        self.items = {}

    def get(self, key):
        """Return the value of key."""
        return self.items.get(key)

    def put(self, key, value):
        """Store value under key."""
        self.items[key] = value


def gamma(items):
    """Sum the items."""
    total = 0
    for item in items:
        total += item
    return total


def main():
    return alpha(1) + beta(2) + len(os.sep)
EOF
cat > "$dir/src/util.py" <<'EOF'
"""Utilities."""


def helper(a, b):
    """Combine a and b."""
    if a is None:
        return b
    return a + b


def tidy(text):
    """Strip and lower-case text."""
    return text.strip().lower()
EOF
cat > "$dir/src/dup.py" <<'EOF'
def first(compute):
    value = compute()
    if value:
        return value
    return None
EOF
cat > "$dir/src/old_name.py" <<'EOF'
"""File helpers."""


def load(path):
    """Read a whole file."""
    with open(path) as f:
        return f.read()


def save(path, text):
    """Write a whole file."""
    with open(path, "w") as f:
        f.write(text)


def remove(path):
    """Delete a file."""
    import os
    os.remove(path)
EOF
cat > "$dir/src/trim.py" <<'EOF'
def steps():
    one = 1
    two = 2
    three = 3
    four = 4
    return one + two + three + four


def after():
    return "after"
EOF
cat > "$dir/src/gone.py" <<'EOF'
"""Code that a later commit deletes."""


def obsolete():
    """Nobody needs this any more."""
    return "obsolete"


def legacy_mode(flag):
    """Choose the legacy mode."""
    if flag:
        return "legacy"
    return "modern"
EOF
cat > "$dir/lib/core.rs" <<'EOF'
//! The engine core.

/// An engine.
pub struct Engine {
    pub speed: u32,
}

impl Engine {
    /// Starts the engine.
    pub fn start(&self) -> u32 {
        self.speed * 2
    }
}

/// Runs an engine.
pub fn run() -> u32 {
    let e = Engine { speed: 3 };
    e.start()
}
EOF
cat > "$dir/lib/extra.rs" <<'EOF'
/// Something that never changes.
pub fn constant() -> u32 {
    42
}
EOF
cat > "$dir/docs/guide.md" <<'EOF'
# Guide

Start the engine with `run()`.

It doubles its speed.
EOF
printf 'name,value\r\nalpha,1\r\nbeta,2\r\n' > "$dir/data/table.txt"
mkdir -p "$dir/pkg"
cat > "$dir/pkg/codec.py" <<'EOF'
"""A vendored codec."""


def encode(text):
    """Text to bytes."""
    return text.encode("utf-8")


def decode(data):
    """Bytes to text."""
    return data.decode("utf-8")
EOF
printf '# drift\n\nA small repository whose history exercises drift.\n' > "$dir/README.md"
c1=$(commit "2026-03-01T00:00:00Z" "c1: base")
git -C "$dir" tag v1

# ---------------------------------------------------------------------------------- c2
git -C "$dir" mv src/old_name.py src/new_name.py
sed -i 's/^    with open(path, "w") as f:$/    with open(path, "w", encoding="utf-8") as f:/' "$dir/src/new_name.py"
cat > "$dir/src/util.py" <<'EOF'
"""Utilities."""


def tidy(text):
    """Strip and lower-case text."""
    return text.strip().lower()
EOF
cat > "$dir/src/helpers.py" <<'EOF'
"""Helpers moved out of util."""


def helper(a, b):
    """Combine a and b."""
    if a is None:
        return b
    return a + b
EOF
git -C "$dir" mv docs/guide.md docs/manual.md
mkdir -p "$dir/vendor"
git -C "$dir" mv pkg vendor/pkg
c2=$(commit "2026-03-02T00:00:00Z" "c2: renames and a function moved to another file")
git -C "$dir" branch feature

# ---------------------------------------------------------------------------------- c3
cat > "$dir/src/app.py" <<'EOF'
"""The app module: small functions to cite."""

import json
import os
import sys


def alpha(x):
    """Alpha doubles."""
    y = x * 2
    return y


def beta(x):
    """Beta quadruples."""
    y = x * 4
    return y


class Store:
    """A key-value store."""

    def __init__(self):
        self.items = {}

    def put(self, key, value):
        """Store value under key."""
        self.items[key] = value

    def get(self, key):
        """Return the value of key."""
        return self.items.get(key)


def main():
    return alpha(1) + beta(2) + len(os.sep) + len(sys.argv) + len(json.dumps(0))
EOF
# The whitespace-only edit: trailing spaces (added here so that no editor strips them).
sed -i 's/^        self.items\[key\] = value$/&   /' "$dir/src/app.py"
cat > "$dir/src/dup.py" <<'EOF'
def zeroth(compute):
    """Like first(), but 0 when the value is falsy."""
    value = compute()
    if value:
        return value
    return 0


def first(compute):
    value = compute()
    if value:
        return value
    return None
EOF
cat > "$dir/src/trim.py" <<'EOF'
def steps():
    one = 1
    two = 2
    return one + two


def after():
    return "after"
EOF
git -C "$dir" rm -q src/gone.py
cat > "$dir/src/modes.py" <<'EOF'
"""Modes, collected from several places."""

MODES = ["legacy", "modern", "strict"]


def strict_mode(flag):
    """Choose the strict mode."""
    return "strict" if flag else "modern"


def legacy_mode(flag):
    """Choose the legacy mode."""
    if flag:
        return "legacy"
    return "modern"


def all_modes():
    """Every mode."""
    return list(MODES)
EOF
cat > "$dir/lib/core.rs" <<'EOF'
//! The engine core.
use std::fmt;

/// An engine.
pub struct Engine {
    pub speed: u32,
}

impl Engine {
    /// Starts the engine.
    pub fn start(&self) -> u32 {
        self.speed * 2
    }
}

/// Runs an engine.
pub fn run() -> u32 {
    let e = Engine { speed: 3 };
    e.start()
}

/// Describes an engine.
pub fn describe(e: &Engine) -> String {
    let mut s = String::new();
    let _ = fmt::write(&mut s, format_args!("{}", e.speed));
    s
}
EOF
printf 'name,value\nalpha,1\nbeta,2\n' > "$dir/data/table.txt"
c3=$(commit "2026-03-03T00:00:00Z" "c3: edits, moves, deletions and whitespace")
GIT_COMMITTER_DATE="2026-03-03T00:00:00Z" git -C "$dir" tag -a v2 -m "v2"

echo "$c1"
echo "$c2"
echo "$c3"

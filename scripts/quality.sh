#!/usr/bin/env bash
# Answer quality on every question set: top-1, top-3, unanswerable flagged and false alarms per
# corpus with the shipped Evidence Pack, then every (fit X, test Y) pair for the confidence
# threshold, the confidence model and the retrieval parameters (examples/quality.rs), then the
# same figures end to end through the release binary as a person types the questions
# (testdata/corpora/tools/quality.py: one cold `ontoly evidence "<question>"` per question).
#
#   scripts/quality.sh            # everything (about a minute on 2 cores once built)
#   QUICK=1 scripts/quality.sh    # the shipped figures only
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --release --locked -q -p ontoly -p ontoly-capabilities --example quality --bin ontoly
if [[ -n "${QUICK:-}" ]]; then
    target/release/examples/quality
    exit 0
fi
target/release/examples/quality --fit --fit-confidence
echo
echo "end to end (quality.py, the release binary, questions passed as one argument):"
for c in requests fd black commander jinja hyperfine click just attrs ws marshmallow tenacity loguru ripgrep structlog zoxide arrow xh dust httpx; do
    printf '%-9s ' "$c"
    (cd "testdata/corpora/$c" &&
        QUALITY_MAX_FALSE_ALARMS=1 python3 ../tools/quality.py "$root/target/release/ontoly" ws questions.yaml | tail -1) || true
done

#!/usr/bin/env bash
# Coverage-guided fuzzing: runs each cargo-fuzz target of fuzz/ for a bounded time, one after
# the other (the machine has 2 cores; every run uses one).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 30 s each, every target
#
# Seeds come from the fixtures, the conformance cases and the demo (fuzz/seeds.sh); what a
# run finds new is kept in fuzz/corpus/<target>/ (git-ignored) and reused by the next run.
# A crash, a failed invariant, a hang (> 10 s) or a run over 2 GB stops its target, leaves
# the input in fuzz/artifacts/<target>/ and makes this script exit 1 after the other targets
# ran. Without a nightly toolchain or cargo-fuzz it says so and exits 0 (skipped), so CI can
# call it unconditionally.
#
# Before exploring, every target replays the inputs that once found something, committed under
# fuzz/regressions/<target>/ (the seeds too): exactly the same inputs on every run, so a
# failure there is a regression, reproducible anywhere, and fails the script. The regression
# inputs also run on stable in every `cargo test` (cli/tests/fuzz_regressions.rs calls the same
# target bodies, fuzz/src/<target>.rs), so they are checked without nightly or cargo-fuzz;
# this script is for exploration.
#
# FUZZ_ADVISORY=1: what the timed exploration finds is reported but does not fail the script.
# Exploration is not reproducible (random seeds; and Rust's hash maps are seeded per process,
# so even a fixed libFuzzer seed takes other paths), so in CI it must not block a change that
# did not cause it; every finding's input is printed (base64) so the log alone reproduces it.
#
# FUZZ_BUILD_TIMEOUT=SECONDS: when building the targets takes longer (a cold build: all of
# ontoly's dependencies with sanitizer coverage; a warm one after a change to ontoly takes a
# minute or two), stop, say so and exit 0 (skipped): a CI without a cached fuzz/target stays
# within its time.
set -uo pipefail

seconds=${1:-30}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: skipped: no nightly toolchain (rustup toolchain install nightly)"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: skipped: cargo-fuzz is missing (cargo install cargo-fuzz --locked)"
    exit 0
fi

cd "$root/fuzz" || exit 2
bash seeds.sh || exit 2
if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
echo "fuzz: building the targets (release, debug assertions on)"
if [ -n "${FUZZ_BUILD_TIMEOUT:-}" ]; then
    timeout "$FUZZ_BUILD_TIMEOUT" cargo +nightly fuzz build -O
else
    cargo +nightly fuzz build -O
fi
status=$?
if [ "$status" -eq 124 ]; then
    echo "fuzz: skipped: building the targets took over ${FUZZ_BUILD_TIMEOUT}s (cache fuzz/target to fuzz in CI)"
    exit 0
elif [ "$status" -ne 0 ]; then
    echo "fuzz: the targets do not build" >&2
    exit 2
fi

mkdir -p logs
# report LOG TARGET: what stopped TARGET, and its newest input of fuzz/artifacts/TARGET
# printed, so a log (CI keeps no artifacts) reproduces it.
report() {
    local f
    grep -E 'panicked at|ERROR: libFuzzer|SUMMARY|Test unit written' "$1" | head -n 8
    set -- "$2"
    f=$(ls -t "artifacts/$1"/* 2>/dev/null | head -n1)
    [ -n "$f" ] || return 0
    echo "fuzz: $1: input ($(wc -c < "$f") bytes, base64; reproduce: base64 -d > x && cargo +nightly fuzz run -O $1 x):"
    head -c 4096 "$f" | base64 -w 76
}

regressed=()
for t in "${targets[@]}"; do
    mkdir -p "artifacts/$t" "seeds/$t"
    dirs=("seeds/$t")
    [ -d "regressions/$t" ] && dirs+=("regressions/$t")
    log="logs/$t.replay.log"
    cargo +nightly fuzz run -O "$t" "${dirs[@]}" -- -runs=0 -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="artifacts/$t/" >"$log" 2>&1
    status=$?
    n=$(find "${dirs[@]}" -type f | wc -l)
    echo "fuzz: $t: replayed $n inputs, exit $status"
    if [ "$status" -ne 0 ]; then
        regressed+=("$t")
        report "$log" "$t"
    fi
done
if [ ${#regressed[@]} -gt 0 ]; then
    echo "fuzz: regressions in ${regressed[*]} (logs under fuzz/logs/*.replay.log)"
    exit 1
fi
[ "$seconds" -gt 0 ] || exit 0

failed=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="logs/$t.log"
    echo "fuzz: $t for ${seconds}s"
    # -timeout: an input that takes 10 s is a finding (a hang), not a slow case.
    # -rss_limit_mb: far above any input here (at most 64 KiB), far below the machine.
    cargo +nightly fuzz run -O "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -dict=dict/ontoly.dict -print_final_stats=1 \
        -artifact_prefix="artifacts/$t/" >"$log" 2>&1
    status=$?
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -n1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
    corpus=$(find "corpus/$t" -type f | wc -l)
    peak=$(grep -E '^stat::peak_rss_mb' "$log" | awk '{print $2}' | tail -n1)
    echo "fuzz: $t: exit $status, ${runs:-?} runs, cov ${cov:-?}, ft ${ft:-?}, corpus $corpus, peak ${peak:-?} MB"
    if [ "$status" -ne 0 ]; then
        failed+=("$t")
        report "$log" "$t"
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in ${failed[*]} (inputs under fuzz/artifacts/, logs under fuzz/logs/)"
    if [ -n "${FUZZ_ADVISORY:-}" ]; then
        echo "fuzz: advisory run: reported, not failing (make each finding a unit test and add its input to fuzz/regressions/)"
        exit 0
    fi
    exit 1
fi
echo "fuzz: ${#targets[@]} targets ran ${seconds}s each, no findings"

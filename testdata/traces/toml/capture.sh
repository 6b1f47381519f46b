#!/bin/sh
# Builds the failing program app/ (toml =0.8.19, toml_edit =0.22.22, serde, anyhow) and captures
# the stderr of each case, as printed, into OUT_DIR/<trace>.txt (default
# /tmp/traces-work/toml/out). Traces ending in _bt run with RUST_BACKTRACE=1, the others with
# RUST_BACKTRACE unset; APP_PORT is unset for every run (the env_var case reads it). The build
# goes to a throwaway target directory, so nothing is written here.
#
# Then: python3 build.py OUT_DIR > traces.yaml writes the set in the corpus shape (see build.py).
# A recapture differs from the committed set only in the thread ids of the panic headers, the
# column numbers of src/main.rs when the source is reformatted, and the rustc commit in the
# backtraces' /rustc/<hash>/ paths (the set was printed by rustc 1.95).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/traces-work/toml/out}
target=$(mktemp -d)
trap 'rm -rf "$target"' EXIT
(cd "$here/app" && CARGO_TARGET_DIR=$target cargo build -q --locked)
rm -rf "$out" && mkdir -p "$out"
run() { # run BIN CASE BACKTRACE TRACE
    (cd "$here/app" &&
        env -u APP_PORT -u RUST_BACKTRACE ${3:+RUST_BACKTRACE=$3} "$target/debug/$1" "$2" \
            2> "$out/$4.txt") || true
}
for c in wrong_type int_too_big unknown_field unknown_variant enum_two_keys enum_int duplicate_key \
         dotted_extend missing_equals unclosed_header main_q_edit bare_string invalid_escape \
         invalid_escape_q unicode_escape inline_newline leading_zero datetime_fromstr \
         ser_none_in_array utf8_config env_var parse_int vec_index; do run app "$c" "" "$c"; done
for c in missing_field bad_date ser_key_not_string value_index_missing; do run app "$c" 1 "${c}_bt"; done
run cli display_dup_table "" display_dup_table
run cli anyhow_chain 1 anyhow_chain_bt
run cli io_missing_file "" io_missing_file
echo "$(ls "$out" | wc -l) traces in $out"

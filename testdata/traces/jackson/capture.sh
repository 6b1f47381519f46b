#!/bin/sh
# Builds the failing program app/ (openjdk 17; Debian 12's jars of jackson-databind 2.14.0,
# jackson-core 2.14.1 and jackson-annotations 2.14.0: `apt-get install openjdk-17-jdk-headless
# libjackson2-databind-java`) and captures the printStackTrace() of each of its 30 cases, as
# printed, into OUT_DIR/<trace>.txt (default /tmp/traces-work/jackson/out). The classes go to a
# throwaway directory, so nothing is written here.
#
# Then: python3 build.py OUT_DIR > ../../corpora/jackson/traces.yaml writes the set in the corpus
# shape (see build.py). A recapture differs from the committed set only where the JDK prints
# differently: 21-infinite-recursion (a StackOverflowError) shows the innermost 1024 frames of a
# recursion whose depth differs between runs, so its frames start at another point of the cycle.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/traces-work/jackson/out}
cp=/usr/share/java/jackson-databind.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-annotations.jar
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -g -d "$classes" -cp "$cp" "$here"/app/src/com/acme/orders/*.java
rm -rf "$out" && mkdir -p "$out"
cases=$(python3 -c 'import sys, yaml; print(" ".join(i["trace"] for i in yaml.safe_load(open(sys.argv[1])) if not i.get("paste")))' "$here/labels.yaml")
# shellcheck disable=SC2086 # one argument per case
(cd "$out" && java -cp "$classes:$cp" com.acme.orders.TraceRunner "$out" $cases)
echo "$(ls "$out" | wc -l) traces in $out"

#!/bin/bash
# usage: capture.sh <name> <interp> ; runs every script in <name>/scripts, saves stderr to <name>/raw/<script>.err
n=$1; interp=$2
mkdir -p /tmp/traces-work/$n/raw
cd /tmp/traces-work/$n/scripts
for f in $(ls *.py *.js 2>/dev/null); do
  [ "$f" = "package.json" ] && continue
  timeout 60 $interp /tmp/traces-work/$n/scripts/$f > /tmp/traces-work/$n/raw/$f.out 2> /tmp/traces-work/$n/raw/$f.err
  echo "$f rc=$?"
done

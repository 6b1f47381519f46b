#!/bin/bash
# usage: capture_node.sh <name>; runs each "id|script|args|extra" line of <name>/scripts/cases.txt
# from inside the scripts dir; stderr goes to <name>/raw/<id>.err.
# extra = "head": stdout is piped into `head -1`; extra = "flags=<node flags>": passed to node.
n=$1
rm -rf /tmp/traces-work/$n/raw; mkdir -p /tmp/traces-work/$n/raw
cd /tmp/traces-work/$n/scripts
while IFS='|' read -r id f args extra; do
  [ -z "$id" ] && continue
  flags=""
  case "$extra" in flags=*) flags="${extra#flags=}";; esac
  if [ "$extra" = "head" ]; then
    timeout 30 node $flags /tmp/traces-work/$n/scripts/$f $args 2> /tmp/traces-work/$n/raw/$id.err < /dev/null | head -1 > /tmp/traces-work/$n/raw/$id.out
  else
    timeout 30 node $flags /tmp/traces-work/$n/scripts/$f $args > /tmp/traces-work/$n/raw/$id.out 2> /tmp/traces-work/$n/raw/$id.err < /dev/null
  fi
  echo "$id rc=$?"
done < cases.txt

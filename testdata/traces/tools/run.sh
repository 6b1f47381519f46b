#!/bin/bash
# run.sh <corpus> : run every script in <corpus>/scripts with venv-<corpus>, raw stderr -> <corpus>/raw/<script>.txt
# If scripts/<script>.args exists, its words are passed as command-line arguments.
c=$1; base=/tmp/traces-work
mkdir -p $base/$c/raw
for s in $base/$c/scripts/*.py; do
  n=$(basename $s .py)
  args=""; [ -f $base/$c/scripts/$n.args ] && args=$(cat $base/$c/scripts/$n.args)
  (cd $base/$c/scripts && timeout 60 $base/venv-$c/bin/python $s $args > /dev/null 2> $base/$c/raw/$n.txt < /dev/null)
  echo "$n rc=$?"
done

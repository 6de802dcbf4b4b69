#!/bin/bash
# aim.sh E: tests/sketch_spread.rs built with key-bits-env.diff (its binary copied to /tmp/ss-exp),
# n = 30 and 28, seeds 1..4, NQ_EXTRA = 0 and E in turn (the order swapped from seed to seed).
out=/tmp/aim-$1.csv; echo "n,extra,seed,sampled,sketched_s,seconds,relative_error,glue_share,largest_s" > $out
for n in 30 28; do for seed in 1 2 3 4; do
  if [ $((seed % 2)) = 1 ]; then order="0 $1"; else order="$1 0"; fi
  for e in $order; do
    NQ_EXTRA=$e NQUEENS_FIT_N=$n NQUEENS_SEEDS=$seed NQUEENS_BUDGET=20 NQUEENS_FIT_OUT=/tmp/exp1.csv /tmp/ss-exp --ignored --exact sketch_seeds >/dev/null 2>&1
    tail -1 /tmp/exp1.csv | sed "s/^/$n,$e,/" >> $out
  done; done; done
echo done >> /tmp/exp.done

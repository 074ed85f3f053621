#!/usr/bin/env bash
# Collects the corpus datasets (issue "A model that earns its place") on this
# machine into its data directory (`tss machine` names it; DATA overrides):
# every kernel of corpus/, serial (MODE=parallel: 2 OpenMP threads, one per
# core, into corpus-parallel-*.csv), sizes drawn log-uniformly from 16..2048
# (each file's `tss-range:` line narrows its own parameters), a quarter of
# the instances skinny, each executing 1e7..3e8 statement instances (a
# kernel whose ranges stay below 1e7 keeps its largest of 1000 draws).
# Each instance times the untiled code, the anchors (Pluto's 32, cubic
# 16..256, the cache rule's tile, each plain and register-tiled) and a
# sample of its per-dimension config space:
#   corpus-MODE-train.csv  seed 11, TRAIN_K (24) sampled configs per instance
#   corpus-MODE-test.csv   seed 12, TEST_K (200) sampled configs, repeated baseline
# Resumable: rerun after an interruption and it continues where it stopped
# (rows already in a file are skipped; instance k is a function of seed and k).
# STEPS=N runs only the first N steps (a session's share of the campaign);
# ONLY=train (or ONLY=test_set) skips the other kind of step, e.g. to give
# newly added kernels training rows first.
#
# Run it on a quiet machine: nothing else building or running. It copies the
# tss binary aside, so that rebuilding meanwhile cannot swap the executable
# under a running collection (but builds still disturb the timings).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${TSS_BIN:-target/release/tss}
[ -x "$BIN" ] || cargo build --release
mkdir -p /tmp/tss-collect && cp "$BIN" /tmp/tss-collect/tss-corpus
TSS=/tmp/tss-collect/tss-corpus
D=${DATA:-$("$TSS" machine | sed -n 's|^data directory: \(.*\)/$|\1|p')}
echo "collecting into $D on: $("$TSS" machine | head -1)"
# corpus/random last: a kernel's sampled configs are seeded by its position
# in this list, so new families go at the end.
# corpus/fresh and corpus/fresh2 are left out on purpose: no model trains on them (README,
# "Kernels no model saw"); its test rows are collected by the command there.
K=corpus/blas,corpus/tensor,corpus/nn,corpus/datamining,corpus/solvers,corpus/stencils,corpus/random,corpus/recur,corpus/variants
COMMON=(--kernels "$K" --range 16..2048 --skinny 0.25 --max-work "${MAX_WORK:-3e8}" --min-work "${MIN_WORK:-1e7}")
TRAIN_K=${TRAIN_K:-24}
TEST_K=${TEST_K:-200}
MODE=${MODE:-serial}
case $MODE in
  serial) ;;
  parallel) COMMON+=(--parallel) ;;
  *) echo "MODE must be serial or parallel, not '$MODE'" >&2; exit 2 ;;
esac

train() { "$TSS" collect "${COMMON[@]}" --seed 11 --instances "$1" --space "$TRAIN_K" --out "$D/corpus-$MODE-train.csv"; }
test_set() {
  "$TSS" collect "${COMMON[@]}" --seed 12 --instances "$1" --space "$TEST_K" --baseline --out "$D/corpus-$MODE-test.csv"
}

# Small first passes give every kernel some training and test data early;
# later passes extend the same seeds.
steps=("train 2" "test_set 1" "train 6" "test_set 2" "train 12" "test_set 4" "train 24" "test_set 6" "train 40")
n=${STEPS:-${#steps[@]}}
for ((s = 0; s < n && s < ${#steps[@]}; s++)); do
  [[ -z ${ONLY:-} || ${steps[$s]} == "$ONLY "* ]] || continue
  echo "step $((s + 1))/${#steps[@]}: ${steps[$s]}"
  ${steps[$s]}
done

#!/usr/bin/env bash
# Collects the shipped datasets on this machine into data/<machine>/ (the
# directory `tss machine` names; DATA overrides it): the six paper
# kernels, serial then parallel, training and test sets (different seeds;
# test sets with repeated untiled baselines). Every step is resumable: rerun
# this script after an interruption and it continues where it stopped.
#
# Run it on a quiet machine: nothing else building or running. It copies the
# tss binary aside so that rebuilding the repository meanwhile cannot swap the
# executable under a running collection (but do not build while it runs:
# builds disturb the timings).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${TSS_BIN:-target/release/tss}
[ -x "$BIN" ] || cargo build --release
mkdir -p /tmp/tss-collect && cp "$BIN" /tmp/tss-collect/tss
TSS=/tmp/tss-collect/tss
D=${DATA:-$("$TSS" machine | sed -n 's|^data directory: \(.*\)/$|\1|p')}
echo "collecting into $D on: $("$TSS" machine | head -1)"
K=polybench/paper/matmul.c,polybench/paper/gemm.c,polybench/paper/dsyrk.c,polybench/paper/dsyr2k.c,polybench/paper/tmm.c,polybench/paper/trmm.c

# Register-tile configs per instance (rows a later feature set will use).
R=${REGISTERS:-8}
serial_train() { "$TSS" collect --kernels $K --seed 1 --instances "$1" --registers $R --out "$D/serial-train.csv"; }
serial_test() { "$TSS" collect --kernels $K --seed 2 --instances "$1" --registers $R --baseline --out "$D/serial-test.csv"; }
parallel_train() { "$TSS" collect --kernels $K --seed 3 --instances "$1" --registers $R --parallel --out "$D/parallel-train.csv"; }
parallel_test() {
  "$TSS" collect --kernels $K --seed 4 --instances "$1" --registers $R --parallel --baseline --out "$D/parallel-test.csv"
}

# Small first passes give every kernel, mode and set some data early; later
# passes extend the same seeds (instance k is a function of seed and k).
serial_train 8
serial_test 3
parallel_train 8
parallel_test 4
serial_train 30
serial_test 15
parallel_train 30
parallel_test 10
serial_train 60

#!/usr/bin/env bash
# Collects the shipped datasets in data/ on this machine: the six paper
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
K=polybench/paper/matmul.c,polybench/paper/gemm.c,polybench/paper/dsyrk.c,polybench/paper/dsyr2k.c,polybench/paper/tmm.c,polybench/paper/trmm.c

# Small first passes give every kernel and both sets some data early; the
# later passes extend the same seeds to the full counts.
"$TSS" collect --kernels $K --seed 1 --instances "${SERIAL_TRAIN_1:-12}" --out data/serial-train.csv
"$TSS" collect --kernels $K --seed 2 --instances "${SERIAL_TEST_1:-4}" --baseline --out data/serial-test.csv
"$TSS" collect --kernels $K --seed 1 --instances "${SERIAL_TRAIN:-60}" --out data/serial-train.csv
"$TSS" collect --kernels $K --seed 2 --instances "${SERIAL_TEST:-15}" --baseline --out data/serial-test.csv
"$TSS" collect --kernels $K --seed 3 --instances "${PARALLEL_TRAIN:-30}" --parallel --out data/parallel-train.csv
"$TSS" collect --kernels $K --seed 4 --instances "${PARALLEL_TEST:-10}" --parallel --baseline --out data/parallel-test.csv

#!/usr/bin/env bash
# Long differential-testing run of `tss tile` (issue "Never wrong, never stuck"):
#   scripts/fuzz.sh N [LOG]
# checks N random programs and N mutants of polybench/, in chunks of 500 seeds
# each, appending one summary line per chunk to LOG (default
# scripts/fuzz-log.tsv, committed so that the run spans sessions). Rerunning resumes: chunks already in the log are
# skipped. Prints the totals per outcome over the whole log and the slowest
# `tss tile` call. Failing cases are kept under target/fuzz/ (see their
# `files in` line). Run it on a quiet machine: `tss tile` times are reported.
# TSS=/path/to/tss checks that binary instead of building this checkout (so
# that rebuilding during a long run does not change what is tested); REV
# names its commit in the log (default: this checkout's HEAD). A chunk counts
# for the code it ran on: after a fix to tiling or codegen, start a new log.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: scripts/fuzz.sh N [LOG]}
log=${2:-scripts/fuzz-log.tsv}
chunk=500
mkdir -p "$(dirname "$log")"
rev=${REV:-$(git rev-parse --short HEAD)}
if [[ -z ${TSS:-} ]]; then
  cargo build --release --quiet
  TSS=./target/release/tss
fi
touch "$log"
for ((first = 0; first < n; first += chunk)); do
  count=$(( n - first < chunk ? n - first : chunk ))
  if grep -q "^$first	$count	" "$log"; then
    continue
  fi
  out=$("$TSS" fuzz --programs "$count" --mutants "$count" --seed "$first" --quiet || true)
  line=$(printf '%s\n' "$out" | awk -v f="$first" -v c="$count" '
    /^  [a-zA-Z]/ && !/ s  / && $NF ~ /^[0-9]+$/ { name = $1; for (i = 2; i < NF; i++) name = name "_" $i; counts = counts name "=" $NF " " }
    /^  [0-9.]+ s  / && !slow { slow = $1 }
    END { printf "%s\t%s\t%s\t%s", f, c, slow, counts }')
  line="$line	$rev"
  printf '%s\n' "$line" >> "$log"
  printf '%s\n' "$out" | grep -E "^(program|mutant) .*: (WRONG|PANIC|CRASH|HANG|BAD ERROR)" || true
  echo "seeds $first..$((first + count - 1)): $(printf '%s' "$line" | cut -f3-)"
done
awk -F'\t' '{ cases += 2 * $2; if ($3 > worst) worst = $3
  n = split($4, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], p, "="); tot[p[1]] += p[2] }
  revs[$5] = 1 }
  END { r = ""; for (k in revs) r = r " " k
        printf "%d cases (programs and mutants), tss at%s\n", cases, r
        for (k in tot) printf "  %-14s %d\n", k, tot[k]
        printf "slowest tss tile call: %s s\n", worst }' "$log"

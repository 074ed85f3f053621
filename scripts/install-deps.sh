#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test tss:
# autoconf, automake and libtool (isl-rs builds ISL from source), a C
# compiler with OpenMP (gcc brings libgomp), make and cmake (the build
# examples), util-linux's taskset, a TrueType font for PNG plots and llvm-19
# (llvm-mca, for `tss predict --compiled`).
set -euo pipefail
need=()
for pkg in autoconf automake libtool gcc libc6-dev make cmake util-linux fonts-dejavu-core llvm-19; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

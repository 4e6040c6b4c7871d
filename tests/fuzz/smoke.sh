#!/usr/bin/env bash
# tests/fuzz/smoke.sh: generate COUNT random kernels and run `kcheck facts`
# on each; fail when kcheck dies of a signal (crash, abort, sanitizer) or
# exits with anything but 0 (facts written) or 2 (input error reported).
# Usage: smoke.sh KCHECK GEN_KERNELS COUNT [SEED]
set -u
kcheck=$1 gen=$2 count=$3 seed=${4:-12345}
dir=$(mktemp -d "${TMPDIR:-/tmp}/ka-smoke-XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$gen" "$dir" "$count" "$seed" || { echo "FAIL: gen_kernels"; exit 1; }
fail=0
for f in "$dir"/gen_*; do
  "$kcheck" facts "$f" --format sqlite -o "$dir/out.db" >"$dir/log" 2>&1
  rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
    echo "FAIL $(basename "$f"): kcheck facts exited $rc"
    head -n 5 "$dir/log"
    cp "$f" "${TMPDIR:-/tmp}/ka-smoke-failed-$(basename "$f")"
    fail=$((fail + 1))
  fi
done
echo "$count generated kernels, $fail failed"
[ $fail -eq 0 ]

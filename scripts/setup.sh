#!/usr/bin/env bash
# KernelArc: install the Debian packages the build, the tests and the fuzzers
# need. Safe to re-run: apt-get skips what is already installed.
# The CUDA toolkit is not in Debian's main archive; when /usr/local/cuda is
# missing we say so and the nvcc-dependent parts skip themselves.
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config
  libclang-19-dev clang-19 llvm-19-dev libclang-rt-19-dev
  libpcre2-dev libsqlite3-dev libcurl4-openssl-dev
  libjansson-dev libyaml-dev libcmocka-dev
  python3 python3-jsonschema curl patch diffutils jq clang-format-19
  hipcc libamdhip64-dev
  slurm-wlm munge
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: all Debian packages present"
fi

if [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: CUDA toolkit found: $(/usr/local/cuda/bin/nvcc --version | tail -n 2 | head -n 1)"
else
  echo "setup: NOTE: no CUDA toolkit at /usr/local/cuda: kcheck uses its shim headers," \
       "and the compile gate, --ptxas and GPU bench tests are skipped"
fi

# The SARIF 2.1.0 schema the SARIF test validates against (from the npm
# registry, checked by its SHA-256); without it that test skips loudly.
if schema=$(bash "$(dirname "$0")/fetch_sarif_schema.sh"); then
  echo "setup: SARIF schema at $schema"
else
  echo "setup: NOTE: no SARIF schema: tests/cli/sarif_schema_test.sh will skip"
fi

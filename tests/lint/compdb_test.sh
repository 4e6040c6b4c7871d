#!/usr/bin/env bash
# tests/lint/compdb_test.sh: compile databases as build systems write them.
#  - a real CMake CUDA project, configured here with nvcc: CMake 3.25+ puts
#    the -I flags in an nvcc options file (--options-file ...rsp), and the
#    kernel, which needs a macro from that include folder and a -D, must be
#    analyzed with no clang error;
#  - written forms: @response files, -optf=, a relative "directory" (Bazel's
#    extractors), Meson's relative -I;
#  - a flag that could carry -I/-D and cannot be used: one warning per run;
#  - a header with no entry takes the flags of a source beside it.
# usage: compdb_test.sh KCHECK
set -u
K=$(realpath "${1:?usage: compdb_test.sh KCHECK}")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
k() { timeout 300 "$K" --no-config --no-db "$@"; }

mkdir -p "$T/p/src" "$T/p/inc"
printf '#define N_PER_THREAD 4\n' > "$T/p/inc/cfg.h"
cat > "$T/p/src/k.cu" <<'CU'
#include "cfg.h"
__global__ void k(float *p, float x) {
  int i = threadIdx.x;
  p[i] = powf(x, 2.0f) * SCALE_BY * N_PER_THREAD;
}
CU

# 1. A real CMake-generated database.
NVCC=${CUDACXX:-/usr/local/cuda/bin/nvcc}
if ! command -v cmake > /dev/null || [ ! -x "$NVCC" ]; then
	echo "SKIP: the CMake-generated database (no cmake or no nvcc at $NVCC; set CUDACXX)"
else
	cat > "$T/p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(demo LANGUAGES CUDA)
add_library(demo src/k.cu)
target_include_directories(demo PRIVATE inc)
target_compile_definitions(demo PRIVATE SCALE_BY=3)
set_target_properties(demo PROPERTIES CUDA_ARCHITECTURES 90)
CM
	if ! cmake -S "$T/p" -B "$T/p/build" -DCMAKE_CUDA_COMPILER="$NVCC" \
		-DCMAKE_EXPORT_COMPILE_COMMANDS=ON > "$T/cmake.log" 2>&1; then
		fail "cmake could not configure the CUDA project: $(tail -3 "$T/cmake.log")"
	else
		grep -q 'options-file\|@' "$T/p/build/compile_commands.json" \
			&& echo "note: this CMake writes an options file" || echo "note: this CMake writes -I inline"
		(cd "$T/p" && k -p build --format json --exit-zero src/k.cu > "$T/cm.json" 2> "$T/cm.err")
		grep -q '"kernel": "k"' "$T/cm.json" && ! grep -q 'error' "$T/cm.err" && ! grep -q 'not found' "$T/cm.json" \
			&& ok "CMake's database: kernel analyzed, include folder and macro found" \
			|| fail "CMake's database: $(head -3 "$T/cm.err") $(grep -o '"message": "[^"]*' "$T/cm.json" | head -3)"
	fi
fi

# 2. Written forms, each with the same include folder and macro.
db() { # db DIR ENTRY-JSON: write DIR/compile_commands.json
	mkdir -p "$1" && printf '[%s]\n' "$2" > "$1/compile_commands.json"
}
check() { # check NAME DBDIR [extra args]
	local name=$1 dir=$2
	shift 2
	(cd "$T/p" && k -p "$dir" --format json --exit-zero "$@" src/k.cu > "$T/o.json" 2> "$T/o.err")
	grep -q '"kernel": "k"' "$T/o.json" && ! grep -q 'not found\|undeclared' "$T/o.json" "$T/o.err" \
		&& ok "$name" || fail "$name: $(head -3 "$T/o.err") $(grep -o '"message": "[^"]*' "$T/o.json" | head -2)"
}
mkdir -p "$T/p/b1/sub"
printf -- '-I../inc -DSCALE_BY=3\n' > "$T/p/b1/flags.rsp"
db "$T/p/b1" "{\"directory\": \"$T/p/b1\", \"file\": \"$T/p/src/k.cu\", \"arguments\": [\"clang++\", \"@flags.rsp\", \"-c\", \"$T/p/src/k.cu\"]}"
check "@response file, relative to the entry's directory" b1
printf -- '-I%s/inc\n' "$T/p" > "$T/p/b1/sub/inc.rsp"
db "$T/p/b2" "{\"directory\": \"$T/p/b1\", \"file\": \"../src/k.cu\", \"command\": \"nvcc -DSCALE_BY=3 -optf=sub/inc.rsp -c ../src/k.cu\"}"
check "-optf=FILE and a relative file" b2
db "$T/p/b3" "{\"directory\": \"..\", \"file\": \"src/k.cu\", \"arguments\": [\"nvcc\", \"-Iinc\", \"-DSCALE_BY=3\", \"-c\", \"src/k.cu\"]}"
check "a relative directory (against the database's folder)" b3

# 3. Dropped flags that could carry -I/-D: one warning, naming the flag.
db "$T/p/b4" "{\"directory\": \"$T/p\", \"file\": \"src/k.cu\", \"arguments\": [\"nvcc\", \"--options-file\", \"gone.rsp\", \"-Wp,-DSCALE_BY=3\", \"-c\", \"src/k.cu\"]}"
(cd "$T/p" && k -p b4 src/k.cu src/k.cu > /dev/null 2> "$T/w.err")
n=$(grep -c 'could carry include paths or macros' "$T/w.err")
[ "$n" = 1 ] && grep -q "'--options-file gone.rsp (unreadable)'" "$T/w.err" \
	&& ok "one warning names the unreadable options file" || fail "dropped flags: $n warnings: $(head -3 "$T/w.err")"
db "$T/p/b5" "{\"directory\": \"$T/p\", \"file\": \"src/k.cu\", \"arguments\": [\"nvcc\", \"-Xclang\", \"-DSCALE_BY=3\", \"-Iinc\", \"-c\", \"src/k.cu\"]}"
(cd "$T/p" && k -p b5 src/k.cu > /dev/null 2> "$T/w5.err")
grep -q "'-Xclang -DSCALE_BY=3'" "$T/w5.err" && ok "-Xclang -D is named" || fail "-Xclang -D: $(head -3 "$T/w5.err")"
(cd "$T/p" && k -p b1 src/k.cu > /dev/null 2> "$T/w1.err")
grep -q 'could carry' "$T/w1.err" && fail "a clean database warned: $(cat "$T/w1.err")" || ok "no warning when nothing is dropped"

# 4. A header with no entry of its own (kcheck src/ lists it) takes the flags
#    of the source beside it: its include folder and macro are found.
cat > "$T/p/src/k_impl.cuh" <<'CU'
#include <cfg.h>
__device__ float twice(float x) { return x * SCALE_BY * N_PER_THREAD; }
__global__ void kh(float *p, float x) { p[threadIdx.x] = twice(x); }
CU
(cd "$T/p" && k -p b3 --format json --exit-zero src/k_impl.cuh > "$T/h.json" 2> "$T/h.err")
grep -q '"kernel": "kh"' "$T/h.json" && ! grep -q 'not found\|undeclared' "$T/h.json" "$T/h.err" \
	&& ok "a header takes the flags of the source beside it" \
	|| fail "header without an entry: $(head -3 "$T/h.err") $(grep -o '"message": "[^"]*' "$T/h.json" | head -2)"

[ $fails = 0 ] && echo "all compile-database checks passed" || echo "$fails compile-database check(s) failed"
[ $fails = 0 ]

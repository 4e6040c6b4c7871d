#!/usr/bin/env bash
# tests/agents/recipe_sweep_test.sh: the compile pass of scripts/recipe_sweep.sh
# for headers.  A header that does not compile alone is compiled through a
# .cu of the tree that includes it (directly, through another header, or
# through a -I folder of the FLAGS), the original and then the rewrite in its
# place; a .cu that names the header but does not read it (#if 0) is no
# includer.  A kernel whose launch the tool read in the .cu that includes
# its file (rows with the includer and its rewrite) is compiled through
# that .cu with both rewrites in place (or the file's alone when the
# includer's is '-'), and both files are links again afterwards.  The
# recipes are not what is tested: a stand-in tool prints the
# rows and points them at rewrites written here, one that compiles and one
# that does not for each case.
# usage: recipe_sweep_test.sh SOURCE_DIR   (exit 77 without nvcc)
set -u
SRC=${1:?usage: recipe_sweep_test.sh SOURCE_DIR}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if ! [ -x "$NVCC" ]; then
	echo "SKIP: no nvcc"
	exit 77
fi
export NVCC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

D=$T/tree R=$T/rewrites
mkdir -p "$D/app" "$D/deep" "$D/decoy" "$D/inc" "$D/lib" "$R"
# app/k.cuh needs REAL, which its includer defines: it does not compile alone
kernel='__global__ void twice(REAL *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2;
}'
good='__global__ void twice(REAL *x, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		x[i] *= 2;
}'
bad='__global__ void twice(REAL *x, int n)
{
	x[i] *= 2; /* i undeclared */
}'
main='int main() { REAL *x = 0; twice<<<4, 256>>>(x, 1000); return 0; }'
printf '#pragma once\n%s\n' "$kernel" >"$D/app/k.cuh"
printf '#define REAL float\n#include "k.cuh"\n%s\n' "$main" >"$D/app/app.cu"
# deep/leaf.cuh is read through deep/mid.cuh only
printf '#ifndef LEAF_CUH\n#define LEAF_CUH\n%s\n#endif\n' "$kernel" >"$D/deep/leaf.cuh"
printf '#pragma once\n#include "leaf.cuh"\n' >"$D/deep/mid.cuh"
printf '#define REAL double\n#include "mid.cuh"\n%s\n' "$main" >"$D/deep/use.cu"
# decoy/lone.cuh is named by a .cu that never reads it
printf '#pragma once\n%s\n' "$kernel" >"$D/decoy/lone.cuh"
printf '#if 0\n#include "lone.cuh"\n#endif\nint main() { return 0; }\n' >"$D/decoy/decoy.cu"
# part/solve.cu is a .cu written to be included by part/main.cu
mkdir -p "$D/part"
printf '%s\n' "$kernel" >"$D/part/solve.cu"
printf '#define REAL float\n#include "solve.cu"\n%s\n' "$main" >"$D/part/main.cu"
# inc/vec.cuh is found through -I DIR/inc from another folder
printf '#pragma once\n%s\n' "$kernel" >"$D/inc/vec.cuh"
printf '#define REAL float\n#include "vec.cuh"\n%s\n' "$main" >"$D/lib/lib.cu"
# xl/k.cuh compiles alone; its launch is in xl/main.cu, which includes it
mkdir -p "$D/xl"
printf '#pragma once\n__global__ void twice(float *x, int n)\n{\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\tx[i] *= 2;\n}\n' >"$D/xl/k.cuh"
printf '#include "k.cuh"\nint main() { float *x = 0; twice<<<4, 256>>>(x, 1000); return 0; }\n' >"$D/xl/main.cu"
printf '#pragma once\n__global__ void twice(float *x, int n, int m)\n{\n\tfor (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += m)\n\t\tx[i] *= 2;\n}\n' >"$R/xk.good.cu"
printf '#include "k.cuh"\nint main() { float *x = 0; twice<<<4, 256>>>(x, 1000, 1024); return 0; }\n' >"$R/xmain.good.cu"
# the header's rewrite alone (its launch unchanged) breaks: the includer passes two arguments
printf '#include "k.cuh"\nint main() { float *x = 0; twice<<<4, 256>>>(x); return 0; }\n' >"$R/xmain.bad.cu"
cp "$R/xk.good.cu" "$R/xk.alone.cu"
cp "$D/xl/k.cuh" "$R/xk.same.cu"
for h in k leaf lone vec solve; do
	printf '#pragma once\n%s\n' "$good" >"$R/$h.good.cu"
	printf '#pragma once\n%s\n' "$bad" >"$R/$h.bad.cu"
done
printf '#ifndef LEAF_CUH\n#define LEAF_CUH\n%s\n#endif\n' "$good" >"$R/leaf.good.cu"

# the stand-in tool: two rows (a good and a bad rewrite) for each header
cat >"$T/tool" <<EOF
#!/usr/bin/env bash
while [ \$# -gt 0 ] && [ "\$1" != -- ]; do
	case \$1 in -o|-r|-R) shift 2 ;; *) f=\$1; shift ;; esac
done
if [ "\$f" = xl/k.cuh ]; then
	printf '%s\ttwice\tgrid-stride\t-\tapplied\t%s\t%s\t%s\n' "\$f" "$R/xk.good.cu" xl/main.cu "$R/xmain.good.cu" \
		"\$f" "$R/xk.alone.cu" xl/main.cu - "\$f" "$R/xk.same.cu" xl/main.cu "$R/xmain.bad.cu"
	exit 0
fi
case \$f in app/k.cuh) h=k ;; deep/leaf.cuh) h=leaf ;; decoy/lone.cuh) h=lone ;; inc/vec.cuh) h=vec ;; part/solve.cu) h=solve ;;
	*) exit 0 ;; esac
printf '%s\ttwice\tgrid-stride\t-\tapplied\t%s\n' "\$f" "$R/\$h.good.cu" "\$f" "$R/\$h.bad.cu"
EOF
chmod +x "$T/tool"
printf '%s\n' app/k.cuh app/app.cu deep/leaf.cuh deep/mid.cuh deep/use.cu decoy/lone.cuh decoy/decoy.cu \
	inc/vec.cuh lib/lib.cu part/solve.cu part/main.cu xl/k.cuh >"$T/files"
if ! bash "$SRC/scripts/recipe_sweep.sh" --tool "$T/tool" --files "$T/files" --out "$T/out" "$D" \
	-- -I "$D/inc" >"$T/log" 2>&1; then
	cat "$T/log"
	fail "the sweep ran"
fi
rows=$T/out/rows.tsv
# want FILE REWRITE ORIGINAL REWRITE-COMPILES INCLUDER: the row's last three columns
want() {
	local got
	got=$(awk -F'\t' -v f="$1" -v d="$R/$2" '$1 == f && $6 == d { print $7 "|" $8 "|" $9 }' "$rows")
	[ "$got" = "$3|$4|$5" ] && ok "$1, $2: $got" || fail "$1, $2: want $3|$4|$5, got '$got'"
}
want app/k.cuh k.good.cu ok ok app/app.cu
want app/k.cuh k.bad.cu ok fails app/app.cu
want deep/leaf.cuh leaf.good.cu ok ok deep/use.cu
want deep/leaf.cuh leaf.bad.cu ok fails deep/use.cu
want decoy/lone.cuh lone.good.cu fails fails -
want decoy/lone.cuh lone.bad.cu fails fails -
want inc/vec.cuh vec.good.cu ok ok lib/lib.cu
want inc/vec.cuh vec.bad.cu ok fails lib/lib.cu
want part/solve.cu solve.good.cu ok ok part/main.cu
want part/solve.cu solve.bad.cu ok fails part/main.cu
grep -q '^(8 rewrites of 4 files that do not compile alone were compiled through a .cu that includes them)$' "$T/log" &&
	ok "the summary counts the rewrites compiled through an includer" || fail "the summary: $(cat "$T/log")"
# want_launch REWRITE INCLUDER-REWRITE ORIGINAL REWRITE-COMPILES: a row whose launch is in xl/main.cu
want_launch() {
	local got
	got=$(awk -F'\t' -v d="$R/$1" '$1 == "xl/k.cuh" && $6 == d { print $7 "|" $8 "|" $9 "|" $10 "|" $11 }' "$rows")
	[ "$got" = "$3|$4|xl/main.cu|launch|$2" ] && ok "xl/k.cuh, $1: $got" ||
		fail "xl/k.cuh, $1: want $3|$4|xl/main.cu|launch|$2, got '$got'"
}
want_launch xk.good.cu "$R/xmain.good.cu" ok ok
want_launch xk.alone.cu - ok fails
want_launch xk.same.cu "$R/xmain.bad.cu" ok fails
grep -q '^(3 rewrites of 1 kernels read the launch in a .cu that includes the kernel.s file; 2 edit that .cu too; 1 compile through it with both edits)$' "$T/log" &&
	ok "the summary counts the rewrites whose launch is in the includer" || fail "the summary's launch line: $(cat "$T/log")"
[ -L "$T/out/mirror/xl/k.cuh" ] && [ -L "$T/out/mirror/xl/main.cu" ] &&
	cmp -s "$D/xl/main.cu" <(printf '#include "k.cuh"\nint main() { float *x = 0; twice<<<4, 256>>>(x, 1000); return 0; }\n') &&
	ok "the header and its includer are links again in the mirror, the tree untouched" ||
	fail "the mirror's xl/ was not restored"
# the mirror's headers are links again: the tree's own files untouched
cmp -s "$D/app/k.cuh" <(printf '#pragma once\n%s\n' "$kernel") && [ -L "$T/out/mirror/app/k.cuh" ] &&
	ok "the header is restored in the mirror and untouched in the tree" || fail "the header was not restored"
grep -q "does not read decoy/lone.cuh" "$T/out/nvcc/decoy+lone.cuh.via.log" &&
	ok "the decoy's log says it does not read the header" || fail "the decoy's log: $(cat "$T/out/nvcc/decoy+lone.cuh.via.log")"

[ "$fails" -eq 0 ] && echo "recipe_sweep_test: all passed" || echo "recipe_sweep_test: $fails failed"
[ "$fails" -eq 0 ]

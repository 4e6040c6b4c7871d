#!/usr/bin/env bash
# tests/rewriter/registry_gen_test.sh CMAKE GEN: the registry generator
# reads one XF_TRANSFORM declaration per transform file (summaries may span
# lines and hold ';'), sorts by name, and stops the build on a file whose
# id is not its name or that declares two transforms.
set -u
cmake=${1:?usage: registry_gen_test.sh CMAKE GEN}
gen=${2:?usage: registry_gen_test.sh CMAKE GEN}
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
# cmake wraps its messages: compare them on one line
said() { tr '\n' ' ' < "$t/log" | tr -s ' ' | grep -qF "$1"; }
printf '#include "x.h"\nstatic int b_two_row(void) { return 0; }\nXF_TRANSFORM(b_two, KA_FIX_UNSAFE,\n\t     "first; half "\n\t     "second half")\n{\n\treturn 0;\n}\n' > "$t/b_two.c"
printf '/* helper */\nint helper(void);\n' > "$t/helper.c"
printf 'XF_TRANSFORM(a_one, KA_FIX_SAFE, "x -> (y)")\n{\n}\n' | sed '1s/^/\n/' > "$t/a_one.c"
"$cmake" -DOUT="$t/out.h" "-DSOURCES=$t/b_two.c;$t/helper.c;$t/a_one.c" -P "$gen" > "$t/log" 2>&1; rc=$?
want_rows=$(printf '\t{{"a-one", KA_FIX_SAFE, "x -> (y)"}, xf_a_one}, \\\n\t{{"b-two", KA_FIX_UNSAFE, "first; half second half"}, xf_b_two}, \\')
[ $rc = 0 ] && grep -qF "$want_rows" "$t/out.h" && grep -q '^int xf_a_one(xf_ctx \*c);$' "$t/out.h" \
  && ! grep -q helper "$t/out.h" && ok "rows sorted, summaries joined, helpers left out" \
  || fail "good input: rc=$rc $(cat "$t/log") $(cat "$t/out.h" 2>/dev/null)"
printf '\nXF_TRANSFORM(other_name, KA_FIX_SAFE, "s")\n{\n}\n' > "$t/c_three.c"
"$cmake" -DOUT="$t/out2.h" "-DSOURCES=$t/c_three.c" -P "$gen" > "$t/log" 2>&1; rc=$?
[ $rc != 0 ] && said "declares transform 'other_name'; a transform's id is its file name (c_three)" \
  && ok "id must be the file name" || fail "mismatch: rc=$rc $(cat "$t/log")"
printf '\nXF_TRANSFORM(d_four, KA_FIX_SAFE, "s")\n{\n}\nXF_TRANSFORM(d_four, KA_FIX_SAFE, "t")\n{\n}\n' > "$t/d_four.c"
"$cmake" -DOUT="$t/out3.h" "-DSOURCES=$t/d_four.c" -P "$gen" > "$t/log" 2>&1; rc=$?
[ $rc != 0 ] && said "2 XF_TRANSFORM declarations; one file declares one transform" \
  && ok "one transform per file" || fail "two: rc=$rc $(cat "$t/log")"
printf '\nXF_TRANSFORM(e_five, SAFE, "s")\n{\n}\n' > "$t/e_five.c"
"$cmake" -DOUT="$t/out4.h" "-DSOURCES=$t/e_five.c" -P "$gen" > "$t/log" 2>&1; rc=$?
[ $rc != 0 ] && said 'XF_TRANSFORM must read XF_TRANSFORM(id, KA_FIX_SAFE|UNSAFE|SUGGEST, "summary")' \
  && ok "malformed declaration" || fail "malformed: rc=$rc $(cat "$t/log")"
[ $fails = 0 ] || exit 1

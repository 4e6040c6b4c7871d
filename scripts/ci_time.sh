#!/usr/bin/env bash
# scripts/ci_time.sh: how long the README's test command (.ci/run) takes on
# this machine from a clean clone, with a parallel load beside it, run after
# run; prints a table (markdown) and keeps each run's log.
#
# usage: scripts/ci_time.sh [--runs N] [--load N] [--out DIR] [REPO]
#   --runs N   clean-clone runs, one after the other (default 2)
#   --load N   busy processes (one core each, nice 0) kept running beside
#              every run: the "parallel load" (default 1; 0 for none)
#   --out DIR  where the clones, logs and the table go (default /tmp/ka-ci-time)
#   REPO       the repository to clone (default: this checkout's)
# Exit status: 0 when every run passed, 1 when one failed, 2 on bad usage.
set -u -o pipefail
runs=2 load=1 out=/tmp/ka-ci-time
repo=$(cd "$(dirname "$0")/.." && pwd)
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=${2:-}; shift 2 ;;
	--load) load=${2:-}; shift 2 ;;
	--out) out=${2:-}; shift 2 ;;
	-h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "ci_time.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) repo=$1; shift ;;
	esac
done
case "$runs$load" in *[!0-9]*|'') echo "ci_time.sh: --runs and --load take a number" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "ci_time.sh: --runs must be at least 1" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "ci_time.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
mkdir -p "$out" || exit 2
commit=$(git -C "$repo" rev-parse --short HEAD) || { echo "ci_time.sh: $repo is not a git checkout" >&2; exit 2; }

hogs=()
stop_load() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
	hogs=()
}
trap 'stop_load; [ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null' EXIT

table=$out/table.md
{
	echo "clean-clone runs of \`bash .ci/run\` at $commit on $(hostname) ($(nproc) cores)," \
		"$load busy process(es) beside each run"
	echo
	echo "| run | start (UTC) | wall | CPU user + system | load average (1 min): mean, max | release tests | sanitizer tests | result |"
	echo "|---|---|---|---|---|---|---|---|"
} > "$table"
status=0
for k in $(seq 1 "$runs"); do
	dir=$out/run-$k
	rm -rf "$dir" && git clone -q "$repo" "$dir" || exit 2
	log=$out/run-$k.log loads=$out/run-$k.load
	: > "$loads"
	for _ in $(seq 1 "$load"); do
		sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	( while :; do cut -d' ' -f1 /proc/loadavg >> "$loads"; sleep 15; done ) &
	sampler=$!
	start=$(date -u +%H:%M:%S)
	(cd "$dir" && /usr/bin/time -f 'ci_time: %e %U %S' bash .ci/run) > "$log" 2>&1
	rc=$?
	kill "$sampler" 2>/dev/null
	sampler=
	stop_load
	read -r wall user sys < <(sed -n 's/^ci_time: //p' "$log" | tail -n 1)
	cpu=$(awk -v u="${user:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.0f + %.0f = %.0f s", u, s, u + s }')
	mm=$(awk '{ n++; t += $1; if ($1 > m) m = $1 } END { if (n) printf "%.2f, %.2f", t / n, m; else print "-" }' "$loads")
	wallt=$(awk -v w="${wall:-0}" 'BEGIN { printf "%d:%02d", w / 60, w % 60 }')
	# ctest's own summary lines, first half then sanitizer half
	sums=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | sed -E 's/^ *([0-9]+)% tests passed, ([0-9]+) tests failed out of ([0-9]+)/\2 failed of \3/')
	rel=$(echo "$sums" | sed -n 1p) san=$(echo "$sums" | sed -n 2p)
	[ $rc = 0 ] && res=passed || { res="FAILED (status $rc)"; status=1; }
	echo "| $k | $start | $wallt | $cpu | $mm | ${rel:--} | ${san:--} | $res |" >> "$table"
	echo "run $k: $wallt, $res (log: $log)" >&2
done
cat "$table"
exit $status

#!/usr/bin/env bash
# Runs the parts of "make test" in lanes side by side, and prints each part's
# time at the end. Each argument is a lane: make targets, separated by
# spaces, run one after another; the lanes run at the same time. Every part
# runs, also after another has failed, so that one run shows every failure.
# Every part's output is kept in build/test-logs/PART.log, and the end of a
# failing part's log is printed.
# The first lane keeps the processors' priority (its tests measure time);
# the others run at a lower one (nice), taking what it leaves.
#
# Usage: scripts/test-suite.sh "LANE" "LANE"...
#   e.g. scripts/test-suite.sh "test-go" "build test-window" "test-windows"
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
logs=$root/build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
make=${MAKE:-make}

now() { date +%s.%N; }
lane() {
	local part start rc nice=() failed=0
	[ "$2" = first ] || nice=(nice -n 10)
	for part in $1; do
		echo "test: $part started"
		start=$(now)
		"${nice[@]}" "$make" --no-print-directory -C "$root" "$part" >"$logs/$part.log" 2>&1
		rc=$?
		printf '%s %s %s\n' "$part" "$rc" "$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')" >>"$logs/times"
		if [ "$rc" != 0 ]; then
			echo "test: $part FAILED (exit status $rc)"
			failed=1
		else
			echo "test: $part passed"
		fi
	done
	return "$failed"
}

start=$(now)
pids=()
first=first
for l in "$@"; do
	lane "$l" "$first" &
	pids+=($!)
	first=""
done
failed=0
for p in "${pids[@]}"; do
	wait "$p" || failed=1
done
wall=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')

if [ "$failed" != 0 ]; then
	while read -r part rc secs; do
		[ "$rc" = 0 ] && continue
		echo
		echo "==== $part failed; the end of build/test-logs/$part.log:"
		tail -n 60 "$logs/$part.log"
	done <"$logs/times"
fi
# The Go parts' own account of what was skipped (internal/testreport), so
# that the run ends saying it.
for f in "$logs"/*.log; do
	grep -q '^tests: [0-9]* passed' "$f" || continue
	echo
	echo "Skipped in $(basename "$f" .log):"
	sed -n '/^No test was skipped\.$/p; /^Skipped tests (/,/^tests: /p' "$f" | grep -v '^tests: ' | sed 's/^/  /'
	grep '^tests: [0-9]* passed' "$f" | sed 's/^/  /'
done
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
echo
echo "Time of each part (lanes run side by side; logs in build/test-logs/):"
for l in "$@"; do
	total=0
	for part in $l; do
		line=$(grep "^$part " "$logs/times" || true)
		if [ -z "$line" ]; then
			printf '  %-20s %8s\n' "$part" "not run"
			continue
		fi
		read -r _ rc secs <<<"$line"
		total=$((total + secs))
		printf '  %-20s %8s  %s\n' "$part" "$(mmss "$secs")" "$([ "$rc" = 0 ] && echo ok || echo FAILED)"
	done
	printf '  %-20s %8s\n' "(lane)" "$(mmss "$total")"
done
printf '  %-20s %8s  (load average now: %s)\n' "all, wall clock" "$(mmss "$wall")" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
exit "$failed"

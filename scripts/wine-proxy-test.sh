#!/usr/bin/env bash
# The office proxy as Windows keeps it, under Wine: the Windows build of
# engine/proxy's tests sets Internet Options and Group Policy's proxy values
# in the registry of a Wine prefix of this test's own (never elsewhere), and
# finds each as Hoist does, sending a request through a proxy on loopback
# to a host name only that proxy resolves.
#
# Usage: scripts/wine-proxy-test.sh
#   WINE_TIMEOUT=seconds bounds each wait (default 240).
# Needs: wine and wine64, xvfb, gcc-mingw-w64-x86-64 (make deps).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
limit=${WINE_TIMEOUT:-240}
cc=${WINDOWS_CC:-x86_64-w64-mingw32-gcc}
fail() {
	echo "wine-proxy-test: FAIL: $*" >&2
	exit 1
}
for tool in wine wineboot wineserver Xvfb "$cc" go; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done

work=$(mktemp -d)
xvfb_pid=""
cleanup() {
	if [ -n "${WINEPREFIX:-}" ]; then
		timeout 30 wineserver -k 2>/dev/null || true
		timeout 30 wineserver -w 2>/dev/null || true
	fi
	if [ -n "$xvfb_pid" ]; then
		kill "$xvfb_pid" 2>/dev/null || true
		wait "$xvfb_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# The first Wine process of a prefix needs a display.
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
export DISPLAY=:$(head -n1 "$work/display")

export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE)
timeout "$limit" wineboot -i >"$work/wineboot.log" 2>&1 || fail "wineboot did not finish: $(tail -n 20 "$work/wineboot.log")"
timeout "$limit" wineserver -w || true
sys32=$WINEPREFIX/drive_c/windows/system32
# Go programs need ProcessPrng, which Wine 8.0 lacks (see scripts/wine-test.sh).
"$cc" -shared -O2 -s -o "$sys32/bcryptprimitives.dll" "$root/scripts/windows/bcryptprimitives.c" -ladvapi32 ||
	fail "could not build the bcryptprimitives.dll stand-in"
(cd "$root" && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go test -c -o "$work/proxytest.exe" ./engine/proxy) ||
	fail "could not build engine/proxy's tests for Windows"

rc=0
HOIST_THROWAWAY_WINDOWS=1 timeout "$limit" wine "$work/proxytest.exe" -test.run 'TestInternetOptionsAsWindowsKeepsThem' -test.v >"$work/test.log" 2>&1 || rc=$?
tr -d '\r' <"$work/test.log"
[ "$rc" = 0 ] || fail "engine/proxy's Windows tests failed (exit $rc)"
grep -q -- '--- PASS: TestInternetOptionsAsWindowsKeepsThem' "$work/test.log" || fail "the registry test did not run"
echo "wine-proxy-test: PASS"

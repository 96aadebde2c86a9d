#!/usr/bin/env bash
# The office proxy as Windows keeps it, under Wine: the Windows build of
# engine/proxy's tests sets Internet Options and Group Policy's proxy values
# in the registry of a Wine prefix of this test's own (never elsewhere), and
# finds each as Hoist does, sending a request through a proxy on loopback
# to a host name only that proxy resolves. Then, in a network of its own
# (unshare: the computer's name, hosts file and DNS server are the test's),
# WinHTTP's automatic detection finds the proxy script at a wpad name only
# the test's DNS server answers.
#
# Usage: scripts/wine-proxy-test.sh
#   WINE_TIMEOUT=seconds bounds each wait (default 240).
# Needs: wine and wine64, xvfb, gcc-mingw-w64-x86-64, iproute2, unshare (make deps).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
limit=${WINE_TIMEOUT:-240}
fail() {
	echo "wine-proxy-test: FAIL: $*" >&2
	exit 1
}
. "$root/scripts/lib/wine.sh"
wine_need_tools unshare ip

work=$(mktemp -d)
cleanup() {
	wine_stop
	rm -rf "$work"
}
trap cleanup EXIT

wine_display 1024x768x24 "$work/xvfb.log"
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE)
wine_prefix "$limit" "$work/wineboot.log"
(cd "$root" && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go test -c -o "$work/proxytest.exe" ./engine/proxy) ||
	fail "could not build engine/proxy's tests for Windows"

rc=0
HOIST_THROWAWAY_WINDOWS=1 timeout "$limit" wine "$work/proxytest.exe" -test.run 'TestInternetOptionsAsWindowsKeepsThem' -test.v >"$work/test.log" 2>&1 || rc=$?
tr -d '\r' <"$work/test.log"
[ "$rc" = 0 ] || fail "engine/proxy's Windows tests failed (exit $rc)"
grep -q -- '--- PASS: TestInternetOptionsAsWindowsKeepsThem' "$work/test.log" || fail "the registry test did not run"

# Automatic detection: the computer host.a.corp.example.test in a network of
# its own, with only loopback, whose DNS server (the test's, on 127.0.0.1)
# answers wpad.a.corp.example.test. Wine's WinHTTP asks only the computer's
# own domain and names the script by the address's name in the hosts file.
# The prefix's wineserver is started anew inside, and ended there.
unshare -r -m -u -n true 2>/dev/null ||
	fail "automatic detection's test needs a network of its own, and unshare -r -m -u -n was refused here (user namespaces)"
timeout 60 wineserver -k 2>/dev/null || true
timeout 60 wineserver -w 2>/dev/null || true
rc=0
HOIST_WPAD_NAME=wpad.a.corp.example.test timeout "$limit" unshare -r -m -u -n bash -euc '
	work=$1
	ip link set lo up
	hostname host.a.corp.example.test
	printf "127.0.0.1 localhost\n127.0.0.1 host.a.corp.example.test host\n127.0.0.2 wpad.a.corp.example.test\n" >"$work/hosts"
	printf "nameserver 127.0.0.1\n" >"$work/resolv.conf"
	mount --bind "$work/hosts" /etc/hosts
	mount --bind "$work/resolv.conf" /etc/resolv.conf
	rc=0
	wine "$work/proxytest.exe" -test.run TestWinHTTPDetectsAsWindows -test.v || rc=$?
	wineserver -k 2>/dev/null || true
	wineserver -w 2>/dev/null || true
	exit $rc
' wpad "$work" >"$work/wpad.log" 2>&1 || rc=$?
tr -d '\r' <"$work/wpad.log"
[ "$rc" = 0 ] || fail "WinHTTP's automatic detection test failed (exit $rc)"
grep -q -- '--- PASS: TestWinHTTPDetectsAsWindows' "$work/wpad.log" || fail "the automatic detection test did not run"
echo "wine-proxy-test: PASS"

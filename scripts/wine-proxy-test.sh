#!/usr/bin/env bash
# The office proxy as Windows keeps it, under Wine: the Windows build of
# engine/proxy's tests sets Internet Options and Group Policy's proxy values
# in the registry of a Wine prefix of this test's own (never elsewhere), and
# finds each as Hoist does, sending a request through a proxy on loopback
# to a host name only that proxy resolves. Then it signs in to a proxy that
# asks for Negotiate or NTLM through Windows' own security packages
# (secur32.dll): Wine's NTLM runs Samba's ntlm_auth, and with no domain
# sign-in in the prefix the test gives SSPI a name and password explicitly;
# the proxy checks NTLMv2's proof, and a wrong password is refused.
#
# Usage: scripts/wine-proxy-test.sh
#   WINE_TIMEOUT=seconds bounds each wait (default 240).
# Needs: wine and wine64, xvfb, gcc-mingw-w64-x86-64, winbind (make deps).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
limit=${WINE_TIMEOUT:-240}
fail() {
	echo "wine-proxy-test: FAIL: $*" >&2
	exit 1
}
. "$root/scripts/lib/wine.sh"
wine_need_tools ntlm_auth

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
HOIST_THROWAWAY_WINDOWS=1 timeout "$limit" wine "$work/proxytest.exe" -test.run 'TestInternetOptionsAsWindowsKeepsThem|TestOwnSignInThroughSSPI' -test.v >"$work/test.log" 2>&1 || rc=$?
tr -d '\r' <"$work/test.log"
[ "$rc" = 0 ] || fail "engine/proxy's Windows tests failed (exit $rc)"
grep -q -- '--- PASS: TestInternetOptionsAsWindowsKeepsThem' "$work/test.log" || fail "the registry test did not run"
grep -q -- '--- PASS: TestOwnSignInThroughSSPI' "$work/test.log" || fail "the sign-in through Windows' security packages did not run"
echo "wine-proxy-test: PASS"

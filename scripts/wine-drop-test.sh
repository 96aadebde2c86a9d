#!/usr/bin/env bash
# Drag and drop on Windows, under Wine: the Windows tests of ui/oledrop,
# cross-built (go test -c) and run in a Wine prefix of this test's own. They
# hand the window's OLE drop target data objects built as Outlook builds its
# own (messages as compound files, attachments as streams or memory, no file
# paths) and as Explorer does (CF_HDROP), directly and through OLE's own
# DoDragDrop onto a window.
#
# Usage: scripts/wine-drop-test.sh [go test flags, e.g. -test.run Outlook]
#   WINE_TIMEOUT=seconds bounds each wait (default 240).
#   WINE_KEEP=1 keeps the Wine prefix (its path is printed) to look into.
#
# Needs: wine and wine64 (Debian's Wine 8.0), xvfb, gcc-mingw-w64-x86-64
# (for the bcryptprimitives.dll stand-in that Go programs need under Wine
# 8.0; see scripts/windows/bcryptprimitives.c).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
limit=${WINE_TIMEOUT:-240}
cc=${WINDOWS_CC:-x86_64-w64-mingw32-gcc}

fail() {
	echo "wine-drop-test: FAIL: $*" >&2
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
	if [ -n "${WINE_KEEP:-}" ]; then
		echo "wine-drop-test: the Wine prefix is kept in $work/prefix"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

(cd "$root" && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go test -c -o "$work/oledrop.test.exe" ./ui/oledrop) ||
	fail "could not build the Windows tests of ui/oledrop"

# A display of our own: the first Wine process of a prefix needs one, and
# the drag needs a window under the pointer.
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
export DISPLAY=:$(head -n1 "$work/display")

export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export HOME=$work/home LANG=C.UTF-8
mkdir -p "$HOME"
timeout "$limit" wineboot -i >"$work/wineboot.log" 2>&1 || fail "wineboot did not finish within ${limit}s: $(tail -n 20 "$work/wineboot.log")"
timeout "$limit" wineserver -w || true
sys32=$WINEPREFIX/drive_c/windows/system32
[ -d "$sys32" ] || fail "the Wine prefix has no system32 folder"
"$cc" -shared -O2 -s -o "$sys32/bcryptprimitives.dll" "$root/scripts/windows/bcryptprimitives.c" -ladvapi32 ||
	fail "could not build the bcryptprimitives.dll stand-in"

# The tests run in a folder of their own: an item saved where it should not
# be would be found there.
mkdir -p "$work/run"
cd "$work/run"
timeout "$limit" wine "$work/oledrop.test.exe" -test.v "$@" 2>&1 | tee "$work/test.log" | grep -E '^(=== RUN|--- |PASS|FAIL|ok|\s)' || true
grep -qx PASS "$work/test.log" || fail "the Windows drag-and-drop tests failed: $(tail -n 40 "$work/test.log")"
left=$(find "$work/run" -mindepth 1 | head -n 5)
[ -z "$left" ] || fail "the tests left files where they ran: $left"
echo "wine-drop-test: ok — Outlook's messages and attachments, and Explorer's files, dropped on the window under Wine"

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

fail() {
	echo "wine-drop-test: FAIL: $*" >&2
	exit 1
}
. "$root/scripts/lib/wine.sh"
wine_need_tools

work=$(mktemp -d)
cleanup() {
	wine_stop
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
wine_display 1024x768x24 "$work/xvfb.log"
export HOME=$work/home LANG=C.UTF-8
mkdir -p "$HOME"
wine_prefix "$limit" "$work/wineboot.log"

# The tests run in a folder of their own: an item saved where it should not
# be would be found there.
mkdir -p "$work/run"
cd "$work/run"
timeout "$limit" wine "$work/oledrop.test.exe" -test.v "$@" 2>&1 | tee "$work/test.log" | grep -E '^(=== RUN|--- |PASS|FAIL|ok|\s)' || true
grep -qx PASS "$work/test.log" || fail "the Windows drag-and-drop tests failed: $(tail -n 40 "$work/test.log")"
left=$(find "$work/run" -mindepth 1 | head -n 5)
[ -z "$left" ] || fail "the tests left files where they ran: $left"
echo "wine-drop-test: ok — Outlook's messages and attachments, and Explorer's files, dropped on the window under Wine"

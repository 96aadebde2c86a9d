#!/usr/bin/env bash
# Windows test under Wine: installs the Windows build (the installer made by
# scripts/package-windows.sh) and uses it as an office user on Windows would.
#   0. the installer installs for the user alone (no administrator rights),
#      with a Start-menu entry, "Send to -> Hoist" and an uninstaller;
#   1. the command line (hoist-cli.exe) uploads a file to the built-in
#      sandbox, and "hoist queue" lists it as done;
#   2. the keychain (the Windows Credential Manager) stores, reads and
#      deletes a sign-in through Hoist's keychain store;
#   3. the window (Hoist.exe) starts in sandbox mode with two files on its
#      command line and uploads them; a screenshot is kept as
#      build/wine-window.png; a second Hoist.exe hands a third file to it;
#   4. the uninstaller removes the programs and the entries.
#
# Usage: scripts/wine-test.sh
#   WINE_TIMEOUT=seconds bounds each wait (default 240).
#   WINE_OUT=DIR keeps the screenshot and logs elsewhere than build/.
#
# Needs: wine and wine64 (Debian's Wine 8.0), xvfb, gcc-mingw-w64-x86-64,
# imagemagick. Go 1.22+ programs need ProcessPrng from bcryptprimitives.dll,
# which Wine 8.0 lacks: a stand-in is built from scripts/windows/
# bcryptprimitives.c into this test's own Wine prefix, never elsewhere.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${WINE_OUT:-$root/build}
version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)
setup=$root/build/Hoist-$version-setup.exe
limit=${WINE_TIMEOUT:-240}
cc=${WINDOWS_CC:-x86_64-w64-mingw32-gcc}
mkdir -p "$out"
out=$(cd "$out" && pwd)
logs=$out/wine
rm -rf "$logs" "$out/wine-window.png" "$out/wine-window-handover.png"
mkdir -p "$logs"

fail() {
	echo "wine-test: FAIL: $*" >&2
	exit 1
}
step() { echo "wine-test: $*"; }

for tool in wine wineboot wineserver winepath Xvfb import identify "$cc" go; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
[ -f "$setup" ] || fail "$setup is missing: run make package-windows first"

work=$(mktemp -d)
xvfb_pid=""
cleanup() {
	# Every Windows process of this prefix, and its wineserver, ends here.
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

# A display of our own first: the first Wine process of a prefix needs one.
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp >"$logs/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || fail "Xvfb did not start: $(cat "$logs/xvfb.log")"
export DISPLAY=:$(head -n1 "$work/display")

# A fresh 64-bit prefix, without the Mono and Gecko installers' prompts.
export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# Go keeps its caches where it had them before HOME moves.
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE)
export HOME=$work/home LANG=C.UTF-8
mkdir -p "$HOME"
step "making a Wine prefix (display $DISPLAY)"
timeout "$limit" wineboot -i >"$logs/wineboot.log" 2>&1 || fail "wineboot did not finish within ${limit}s: $(tail -n 20 "$logs/wineboot.log")"
timeout "$limit" wineserver -w || true
sys32=$WINEPREFIX/drive_c/windows/system32
[ -d "$sys32" ] || fail "the Wine prefix has no system32 folder"
"$cc" -shared -O2 -s -o "$sys32/bcryptprimitives.dll" "$root/scripts/windows/bcryptprimitives.c" -ladvapi32 ||
	fail "could not build the bcryptprimitives.dll stand-in"

winpath() { winepath -w "$1" 2>/dev/null; }
# run NAME SECONDS PROGRAM ARGS...: a Windows program, its output in $logs/NAME.log.
run() {
	local name=$1 secs=$2
	shift 2
	local rc=0
	timeout "$secs" wine "$@" >"$logs/$name.log" 2>&1 || rc=$?
	tr -d '\r' <"$logs/$name.log" >"$logs/$name.txt"
	[ "$rc" != 124 ] || fail "$name did not finish within ${secs}s; output:
$(tail -n 30 "$logs/$name.txt")"
	return "$rc"
}

# 0. The installer, silent (/S), as the user.
step "the installer installs Hoist for this user"
run setup "$limit" "$setup" /S || fail "the installer failed: $(cat "$logs/setup.txt")"
users=$WINEPREFIX/drive_c/users/$(ls "$WINEPREFIX/drive_c/users" | grep -vx Public | head -n1)
bin=$users/AppData/Local/Programs/Hoist
for f in "$bin/Hoist.exe" "$bin/hoist-cli.exe" "$bin/Uninstall Hoist.exe" \
	"$users/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Hoist.lnk" \
	"$users/AppData/Roaming/Microsoft/Windows/SendTo/Hoist.lnk"; do
	[ -f "$f" ] || fail "the installer did not make ${f#"$WINEPREFIX/"}"
done
run uninstall-key 60 reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Hoist' ||
	fail "the installer did not list Hoist among the user's programs: $(cat "$logs/uninstall-key.txt")"
(cd "$root" && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -o "$work/keychaincheck.exe" ./scripts/windows/keychaincheck) ||
	fail "could not build the keychain check"

files=$work/files
mkdir -p "$files"
convert -size 800x600 plasma:fractal "$files/report.png"
convert -size 1200x900 gradient:royalblue-gold "$files/holiday photo.png"
convert -size 320x240 xc:seagreen "$files/logo.png"
printf 'From: Jordan Lee <jordan@example.com>\r\nTo: team@example.com\r\nSubject: Quarterly update\r\nDate: Tue, 03 Feb 2026 09:30:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nThe numbers are up.\r\n' >"$files/Quarterly update.eml"

# 1. The command line.
step "the command line uploads a file to the sandbox"
run version 60 "$bin/hoist-cli.exe" version || fail "hoist-cli.exe version failed: $(cat "$logs/version.txt")"
grep -q '^Hoist .* (windows/amd64)$' "$logs/version.txt" || fail "hoist-cli.exe version said: $(cat "$logs/version.txt")"
run send "$limit" "$bin/hoist-cli.exe" send --to sandbox "$(winpath "$files/report.png")" ||
	fail "hoist send to the sandbox failed:
$(tail -n 30 "$logs/send.txt")"
run queue 60 "$bin/hoist-cli.exe" queue || fail "hoist queue failed: $(cat "$logs/queue.txt")"
grep -Eiq '^report\.png .* done ' "$logs/queue.txt" || fail "hoist queue does not list report.png as done:
$(cat "$logs/queue.txt")"

# 2. The keychain.
step "the keychain stores, reads and deletes a sign-in"
run keychain 120 "$work/keychaincheck.exe" || fail "the keychain check failed: $(cat "$logs/keychain.txt")"

# 3. The window.
step "the window uploads the two files on its command line"
receipts=$work/receipts.tsv
(
	cd "$files"
	export HOIST_SANDBOX_RECEIPTS
	HOIST_SANDBOX_RECEIPTS=$(winpath "$receipts")
	exec timeout $((limit * 2)) wine "$bin/Hoist.exe" --sandbox "$(winpath "$files/holiday photo.png")" "$(winpath "$files/Quarterly update.eml")"
) >"$logs/window.log" 2>&1 &
app_pid=$!
received=0
for _ in $(seq $((limit * 5))); do
	kill -0 "$app_pid" 2>/dev/null || fail "Hoist.exe ended early; its log:
$(tail -n 40 "$logs/window.log" | tr -d '\r')"
	[ -f "$receipts" ] && received=$(wc -l <"$receipts")
	[ "$received" -ge 2 ] && break
	sleep 0.2
done
[ "$received" -ge 2 ] || fail "the sandbox received $received of 2 files within ${limit}s; the window's log:
$(tail -n 40 "$logs/window.log" | tr -d '\r')"
for f in "holiday photo.png" "Quarterly update.eml"; do
	want="$f	$(stat -c %s "$files/$f")	$(sha256sum "$files/$f" | cut -d' ' -f1)"
	tr -d '\r' <"$receipts" | grep -qxF "$want" || fail "the sandbox did not receive $f whole; it has:
$(cat "$receipts")"
done

# The window samples the queue ten times a second; on a busy computer Wine's
# drawing lags behind, so it is given a few seconds to draw the finished rows.
sleep 8
import -window root "$out/wine-window.png" || fail "could not take a screenshot"
colors=$(identify -format '%k' "$out/wine-window.png")
[ "$colors" -gt 64 ] || fail "the screenshot looks blank ($colors colours)"
step "screenshot in $out/wine-window.png ($colors colours)"

step "a second Hoist.exe hands its file to the open window"
run handover 120 "$bin/Hoist.exe" "$(winpath "$files/logo.png")" || fail "the second Hoist.exe failed:
$(cat "$logs/handover.txt")"
# A window program's words reach a terminal only where its output is redirected,
# as here; the file reaching the sandbox is what counts.
grep -q "already open: 1 file was added" "$logs/handover.txt" ||
	step "note: the second Hoist.exe printed nothing about the hand-over: $(cat "$logs/handover.txt")"
for _ in $(seq $((limit * 5))); do
	[ "$(wc -l <"$receipts")" -ge 3 ] && break
	sleep 0.2
done
tr -d '\r' <"$receipts" | grep -q "^logo.png	" || fail "the window did not upload the handed-over file; the sandbox has:
$(cat "$receipts")"
sleep 3
import -window root "$out/wine-window-handover.png" || fail "could not take the second screenshot"

# Closing the window (WM_CLOSE, as its close button) with nothing uploading quits.
run close 60 taskkill /IM Hoist.exe || true
for _ in $(seq 150); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$app_pid" 2>/dev/null; then
	timeout 30 wineserver -k || true
	fail "Hoist.exe did not quit within 30s of being asked to close"
fi
wait "$app_pid" || true

run queue-after 60 "$bin/hoist-cli.exe" queue || fail "hoist queue after the window failed: $(cat "$logs/queue-after.txt")"
for f in "holiday photo.png" "Quarterly update.eml" "logo.png"; do
	grep -F "$f" "$logs/queue-after.txt" | grep -qi ' done ' || fail "hoist queue does not list $f as done after the window closed:
$(cat "$logs/queue-after.txt")"
done
# 4. The uninstaller (waiting for it: _?= keeps it from copying itself away).
step "the uninstaller removes Hoist"
run uninstall "$limit" "$bin/Uninstall Hoist.exe" /S "_?=$(winpath "$bin")" || fail "the uninstaller failed: $(cat "$logs/uninstall.txt")"
for f in "$bin/Hoist.exe" "$bin/hoist-cli.exe" \
	"$users/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Hoist.lnk" \
	"$users/AppData/Roaming/Microsoft/Windows/SendTo/Hoist.lnk"; do
	[ ! -e "$f" ] || fail "the uninstaller left ${f#"$WINEPREFIX/"}"
done
if run uninstall-key-after 60 reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Hoist'; then
	fail "the uninstaller left Hoist among the user's programs"
fi
step "ok — the installer, the command line, the keychain, the window and the uninstaller work under Wine"

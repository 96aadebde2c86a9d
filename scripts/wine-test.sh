#!/usr/bin/env bash
# Windows test under Wine: installs the Windows build (the installers made by
# scripts/package-windows.sh) and uses it as an office user, and an office's
# IT, on Windows would.
#   1. the per-user installer (NSIS) installs without administrator rights,
#      with a Start-menu entry, "Send to -> Hoist" and an uninstaller;
#   2. the command line (hoist-cli.exe) uploads a file to the built-in
#      sandbox, and "hoist queue" lists it as done;
#   3. the keychain (the Windows Credential Manager) stores, reads and
#      deletes a sign-in through Hoist's keychain store;
#   4. the window (Hoist.exe) starts in sandbox mode with two files on its
#      command line and uploads them; a screenshot is kept as
#      build/wine-window.png; a second Hoist.exe hands a third file to it;
#      messages and attachments dragged onto it as Outlook drags them
#      (scripts/windows/dragmail) are kept in Hoist's data folder and uploaded;
#   5. a newer installer, run silently while the window is open, closes it,
#      replaces the programs and opens the window again; one that cannot
#      replace a program (another program holds it) fails, changing nothing;
#   6. the uninstaller, run while "hoist-cli.exe sandbox" runs, stops it and
#      removes everything;
#   7. the MSI package installs for all users (msiexec /i /qn) into Program
#      Files, with a Start-menu entry, "Send to" and an Apps entry naming the
#      version and publisher; its command line uploads;
#   8. a newer MSI, while the window is open, closes it, upgrades and opens
#      it again;
#   9. msiexec /x, while the window and "hoist-cli.exe sandbox" run, stops
#      both and removes everything.
#
# Usage: scripts/wine-test.sh
#   WINE_TIMEOUT=seconds bounds each wait (default 240).
#   WINE_OUT=DIR keeps the screenshot and logs elsewhere than build/.
#   WINE_KEEP=1 keeps the Wine prefix (its path is printed) to look into.
#
# Needs: wine and wine64 (Debian's Wine 8.0), xvfb, gcc-mingw-w64-x86-64,
# imagemagick, nsis and wixl (for the newer installers). Go 1.22+ programs
# need ProcessPrng from bcryptprimitives.dll, which Wine 8.0 lacks: a stand-in
# is built from scripts/windows/bcryptprimitives.c into this test's own Wine
# prefix, never elsewhere.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${WINE_OUT:-$root/build}
version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)
setup=$root/build/Hoist-$version-setup.exe
msi=$root/build/Hoist-$version-x64.msi
stage=$root/build/windows
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

. "$root/scripts/lib/wine.sh"
wine_need_tools winepath import identify makensis wixl
for f in "$setup" "$msi" "$stage/Hoist.exe" "$stage/hoist-cli.exe"; do
	[ -f "$f" ] || fail "$f is missing: run make package-windows first"
done

work=$(mktemp -d)
cleanup() {
	# Every Windows process of this prefix, and its wineserver, ends here.
	wine_stop
	if [ -n "${WINE_KEEP:-}" ]; then
		echo "wine-test: the Wine prefix is kept in $work/prefix"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

# A display of our own first: the first Wine process of a prefix needs one.
wine_display 1280x800x24 "$logs/xvfb.log"

# Go keeps its caches where it had them before HOME moves.
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE)
export HOME=$work/home LANG=C.UTF-8
# The sandbox of hoist-cli.exe on a port of this test's own, never one that
# another program on this computer uses.
export HOIST_SANDBOX_ADDR=127.0.0.1:$((20000 + RANDOM % 30000)) # see freePort
mkdir -p "$HOME"
step "making a Wine prefix (display $DISPLAY)"
wine_prefix "$limit" "$logs/wineboot.log"
"$cc" -municode -O2 -s -o "$work/holdfile.exe" "$root/scripts/windows/holdfile.c" || fail "could not build holdfile.exe"
(cd "$root" && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -o "$work/keychaincheck.exe" ./scripts/windows/keychaincheck) ||
	fail "could not build the keychain check"
(cd "$root" && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -o "$work/dragmail.exe" ./scripts/windows/dragmail) ||
	fail "could not build dragmail, which drags as Outlook does"

# The update: the same programs as a newer version, changed so that the test
# can tell them from the installed ones (a few bytes past the end of the
# program, which Windows ignores).
IFS=. read -r major minor patch <<<"$version"
newer=$major.$minor.$((patch + 1))
mkdir -p "$work/newer/stage"
for f in Hoist.exe hoist-cli.exe; do
	cp "$stage/$f" "$work/newer/stage/$f"
	printf 'hoist update test %s\n' "$newer" >>"$work/newer/stage/$f"
done
UNCOMPRESSED=1 "$root/scripts/windows/installers.sh" "$work/newer/stage" "$newer" "$work/newer" >"$logs/newer-installers.log" 2>&1 ||
	fail "could not make the newer installers: $(cat "$logs/newer-installers.log")"
setup2=$work/newer/Hoist-$newer-setup.exe
msi2=$work/newer/Hoist-$newer-x64.msi

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
# start NAME PROGRAM ARGS...: a Windows program in the background; its
# process id (of wine) in $started.
start() {
	local name=$1
	shift
	timeout $((limit * 3)) wine "$@" >"$logs/$name.log" 2>&1 &
	started=$!
}
# ended PID SECONDS: waits for the background program to end.
ended() {
	for _ in $(seq $(($2 * 5))); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.2
	done
	return 1
}
same() { cmp -s "$1" "$2"; }
# freePort: a port for a sandbox of its own. A port a sandbox used a moment
# ago may still be held by its last connections (Wine binds without
# SO_REUSEADDR), so each sandbox gets a new one.
freePort() { echo $((20000 + RANDOM % 30000)); }
# appsEntry NAME: Hoist's entries in the Apps list of the computer (every
# program's key, as "reg query /s" shows it, that names Hoist), in $logs/NAME.txt.
appsEntry() {
	run "$1-all" 60 reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s || true
	awk 'BEGIN { RS = "" } /DisplayName[ \t]+REG_SZ[ \t]+Hoist/' "$logs/$1-all.txt" >"$logs/$1.txt"
}

users=$WINEPREFIX/drive_c/users/$(ls "$WINEPREFIX/drive_c/users" | grep -vx Public | head -n1)
roaming=$users/AppData/Roaming
settings=$roaming/Hoist
sendto=$roaming/Microsoft/Windows/SendTo
files=$work/files
mkdir -p "$files"
convert -size 800x600 plasma:fractal "$files/report.png"
convert -size 1200x900 gradient:royalblue-gold "$files/holiday photo.png"
convert -size 320x240 xc:seagreen "$files/logo.png"
convert -size 640x480 gradient:white-seagreen "$files/banner.png"
# Files of their own for the installed program: the same bytes sent again to the
# same place are asked about ("already in the sandbox"), not sent.
convert -size 800x600 plasma:fractal "$files/report-msi.png"
convert -size 640x480 gradient:white-teal "$files/banner-msi.png"
convert -size 320x240 xc:teal "$files/logo-msi.png"
printf 'From: Jordan Lee <jordan@example.com>\r\nTo: team@example.com\r\nSubject: Quarterly update\r\nDate: Tue, 03 Feb 2026 09:30:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nThe numbers are up.\r\n' >"$files/Quarterly update.eml"

# window NAME EXE FILE...: the window in sandbox mode, uploading FILEs; waits
# until the sandbox has them all, whole.
receipts=$work/receipts.tsv
window() {
	local name=$1 exe=$2
	shift 2
	: >"$receipts"
	(
		cd "$files"
		export HOIST_SANDBOX_RECEIPTS
		HOIST_SANDBOX_RECEIPTS=$(winpath "$receipts")
		args=()
		for f in "$@"; do args+=("$(winpath "$files/$f")"); done
		exec timeout $((limit * 3)) wine "$exe" --sandbox "${args[@]}"
	) >"$logs/$name.log" 2>&1 &
	app_pid=$!
	local received=0
	for _ in $(seq $((limit * 5))); do
		kill -0 "$app_pid" 2>/dev/null || fail "Hoist.exe ($name) ended early; its log:
$(tail -n 40 "$logs/$name.log" | tr -d '\r')"
		received=$(wc -l <"$receipts")
		[ "$received" -ge $# ] && break
		sleep 0.2
	done
	[ "$received" -ge $# ] || fail "the sandbox received $received of $# files within ${limit}s; the window's log:
$(tail -n 40 "$logs/$name.log" | tr -d '\r')"
	for f in "$@"; do
		want="$f	$(stat -c %s "$files/$f")	$(sha256sum "$files/$f" | cut -d' ' -f1)"
		tr -d '\r' <"$receipts" | grep -qxF "$want" || fail "the sandbox did not receive $f whole; it has:
$(cat "$receipts")"
	done
}

# commandListening: a hoist command listens for "hoist quit" (its folder in
# the settings folder's commands).
commandListening() {
	for _ in $(seq $((limit * 5))); do
		[ -n "$(ls -A "$settings/commands" 2>/dev/null)" ] && return 0
		kill -0 "$1" 2>/dev/null || fail "the command ended early: $(tr -d '\r' <"$2")"
		sleep 0.2
	done
	fail "the command did not listen within ${limit}s: $(tr -d '\r' <"$2")"
}

# addressStamp names the window's address file as it is now: a window that
# starts writes a new one in its place (a new file, renamed over the old),
# and one that quits leaves its own behind.
addressStamp() {
	stat -c '%i %Y' "$settings/window.json" 2>/dev/null || echo none
}

# reopened CLI NAME BEFORE: the window that an installer opened again is
# there (its address file is no longer BEFORE, the one of the window the
# update closed); it is asked to close (which also proves it listened).
reopened() {
	local cli=$1 name=$2 before=$3
	for _ in $(seq $((limit * 5))); do
		[ "$(addressStamp)" != "$before" ] && break
		sleep 0.2
	done
	[ "$(addressStamp)" != "$before" ] || fail "the window did not open again within ${limit}s after the update"
	run "$name" 120 "$cli" quit || fail "hoist quit after the update failed: $(cat "$logs/$name.txt")"
	grep -q "The Hoist window paused its uploads and closed." "$logs/$name.txt" ||
		fail "the window did not open again after the update; hoist quit said: $(cat "$logs/$name.txt")"
}

# ---------------------------------------------------------------------------
# 1. The per-user installer, silent (/S).
step "the installer installs Hoist for this user"
run setup "$limit" "$setup" /S || fail "the installer failed: $(cat "$logs/setup.txt")"
bin=$users/AppData/Local/Programs/Hoist
for f in "$bin/Hoist.exe" "$bin/hoist-cli.exe" "$bin/Uninstall Hoist.exe" \
	"$roaming/Microsoft/Windows/Start Menu/Programs/Hoist.lnk" "$sendto/Hoist.lnk"; do
	[ -f "$f" ] || fail "the installer did not make ${f#"$WINEPREFIX/"}"
done
run uninstall-key 60 reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Hoist' ||
	fail "the installer did not list Hoist among the user's programs: $(cat "$logs/uninstall-key.txt")"

# 2. The command line.
step "the command line uploads a file to the sandbox"
run version 60 "$bin/hoist-cli.exe" version || fail "hoist-cli.exe version failed: $(cat "$logs/version.txt")"
grep -qx "Hoist $version (windows/amd64)" "$logs/version.txt" || fail "hoist-cli.exe version said: $(cat "$logs/version.txt")"
run send "$limit" "$bin/hoist-cli.exe" send --to sandbox "$(winpath "$files/report.png")" ||
	fail "hoist send to the sandbox failed:
$(tail -n 30 "$logs/send.txt")"
run queue 60 "$bin/hoist-cli.exe" queue || fail "hoist queue failed: $(cat "$logs/queue.txt")"
grep -Eiq '^report\.png .* done ' "$logs/queue.txt" || fail "hoist queue does not list report.png as done:
$(cat "$logs/queue.txt")"

# 3. The keychain.
step "the keychain stores, reads and deletes a sign-in"
run keychain 120 "$work/keychaincheck.exe" || fail "the keychain check failed: $(cat "$logs/keychain.txt")"

# 4. The window.
step "the window uploads the two files on its command line"
window window "$bin/Hoist.exe" "holiday photo.png" "Quarterly update.eml"
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

step "messages and attachments dragged out of a mail program as Outlook drags them are uploaded"
run dragmail "$limit" "$work/dragmail.exe" "$limit" || fail "the drag onto the window failed:
$(cat "$logs/dragmail.txt")"
for _ in $(seq $((limit * 5))); do
	[ "$(wc -l <"$receipts")" -ge 7 ] && break
	sleep 0.2
done
for f in "RE Budget.msg" "تقرير الميزانية.msg" "گزارش.pdf" "photo.jpg"; do
	tr -d '\r' <"$receipts" | grep -q "^$f	" || fail "the window did not upload $f dragged onto it; the sandbox has:
$(cat "$receipts")"
done
dropped=$users/AppData/Local/Hoist/Dropped
[ -n "$(find "$dropped" -name 'RE Budget.msg' 2>/dev/null)" ] ||
	fail "the dragged messages were not kept in Hoist's data folder ($dropped)"

# Closing the window (WM_CLOSE, as its close button) with nothing uploading quits.
run close 60 taskkill /IM Hoist.exe || true
ended "$app_pid" 30 || fail "Hoist.exe did not quit within 30s of being asked to close"
wait "$app_pid" || true
run queue-after 60 "$bin/hoist-cli.exe" queue || fail "hoist queue after the window failed: $(cat "$logs/queue-after.txt")"
for f in "holiday photo.png" "Quarterly update.eml" "logo.png" "RE Budget.msg" "photo.jpg"; do
	grep -F "$f" "$logs/queue-after.txt" | grep -qi ' done ' || fail "hoist queue does not list $f as done after the window closed:
$(cat "$logs/queue-after.txt")"
done

# 5. An update while the window is open.
step "a newer installer, while the window is open, closes it, updates and opens it again"
window window-before-update "$bin/Hoist.exe" "banner.png"
address=$(addressStamp)
run setup-update "$limit" "$setup2" /S || fail "the update failed: $(cat "$logs/setup-update.txt")"
ended "$app_pid" 60 || fail "the window the update replaced is still running"
for f in Hoist.exe hoist-cli.exe; do
	same "$bin/$f" "$work/newer/stage/$f" || fail "the update did not replace $f"
done
run uninstall-key-update 60 reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Hoist' /v DisplayVersion
grep -q "$newer" "$logs/uninstall-key-update.txt" || fail "the Apps list does not name version $newer: $(cat "$logs/uninstall-key-update.txt")"
reopened "$bin/hoist-cli.exe" quit-after-update "$address"

step "an installer that cannot replace Hoist.exe says so and fails, changing nothing"
cp "$bin/Hoist.exe" "$work/installed-Hoist.exe"
start holdfile "$work/holdfile.exe" "$(winpath "$bin/Hoist.exe")"
holder=$started
for _ in $(seq $((limit * 5))); do grep -q holding "$logs/holdfile.log" && break; sleep 0.2; done
grep -q holding "$logs/holdfile.log" || fail "holdfile did not hold Hoist.exe: $(cat "$logs/holdfile.log")"
rc=0
run setup-blocked "$limit" "$setup" /S || rc=$?
[ "$rc" = 2 ] || fail "the installer that could not replace Hoist.exe exited with $rc, want 2: $(cat "$logs/setup-blocked.txt")"
same "$bin/Hoist.exe" "$work/installed-Hoist.exe" || fail "the failed installer changed Hoist.exe"
kill "$holder" 2>/dev/null || true
run stop-holdfile 60 taskkill /F /IM holdfile.exe || true
ended "$holder" 30 || true

# 6. Uninstalling while the command line runs.
step "the uninstaller stops hoist-cli.exe sandbox and removes Hoist"
start cli-sandbox "$bin/hoist-cli.exe" sandbox --addr "127.0.0.1:$(freePort)"
cli_pid=$started
commandListening "$cli_pid" "$logs/cli-sandbox.log"
# Waiting for the uninstaller: _?= keeps it from copying itself away.
run uninstall "$limit" "$bin/Uninstall Hoist.exe" /S "_?=$(winpath "$bin")" || fail "the uninstaller failed: $(cat "$logs/uninstall.txt")"
ended "$cli_pid" 30 || fail "hoist-cli.exe sandbox still runs after the uninstaller"
for f in "$bin/Hoist.exe" "$bin/hoist-cli.exe" \
	"$roaming/Microsoft/Windows/Start Menu/Programs/Hoist.lnk" "$sendto/Hoist.lnk"; do
	[ ! -e "$f" ] || fail "the uninstaller left ${f#"$WINEPREFIX/"}"
done
if run uninstall-key-after 60 reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Hoist'; then
	fail "the uninstaller left Hoist among the user's programs"
fi
[ -z "$(ls -A "$settings/commands" 2>/dev/null)" ] || fail "hoist-cli.exe sandbox left its channel: $(ls "$settings/commands")"

# 7. The MSI package, for every user.
step "the MSI package installs Hoist for every user"
run msi-install "$limit" msiexec /i "$(winpath "$msi")" /qn || fail "msiexec /i failed: $(cat "$logs/msi-install.txt")"
pf=$WINEPREFIX/drive_c/Program\ Files/Hoist
# Windows puts the Start-menu entry of a package for all users (ALLUSERS=1)
# in the menu everyone sees; Wine 8's msi puts it in the installing user's
# ("FIXME: set to AllUsers profile path if ALLUSERS is set"). scripts/
# windows-files-test.sh checks the package asks for the menu everyone sees.
startmenu=$WINEPREFIX/drive_c/ProgramData/Microsoft/Windows/Start\ Menu/Programs/Hoist.lnk
[ -f "$startmenu" ] || startmenu=$roaming/Microsoft/Windows/Start\ Menu/Programs/Hoist.lnk
for f in "$pf/Hoist.exe" "$pf/hoist-cli.exe" "$startmenu" "$sendto/Hoist.lnk"; do
	[ -f "$f" ] || fail "the MSI package did not make ${f#"$WINEPREFIX/"}"
done
appsEntry msi-apps
grep -q "DisplayVersion.*$version" "$logs/msi-apps.txt" && grep -q "Publisher.*Hoist" "$logs/msi-apps.txt" ||
	fail "the Apps list does not show Hoist $version by its publisher: $(cat "$logs/msi-apps.txt")"
run msi-send "$limit" "$pf/hoist-cli.exe" send --to sandbox "$(winpath "$files/report-msi.png")" ||
	fail "hoist send from Program Files failed: $(tail -n 30 "$logs/msi-send.txt")"
# "Send to -> Hoist" opens Hoist with the chosen files: the link leads to the program.
run sendto "$limit" start /wait /unix "$sendto/Hoist.lnk" version || fail "the Send to entry did not start Hoist: $(cat "$logs/sendto.txt")"

# 8. An upgrade while the window is open.
step "a newer MSI, while the window is open, closes it, upgrades and opens it again"
window msi-window "$pf/Hoist.exe" "banner-msi.png"
address=$(addressStamp)
run msi-upgrade "$limit" msiexec /i "$(winpath "$msi2")" /qn || fail "the MSI upgrade failed: $(cat "$logs/msi-upgrade.txt")"
ended "$app_pid" 60 || fail "the window the upgrade replaced is still running"
for f in Hoist.exe hoist-cli.exe; do
	same "$pf/$f" "$work/newer/stage/$f" || fail "the MSI upgrade did not replace $f"
done
appsEntry msi-apps-upgrade
[ "$(grep -c "DisplayName" "$logs/msi-apps-upgrade.txt")" = 1 ] && grep -q "DisplayVersion.*$newer" "$logs/msi-apps-upgrade.txt" ||
	fail "after the upgrade the Apps list shows: $(cat "$logs/msi-apps-upgrade.txt")"
reopened "$pf/hoist-cli.exe" msi-quit-after-upgrade "$address"

# 9. Removing it while the window and the command line run.
step "msiexec /x, while the window and hoist-cli.exe sandbox run, stops both and removes Hoist"
window msi-window-2 "$pf/Hoist.exe" "logo-msi.png"
start msi-cli-sandbox "$pf/hoist-cli.exe" sandbox --addr "127.0.0.1:$(freePort)"
cli_pid=$started
commandListening "$cli_pid" "$logs/msi-cli-sandbox.log"
run msi-remove "$limit" msiexec /x "$(winpath "$msi2")" /qn || fail "msiexec /x failed: $(cat "$logs/msi-remove.txt")"
ended "$app_pid" 30 || fail "the window still runs after msiexec /x"
ended "$cli_pid" 30 || fail "hoist-cli.exe sandbox still runs after msiexec /x"
for f in "$pf/Hoist.exe" "$pf/hoist-cli.exe" "$pf" "$startmenu" "$sendto/Hoist.lnk"; do
	[ ! -e "$f" ] || fail "msiexec /x left ${f#"$WINEPREFIX/"}"
done
appsEntry msi-apps-after
! grep -q "DisplayName" "$logs/msi-apps-after.txt" || fail "msiexec /x left Hoist in the Apps list: $(cat "$logs/msi-apps-after.txt")"

step "ok — both installers, updates while Hoist runs, the command line, the keychain, the window and both removals work under Wine"

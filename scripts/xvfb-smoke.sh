#!/usr/bin/env bash
# Smoke test of the real window: starts Hoist under Xvfb in sandbox mode with
# four pictures and two email files on the command line, waits until the
# built-in sandbox has received all six, takes a screenshot and checks it.
#
# Usage: scripts/xvfb-smoke.sh [PATH-TO-HOIST-BINARY]
#   Without a path, the binary is built into build/hoist first.
#
# Output (kept as CI artifacts): build/smoke.png (the screenshot),
# build/smoke.log (the app's log), build/smoke-receipts.tsv (what the sandbox
# received: name, size, SHA-256 — written by the app because the environment
# variable HOIST_SANDBOX_RECEIPTS names that file). Two more files are then
# dragged onto the window as a file manager would (internal/xdndsource),
# which must be told "accepted"; no dbus-daemon may be started.
#
# SMOKE_SCREEN sets the virtual screen (default 1280x800) and SMOKE_NAME the
# outputs' name (default smoke): SMOKE_SCREEN=1024x600 SMOKE_NAME=smoke-1024x600
# tries a small laptop's screen. SMOKE_LANG is the locale the window starts
# in (default C.UTF-8, English): SMOKE_LANG=fa_IR.UTF-8 SMOKE_NAME=smoke-fa
# opens it in Persian, right to left. SMOKE_SCALE is the window's scale
# (FYNE_SCALE, default 1) and SMOKE_THEME its theme (light or dark, as the
# desktop would ask; default dark). The window must open inside the screen,
# taking a good share of it, at every scale, and nothing in it may be wider
# than the window (it would scroll sideways).
#
# Besides the screenshot of the screen, the window alone is kept as
# build/NAME-window.png; with SMOKE_SHOTS set it is also copied to that
# folder as window-NAME.png, less the "smoke-" (the README's pictures of the
# window are made so: make screenshots).
#
# Needs: Xvfb (package xvfb), ImageMagick's import, identify and convert
# (package imagemagick), sha256sum. Exits non-zero on any failure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${SMOKE_OUT:-$root/build}
timeout_s=${SMOKE_TIMEOUT:-90}
screen=${SMOKE_SCREEN:-1280x800}
locale=${SMOKE_LANG:-C.UTF-8}
scale=${SMOKE_SCALE:-1}
theme=${SMOKE_THEME:-dark}
name=${SMOKE_NAME:-smoke}
mkdir -p "$out"

fail() {
	echo "xvfb-smoke: FAIL: $*" >&2
	exit 1
}

for tool in Xvfb import identify convert sha256sum xwininfo; do
	command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install xvfb x11-utils imagemagick coreutils)"
done

bin=${1:-}
if [ -z "$bin" ]; then
	bin=$out/hoist
	echo "xvfb-smoke: building $bin"
	(cd "$root" && go build -o "$bin" .)
fi
[ -x "$bin" ] || fail "no Hoist binary at $bin"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

work=$(mktemp -d)
xvfb_pid=""
app_pid=""
cleanup() {
	if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then
		kill "$app_pid" 2>/dev/null || true
		for _ in $(seq 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$app_pid" 2>/dev/null || true
	fi
	if [ -n "$xvfb_pid" ]; then
		kill "$xvfb_pid" 2>/dev/null || true
		wait "$xvfb_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# Sample files: four pictures (two big enough to go up in several pieces,
# one with an Arabic name) and two email files (one with a Persian name).
files=$work/files
mkdir -p "$files"
convert -size 1400x1000 plasma:fractal "$files/holiday.png"
convert -size 1400x1000 plasma:fractal "$files/team photo.png"
convert -size 640x480 gradient:royalblue-gold "$files/تقرير_الحملة_2026.png"
convert -size 320x240 xc:seagreen "$files/logo.png"
cat >"$files/Quarterly update.eml" <<'EOF'
From: Jordan Lee <jordan@example.com>
To: team@example.com
Subject: Quarterly update
Date: Tue, 03 Feb 2026 09:30:00 +0000
Message-ID: <quarterly-2026@example.com>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8

The numbers are up.
EOF
cat >"$files/گزارش نهایی.eml" <<'EOF'
From: Maryam Ahmadi <maryam@example.com>
To: office@example.com
Subject: =?UTF-8?B?2q/Ystin2LEg2YbZh9in24zbjA==?=
Date: Mon, 02 Feb 2026 10:00:00 +0000
Message-ID: <report-2026@example.com>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8

The final report.
EOF
expected=$(find "$files" -type f | wc -l)

# A display of our own; -displayfd picks a free number.
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 "${screen}x24" -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
display=:$(head -n1 "$work/display")

# No session bus, as on a minimal desktop or over SSH: a dbus-launch that
# only notes it ran stands first on PATH. The D-Bus library starts one when
# it finds no bus, and its dbus-daemon outlives Hoist; Hoist must not.
mkdir -p "$work/bin"
printf '#!/bin/sh\ntouch "%s"\nexit 1\n' "$work/dbus-launch-ran" >"$work/bin/dbus-launch"
chmod 755 "$work/bin/dbus-launch"

home=$work/home
mkdir -p "$home/.config" "$home/.local/share" "$home/.cache" "$home/run"
chmod 700 "$home/run"
receipts=$out/$name-receipts.tsv
log=$out/$name.log
shot=$out/$name.png
rm -f "$receipts" "$log" "$shot"

(
	cd "$work"
	exec env -u DBUS_SESSION_BUS_ADDRESS PATH="$work/bin:$PATH" HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
		XDG_CACHE_HOME="$home/.cache" XDG_RUNTIME_DIR="$home/run" DISPLAY="$display" \
		HOIST_SANDBOX_RECEIPTS="$receipts" LANG="$locale" FYNE_SCALE="$scale" FYNE_THEME="$theme" \
		"$bin" --sandbox "$files"/*
) >"$log" 2>&1 &
app_pid=$!

echo "xvfb-smoke: waiting for the sandbox to receive $expected files (display $display)"
received=0
for _ in $(seq $((timeout_s * 10))); do
	kill -0 "$app_pid" 2>/dev/null || fail "Hoist exited early; log:
$(cat "$log")"
	[ -f "$receipts" ] && received=$(wc -l <"$receipts")
	[ "$received" -ge "$expected" ] && break
	sleep 0.1
done
[ "$received" -ge "$expected" ] || fail "the sandbox received $received of $expected files within ${timeout_s}s; log:
$(tail -n 40 "$log")"

# Every file arrived whole: same size and SHA-256 as on disk.
for f in "$files"/*; do
	file=$(basename "$f")
	size=$(stat -c %s "$f")
	sum=$(sha256sum "$f" | cut -d' ' -f1)
	grep -qxF "$file	$size	$sum" "$receipts" || fail "the sandbox did not receive $file whole (want $size bytes, SHA-256 $sum); it has:
$(cat "$receipts")"
done

sleep 1.5 # the window samples the queue ten times a second; let it draw the finished rows
DISPLAY=$display import -window root "$shot" || fail "could not take a screenshot"

# The window opens inside the screen, whatever the scale, and takes a good
# share of it (the screen has no desktop panels here: its work area is all of it).
geometry=$(DISPLAY=$display xwininfo -root -children | sed -n 's/^ *\(0x[0-9a-f]*\) "Hoist[^"]*": .* \([0-9]*\)x\([0-9]*\)+\(-*[0-9]*\)+\(-*[0-9]*\) .*/\1 \2 \3 \4 \5/p' | head -n1)
[ -n "$geometry" ] || fail "no window titled Hoist on the screen:
$(DISPLAY=$display xwininfo -root -children)"
read -r win_id win_w win_h win_x win_y <<<"$geometry"
screen_w=${screen%x*}
screen_h=${screen#*x}
echo "xvfb-smoke: window ${win_w}x${win_h} at +${win_x}+${win_y} on ${screen} at scale ${scale}"
if [ "$win_x" -lt 0 ] || [ "$win_y" -lt 0 ] || [ $((win_x + win_w)) -gt "$screen_w" ] || [ $((win_y + win_h)) -gt "$screen_h" ]; then
	fail "the window (${win_w}x${win_h}+${win_x}+${win_y}) goes beyond the ${screen} screen at scale ${scale}"
fi
if [ $((win_w * 2)) -lt "$screen_w" ] || [ $((win_h * 2)) -lt "$screen_h" ]; then
	fail "the window (${win_w}x${win_h}) takes less than half of the ${screen} screen at scale ${scale}"
fi
window_shot=$out/$name-window.png
DISPLAY=$display import -window "$win_id" "$window_shot" || fail "could not take a screenshot of the window"
if [ -n "${SMOKE_SHOTS:-}" ]; then
	mkdir -p "$SMOKE_SHOTS"
	cp "$window_shot" "$SMOKE_SHOTS/window-${name#smoke-}.png"
fi

colors=$(identify -format '%k' "$shot")
spread=$(identify -format '%[fx:standard_deviation]' "$shot")
echo "xvfb-smoke: screenshot has $colors colours, standard deviation $spread"
[ "$colors" -gt 64 ] || fail "the screenshot looks blank ($colors colours)"
awk -v s="$spread" 'BEGIN { exit !(s > 0.02) }' || fail "the screenshot looks blank (standard deviation $spread)"

if grep -q "Error in Fyne call thread" "$log"; then
	fail "widgets were changed off the UI goroutine:
$(grep -A3 "Error in Fyne call thread" "$log" | head -n 20)"
fi
# Nothing in the window is wider than the window, at any scale: Hoist notes
# in its log when its content would make the window scroll sideways.
if grep -q "scrolls sideways" "$log"; then
	fail "the window scrolls sideways on ${screen} at scale ${scale}:
$(grep "scrolls sideways" "$log" | head -n 3)"
fi
# LANG=C.UTF-8 (Debian's default) or another locale must not make the toolkit complain.
if grep -q "Error parsing user locale" "$log"; then
	fail "the window toolkit could not read the language:
$(grep -A3 "Error parsing user locale" "$log" | head -n 20)"
fi
grep -c "sandbox received" "$log" | grep -qx "$expected" || fail "the log does not say the sandbox received $expected files"

# Files dragged from a file manager (XDND): each is added, and the file
# manager is told "accepted", whether its list of files has an even or an
# odd length in bytes (the toolkit's own answer follows that length).
(cd "$root" && go build -o "$work/xdndsource" ./internal/xdndsource) || fail "could not build the drag tool"
mkdir -p "$work/dragged"
for parity in even odd; do
	f="$work/dragged/dragged-$parity.png"
	# Two different pictures: the same bytes again would be asked about
	# ("already in the sandbox"), not sent.
	colour=orange; [ "$parity" = odd ] && colour=teal
	convert -size 64x64 "xc:$colour" "$f"
	# The drag tool closes its window as soon as it has its answer, as a
	# program may; the toolkit's own answer then goes to a window that is gone.
	answer=$(DISPLAY=$display "$work/xdndsource" -parity "$parity" Hoist "$f" 2>&1) ||
		fail "the drag ($parity) could not be done: $answer; Hoist running: $(kill -0 "$app_pid" 2>/dev/null && echo yes || echo no)"
	[ "$answer" = accepted ] || fail "a drag whose list has an $parity length was answered \"$answer\""
	expected=$((expected + 1))
done
for _ in $(seq $((timeout_s * 10))); do
	[ "$(wc -l <"$receipts")" -ge "$expected" ] && break
	sleep 0.1
done
[ "$(wc -l <"$receipts")" -ge "$expected" ] || fail "the dragged files did not arrive; the sandbox has:
$(cat "$receipts")"
for _ in $(seq 50); do
	grep -c "sandbox received" "$log" | grep -qx "$expected" && break
	sleep 0.1
done
grep -c "sandbox received" "$log" | grep -qx "$expected" || fail "the log does not say the sandbox received $expected files"

# Quitting with nothing uploading closes without asking.
kill -TERM "$app_pid"
for _ in $(seq 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$app_pid" 2>/dev/null && fail "Hoist did not quit within 5 seconds of SIGTERM"
wait "$app_pid" || fail "Hoist exited with status $? after SIGTERM"
app_pid=""
[ -e "$work/dbus-launch-ran" ] && fail "Hoist ran dbus-launch: its dbus-daemon would outlive Hoist"

echo "xvfb-smoke: ok — $expected files received, screenshot in $shot"

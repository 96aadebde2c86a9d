# Sourced by the Wine tests (scripts/wine-*.sh): a display and a Wine prefix
# of the test's own, and their end. The caller defines fail MESSAGE and has
# made an empty folder $work; everything made here stays inside it.
#
# Go 1.22+ programs need ProcessPrng from bcryptprimitives.dll, which Wine 8.0
# lacks: a stand-in is built from scripts/windows/bcryptprimitives.c into the
# test's own prefix, never elsewhere.

wine_xvfb_pid=""

# wine_need_tools TOOL... fails naming the first tool that is missing, with
# Wine's own tools, Xvfb, the MinGW compiler and go always among them.
wine_need_tools() {
	local tool
	for tool in wine wineboot wineserver Xvfb "${WINDOWS_CC:-x86_64-w64-mingw32-gcc}" go "$@"; do
		command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
	done
}

# wine_display GEOMETRY LOG starts an X display of the test's own (the first
# Wine process of a prefix needs one) and exports DISPLAY.
wine_display() {
	local geometry=$1 log=$2
	exec 3>"$work/display"
	Xvfb -displayfd 3 -screen 0 "$geometry" -nolisten tcp >"$log" 2>&1 &
	wine_xvfb_pid=$!
	exec 3>&-
	for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
	[ -s "$work/display" ] || fail "Xvfb did not start: $(cat "$log")"
	DISPLAY=:$(head -n1 "$work/display")
	export DISPLAY
}

# wine_prefix LIMIT LOG makes a fresh 64-bit prefix in $work/prefix, without
# the Mono and Gecko installers' prompts, and puts the bcryptprimitives.dll
# stand-in into its system32. It exports WINEPREFIX and sets sys32.
wine_prefix() {
	local limit=$1 log=$2 root
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
	timeout "$limit" wineboot -i >"$log" 2>&1 || fail "wineboot did not finish within ${limit}s: $(tail -n 20 "$log")"
	timeout "$limit" wineserver -w || true
	sys32=$WINEPREFIX/drive_c/windows/system32
	[ -d "$sys32" ] || fail "the Wine prefix has no system32 folder"
	"${WINDOWS_CC:-x86_64-w64-mingw32-gcc}" -shared -O2 -s -o "$sys32/bcryptprimitives.dll" \
		"$root/scripts/windows/bcryptprimitives.c" -ladvapi32 ||
		fail "could not build the bcryptprimitives.dll stand-in"
}

# wine_stop ends every Windows process of the prefix, its wineserver and the
# display. The caller removes $work (or keeps it to look into).
wine_stop() {
	if [ -n "${WINEPREFIX:-}" ]; then
		timeout 30 wineserver -k 2>/dev/null || true
		timeout 30 wineserver -w 2>/dev/null || true
	fi
	if [ -n "$wine_xvfb_pid" ]; then
		kill "$wine_xvfb_pid" 2>/dev/null || true
		wait "$wine_xvfb_pid" 2>/dev/null || true
	fi
}

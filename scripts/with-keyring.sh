#!/usr/bin/env bash
# Runs a command on a private D-Bus session beside an unlocked GNOME keyring
# (Secret Service) whose files live in a throw-away folder, never in the
# caller's own login keyring; the keyring's start is checked, and the command
# is told (HOIST_TEST_KEYRING=1) that the keychain tests must find it.
#
# Usage: scripts/with-keyring.sh COMMAND [ARG...]
#   e.g. scripts/with-keyring.sh go test -race ./auth/...
#
# Needs: dbus-run-session (package dbus), gnome-keyring-daemon (gnome-keyring),
# dbus-send and secret-tool (libsecret-tools).
set -euo pipefail

if [ -z "${HOIST_KEYRING_HOME:-}" ]; then
	for tool in dbus-run-session dbus-send gnome-keyring-daemon secret-tool; do
		command -v "$tool" >/dev/null || { echo "with-keyring: $tool is not installed (make deps installs it)" >&2; exit 1; }
	done
	home=$(mktemp -d "${TMPDIR:-/tmp}/hoist-keyring.XXXXXX")
	mkdir -m 700 "$home/run" "$home/data"
	# The bus, and so every keyring it starts, sees only the private folder;
	# the command gets the caller's own HOME back (and with it Go's caches).
	export HOIST_KEYRING_HOME="$home" HOIST_CALLER_HOME="$HOME" \
		HOIST_CALLER_DATA="${XDG_DATA_HOME-unset}" HOIST_CALLER_RUNTIME="${XDG_RUNTIME_DIR-unset}"
	HOME="$home" XDG_DATA_HOME="$home/data" XDG_RUNTIME_DIR="$home/run" \
		exec dbus-run-session -- "$0" "$@"
fi
home=$HOIST_KEYRING_HOME
trap 'rm -rf "$home"' EXIT

fail() {
	echo "with-keyring: $1" >&2
	cat "$home/daemon.out" >&2 2>/dev/null || true
	exit 1
}
printf hoist-test | gnome-keyring-daemon --unlock --components=secrets >"$home/daemon.out" 2>&1 ||
	fail "gnome-keyring-daemon did not start:"
owned=""
for _ in $(seq 50); do
	if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
		owned=1
		break
	fi
	sleep 0.1
done
[ -n "$owned" ] || fail "the keyring never answered on the session bus:"
# A secret stored and read back proves the keyring answers, unlocked.
probe="probe-$$-$RANDOM"
printf '%s' "$probe" | secret-tool store --label='Hoist test probe' hoist-test-probe "$probe" ||
	fail "the keyring does not keep a secret (locked?):"
[ "$(secret-tool lookup hoist-test-probe "$probe")" = "$probe" ] ||
	fail "the keyring does not give back a secret (locked?):"
secret-tool clear hoist-test-probe "$probe"
find "$home/data" -name '*.keyring' | grep -q . ||
	fail "the keyring keeps no file in its private folder:"

export HOME="$HOIST_CALLER_HOME"
if [ "$HOIST_CALLER_DATA" = unset ]; then unset XDG_DATA_HOME; else export XDG_DATA_HOME="$HOIST_CALLER_DATA"; fi
if [ "$HOIST_CALLER_RUNTIME" = unset ]; then unset XDG_RUNTIME_DIR; else export XDG_RUNTIME_DIR="$HOIST_CALLER_RUNTIME"; fi
unset HOIST_KEYRING_HOME HOIST_CALLER_HOME HOIST_CALLER_DATA HOIST_CALLER_RUNTIME
status=0
HOIST_TEST_KEYRING=1 "$@" || status=$?
exit "$status"

#!/usr/bin/env bash
# Tests the Debian package: installs build/hoist_<version>_amd64.deb with dpkg
# into a throw-away root (its own dpkg database; the computer's own is never
# touched), runs "hoist version" from there, validates the desktop entry and
# the AppStream metainfo, checks the icons and that no file type is made
# Hoist's default, then removes the package and checks nothing is left.
#
# Usage: scripts/deb-test.sh [PACKAGE.deb]
#
# Needs: dpkg, desktop-file-validate (desktop-file-utils), appstreamcli
# (appstream).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)
deb=${1:-$root/build/hoist_${version}_amd64.deb}
id=app.hoist.desktop

fail() {
	echo "deb-test: FAIL: $*" >&2
	exit 1
}
for tool in dpkg desktop-file-validate appstreamcli; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
[ -f "$deb" ] || fail "no package at $deb: run make package-deb first"

top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
mkdir -p "$top/var/lib/dpkg/info" "$top/var/lib/dpkg/updates"
touch "$top/var/lib/dpkg/status"
# The throw-away root holds none of the libraries the package depends on.
dpkg --root="$top" --force-depends --force-not-root -i "$deb" >"$top/install.log" 2>&1 ||
	fail "dpkg could not install the package: $(cat "$top/install.log")"
dpkg --root="$top" -s hoist | grep -q '^Status: install ok installed' || fail "dpkg does not list hoist as installed"

got=$("$top/usr/bin/hoist" version) || fail "hoist version failed"
[ "$got" = "Hoist $version (linux/amd64)" ] || fail "hoist version said \"$got\", want \"Hoist $version (linux/amd64)\""

desktop=$top/usr/share/applications/$id.desktop
desktop-file-validate "$desktop" || fail "desktop-file-validate refused $desktop"
grep -q '^MimeType=.*image/png;.*message/rfc822;' "$desktop" || fail "the desktop entry does not offer Hoist for pictures and email files"
metainfo=$top/usr/share/metainfo/$id.metainfo.xml
appstreamcli validate --no-net --explain "$metainfo" || fail "appstreamcli refused $metainfo"
grep -q "<release version=\"$version\"" "$metainfo" || fail "the metainfo does not name release $version"
for size in 16 24 32 48 64 128 256 512; do
	icon=$top/usr/share/icons/hicolor/${size}x${size}/apps/$id.png
	[ "$(identify -format '%wx%h' "$icon" 2>/dev/null)" = "${size}x${size}" ] || fail "no ${size}x${size} icon at $icon"
done
[ -f "$top/usr/share/icons/hicolor/scalable/apps/$id.svg" ] || fail "no scalable icon"
# Offered in "Open with", never made the default for any type.
if dpkg-deb -c "$deb" | grep -Eq 'mimeapps\.list|defaults\.list'; then
	fail "the package makes Hoist a default program"
fi

dpkg --root="$top" --force-not-root -r hoist >"$top/remove.log" 2>&1 || fail "dpkg could not remove the package: $(cat "$top/remove.log")"
left=$( { find "$top/usr" -type f 2>/dev/null || true; } | head -n 5)
[ -z "$left" ] || fail "files were left after removing the package: $left"
echo "deb-test: ok — $(basename "$deb") installs, runs, validates and removes cleanly"

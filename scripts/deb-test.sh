#!/usr/bin/env bash
# Tests the Debian package: lintian reports no error and no warning; it
# installs build/hoist_<version>_amd64.deb with dpkg into a throw-away root
# (its own dpkg database; the computer's own is never touched), runs
# "hoist version" from there, reads its manual page, validates the desktop
# entry and the AppStream metainfo, checks the icons, and checks that a bare
# desktop (nothing but Hoist installed) keeps no default program for
# pictures and email files, as xdg-mime and GLib's gio see it, while the file
# managers' menus offer "Upload with Hoist"; it recommends only what Hoist
# uses; then it removes the package and checks nothing is left.
#
# Usage: scripts/deb-test.sh [PACKAGE.deb]
#
# Needs: dpkg, lintian, man (man-db), desktop-file-validate and
# update-desktop-database (desktop-file-utils), appstreamcli (appstream),
# xdg-mime (xdg-utils), gio (libglib2.0-bin), update-mime-database
# (shared-mime-info), python3.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)
deb=${1:-$root/build/hoist_${version}_amd64.deb}
id=app.hoist.desktop

fail() {
	echo "deb-test: FAIL: $*" >&2
	exit 1
}
for tool in dpkg lintian man desktop-file-validate update-desktop-database update-mime-database appstreamcli xdg-mime gio python3; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
[ -f "$deb" ] || fail "no package at $deb: run make package-deb first"

lintian=$(lintian --fail-on error,warning "$deb" 2>&1) ||
	fail "lintian reports errors or warnings: $(grep -v '^running with root privileges' <<<"$lintian")"
# Recommended: only the keychain Hoist keeps sign-ins in. xdg-utils (which
# opens the browser, else the desktop's portal does) is a suggestion.
fields=$(dpkg-deb -f "$deb" Recommends Suggests)
[ "$fields" = "Recommends: gnome-keyring
Suggests: xdg-utils, python3-nautilus" ] || fail "the package recommends or suggests: $fields"

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

page=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$top/usr/share/man/man1/hoist.1.gz" 2>"$top/man.log") ||
	fail "man could not read the manual page: $(cat "$top/man.log")"
[ ! -s "$top/man.log" ] || fail "the manual page has mistakes: $(cat "$top/man.log")"
for want in "hoist send [flags] PATH..." "--chunk-size" "hoist quit" "--for-update"; do
	grep -qF -- "$want" <<<"$page" || fail "the manual page does not mention $want"
done
zcat "$top/usr/share/doc/hoist/changelog.gz" | head -n1 | grep -q "^hoist ($version) " || fail "the changelog does not start with version $version"

desktop=$top/usr/share/applications/$id.desktop
desktop-file-validate "$desktop" || fail "desktop-file-validate refused $desktop"
desktop-file-validate "$top/usr/share/Thunar/sendto/$id.desktop" || fail "desktop-file-validate refused Thunar's Send To entry"

# A bare desktop: the throw-away root's programs and file types only, as the
# desktop's trigger indexes them; Hoist must not be the default for anything.
update-desktop-database "$top/usr/share/applications"
# The system's file types and the package's own (Outlook's messages).
cp -r /usr/share/mime/packages/. "$top/usr/share/mime/packages/"
update-mime-database "$top/usr/share/mime" >/dev/null 2>&1 || fail "update-mime-database could not read the file types"
mkdir -p "$top/home/.config" "$top/home/.local/share" "$top/etc/xdg"
bare=(env -i PATH="$top/usr/bin:/usr/bin:/bin" HOME="$top/home" XDG_DATA_HOME="$top/home/.local/share"
	XDG_CONFIG_HOME="$top/home/.config" XDG_DATA_DIRS="$top/usr/share" XDG_CONFIG_DIRS="$top/etc/xdg"
	XDG_CURRENT_DESKTOP= DE= DBUS_SESSION_BUS_ADDRESS="unix:path=$top/no-bus" GIO_USE_VFS=local)
for type in image/png image/jpeg message/rfc822 application/vnd.ms-outlook application/mbox; do
	got=$("${bare[@]}" xdg-mime query default "$type")
	[ -z "$got" ] || fail "on a bare desktop, xdg-mime makes $got the default for $type"
	got=$("${bare[@]}" gio mime "$type" 2>&1 || true)
	! grep -qi hoist <<<"$got" || fail "on a bare desktop, GLib offers Hoist as the default for $type: $got"
done
# "Upload with Hoist" for pictures and email files (.eml, .msg, .mbox) in
# the file managers.
for f in kio/servicemenus/$id-upload.desktop nemo/actions/hoist.nemo_action Thunar/sendto/$id.desktop; do
	grep -Eq '^Mime[Tt]ypes?=.*image/png;.*message/rfc822;.*application/vnd\.ms-outlook;.*application/mbox;' "$top/usr/share/$f" &&
		grep -qx 'Exec=hoist %F' "$top/usr/share/$f" ||
		fail "$f does not offer Hoist for pictures and email files"
done
python3 "$root/scripts/linux/nautilus-check.py" "$top/usr/share/nautilus-python/extensions/hoist.py" ||
	fail "GNOME Files does not offer Hoist for pictures and email files"
# Outlook's messages are known by their type, as GLib (GNOME Files, Nemo,
# Thunar) reads the file types, also where the system's are older than the
# type (an Outlook message is a compound file).
printf '\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1' >"$top/home/RE Budget.msg"
printf 'From a@example.com Sat Jan  1 00:00:00 2026\nSubject: a\n\nhello\n' >"$top/home/All mail.mbox"
for f in "RE Budget.msg:application/vnd.ms-outlook" "All mail.mbox:application/mbox"; do
	got=$("${bare[@]}" gio info -a standard::content-type "$top/home/${f%%:*}" | sed -n 's/^ *standard::content-type: //p')
	[ "$got" = "${f#*:}" ] || fail "${f%%:*} is of the type $got on a desktop with Hoist, want ${f#*:}"
done
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

rm -f "$top/usr/share/applications/mimeinfo.cache"
find "$top/usr/share/mime" -mindepth 1 -not -path "$top/usr/share/mime/packages/$id.xml" -delete 2>/dev/null || true
dpkg --root="$top" --force-not-root -r hoist >"$top/remove.log" 2>&1 || fail "dpkg could not remove the package: $(cat "$top/remove.log")"
left=$( { find "$top/usr" -type f 2>/dev/null || true; } | head -n 5)
[ -z "$left" ] || fail "files were left after removing the package: $left"
echo "deb-test: ok — $(basename "$deb") is clean for lintian, installs, runs, takes no default program and removes cleanly"

#!/usr/bin/env bash
# Builds the Debian/Ubuntu package build/hoist_<version>_amd64.deb: the hoist
# program in /usr/bin (position-independent, as Debian hardens programs), its
# manual page made from its own help, its desktop entry, its icon at the
# standard sizes (hicolor theme, 16 to 512 pixels, and scalable), AppStream
# metainfo so software centres can list it, and a changelog and copyright
# file as Debian asks; lintian accepts it without an error or a warning.
#
# Pictures and email files (.eml, Outlook's .msg, .mbox) get "Upload with
# Hoist" in the file managers' menus (Dolphin, Nemo, Thunar's "Send To", and
# GNOME Files with its Python extension, python3-nautilus, suggested); the
# desktop entry lists no file type, so Hoist never becomes the program that
# opens them, even on a desktop with no image viewer or mail program. The
# type of Outlook's messages is defined for desktops that do not know it.
#
# Usage: scripts/package-deb.sh
#   VERSION=1.2.3 overrides the version in FyneApp.toml.
#   PACKAGE_OUT=DIR puts the package elsewhere than build/.
#   GOOGLE_CLIENT_SECRET=FILE builds an organisation's OAuth client (the
#     client_secret JSON of a "Desktop app" client) into the program.
#
# Needs: the Go toolchain with cgo (as make build), dpkg-deb, ImageMagick's
# convert, gzip.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${PACKAGE_OUT:-$root/build}
version=${VERSION:-$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)}
id=app.hoist.desktop

fail() {
	echo "package-deb: $*" >&2
	exit 1
}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "the version \"$version\" is not of the form 1.2.3"
for tool in dpkg-deb convert gzip; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
. "$root/scripts/lib/build.sh"
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}" +%s)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg=$work/pkg

mkdir -p "$pkg/usr/bin"
build_linux "$root" "$pkg/usr/bin/hoist" "$version"

# The manual page, from the program's own help.
install -d "$pkg/usr/share/man/man1"
"$root/scripts/linux/manpage.sh" "$pkg/usr/bin/hoist" "$version" "$(date -u -d "@$date" +%F)" |
	gzip -9n >"$pkg/usr/share/man/man1/hoist.1.gz"

install -Dm644 "$root/scripts/linux/$id.desktop" "$pkg/usr/share/applications/$id.desktop"
# "Upload with Hoist" in the file managers' menus: Dolphin, Nemo, Thunar.
install -Dm644 "$root/scripts/linux/$id-upload.desktop" "$pkg/usr/share/kio/servicemenus/$id-upload.desktop"
install -Dm644 "$root/scripts/linux/hoist.nemo_action" "$pkg/usr/share/nemo/actions/hoist.nemo_action"
install -Dm644 "$root/scripts/linux/thunar-sendto.desktop" "$pkg/usr/share/Thunar/sendto/$id.desktop"
install -Dm644 "$root/scripts/linux/hoist-nautilus.py" "$pkg/usr/share/nautilus-python/extensions/hoist.py"
install -Dm644 "$root/scripts/linux/$id.xml" "$pkg/usr/share/mime/packages/$id.xml"
install -d "$pkg/usr/share/metainfo"
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -u -d "@$date" +%F)/" \
	"$root/scripts/linux/$id.metainfo.xml" >"$pkg/usr/share/metainfo/$id.metainfo.xml"
for size in 16 22 24 32 48 64 128 256 512; do
	dir=$pkg/usr/share/icons/hicolor/${size}x${size}/apps
	mkdir -p "$dir"
	convert "$root/assets/icon.png" -resize "${size}x${size}" -strip "$dir/$id.png"
done
install -Dm644 "$root/assets/icon.svg" "$pkg/usr/share/icons/hicolor/scalable/apps/$id.svg"
doc=$pkg/usr/share/doc/hoist
install -d "$doc"
install -m644 "$root/README.md" "$root/docs/administrators.md" "$doc/"
cat >"$doc/copyright" <<COPY
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Hoist

Files: *
Copyright: 2026-$(date -u -d "@$date" +%Y) Hoist's authors
License: proprietary
 All rights reserved.
COPY
# The changelog (this is a native package): scripts/linux/changelog, with an
# entry for this version first when it has none.
{
	if ! head -n1 "$root/scripts/linux/changelog" | grep -q "^hoist ($version) "; then
		printf 'hoist (%s) stable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n\n' "$version" "$version" \
			"$(sed -n 's/^ -- \(.*\)  .*/\1/p' "$root/scripts/linux/changelog" | head -n1)" "$(date -u -R -d "@$date")"
	fi
	cat "$root/scripts/linux/changelog"
} | gzip -9n >"$doc/changelog.gz"

size=$(du -sk "$pkg/usr" | cut -f1)
mkdir -p "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: hoist
Version: $version
Architecture: amd64
Maintainer: Hoist <maintainers@users.noreply.a-seed-f167a819.example>
Installed-Size: $size
Depends: libc6 (>= 2.34), libgl1, libx11-6, libxcursor1, libxrandr2, libxinerama1, libxi6, libxxf86vm1
Recommends: gnome-keyring
Suggests: xdg-utils, python3-nautilus
Section: net
Priority: optional
Description: upload images and email files to Google, with pause and resume
 Hoist uploads files to Google's upload APIs: email files into Gmail,
 creative assets to Campaign Manager 360, game images to Play Games, or any
 Google upload URL. A desktop window with drag and drop, and a command line
 (hoist send) for work without one. Uploads pause, resume and survive a
 restart; a built-in sandbox lets you try it without a Google account.
CONTROL
(cd "$pkg" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
find "$pkg" -type d -exec chmod 755 {} +
deb=$out/hoist_${version}_amd64.deb
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
echo "package-deb: $deb"

#!/usr/bin/env bash
# Builds the Debian/Ubuntu package build/hoist_<version>_amd64.deb: the hoist
# program in /usr/bin, its desktop entry, its icon at the standard sizes
# (hicolor theme, 16 to 512 pixels, and scalable), and AppStream metainfo so
# software centres can list it. The entry offers Hoist for pictures and email
# files (.eml) in "Open with"; it never makes Hoist their default program.
#
# Usage: scripts/package-deb.sh
#   VERSION=1.2.3 overrides the version in FyneApp.toml.
#   PACKAGE_OUT=DIR puts the package elsewhere than build/.
#
# Needs: the Go toolchain with cgo (as make build), dpkg-deb, ImageMagick's
# convert.
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
for tool in dpkg-deb convert; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg=$work/pkg

# The same build as "make build" (so Go's cache serves it), with the version.
mkdir -p "$pkg/usr/bin"
(cd "$root" && go build -ldflags "-s -w -X=hoist/cli.Version=$version" -o "$pkg/usr/bin/hoist" .)

install -Dm644 "$root/scripts/linux/$id.desktop" "$pkg/usr/share/applications/$id.desktop"
install -d "$pkg/usr/share/metainfo"
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}" +%F)/" \
	"$root/scripts/linux/$id.metainfo.xml" >"$pkg/usr/share/metainfo/$id.metainfo.xml"
for size in 16 22 24 32 48 64 128 256 512; do
	dir=$pkg/usr/share/icons/hicolor/${size}x${size}/apps
	mkdir -p "$dir"
	convert "$root/assets/icon.png" -resize "${size}x${size}" -strip "$dir/$id.png"
done
install -Dm644 "$root/assets/icon.svg" "$pkg/usr/share/icons/hicolor/scalable/apps/$id.svg"
install -d "$pkg/usr/share/doc/hoist"
cat >"$pkg/usr/share/doc/hoist/copyright" <<'COPY'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Hoist

Files: *
Copyright: Hoist's authors
License: proprietary
COPY

size=$(du -sk "$pkg/usr" | cut -f1)
mkdir -p "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: hoist
Version: $version
Architecture: amd64
Maintainer: Hoist <maintainers@users.noreply.a-seed-f167a819.example>
Installed-Size: $size
Depends: libc6 (>= 2.34), libgl1, libx11-6, libxcursor1, libxrandr2, libxinerama1, libxi6, libxxf86vm1
Recommends: gnome-keyring | kwalletmanager, xdg-utils
Section: net
Priority: optional
Description: upload images and email files to Google, with pause and resume
 Hoist uploads files to Google's upload APIs: email files into Gmail,
 creative assets to Campaign Manager 360, game images to Play Games, or any
 Google upload URL. A desktop window with drag and drop, and a command line
 (hoist send) for work without one. Uploads pause, resume and survive a
 restart; a built-in sandbox lets you try it without a Google account.
CONTROL
find "$pkg" -type d -exec chmod 755 {} +
deb=$out/hoist_${version}_amd64.deb
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
echo "package-deb: $deb"

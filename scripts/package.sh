#!/usr/bin/env bash
# Builds the Linux package: build/Hoist.tar.xz, holding the hoist binary, its
# icon and a desktop entry, with a Makefile whose "make install" puts them in
# place (as made by Fyne's packaging tool, from the same program as the .deb).
#
# Usage: scripts/package.sh
#   VERSION=1.2.3 overrides the version in FyneApp.toml.
#   PACKAGE_OUT=DIR puts the tarball elsewhere than build/.
#   GOOGLE_CLIENT_SECRET=FILE builds an organisation's OAuth client (the
#     client_secret JSON of a "Desktop app" client) into the program.
#
# Needs: the Go toolchain with cgo (gcc, libgl1-mesa-dev, xorg-dev), and the
# fyne tool, which go.mod lists as a tool (go tool fyne).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${PACKAGE_OUT:-$root/build}
version=${VERSION:-$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"
. "$root/scripts/lib/build.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tool counts builds up in FyneApp.toml: it reads the app's description
# and icon from a copy, so the checkout is never changed, even for a moment.
mkdir -p "$work/src"
cp -r FyneApp.toml assets "$work/src/"

build_linux "$root" "$work/hoist" "$version"
# The tool writes its tarball into the working directory.
(cd "$work" && go -C "$root" tool fyne package --os linux --release --name Hoist --app-version "$version" \
	--exe "$work/hoist" --src "$work/src")
tarball=$(find "$root" "$work" "$work/src" -maxdepth 1 -name 'Hoist.tar.xz' -newer "$work/hoist" -print -quit)
[ -n "$tarball" ] || { echo "package: the fyne tool made no Hoist.tar.xz" >&2; exit 1; }
mv "$tarball" "$out/Hoist.tar.xz"

# The package must hold the program, its icon and its desktop entry.
listing=$(tar -tJf "$out/Hoist.tar.xz")
for want in usr/local/bin/ usr/local/share/applications/ usr/local/share/pixmaps/; do
	grep -q "$want" <<<"$listing" || { echo "package: $want is missing from the tarball:" >&2; echo "$listing" >&2; exit 1; }
done
echo "package: $out/Hoist.tar.xz"

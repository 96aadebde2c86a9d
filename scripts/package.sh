#!/usr/bin/env bash
# Builds the Linux package: build/Hoist.tar.xz, holding the hoist binary, its
# icon and a desktop entry, with a Makefile whose "make install" puts them in
# place (as made by Fyne's packaging tool).
#
# Usage: scripts/package.sh
#   VERSION=1.2.3 overrides the version in FyneApp.toml.
#   PACKAGE_OUT=DIR puts the tarball elsewhere than build/.
#
# Needs: the Go toolchain with cgo (gcc, libgl1-mesa-dev, xorg-dev), and the
# fyne tool, which go.mod lists as a tool (go tool fyne).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${PACKAGE_OUT:-$root/build}
mkdir -p "$out"
cd "$root"

args=(--os linux --release --name Hoist --src "$root")
if [ -n "${VERSION:-}" ]; then
	args+=(--app-version "$VERSION")
fi

work=$(mktemp -d)
# The tool counts builds up in FyneApp.toml; the checkout is left as it was.
cp FyneApp.toml "$work/FyneApp.toml.orig"
trap 'cp "$work/FyneApp.toml.orig" "$root/FyneApp.toml"; rm -rf "$work"' EXIT
# The tool writes its tarball into the working directory.
(cd "$work" && go -C "$root" tool fyne package "${args[@]}")
tarball=$(find "$root" "$work" -maxdepth 1 -name 'Hoist.tar.xz' -newer "$work" -print -quit)
[ -n "$tarball" ] || { echo "package: the fyne tool made no Hoist.tar.xz" >&2; exit 1; }
mv "$tarball" "$out/Hoist.tar.xz"

# The package must hold the program, its icon and its desktop entry.
listing=$(tar -tJf "$out/Hoist.tar.xz")
for want in usr/local/bin/ usr/local/share/applications/ usr/local/share/pixmaps/; do
	grep -q "$want" <<<"$listing" || { echo "package: $want is missing from the tarball:" >&2; echo "$listing" >&2; exit 1; }
done
echo "package: $out/Hoist.tar.xz"

#!/usr/bin/env bash
# Builds Hoist for Windows on Debian (cross-compiled with MinGW-w64):
#   build/Hoist-<version>-windows-amd64.zip  Hoist.exe and hoist-cli.exe
#   build/Hoist-<version>-setup.exe          a per-user installer (NSIS)
# and leaves the two programs in build/windows/ for the Wine test.
#
# Hoist.exe is the window (a GUI program with Hoist's icon, version
# information and manifest, made by Fyne's packaging tool). hoist-cli.exe is
# the same program built as a console program, for cmd and PowerShell: they
# wait for a console program, show its output and get its exit status, which
# a GUI program attached to their console would not give.
#
# Usage: scripts/package-windows.sh
#   VERSION=1.2.3 overrides the version in FyneApp.toml.
#   PACKAGE_OUT=DIR puts the files elsewhere than build/.
#
# Needs: gcc-mingw-w64-x86-64, nsis (makensis), imagemagick (convert), zip.
# The first build compiles Fyne's C parts for Windows (several minutes); Go's
# build cache keeps them for the next.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${PACKAGE_OUT:-$root/build}
cc=${WINDOWS_CC:-x86_64-w64-mingw32-gcc}
version=${VERSION:-$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)}

fail() {
	echo "package-windows: $*" >&2
	exit 1
}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "the version \"$version\" is not of the form 1.2.3"
for tool in "$cc" makensis convert zip; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/windows
rm -rf "$stage"
mkdir -p "$stage"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fyne's tool, built for this computer: "go tool fyne" with CC set to the
# cross compiler would build the tool itself with it, and fail.
echo "package-windows: building the fyne tool"
(cd "$root" && go build -o "$out/fyne" fyne.io/tools/cmd/fyne)

# The tool writes into the source folder (metadata, resources, a build
# counter in FyneApp.toml): it works on a copy, so the checkout stays as it is.
src=$work/src
mkdir -p "$src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | grep -zv '^build/' |
	xargs -0 cp --parents -t "$src")

export CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=$cc
ldflags="-X=hoist/cli.Version=$version"

echo "package-windows: building Hoist.exe $version (the first build takes several minutes)"
(cd "$src" && GOFLAGS="${GOFLAGS:-} -ldflags=$ldflags" "$out/fyne" package --os windows --release \
	--name Hoist --app-version "$version" --src "$src")
exe=$(find "$src" -maxdepth 1 -iname 'Hoist.exe' -print -quit)
[ -n "$exe" ] || fail "the fyne tool made no Hoist.exe"
mv "$exe" "$stage/Hoist.exe"

# The console twin: the same build (tags and flags, so Go's cache serves
# every package) without -H=windowsgui.
echo "package-windows: building hoist-cli.exe"
(cd "$src" && go build -trimpath -tags release,migrated_fynedo -ldflags "-s -w $ldflags" \
	-o "$stage/hoist-cli.exe" .)
unset CGO_ENABLED GOOS GOARCH CC

for f in Hoist.exe hoist-cli.exe; do
	head -c2 "$stage/$f" | grep -q MZ || fail "$f is not a Windows program"
done

zipfile=$out/Hoist-$version-windows-amd64.zip
rm -f "$zipfile"
(cd "$stage" && zip -q -9 "$zipfile" Hoist.exe hoist-cli.exe)
echo "package-windows: $zipfile"

convert "$root/assets/icon.png" -define icon:auto-resize=256,128,64,48,32,16 "$work/hoist.ico"
setup=$out/Hoist-$version-setup.exe
makensis -V2 -DVERSION="$version" -DSTAGE="$stage" -DICON="$work/hoist.ico" \
	-DOUTFILE="$setup" "$root/scripts/windows/hoist.nsi"
[ -s "$setup" ] || fail "makensis made no installer"
echo "package-windows: $setup"

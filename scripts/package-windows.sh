#!/usr/bin/env bash
# Builds Hoist for Windows on Debian (cross-compiled with MinGW-w64):
#   build/Hoist-<version>-windows-amd64.zip  Hoist.exe and hoist-cli.exe
#   build/Hoist-<version>-setup.exe          a per-user installer (NSIS)
#   build/Hoist-<version>-x64.msi            for every user of a computer
#                                            (Windows Installer, for IT)
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
#   GOOGLE_CLIENT_SECRET=FILE builds an organisation's OAuth client (the
#     client_secret JSON of a "Desktop app" client) into the programs.
#   SIGN_CERT=FILE SIGN_KEY=FILE sign the programs and both installers
#     (scripts/windows/sign.sh says more).
#
# The two programs are kept in a cache (HOIST_BUILD_CACHE, by default
# ~/.cache/hoist/build) under a key made of everything they are built from:
# the sources, go.mod and go.sum, the version, the built-in client, the Go
# and MinGW versions. When none of it changed, they are not built again; nor
# are the zip and the installers, unless they are signed.
#
# Needs: gcc-mingw-w64-x86-64, nsis (makensis), wixl, imagemagick (convert),
# zip, and osslsigncode to sign. The first build compiles Fyne's C parts for
# Windows (several minutes); Go's build cache keeps them for the next.
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
for tool in "$cc" makensis wixl convert zip; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
. "$root/scripts/lib/build.sh"
client=$(client_ldflags) || exit 1
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/windows
rm -rf "$stage"
mkdir -p "$stage"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The files the programs are built from: the checkout's, without what only
# tests, documents or other packages use (and with a built-in client file,
# which git ignores).
sources() {
	(cd "$root" && git ls-files -z --cached --others --exclude-standard 2>/dev/null |
		grep -zvE '^(build|docs|bench|testdata|\.ci)/|^scripts/|/testdata/|_test\.go$|^[^/]*\.md$' || true)
	(cd "$root" && printf '%s\0' scripts/package-windows.sh && find auth/embedded -name 'client_secret*.json' -print0)
}
key=$(
	{
		printf '%s\n' "$version" "$client" "$(go version)" "$("$cc" --version | head -n1)"
		cd "$root" && sources | sort -zu | while IFS= read -r -d '' f; do
			[ -f "$f" ] && printf '%s %s\n' "$(sha256sum <"$f" | cut -c1-64)" "$f"
		done
	} | sha256sum | cut -c1-20
)
cache=${HOIST_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hoist/build}/windows-$key

if [ -f "$cache/Hoist.exe" ] && [ -f "$cache/hoist-cli.exe" ]; then
	echo "package-windows: Hoist.exe and hoist-cli.exe $version are unchanged since the last build ($cache)"
	cp "$cache/Hoist.exe" "$cache/hoist-cli.exe" "$stage/"
else
	# Fyne's tool, built for this computer: "go tool fyne" with CC set to the
	# cross compiler would build the tool itself with it, and fail.
	echo "package-windows: building the fyne tool"
	(cd "$root" && go build -o "$work/fyne" fyne.io/tools/cmd/fyne)

	# The tool writes into the source folder (metadata, resources, a build
	# counter in FyneApp.toml): it works on a copy, so the checkout stays as it is.
	src=$work/src
	mkdir -p "$src"
	(cd "$root" && sources | xargs -0 cp --parents -t "$src")

	# The version and the organisation's client go into the copy's sources:
	# the fyne tool passes -ldflags (from GOFLAGS) to only the first of the
	# two builds it runs, so -X would not reach Hoist.exe.
	printf 'package main\n\nimport "hoist/cli"\n\nfunc init() { cli.Version = "%s" }\n' "$version" >"$src/release_version.go"
	[ -z "${GOOGLE_CLIENT_SECRET:-}" ] || cp "$GOOGLE_CLIENT_SECRET" "$src/auth/embedded/client_secret.json"
	(
		export CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=$cc
		echo "package-windows: building Hoist.exe $version (the first build takes several minutes)"
		cd "$src"
		"$work/fyne" package --os windows --release --name Hoist --app-version "$version" --src "$src"
		exe=$(find "$src" -maxdepth 1 -iname 'Hoist.exe' -print -quit)
		[ -n "$exe" ] || fail "the fyne tool made no Hoist.exe"
		mv "$exe" "$stage/Hoist.exe"

		# The console twin: the same build (tags and flags, so Go's cache serves
		# every package) without -H=windowsgui.
		echo "package-windows: building hoist-cli.exe"
		go build -trimpath -tags release,migrated_fynedo -ldflags "-s -w" -o "$stage/hoist-cli.exe" .
	)
	for f in Hoist.exe hoist-cli.exe; do
		head -c2 "$stage/$f" | grep -q MZ || fail "$f is not a Windows program"
	done
	# Kept for the next build; only the last few builds are.
	mkdir -p "$cache.new"
	cp "$stage/Hoist.exe" "$stage/hoist-cli.exe" "$cache.new/"
	rm -rf "$cache" && mv "$cache.new" "$cache"
	(cd "$(dirname "$cache")" && ls -1dt windows-* 2>/dev/null | tail -n +5 | xargs -r rm -rf)
fi

zipfile=$out/Hoist-$version-windows-amd64.zip
setup=$out/Hoist-$version-setup.exe
msi=$out/Hoist-$version-x64.msi
rm -f "$zipfile" "$setup" "$msi"
if [ -n "${SIGN_CERT:-}${SIGN_KEY:-}" ]; then
	# Signed files are made afresh, never kept.
	"$root/scripts/windows/sign.sh" "$stage/Hoist.exe" "$stage/hoist-cli.exe"
	(cd "$stage" && zip -q -9 "$zipfile" Hoist.exe hoist-cli.exe)
	"$root/scripts/windows/installers.sh" "$stage" "$version" "$out"
else
	# The zip and installers are kept beside the programs, under what they
	# are made from besides them.
	made=$cache/made-$(cat "$root/scripts/windows/installers.sh" "$root/scripts/windows/hoist.nsi" \
		"$root/scripts/windows/hoist.wxs" <(echo "${UNCOMPRESSED:-}") | sha256sum | cut -c1-20)
	if [ ! -f "$made/$(basename "$msi")" ]; then
		(cd "$stage" && zip -q -9 "$zipfile" Hoist.exe hoist-cli.exe)
		"$root/scripts/windows/installers.sh" "$stage" "$version" "$out"
		rm -rf "$cache"/made-*
		mkdir -p "$made.new" && cp "$zipfile" "$setup" "$msi" "$made.new/" && mv "$made.new" "$made"
	else
		echo "package-windows: the zip and installers are unchanged since the last build"
		cp "$made"/* "$out/"
	fi
fi
echo "package-windows: $zipfile"
echo "package-windows: $setup"
echo "package-windows: $msi"

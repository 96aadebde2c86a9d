#!/usr/bin/env bash
# Makes Hoist's two Windows installers from the two programs in STAGE:
#   OUT/Hoist-VERSION-setup.exe  for one user, no administrator rights (NSIS)
#   OUT/Hoist-VERSION-x64.msi    for every user of a computer, deployed by an
#                                office's IT (Windows Installer, made by wixl)
# When SIGN_CERT and SIGN_KEY name a code-signing certificate and its key
# (PEM), both installers are signed, and so is the uninstaller inside the
# first; the programs in STAGE are expected to be signed already (sign.sh).
#
# Usage: scripts/windows/installers.sh STAGE VERSION OUT
#   UNCOMPRESSED=1 makes an uncompressed NSIS installer, quickly (for tests).
#
# Needs: nsis (makensis), wixl, imagemagick (convert), and osslsigncode to sign.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
stage=$1 version=$2 out=$3

fail() {
	echo "installers: $*" >&2
	exit 1
}
[[ $version =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || fail "the version \"$version\" is not of the form 1.2.3"
for tool in makensis wixl convert; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
for f in Hoist.exe hoist-cli.exe; do
	[ -f "$stage/$f" ] || fail "$stage/$f is missing"
done
stage=$(cd "$stage" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

convert "$root/assets/icon.png" -define icon:auto-resize=256,128,64,48,32,16 "$work/hoist.ico"

setup=$out/Hoist-$version-setup.exe
signer=""
if [ -n "${SIGN_CERT:-}${SIGN_KEY:-}" ]; then
	signer="$here/sign.sh"
fi
makensis -V2 -INPUTCHARSET UTF8 -DVERSION="$version" -DSTAGE="$stage" -DICON="$work/hoist.ico" \
	-DOUTFILE="$setup" ${signer:+-DSIGN="$signer"} ${UNCOMPRESSED:+-DUNCOMPRESSED} "$here/hoist.nsi"
[ -s "$setup" ] || fail "makensis made no installer"
[ -z "$signer" ] || "$signer" "$setup"
echo "installers: $setup"

msi=$out/Hoist-$version-x64.msi
# wixl finds files by paths relative to its source; Active Setup compares
# versions written with commas.
ln -s "$stage" "$work/stage"
cp "$here/hoist.wxs" "$work/"
(cd "$work" && wixl -a x64 -D Version="$version" -D Stage=stage -D Icon=hoist.ico \
	-D ActiveSetupVersion="${version//./,}" -o "$msi" hoist.wxs)
[ -s "$msi" ] || fail "wixl made no package"
[ -z "$signer" ] || "$signer" "$msi"
echo "installers: $msi"

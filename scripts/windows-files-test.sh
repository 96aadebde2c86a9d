#!/usr/bin/env bash
# Checks the Windows release files without running them (the Wine test runs
# them): the zip holds both programs; the MSI package, read with msiinfo
# (msitools), installs for all users into Program Files with a Start-menu
# entry everyone sees, an Apps entry with version and publisher, upgrades by
# version, never asks for a restart and stops Hoist before replacing or
# removing it; and, signed with a throw-away certificate as
# "make package SIGN_CERT=… SIGN_KEY=…" signs, the programs, the installer,
# its uninstaller and the MSI package carry a signature osslsigncode verifies.
#
# Usage: scripts/windows-files-test.sh
#
# Needs: msitools (msiinfo), osslsigncode, openssl, unzip, and what
# scripts/windows/installers.sh needs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)
build=$root/build
msi=$build/Hoist-$version-x64.msi
zipfile=$build/Hoist-$version-windows-amd64.zip

fail() {
	echo "windows-files-test: FAIL: $*" >&2
	exit 1
}
for tool in msiinfo osslsigncode openssl unzip; do
	command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"
done
for f in "$msi" "$zipfile" "$build/Hoist-$version-setup.exe" "$build/windows/Hoist.exe" "$build/windows/hoist-cli.exe"; do
	[ -f "$f" ] || fail "$f is missing: run make package-windows first"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

listing=$(unzip -Z1 "$zipfile")
[ "$(sort <<<"$listing" | tr '\n' ' ')" = "Hoist.exe hoist-cli.exe " ] || fail "the zip holds: $listing"

# table NAME: the MSI package's table, one row a line, tab between columns.
table() { msiinfo export "$msi" "$1" | tr -d '\r' | tail -n +4; }
has() {
	local name=$1 row=$2
	table "$name" | grep -qxF "$row" || fail "the MSI package's $name table has no row \"$row\"; it has:
$(table "$name")"
}
msiinfo suminfo "$msi" >"$work/suminfo"
grep -q '^Template: x64;1033$' "$work/suminfo" || fail "the MSI package is not for 64-bit Windows: $(cat "$work/suminfo")"
grep -q '^Author: Hoist$' "$work/suminfo" || fail "the MSI package names no author: $(cat "$work/suminfo")"
has Property "ProductName	Hoist"
has Property "ProductVersion	$version"
has Property "Manufacturer	Hoist"
has Property "UpgradeCode	{D0A645F9-587C-41FB-8115-A219BE1E2268}"
has Property "ALLUSERS	1"
has Property "REBOOT	ReallySuppress"
has Property "ARPPRODUCTICON	hoist.ico"
table Directory | grep -qP '^INSTALLDIR\tProgramFiles64Folder\tHoist$' || fail "Hoist does not go to Program Files: $(table Directory)"
table File | grep -qP '^HoistExe\tWindow\tHoist.exe\t' || fail "no Hoist.exe: $(table File)"
table File | grep -qP '^HoistCli\tCommandLine\thoist-cli.exe\t' || fail "no hoist-cli.exe: $(table File)"
table Shortcut | grep -qP '^StartMenuHoist\tProgramMenuFolder\tHoist\t' || fail "no Start-menu entry: $(table Shortcut)"
table Upgrade | grep -qP '^\{D0A645F9-587C-41FB-8115-A219BE1E2268\}\t\t'"$version"'\t' || fail "no upgrade of older versions: $(table Upgrade)"
table Registry | grep -q 'Active Setup.*StubPath.*setup-user' || fail "no Active Setup for each user's Send to: $(table Registry)"
seq=$(table InstallExecuteSequence)
at() { awk -F'\t' -v a="$1" '$1 == a { print $3 }' <<<"$seq"; }
for a in QuitHoistForUpgrade QuitHoist RemoveExistingProducts; do
	[ -n "$(at "$a")" ] || fail "the install sequence has no $a: $seq"
done
[ "$(at InstallValidate)" -lt "$(at QuitHoistForUpgrade)" ] && [ "$(at QuitHoistForUpgrade)" -lt "$(at RemoveExistingProducts)" ] &&
	[ "$(at QuitHoist)" -lt "$(at RemoveFiles)" ] && [ "$(at RemoveExistingProducts)" -lt "$(at InstallInitialize)" ] ||
	fail "Hoist is not asked to close before its files are replaced or removed: $seq"

# Signing, with a certificate made for this test alone.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 \
	-subj "/CN=Hoist signing test" -addext "extendedKeyUsage=codeSigning" >/dev/null 2>&1 ||
	fail "could not make a test certificate"
mkdir -p "$work/stage" "$work/out"
cp "$build/windows/Hoist.exe" "$build/windows/hoist-cli.exe" "$work/stage/"
export SIGN_CERT=$work/cert.pem SIGN_KEY=$work/key.pem
"$root/scripts/windows/sign.sh" "$work/stage/Hoist.exe" "$work/stage/hoist-cli.exe" >"$work/sign.log" 2>&1 ||
	fail "signing the programs failed: $(cat "$work/sign.log")"
UNCOMPRESSED=1 "$root/scripts/windows/installers.sh" "$work/stage" "$version" "$work/out" >"$work/installers.log" 2>&1 ||
	fail "making signed installers failed: $(cat "$work/installers.log")"
# The uninstaller, written at build time inside the installer, is signed first.
[ "$(grep -c '^sign: signed' "$work/installers.log")" = 3 ] || fail "not every installer part was signed: $(cat "$work/installers.log")"
for f in "$work/stage/Hoist.exe" "$work/stage/hoist-cli.exe" "$work/out/Hoist-$version-setup.exe" "$work/out/Hoist-$version-x64.msi"; do
	osslsigncode verify -CAfile "$SIGN_CERT" -in "$f" >"$work/verify.log" 2>&1 ||
		fail "$(basename "$f") carries no valid signature: $(tail -n 20 "$work/verify.log")"
	grep -q "Hoist signing test" "$work/verify.log" || fail "$(basename "$f") is not signed by the given certificate: $(cat "$work/verify.log")"
done
if osslsigncode verify -CAfile "$SIGN_CERT" -in "$build/windows/hoist-cli.exe" >/dev/null 2>&1; then
	fail "without a certificate the programs were signed anyway"
fi
echo "windows-files-test: ok — the zip, the MSI package's tables, and signing with a given certificate"

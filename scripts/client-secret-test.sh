#!/usr/bin/env bash
# Tests "make package GOOGLE_CLIENT_SECRET=FILE": every release file is built
# with the organisation's OAuth client in it. With a made-up client of its own,
# it builds the Linux tarball, the .deb and the Windows files into a folder of
# its own (build/ is left alone), then: the Linux programs from the tarball
# and from the .deb, with no client set up anywhere else, show Google's
# sign-in page for that client; Hoist.exe and hoist-cli.exe, in the zip and
# in what both installers are made from, carry it. A file that is not a
# desktop app's client is refused before anything is built.
#
# Usage: scripts/client-secret-test.sh
#
# Needs: what make package needs, and unzip.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' "$root/FyneApp.toml" | head -n1)
fail() {
	echo "client-secret-test: FAIL: $*" >&2
	exit 1
}
command -v unzip >/dev/null || fail "unzip is missing (make deps installs it)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
# A fixed client, so that the Windows programs built with it are kept (and
# not built again) until their sources change.
id=123456789012-hoistclienttest.apps.googleusercontent.com
client=$work/client_secret.json
printf '{"installed":{"client_id":"%s","project_id":"hoist-test","auth_uri":"https://accounts.google.com/o/oauth2/auth","token_uri":"https://oauth2.googleapis.com/token","client_secret":"GOCSPX-hoist-test","redirect_uris":["http://localhost"]}}\n' "$id" >"$client"

# A web application's client is refused, saying so.
printf '{"web":{"client_id":"x.apps.googleusercontent.com","client_secret":"y"}}\n' >"$work/web.json"
if GOOGLE_CLIENT_SECRET=$work/web.json PACKAGE_OUT=$work/web "$root/scripts/package-deb.sh" >"$work/web.log" 2>&1; then
	fail "a web application's client file was built in"
fi
grep -q 'Desktop app' "$work/web.log" || fail "the refusal does not say what file is needed: $(cat "$work/web.log")"

export GOOGLE_CLIENT_SECRET=$client PACKAGE_OUT=$out
"$root/scripts/package.sh" >"$work/linux.log" 2>&1 || fail "the tarball: $(cat "$work/linux.log")"
"$root/scripts/package-deb.sh" >"$work/deb.log" 2>&1 || fail "the .deb: $(cat "$work/deb.log")"
UNCOMPRESSED=1 "$root/scripts/package-windows.sh" >"$work/windows.log" 2>&1 || fail "the Windows files: $(cat "$work/windows.log")"
unset GOOGLE_CLIENT_SECRET

# signsIn PROGRAM: the sign-in page it shows, with no client imported and
# no organisation's folder.
signsIn() {
	local home=$work/home-$RANDOM
	mkdir -p "$home" "$work/no-system"
	# No session bus: nothing may start one that outlives the test.
	env -i PATH=/usr/bin:/bin HOME="$home" XDG_CONFIG_HOME="$home/.config" HOIST_SYSTEM_CONFIG="$work/no-system" LANG=C.UTF-8 \
		DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-bus" \
		timeout 60 "$1" login --no-browser --store-in-file --timeout 1s 2>&1 || true
}
mkdir -p "$work/tar" "$work/deb"
tar -xJf "$out/Hoist.tar.xz" -C "$work/tar"
dpkg-deb -x "$out/hoist_${version}_amd64.deb" "$work/deb"
for bin in "$work/tar/usr/local/bin/hoist" "$work/deb/usr/bin/hoist"; do
	said=$(signsIn "$bin")
	grep -q "client_id=$id&" <<<"$said" || fail "${bin#"$work/"} does not sign in with the built-in client; it said: $said"
done
# The same program without it has no client: the test tells them apart.
mkdir -p "$work/plain"
(. "$root/scripts/lib/build.sh" && build_linux "$root" "$work/plain/hoist" "$version")
! grep -q "client_id=" <<<"$(signsIn "$work/plain/hoist")" || fail "a build without GOOGLE_CLIENT_SECRET has a client"

unzip -q "$out/Hoist-$version-windows-amd64.zip" -d "$work/zip"
for exe in "$work/zip/Hoist.exe" "$work/zip/hoist-cli.exe" "$out/windows/Hoist.exe" "$out/windows/hoist-cli.exe"; do
	grep -qF "\"client_id\":\"$id\"" "$exe" || fail "${exe#"$work/"} does not carry the client"
done
for f in "Hoist-$version-setup.exe" "Hoist-$version-x64.msi"; do
	[ -s "$out/$f" ] || fail "no $f was made with the client"
done
echo "client-secret-test: ok — the tarball, the .deb, the zip and the installers' programs carry the organisation's client"

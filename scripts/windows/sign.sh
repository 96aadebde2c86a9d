#!/usr/bin/env bash
# Signs Windows programs, installers and MSI packages in place with
# Authenticode (osslsigncode), with the certificate SIGN_CERT and its private
# key SIGN_KEY (PEM files; the key unencrypted, or its password in
# SIGN_PASS). SIGN_TIMESTAMP names a time-stamping service (RFC 3161), so
# that signatures stay valid after the certificate expires.
#
# Usage: SIGN_CERT=cert.pem SIGN_KEY=key.pem scripts/windows/sign.sh FILE...
#
# Needs: osslsigncode.
set -euo pipefail

fail() {
	echo "sign: $*" >&2
	exit 1
}
command -v osslsigncode >/dev/null || fail "osslsigncode is missing (make deps installs it)"
[ -f "${SIGN_CERT:-}" ] || fail "SIGN_CERT must name the signing certificate (PEM): \"${SIGN_CERT:-}\" is not a file"
[ -f "${SIGN_KEY:-}" ] || fail "SIGN_KEY must name the certificate's private key (PEM): \"${SIGN_KEY:-}\" is not a file"

for f in "$@"; do
	args=(sign -certs "$SIGN_CERT" -key "$SIGN_KEY" -n Hoist -h sha256)
	[ -z "${SIGN_PASS:-}" ] || args+=(-pass "$SIGN_PASS")
	[ -z "${SIGN_TIMESTAMP:-}" ] || args+=(-ts "$SIGN_TIMESTAMP")
	signed=$f.signed
	rm -f "$signed"
	osslsigncode "${args[@]}" -in "$f" -out "$signed" >/dev/null || fail "could not sign $f"
	mv "$signed" "$f"
	echo "sign: signed $(basename "$f")"
done

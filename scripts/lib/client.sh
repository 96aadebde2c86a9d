# Sourced by the packaging scripts. client_ldflags prints the linker flag
# that builds the OAuth client named by GOOGLE_CLIENT_SECRET (a Google Cloud
# "Desktop app" client's client_secret JSON) into Hoist, or nothing when
# none is named; it fails, saying why, on a file that is not such a client.
client_ldflags() {
	local file=${GOOGLE_CLIENT_SECRET:-}
	[ -n "$file" ] || return 0
	if [ ! -f "$file" ] || [ ! -r "$file" ]; then
		echo "GOOGLE_CLIENT_SECRET: \"$file\" is not a file that can be read" >&2
		return 1
	fi
	if ! grep -q '"installed"' "$file" || ! grep -q '"client_id"' "$file"; then
		echo "GOOGLE_CLIENT_SECRET: $file is not the client file of a \"Desktop app\" OAuth client (Google Cloud Console: Clients, Create client, Desktop app, Download JSON)" >&2
		return 1
	fi
	printf -- '-X=hoist/auth.embeddedClient=%s' "$(base64 -w0 <"$file")"
}

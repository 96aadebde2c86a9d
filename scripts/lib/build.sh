# Sourced by the packaging scripts.

# client_ldflags prints the linker flag that builds the OAuth client named by
# GOOGLE_CLIENT_SECRET (a Google Cloud "Desktop app" client's client_secret
# JSON) into Hoist, or nothing when none is named; it fails, saying why, on
# a file that is not such a client.
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

# build_linux ROOT OUT VERSION builds the Linux program of every Linux
# release file: position-independent, with read-only relocations bound at
# start (as Debian builds its programs), the version and the organisation's
# client built in. "make build" compiles the same way, so Go's cache serves
# each build after the first.
build_linux() {
	local root=$1 out=$2 version=$3 client
	client=$(client_ldflags) || return 1
	(cd "$root" && go build -buildmode=pie -trimpath \
		-ldflags "-s -w -X=hoist/cli.Version=$version${client:+ $client} -extldflags=-Wl,-z,relro,-z,now" \
		-o "$out" .)
}

#!/usr/bin/env bash
# Writes hoist(1), the manual page, on standard output, made from the
# program's own help ("hoist help" and each command's --help, in English), so
# that it says what the program does and never drifts from it.
#
# Usage: scripts/linux/manpage.sh PATH-TO-HOIST VERSION DATE >hoist.1
set -euo pipefail

bin=$1 version=$2 date=$3
export LANG=C.UTF-8 LC_ALL=C.UTF-8 LANGUAGE=

# roff: text made safe for a manual page: backslashes, minus signs, and a
# line starting with a dot or an apostrophe.
roff() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"; }

help=$("$bin" help)
# The paragraph before "Usage:" says what Hoist is; the lines after it are
# the commands, each "  FORM   WHAT IT DOES", what it does in one column.
about=$(sed -n '/^Usage:/q;p' <<<"$help" | sed '/^$/d')
forms=$(sed -n '/^Usage:/,/^$/p' <<<"$help" | sed -n 's/^  //p')
more=$(sed -n '/^Usage:/,$p' <<<"$help" | sed '1,/^$/d')
column=$(awk 'match($0, /[^ ]  +[^ ]/) { print RSTART + RLENGTH - 1; exit }' <<<"$forms")
[ -n "$column" ] || { echo "manpage: \"hoist help\" lists no commands" >&2; exit 1; }
form() { cut -c "1-$((column - 1))" | sed 's/ *$//'; }
what() { cut -c "$column-"; }

cat <<HEAD
.TH HOIST 1 "$date" "Hoist $version" "User Commands"
.SH NAME
hoist \\- upload images and email files to Google, with pause and resume
.SH SYNOPSIS
HEAD
while IFS= read -r line; do
	printf '.B %s\n.br\n' "$(form <<<"$line" | roff)"
done <<<"$forms"
echo ".SH DESCRIPTION"
roff <<<"$about"
echo ".PP"
echo "With no command, or only files, Hoist opens its window."
echo ".SH COMMANDS"
while IFS= read -r line; do
	printf '.TP\n.B %s\n%s\n' "$(form <<<"$line" | roff)" "$(what <<<"$line" | roff)"
done <<<"$forms"
[ -z "$more" ] || { echo ".PP"; roff <<<"$more"; }

# Each command's own help: its usage, what it does, its flags.
echo ".SH OPTIONS"
for cmd in $(awk '{print $2}' <<<"$forms" | grep -E '^[a-z]+$' | awk '!seen[$0]++'); do
	[ "$cmd" != version ] || continue
	text=$("$bin" "$cmd" --help 2>&1) || continue
	printf '.SS "hoist %s"\n' "$cmd"
	awk '
		function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); if (s ~ /^[.'"'"']/) s = "\\&" s; return s }
		{ line[NR] = $0 }
		# Forms listed under "Usage:" have what they do in one column.
		/^  hoist / && col == 0 && match($0, /[^ ]  +[^ ]/) { col = RSTART + RLENGTH - 1 }
		END {
			for (i = 1; i <= NR; i++) {
				l = line[i]
				if (l ~ /^Usage:/) { sub(/^Usage: ?/, "", l); if (l != "") print ".B " esc(l) "\n.br"; continue }
				if (l ~ /^  hoist / && col > 0 && length(l) >= col) {
					form = substr(l, 3, col - 3); sub(/ +$/, "", form)
					print ".TP\n.B " esc(form) "\n" esc(substr(l, col)); continue
				}
				if (l ~ /^  hoist /) { sub(/^ +/, "", l); print ".TP\n.B " esc(l) "\n"; continue }
				if (l ~ /^  --/) { sub(/^  /, "", l); flag = l; continue }
				if (l ~ /^    \t/ && flag != "") { sub(/^    \t/, "", l); print ".TP\n.B " esc(flag) "\n" esc(l); flag = ""; continue }
				if (l ~ /^      /) { sub(/^ +/, "", l); n = index(l, " "); d = substr(l, n + 1); sub(/^ +/, "", d); print ".RS\n.TP 12\n.B " esc(substr(l, 1, n - 1)) "\n" esc(d) "\n.RE"; continue }
				if (l ~ /^$/) continue
				print ".PP\n" esc(l)
			}
		}
	' <<<"$text"
done

cat <<'TAIL'
.SH FILES
Where Hoist keeps its settings, upload list and sign-ins, and how an
organisation sets it up for everyone, is described in
.I /usr/share/doc/hoist/README.md
and
.IR /usr/share/doc/hoist/administrators.md .
TAIL

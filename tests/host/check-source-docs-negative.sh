#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-source-docs must fail on a copy of the documentation that
# disagrees with the table, naming each disagreement: a source's verdict
# field missing from rng-health(8) and one of no source there, a FailOn=
# entry of no source in rng-health.conf(5), a label of no source in the
# alerting rules, and a wrong name list in the JSON's documentation.
set -euo pipefail
checker=$1 top=$2 dump=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/man" "$tmp/units" "$tmp/prometheus" "$tmp/doc" "$tmp/shell-completion/bash"
cp "$top"/man/rng-health.8 "$top"/man/rng-health.conf.5 "$tmp/man/"
cp "$top/units/rng-health.catalog" "$tmp/units/"
cp "$top/prometheus/rng-health.rules.yml" "$tmp/prometheus/"
cp "$top/doc/probe-json.md" "$tmp/doc/"
cp "$top/shell-completion/bash/rng-health" "$tmp/shell-completion/bash/"
"$checker" "$tmp" "$dump" >/dev/null || { echo "FAIL: the unchanged copy does not pass"; exit 1; }

# shellcheck disable=SC2086 # the wrapper is a command and its arguments
first=$(${RNG_HEALTH_EXE_WRAPPER:-} "$dump" | awk '$1 == "source" {print $3; exit}')
sed -i "s/RNG_${first}_VERDICT/RNG_NOSUCH_VERDICT/g" "$tmp/man/rng-health.8"
printf '.TP\n.BI nosuch: VERDICT\n' >>"$tmp/man/rng-health.conf.5"
# the rules' first label, whichever architecture's source it names
sed -i '0,/instruction="[^"]*"/s//instruction="nosuch"/' "$tmp/prometheus/rng-health.rules.yml"
sed -i 's/"name": "[^"]*|[^"]*"/"name": "nosuch"/' "$tmp/doc/probe-json.md"
rc=0
"$checker" "$tmp" "$dump" >"$tmp/out" || rc=$?
cat "$tmp/out"
[ "$rc" = 1 ] || { echo "FAIL: check-source-docs exited $rc on a broken copy, expected 1"; exit 1; }
for want in "does not name RNG_${first}_VERDICT" "names RNG_NOSUCH_VERDICT" "documents FailOn= entries" \
	"instruction=\"nosuch\"" "doc/probe-json.md does not list"; do
	grep -qF "$want" "$tmp/out" || { echo "FAIL: not named: $want"; exit 1; }
done
[ "$(grep -c '^FAIL:' "$tmp/out")" = 5 ] || { echo "FAIL: other problems reported too"; exit 1; }

# sources-by-architecture that disagrees with this build's table (its
# architecture's line without its first source) on unchanged documentation.
# shellcheck disable=SC2086
arch=$(${RNG_HEALTH_EXE_WRAPPER:-} "$dump" | awk '$1 == "source" && $5 != "any" {print $5; exit}')
if [ -n "$arch" ]; then
	mkdir "$tmp/bin" "$tmp/good"
	cp "$checker" "$tmp/bin/check-source-docs"
	sed "s/^\t\[$arch\]=\"[^ ]* /\t[$arch]=\"/" "$(dirname "$checker")/sources-by-architecture" >"$tmp/bin/sources-by-architecture"
	! cmp -s "$tmp/bin/sources-by-architecture" "$(dirname "$checker")/sources-by-architecture" ||
		{ echo "FAIL: could not alter sources-by-architecture's $arch line"; exit 1; }
	cp -r "$top/man" "$top/units" "$top/prometheus" "$top/doc" "$top/shell-completion" "$tmp/good/"
	rc=0
	"$tmp/bin/check-source-docs" "$tmp/good" "$dump" >"$tmp/out2" || rc=$?
	cat "$tmp/out2"
	[ "$rc" = 1 ] && grep -qF "the table's $arch sources are" "$tmp/out2" ||
		{ echo "FAIL: a sources-by-architecture that disagrees with the table was not named"; exit 1; }
fi
echo "ok: a missing and an unknown verdict field, a FailOn= entry, a rules label, the JSON's names and a wrong list of an architecture's sources are each named"

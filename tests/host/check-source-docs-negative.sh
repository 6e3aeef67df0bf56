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
echo "ok: a missing and an unknown verdict field, a FailOn= entry, a rules label and the JSON's names are each named"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-source-names must notice a source named outside the table: on a
# copy of service/ it passes, then fails for a monitor/ file that names
# one (in its text, in its path) and for a seventh engine/ file, naming
# each, while a test, the table's folder and a scripted source still do
# not count.
set -euo pipefail
checker=$1 top=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/service"
cp -r "$top/service/engine" "$top/service/monitor" "$top/service/cli" "$tmp/service/"
"$checker" "$tmp" >"$tmp/out" || { cat "$tmp/out"; echo "FAIL: the unchanged copy does not pass"; exit 1; }

# Allowed places: never counted.
echo '/* RDRAND */' >"$tmp/service/monitor/test-extra.c"
echo '/* rdseed */' >"$tmp/service/engine/sources/extra.c"
echo '/* RDSEED */' >"$tmp/service/cli/fuzz-extra.c"
"$checker" "$tmp" >"$tmp/out" || { cat "$tmp/out"; echo "FAIL: a test or the table's folder was counted"; exit 1; }

# A monitor file naming one in a comment, a cli file in its name, seven engine files.
echo '/* the kernel falls back to RDRAND */' >"$tmp/service/monitor/zz-extra.c"
: >"$tmp/service/cli/zz-rdseed.c"
for i in 1 2 3 4 5 6 7; do echo "static const char *x$i = \"rdseed\";" >"$tmp/service/engine/zz-$i.c"; done
rc=0
"$checker" "$tmp" >"$tmp/out" || rc=$?
cat "$tmp/out"
[ "$rc" = 1 ] || { echo "FAIL: check-source-names exited $rc on a copy that names sources, expected 1"; exit 1; }
grep -q '^  service/monitor/zz-extra.c$' "$tmp/out" || { echo "FAIL: the monitor file was not named"; exit 1; }
grep -q '^  service/cli/zz-rdseed.c$' "$tmp/out" || { echo "FAIL: the cli file (by its name) was not named"; exit 1; }
grep -q '^FAIL: 7 files in service/engine' "$tmp/out" || { echo "FAIL: seven engine files were not counted"; exit 1; }
[ "$(grep -c '^FAIL:' "$tmp/out")" = 3 ] || { echo "FAIL: not one failure per folder"; exit 1; }

# Six engine files are within the target.
rm "$tmp/service/engine/zz-7.c" "$tmp/service/monitor/zz-extra.c" "$tmp/service/cli/zz-rdseed.c"
"$checker" "$tmp" >"$tmp/out" || { cat "$tmp/out"; echo "FAIL: six engine files failed"; exit 1; }
echo "ok: a named source in monitor/ (text), cli/ (path) and a seventh in engine/ each fail; tests and the table do not count"

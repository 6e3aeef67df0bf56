#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every alert rule of RULES has, in the promtool tests of TESTS, a case in
which it fires (an alert_rule_test entry with exp_alerts) and one in which
it does not (an entry without), and the test of that case feeds the rule's
metrics (its input_series has every rng_health_*/node_* metric the rule's
expression reads): a "does not fire" over no data shows nothing. Names each
rule that lacks one; also each case for an alert no rule defines.

  check-rules-cases.py RULES TESTS      0: every rule covered; 1: not
"""
import re
import sys

import yaml

METRIC = re.compile(r"\b((?:rng_health|node)_[a-z0-9_]+)\b")


def main():
    rules_path, tests_path = sys.argv[1], sys.argv[2]
    with open(rules_path) as f:
        rules = [r for g in yaml.safe_load(f)["groups"] for r in g["rules"] if "alert" in r]
    with open(tests_path) as f:
        tests = yaml.safe_load(f)["tests"]
    bad = 0

    def fail(msg):
        nonlocal bad
        print("FAIL:", msg)
        bad += 1

    if not rules:
        fail(f"{rules_path}: no alert rules")
    # alert -> {"fires": [...], "silent": [...]}: (test index, eval_time, metrics fed)
    cases = {}
    for i, t in enumerate(tests):
        fed = {m for s in t.get("input_series", []) for m in METRIC.findall(s["series"].split("{")[0])}
        for c in t.get("alert_rule_test", []):
            kind = "fires" if c.get("exp_alerts") else "silent"
            cases.setdefault(c["alertname"], {"fires": [], "silent": []})[kind].append((i, c["eval_time"], fed))
    names = {r["alert"] for r in rules}
    for name in sorted(set(cases) - names):
        fail(f"{tests_path}: cases for alert {name}, which {rules_path} does not define")
    for r in rules:
        name = r["alert"]
        need = set(METRIC.findall(r["expr"]))
        if not need:
            fail(f"{name}: its expression reads no rng_health_*/node_* metric: {r['expr']!r}")
        for kind, what in (("fires", "fires"), ("silent", "does not fire")):
            have = cases.get(name, {}).get(kind, [])
            fed = [c for c in have if need <= c[2]]
            if not have:
                fail(f"{name}: no case in which it {what}")
            elif not fed:
                fail(f"{name}: no case in which it {what} with input for {', '.join(sorted(need))} "
                     f"(tests {sorted({c[0] for c in have})} feed none of it)")
            else:
                print(f"ok: {name} {what} in test {fed[0][0]} at {fed[0][1]}"
                      + (f" (and {len(fed) - 1} more)" if len(fed) > 1 else ""))
    if bad:
        return 1
    print(f"ok: each of the {len(rules)} alert rules has a case in which it fires and one in which it does not")
    return 0


if __name__ == "__main__":
    sys.exit(main())

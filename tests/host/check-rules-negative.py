#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Negative controls of the alerting rules' tests (run by check-rules
--negative): a test that cannot fail proves nothing.

  * A typo in any one rule's expression (each metric it reads renamed) makes
    `promtool test rules` fail, naming that alert: each rule's firing case
    sees it.
  * check-rules-cases.py fails, naming the rule, on a copy of the tests
    without any one rule's firing cases, and on one without its
    not-firing cases.

  check-rules-negative.py PROMTOOL RULES TESTS CASES-CHECKER
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

METRIC = re.compile(r"\b((?:rng_health|node)_[a-z0-9_]+)\b")


def main():
    promtool, rules_path, tests_path, cases = sys.argv[1:5]
    with open(rules_path) as f:
        rules_doc = yaml.safe_load(f)
    with open(tests_path) as f:
        tests_doc = yaml.safe_load(f)
    names = [r["alert"] for g in rules_doc["groups"] for r in g["rules"] if "alert" in r]
    bad = 0

    def fail(msg):
        nonlocal bad
        print("FAIL:", msg)
        bad += 1

    with tempfile.TemporaryDirectory() as tmp:
        def write(name, doc):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                yaml.safe_dump(doc, f, sort_keys=False)
            return path

        # Each rule's firing cases alone (the tests that have one, only
        # that rule's entries): promtool runs them in seconds, not minutes.
        def firing_only(name):
            out = []
            for t in tests_doc["tests"]:
                keep = [c for c in t.get("alert_rule_test", []) if c["alertname"] == name and c.get("exp_alerts")]
                if keep:
                    out.append(dict(t, alert_rule_test=keep))
            return out

        for name in names:
            firing = firing_only(name)
            if not firing:
                fail(f"{name}: no firing case to run")
                continue
            # The unchanged rules pass them: the failure below comes from the typo.
            same = write(f"same-{name}.yml", dict(tests_doc, rule_files=[rules_path], tests=firing))
            p = subprocess.run([promtool, "test", "rules", same], capture_output=True, text=True)
            if p.returncode != 0:
                fail(f"{name}: its firing cases fail with the unchanged rules:\n{p.stdout}{p.stderr}")
                continue
            doc = yaml.safe_load(yaml.safe_dump(rules_doc))
            rule = next(r for g in doc["groups"] for r in g["rules"] if r.get("alert") == name)
            rule["expr"] = METRIC.sub(r"\1_typo", rule["expr"])
            tests = write(f"tests-{name}.yml",
                          dict(tests_doc, rule_files=[write(f"rules-{name}.yml", doc)], tests=firing))
            p = subprocess.run([promtool, "test", "rules", tests], capture_output=True, text=True)
            out = p.stdout + p.stderr
            if p.returncode == 0:
                fail(f"{name}: promtool test rules passes with a typo in its expression ({rule['expr']!r})")
            elif f"alertname: {name}," not in out:
                fail(f"{name}: promtool test rules fails with a typo in its expression, but does not name it:\n{out}")
            else:
                print(f"ok: a typo in {name}'s expression fails its firing case")

        for name in names:
            for kind, drop in (("fires", lambda c: bool(c.get("exp_alerts"))),
                               ("does not fire", lambda c: not c.get("exp_alerts"))):
                doc = yaml.safe_load(yaml.safe_dump(tests_doc))
                for t in doc["tests"]:
                    t["alert_rule_test"] = [c for c in t.get("alert_rule_test", [])
                                            if not (c["alertname"] == name and drop(c))]
                path = write("cases.yml", doc)
                p = subprocess.run([sys.executable, cases, rules_path, path], capture_output=True, text=True)
                want = f"FAIL: {name}: no case in which it {kind}"
                lines = [x for x in p.stdout.splitlines() if x.startswith("FAIL:")]
                if p.returncode != 1 or lines != [want]:
                    fail(f"{name}: without its cases in which it {kind}, check-rules-cases.py exited "
                         f"{p.returncode} and said {lines}, expected exactly {want!r}")
        if not bad:
            print(f"ok: check-rules-cases.py names each of the {len(names)} rules without a firing or a "
                  "not-firing case")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`rng-health report` over a central journal: a simulated fleet written by
systemd-journal-remote from export format (fleet-journal.py, which also
says what the fleet is), read with -D and --file:

  - --fleet --json: every machine with its last verdict per source, CPU,
    microcode, kernel and erratum status as the fleet was made; the counts
    by verdict and by CPU model and microcode; entries forged by another
    user on a machine (their unit and uid) ignored and counted, a
    malformed one counted;
  - the text: a line per machine, one block per machine and boot;
  - --boot=ID narrows to that boot; --svg draws the figure per CPU model
    and microcode, checked in its pixels (check-svg.py) against the means
    computed here;
  - bad input: a directory that is not one, a file that is not a journal,
    files this user may not read, nothing there: one line, distinct exit
    statuses (65, 66, 77).

  report-fleet.py RNG_HEALTH FLEET_JOURNAL CHECK_SVG
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

bad = 0


def fail(msg):
    global bad
    print("FAIL:", msg)
    bad += 1


def run(prog, *args, user=None):
    cmd = [prog, "report", *args]
    if user:
        cmd = ["setpriv", "--reuid=" + user, "--regid=nogroup", "--clear-groups", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def main():
    prog, gen, check = sys.argv[1:4]
    jr = "/lib/systemd/systemd-journal-remote"
    if not os.access(jr, os.X_OK):
        if os.environ.get("RNG_HEALTH_HOST_SETUP"):
            print(f"FAIL: no {jr} (tools/setup-host installs systemd-journal-remote)")
            return 1
        print(f"SKIP: no {jr} (package systemd-journal-remote)")
        return 77
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        central, expect_path = os.path.join(d, "remote"), os.path.join(d, "expect.json")
        # 12 machines, a file each (a central's --split-mode=host), two
        # of them with a forged verdict, one with a malformed entry
        r = subprocess.run([sys.executable, gen, "--out", central, "--machines", "12", "--files", "12",
                            "--forged", "2", "--malformed", "1", "--seed", "7", "--expect", expect_path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL: fleet-journal.py:", r.stderr)
            return 1
        print(r.stdout.strip())
        with open(expect_path) as f:
            expect = json.load(f)

        # --- the fleet, as JSON, against what it was made of
        r = run(prog, "-D", central, "--fleet", "--json")
        if r.returncode != 0:
            print(f"FAIL: report -D --fleet --json: exit {r.returncode}: {r.stderr}")
            return 1
        if r.stderr.strip() != "rng-health report: skipped 1 journal entry with a malformed field (first: RNG_RUN_FAILURE_RATES)":
            fail(f"stderr: {r.stderr!r}")
        j = json.loads(r.stdout)
        if j["schema"] != "rng-health.fleet/1":
            fail(f"schema {j['schema']}")
        got = {m["machine_id"]: m for m in j["machines"]}
        if len(got) != len(expect["machines"]):
            fail(f"{len(got)} machines, expected {len(expect['machines'])}")
        for m in expect["machines"]:
            g = got.get(m["machine_id"])
            if not g:
                fail(f"machine {m['machine_id']} ({m['hostname']}) missing")
                continue
            for k in ("hostname", "boots", "verdicts", "cpu", "kernel_release", "erratum_status"):
                if g[k] != m[k]:
                    fail(f"{m['hostname']}: {k} {g[k]!r}, expected {m[k]!r}")
        if [m["hostname"] for m in j["machines"]] != sorted(m["hostname"] for m in expect["machines"]):
            fail("machines not in hostname order")
        by_verdict = {}
        groups = {}
        for m in expect["machines"]:
            for s, v in m["verdicts"].items():
                by_verdict.setdefault(s, {}).setdefault(v, 0)
                by_verdict[s][v] += 1
            key = json.dumps(m["cpu"], sort_keys=True)
            groups.setdefault(key, []).append(m)
        if j["by_verdict"] != by_verdict:
            fail(f"by_verdict {j['by_verdict']}, expected {by_verdict}")
        got_groups = {json.dumps(g["cpu"], sort_keys=True): g["machines"] for g in j["by_cpu"]}
        want_groups = {k: len(v) for k, v in groups.items()}
        if got_groups != want_groups:
            fail(f"by_cpu {got_groups}, expected {want_groups}")
        if [g["machines"] for g in j["by_cpu"]] != sorted([g["machines"] for g in j["by_cpu"]], reverse=True):
            fail("by_cpu not most machines first")
        if j["foreign_entries"] != expect["foreign"] or j["malformed_entries"] != expect["malformed"]:
            fail(f"foreign {j['foreign_entries']} malformed {j['malformed_entries']}, expected "
                 f"{expect['foreign']} and {expect['malformed']}")
        if not bad:
            print(f"ok: --fleet --json: {len(got)} machines, verdicts, CPU, microcode, kernel and erratum status as "
                  f"made; by verdict and by CPU model/microcode; {expect['foreign']} forged ignored, "
                  f"{expect['malformed']} malformed counted")

        # --- the text: a line per machine, then the counts
        r = run(prog, "-D", central, "--fleet")
        lines = r.stdout.splitlines()
        print("\n".join(lines[:4]) + "\n...")
        for m in expect["machines"]:
            line = [x for x in lines if f"  {m['hostname']}  " in x]
            words = line[0].split() if line else []
            want = [m["machine_id"][:12], m["hostname"], m["verdicts"]["RDRAND"], m["verdicts"]["RDSEED"],
                    m["cpu"]["vendor"], "/".join((m["cpu"]["family"], m["cpu"]["model"], m["cpu"]["stepping"])),
                    m["cpu"]["microcode"], m["kernel_release"]]
            if words[:8] != want:
                fail(f"fleet line of {m['hostname']}: {words[:8]}, expected {want}")
        if f"{len(expect['machines'])} machines." not in lines:
            fail("no machine count line")
        if not any(x.startswith(f"{expect['foreign']} entries from other senders ignored") for x in lines):
            fail("the ignored entries are not said")

        # --- one block per machine and boot; --file reads the same
        r = run(prog, "-D", central)
        blocks = [x for x in r.stdout.splitlines() if x.startswith("Machine ")]
        boots = [x for x in r.stdout.splitlines() if x.startswith("Boot ")]
        if len(blocks) != len(expect["machines"]) or len(boots) != sum(m["boots"] for m in expect["machines"]):
            fail(f"{len(blocks)} machine blocks and {len(boots)} boots")
        m0 = expect["machines"][0]
        if f"Machine {m0['machine_id']} ({m0['hostname']}): {m0['boots']} boots" not in blocks:
            fail(f"no block for {m0['hostname']}: {blocks[:3]}")
        files = sorted(os.path.join(central, f) for f in os.listdir(central))
        rf = run(prog, *[a for f in files for a in ("--file", f)], "--fleet", "--json")
        if rf.returncode != 0 or json.loads(rf.stdout)["machines"] != j["machines"]:
            fail(f"--file of every file differs from -D (exit {rf.returncode})")
        r = run(prog, "--file", files[0], "--json")
        rj = json.loads(r.stdout)
        if len({b["machine_id"] for b in rj["boots"]}) != 1 or rj["boots"][0]["cpu"] is None:
            fail("--file of one machine's file: not that machine alone, with its CPU")
        boot = rj["boots"][-1]["boot_id"]
        r = run(prog, "-D", central, "--json", f"--boot={boot}")
        if r.returncode != 0 or [b["boot_id"] for b in json.loads(r.stdout)["boots"]] != [boot]:
            fail(f"-D --boot={boot}: exit {r.returncode}")
        if not bad:
            print(f"ok: -D: one block per machine and boot ({len(blocks)} machines, {len(boots)} boots); --file the "
                  f"same; --boot=ID narrows")

        # --- the figure per CPU model and microcode, in its pixels
        svg = os.path.join(d, "fleet.svg")
        r = run(prog, "-D", central, "--fleet", "--svg", svg)
        if r.returncode != 0:
            fail(f"--fleet --svg: exit {r.returncode}: {r.stderr}")
        order = sorted(groups.values(), key=lambda ms: (-len(ms), min(m["hostname"] for m in ms)))
        panels = []
        for ms in order:
            series = []
            for s in ("RDRAND", "RDSEED"):
                for w in (16, 32, 64):
                    pts = {}
                    for m in ms:
                        for k, v in m["rates"][s].items():
                            width, _, threads = k.split("/")
                            if int(width) == w:
                                pts.setdefault(int(threads), []).append(v)
                    if pts:
                        series.append({"label": f"{s} {w}-bit",
                                       "points": [[t, sum(v) / len(v)] for t, v in sorted(pts.items())]})
            if series:
                panels.append({"title": ms[0]["cpu"]["microcode"], "series": series})
        # machines whose probe listed no run draw nothing: a group may
        # have no panel (the generator gives every machine at least one)
        with open(os.path.join(d, "fleet-expect.json"), "w") as f:
            json.dump({"panels": panels}, f)
        keep = os.environ.get("RNG_HEALTH_FLEET_PNG")
        r = subprocess.run([check, svg, os.path.join(d, "fleet-expect.json")] + (["--keep-png", keep] if keep else []),
                           capture_output=True, text=True)
        print(r.stdout, end="")
        if r.returncode != 0:
            fail(f"check-svg on the fleet figure: exit {r.returncode} {r.stderr}")

        # --- bad input: one line, a distinct status each
        notdir = files[0]
        junk = os.path.join(d, "junk.journal")
        with open(junk, "w") as f:
            f.write("not a journal\n")
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        private = os.path.join(d, "private")
        os.mkdir(private)
        shutil.copy(files[0], private)
        os.chmod(os.path.join(private, os.path.basename(files[0])), 0o600)
        cases = [
            (["-D", os.path.join(d, "none")], 66, "--directory: '%s': no such file or directory" % os.path.join(d, "none"), None),
            (["-D", empty], 66, "--directory: '%s': no journal files there" % empty, None),
            (["-D", notdir], 65, "--directory: '%s': not a directory" % notdir, None),
            (["--file", junk], 65, "--file: '%s': not a journal file" % junk, None),
            (["--file", empty], 65, "--file: '%s': is a directory, not a file" % empty, None),
            (["--file", os.path.join(d, "none.journal")], 66, "no such file or directory", None),
            (["-D", private], 77, "--directory: '%s': not readable by this user" % private, "nobody"),
            (["--file", os.path.join(private, os.path.basename(files[0]))], 77, "not readable by this user", "nobody"),
            (["-D", central, "--boot=-1"], 2, "--boot: a boot ID with --directory/--file", None),
            (["-D", central, "--svg", svg], 2, "--svg: only with --fleet", None),
            (["-D", central, "--fleet", "--svg", empty], 73, "--svg: cannot write '%s': is a directory" % empty, None),
        ]
        for args, status, text, user in cases:
            r = run(prog, *args, user=user)
            errs = r.stderr.strip().splitlines()
            if r.returncode != status or len(errs) != 1 or text not in errs[0] or r.stdout:
                fail(f"report {' '.join(args)}{' as ' + user if user else ''}: exit {r.returncode} (expected {status}), "
                     f"stderr {r.stderr!r}, stdout {r.stdout[:80]!r}")
            else:
                print(f"ok: report {' '.join(a.replace(d, '$D') for a in args)}: exit {status}: {errs[0].replace(d, '$D')}")
        # the positive control of the permission case: root reads it
        r = run(prog, "-D", private, "--fleet", "--json")
        if r.returncode != 0 or len(json.loads(r.stdout)["machines"]) != 1:
            fail(f"-D of the private copy as root: exit {r.returncode}")
    if bad:
        print(f"report-fleet: {bad} failure(s)")
        return 1
    print("report-fleet: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

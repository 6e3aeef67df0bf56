#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a central journal of a simulated fleet, the way a central
systemd-journal-remote stores what its machines' systemd-journal-upload
send: each machine's entries as journal export format (every field the
sender's journald recorded, trusted ones included: _BOOT_ID, _MACHINE_ID,
_HOSTNAME, _TRANSPORT, _SYSTEMD_UNIT, _UID, the timestamps) fed to
systemd-journal-remote, which writes the journal files. What the fleet is
comes from this script alone, and what report --fleet must say of it is
written beside (--expect): the independent reference of report-fleet.py
and the truth behind bench/fleet-report.sh.

  fleet-journal.py --out DIR --machines N [--files K] [--boots B]
                   [--probes P] [--noise E] [--forged F] [--malformed M]
                   [--seed S] [--expect FILE] [--journal-remote PATH]

Each machine: a CPU model and microcode (a Xeon whose RDSEED runs out, a
Zen5 whose RDSEED returns zeros below its fixed microcode, a healthy
Milan), B boots, each with the boot verdict and P probes (a probe result
per source, every 6 h), and E other entries of other units per boot (what a
central journal mostly holds). F machines also carry a verdict forged by
another user on them (its own unit and uid, rng-health's MESSAGE_IDs and
fields), M an entry of the service with a malformed RNG_RUN_FAILURE_RATES.
The machines are spread over K journal files (one systemd-journal-remote
run each, --split-mode=none as a central configured so writes; K = N: a
file per machine, like --split-mode=host).
"""
import argparse
import hashlib
import json
import os
import random
import subprocess
import sys

MID_PROBE_RESULT = "a1d8857c7f454436bd2b315b0afb813c"
MID_VERDICT_BOOT = "967e48a8dd4b4e31a946aa9d2f554e9f"
MID_VERDICT_CHANGED = "78c178913bfa4de781820d76fbaf7dcd"
SOURCES = ["RDRAND", "RDSEED"]
ORDER = ["unsupported", "hidden", "ok", "degraded", "exhausted", "broken"]

# (vendor, family, model, stepping, name, [(microcode, {source: (verdict,
# erratum status, {(width, mode, threads): ratio})})], weight)
XEON = ("GenuineIntel", "0x6", "0x8f", "0x8", "Intel(R) Xeon(R) Platinum 8480+")
ZEN5 = ("AuthenticAMD", "0x1a", "0x2", "0x1", "AMD EPYC 9B45")
MILAN = ("AuthenticAMD", "0x19", "0x1", "0x1", "AMD EPYC 7B13")


def shape(cpu, ucode):
    """verdict, erratum status and run ratios per source for a CPU."""
    healthy = {(64, "single", 1): 0.0, (64, "contention", 8): 0.0}
    ok = {"RDRAND": ("ok", "none", healthy), "RDSEED": ("ok", "none", healthy)}
    if cpu == XEON:
        ok["RDSEED"] = ("exhausted", "none", {(64, "single", 1): 0.716, (64, "contention", 16): 0.984,
                                              (32, "single", 1): 0.70, (32, "contention", 16): 0.98})
    elif cpu == ZEN5:
        status = "amd-zen5-rdseed: fixed in microcode 0xb00215a, running %s: %s" % (
            ucode, "fixed" if int(ucode, 16) >= 0xb00215a else "not fixed")
        if int(ucode, 16) < 0xb00215a:
            ok["RDSEED"] = ("broken", status, {(32, "single", 1): 0.01, (32, "contention", 8): 0.40,
                                               (64, "single", 1): 0.0, (64, "contention", 8): 0.35})
        else:
            ok["RDSEED"] = ("degraded", status, {(32, "single", 1): 0.001, (32, "contention", 8): 0.05,
                                                 (64, "single", 1): 0.0, (64, "contention", 8): 0.04})
    return ok


# What an earlier probe result of a machine says instead of its latest
# verdict (fleet-journal.py varies the verdicts across boots and probes).
EARLIER = {"ok": "degraded", "degraded": "ok", "exhausted": "ok", "broken": "degraded"}

MODELS = [(XEON, ["0x2b000620", "0x2b000603"], 5), (ZEN5, ["0xb002110", "0xb00215a"], 3), (MILAN, ["0xa0011d5"], 2)]


def hexid(*parts):
    return hashlib.md5("/".join(map(str, parts)).encode()).hexdigest()


def entry(out, realtime, monotonic, boot, machine, host, unit, uid, fields):
    out.append("__CURSOR=s=%s;i=%x" % (boot, monotonic))
    out.append("__REALTIME_TIMESTAMP=%d" % realtime)
    out.append("__MONOTONIC_TIMESTAMP=%d" % monotonic)
    out.append("_BOOT_ID=" + boot)
    out.append("_MACHINE_ID=" + machine)
    out.append("_HOSTNAME=" + host)
    out.append("_TRANSPORT=journal")
    out.append("_SYSTEMD_UNIT=" + unit)
    out.append("_UID=%d" % uid)
    out.append("_PID=%d" % (100 + monotonic % 30000))
    for k, v in fields:
        out.append("%s=%s" % (k, v))
    out.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--machines", type=int, required=True)
    ap.add_argument("--files", type=int, default=1)
    ap.add_argument("--boots", type=int, default=2)
    ap.add_argument("--probes", type=int, default=4)
    ap.add_argument("--noise", type=int, default=20)
    ap.add_argument("--forged", type=int, default=0)
    ap.add_argument("--malformed", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--expect")
    ap.add_argument("--journal-remote", default="/lib/systemd/systemd-journal-remote")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    start = 1764720000000000  # 2025-12-03
    files = [[] for _ in range(max(1, min(a.files, a.machines)))]
    expect = {"machines": [], "foreign": 0, "malformed": 0, "entries": 0}
    weights = [m[2] for m in MODELS]

    for i in range(a.machines):
        cpu, ucodes, _ = rnd.choices(MODELS, weights)[0]
        ucode = rnd.choice(ucodes)
        machine = hexid(a.seed, "machine", i)
        host = "node-%04d" % i
        uid = 61184 + rnd.randrange(4000)  # DynamicUser='s range
        kernel = rnd.choice(["6.12.57+deb13-amd64", "6.12.48+deb13-amd64"])
        out = files[i % len(files)]
        sh = shape(cpu, ucode)
        t = start + rnd.randrange(3600) * 1000000
        for b in range(a.boots):
            boot = hexid(a.seed, "boot", i, b)
            mono = 1500000
            # The boot verdict: its boot's first probe's (the latest
            # verdict only where that probe is the machine's latest).
            first = {s: sh[s][0] if (b == a.boots - 1 and a.probes == 1) else EARLIER[sh[s][0]] for s in SOURCES}
            overall = max(first.values(), key=ORDER.index)
            fields = [("MESSAGE_ID", MID_VERDICT_BOOT), ("PRIORITY", "6"), ("SYSLOG_IDENTIFIER", "rng-health"),
                      ("MESSAGE", "Hardware RNG verdict at boot: %s" % overall), ("RNG_VERDICT", overall),
                      ("RNG_FAIL_ON", "none"), ("RNG_CONFIDENTIAL_VM", "none"), ("RNG_TRIGGER", "boot")]
            fields += [("RNG_%s_VERDICT" % s, first[s]) for s in SOURCES]
            entry(out, t, mono, boot, machine, host, "rng-health.service", uid, fields)
            for p in range(a.probes):
                for s in SOURCES:
                    verdict, status, rates = sh[s]
                    attempts = 24576
                    ratio = max(rates.values()) if rates else 0.0
                    failures = int(attempts * ratio / 2)
                    # Only the machine's latest probe result has its shape's
                    # verdict; every earlier one (earlier boots, earlier
                    # probes of the last boot) has another, so that a fleet
                    # taken from the earliest, or from any but the latest,
                    # is told apart from the right one.
                    if not (b == a.boots - 1 and p == a.probes - 1):
                        verdict = EARLIER[verdict]
                        if verdict == "ok":
                            failures = 0
                    rr = " ".join("%d/%s/%d%s=%.4f" % (w, m, th, "@0" if m == "contention" else "", r)
                                  for (w, m, th), r in sorted(rates.items()))
                    fields = [("MESSAGE_ID", MID_PROBE_RESULT), ("PRIORITY", "6"), ("SYSLOG_IDENTIFIER", "rng-health"),
                              ("MESSAGE", "%s %s" % (s, verdict)), ("RNG_INSTRUCTION", s), ("RNG_VERDICT", verdict),
                              ("RNG_TOTAL_ATTEMPTS", attempts), ("RNG_TOTAL_FAILURES", failures),
                              ("RNG_TOTAL_RETRY_EXHAUSTED", 0), ("RNG_MAX_FAIL_STREAK", 3), ("RNG_KERNEL_RETRIES", 10),
                              ("RNG_CPU_VENDOR", cpu[0]), ("RNG_CPU_FAMILY", cpu[1]), ("RNG_CPU_MODEL", cpu[2]),
                              ("RNG_CPU_STEPPING", cpu[3]), ("RNG_CPU_MICROCODE", ucode), ("RNG_CPU_MODEL_NAME", cpu[4]),
                              ("RNG_ERRATUM_STATUS", status), ("RNG_KERNEL_RELEASE", kernel),
                              ("RNG_RUN_FAILURE_RATES", rr), ("RNG_TRIGGER", "boot" if p == 0 else "reprobe")]
                    entry(out, t, mono, boot, machine, host, "rng-health.service", uid, fields)
                    t += 1000
                    mono += 1000
                for k in range(a.noise // max(1, a.probes)):
                    entry(out, t, mono, boot, machine, host, "systemd-logind.service", 0,
                          [("MESSAGE", "New session %d of user admin." % k), ("PRIORITY", "6"),
                           ("SYSLOG_IDENTIFIER", "systemd-logind")])
                    t += 1000
                    mono += 1000
                t += 6 * 3600 * 1000000
                mono += 6 * 3600 * 1000000
            t += 3600 * 1000000
        last = t
        if i < a.forged:
            # another user on that machine: rng-health's MESSAGE_ID and
            # fields, its own unit and uid (systemd-run -p User=nobody)
            entry(out, t, 5000, hexid(a.seed, "boot", i, a.boots - 1), machine, host, "run-u7.service", 65534,
                  [("MESSAGE_ID", MID_VERDICT_CHANGED), ("SYSLOG_IDENTIFIER", "rng-health"), ("RNG_VERDICT", "broken"),
                   ("MESSAGE", "forged")])
            expect["foreign"] += 1
        if i < a.malformed:
            entry(out, t + 1, 5001, hexid(a.seed, "boot", i, a.boots - 1), machine, host, "rng-health.service", uid,
                  [("MESSAGE_ID", MID_PROBE_RESULT), ("SYSLOG_IDENTIFIER", "rng-health"), ("RNG_INSTRUCTION", "RDSEED"),
                   ("RNG_VERDICT", "ok"), ("RNG_RUN_FAILURE_RATES", "64/single/1=1.5"), ("MESSAGE", "malformed")])
            expect["malformed"] += 1
        expect["machines"].append({
            "machine_id": machine, "hostname": host, "boots": a.boots,
            "verdicts": {s: sh[s][0] for s in SOURCES},
            "cpu": {"vendor": cpu[0], "family": cpu[1], "model": cpu[2], "stepping": cpu[3], "microcode": ucode,
                    "model_name": cpu[4]},
            "kernel_release": kernel, "erratum_status": {s: sh[s][1] for s in SOURCES},
            "rates": {s: {"%d/%s/%d" % k: v for k, v in sh[s][2].items()} for s in SOURCES}})

    os.makedirs(a.out, exist_ok=True)
    for k, lines in enumerate(files):
        if not lines:
            continue
        name = os.path.join(a.out, "remote-%04d.journal" % k)
        data = "\n".join(lines).encode() + b"\n"
        r = subprocess.run([a.journal_remote, "--split-mode=none", "--output=" + name, "-"], input=data,
                           capture_output=True)
        if r.returncode != 0:
            sys.exit("fleet-journal: systemd-journal-remote failed: %s" % r.stderr.decode(errors="replace"))
        expect["entries"] += sum(1 for x in lines if x.startswith("__CURSOR="))
    if a.expect:
        with open(a.expect, "w") as f:
            json.dump(expect, f, indent=1)
    print("fleet-journal: %d machines, %d entries in %d file(s) in %s" % (a.machines, expect["entries"],
                                                                       len([x for x in files if x]), a.out))


if __name__ == "__main__":
    main()

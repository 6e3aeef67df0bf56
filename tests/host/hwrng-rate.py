#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The probe's rate of the hwrng device against an independent reader in the
same test (no service/ code): this machine's /dev/hwrng read by Python for
1 s before and after `rng-health probe --instruction hwrng --duration 1s`
(which reads at most 4096 bytes). The probe's bytes per second must lie
within a factor of 2 of the readers' mean (fixed in advance: a device's
rate drifts, and the kernel's own hwrng thread competes for it). Also: the
probe's device, credit and verdict are the kernel's (sysfs), and its read
ends within its budget. Skips (saying why) without a readable /dev/hwrng.

  hwrng-rate.py RNG-HEALTH
"""
import json
import os
import subprocess
import sys
import time

DEVICE = "/dev/hwrng"
SYSFS = "/sys/class/misc/hw_random"
FACTOR = 2.0


def reader(seconds):
    """Bytes per second of /dev/hwrng over `seconds`, non-blocking reads."""
    fd = os.open(DEVICE, os.O_RDONLY | os.O_NONBLOCK)
    got, t0 = 0, time.monotonic()
    try:
        while time.monotonic() - t0 < seconds:
            try:
                got += len(os.read(fd, 4096))
            except BlockingIOError:
                time.sleep(0.001)
    finally:
        os.close(fd)
    return got / (time.monotonic() - t0), got


def attr(name):
    with open(os.path.join(SYSFS, name)) as f:
        return f.read().strip()


def main():
    rng_health = sys.argv[1]
    try:
        os.close(os.open(DEVICE, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as e:
        print(f"SKIP: {DEVICE} cannot be read here: {e.strerror}")
        return 77
    before, nb = reader(1.0)
    p = subprocess.run([rng_health, "probe", "--instruction", "hwrng", "--duration", "1s", "--json"],
                       capture_output=True, text=True, timeout=30)
    after, na = reader(1.0)
    if p.returncode != 0:
        print(f"FAIL: rng-health probe exited {p.returncode}: {p.stderr}")
        return 1
    doc = json.loads(p.stdout)
    hw = next(i for i in doc["instructions"] if i["name"] == "hwrng")
    bad = []
    if hw["read_error"]:
        bad.append(f"the probe could not read {DEVICE}: {hw['read_error']}")
    if len(hw["runs"]) != 1:
        bad.append(f"{len(hw['runs'])} runs, expected 1")
    credit = hw["kernel"]["credit"]
    if credit["device"] != attr("rng_current"):
        bad.append(f"device {credit['device']}, rng_current says {attr('rng_current')}")
    if credit["quality"] != int(attr("rng_quality")):
        bad.append(f"quality {credit['quality']}, rng_quality says {attr('rng_quality')}")
    if bad:
        for b in bad:
            print("FAIL:", b)
        return 1
    run = hw["runs"][0]
    ref = (before + after) / 2
    rate = run["bytes_per_sec"]
    print(f"independent reader: {before:.0f} B/s ({nb} B in 1 s) before, {after:.0f} B/s ({na} B) after; "
          f"mean {ref:.0f} B/s")
    print(f"rng-health probe: {rate:.0f} B/s ({run['bytes']} B in {run['wall_usec']} us; "
          f"budget {doc['params']['device_budget_usec']} us, at most {doc['params']['device_max_bytes']} B); "
          f"device {credit['device']}, quality {credit['quality']}, verdict {hw['verdict']}")
    ok = True
    if not (ref / FACTOR <= rate <= ref * FACTOR):
        print(f"FAIL: the probe's rate {rate:.0f} B/s is not within a factor of {FACTOR} of the reader's {ref:.0f} B/s")
        ok = False
    # What the read did, not how long it took (no wall-clock bound here:
    # bench/ measures time): at most the bytes it may read, and where it got
    # fewer, it kept reading until its budget ran out.
    if run["bytes"] > doc["params"]["device_max_bytes"]:
        print(f"FAIL: the read got {run['bytes']} B, more than its {doc['params']['device_max_bytes']} B")
        ok = False
    if run["bytes"] < doc["params"]["device_max_bytes"] and run["wall_usec"] < doc["params"]["device_budget_usec"]:
        print(f"FAIL: the read stopped after {run['wall_usec']} us with {run['bytes']} B, before its budget "
              f"and its bytes")
        ok = False
    if hw["verdict"] not in ("ok", "host-fed"):
        print(f"FAIL: verdict {hw['verdict']} for this machine's device")
        ok = False
    if ok:
        print(f"ok: the probe's rate agrees with the independent reader's (within a factor of {FACTOR})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

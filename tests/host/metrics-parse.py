#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The metrics text of test-metrics (service/monitor/test-metrics.c), parsed
# by an independent parser: prometheus_client's text-format parser
# (python3-prometheus-client). Every family has a HELP and a known type,
# counters end in _total, and the samples are the ones the unit test built.
# Negative control: a broken copy must not parse.
import subprocess
import sys
import tempfile

from prometheus_client.parser import text_string_to_metric_families

test_metrics = sys.argv[1]
with tempfile.NamedTemporaryFile("r", suffix=".prom") as f:
    subprocess.run([test_metrics, f.name], check=True, stdout=subprocess.DEVNULL)
    text = f.read()

families = {fam.name: fam for fam in text_string_to_metric_families(text)}
fail = []
for name, fam in families.items():
    if not name.startswith("rng_health_"):
        fail.append(f"{name}: not rng_health_")
    if not fam.documentation:
        fail.append(f"{name}: no HELP")
    if fam.type not in ("gauge", "counter"):
        fail.append(f"{name}: type {fam.type}")
    for s in fam.samples:
        if fam.type == "counter" and not s.name.endswith("_total"):
            fail.append(f"{s.name}: counter sample without _total")

want = ["rng_health_info", "rng_health_verdict", "rng_health_kernel_verdict", "rng_health_probes",
        "rng_health_probe_tries", "rng_health_probe_failures", "rng_health_probe_values_over_kernel_retries",
        "rng_health_probe_kernel_loop_failures", "rng_health_probe_duration_seconds",
        "rng_health_last_probe_timestamp_seconds", "rng_health_kernel_retried", "rng_health_kernel_exhausted"]
for w in want:
    if w not in families:
        fail.append(f"family {w} missing (have {sorted(families)})")


def sample(family, **labels):
    for s in families[family].samples:
        if s.labels == labels:
            return s.value
    return None


checks = [
    (sample("rng_health_verdict", instruction="rdseed", verdict="broken"), 1),
    (sample("rng_health_verdict", instruction="rdseed", verdict="exhausted"), 0),
    (sample("rng_health_probe_tries", instruction="rdseed", width="32", mode="single"), 3000),
    (sample("rng_health_kernel_exhausted", instruction="rdseed"), 3),
    (sample("rng_health_probe_duration_seconds"), 1.23456789),
    # issue 31's attribution labels, empty where the report knows no CPU
    # (test-metrics' probes), and the erratum status "unknown" then
    (sample("rng_health_info", instruction="rdseed", version="0.1.0", kernel_retries="1",
            confidential_vm="tdx", cpu_vendor="", cpu_family="", cpu_model="", cpu_stepping="",
            cpu_microcode="", erratum_status="unknown", erratum='test-"q"\\x'), 1),
    # the hwrng device: no kernel loop, a verdict, its rate
    (sample("rng_health_verdict", instruction="hwrng", verdict="host-fed"), 1),
    (sample("rng_health_device_bytes_per_second", instruction="hwrng"), 10240),
]
for i, (got, exp) in enumerate(checks):
    if got != exp:
        fail.append(f"check {i}: {got!r} != {exp!r}")

broken = text.replace("rng_health_probes_total 2", "rng_health_probes_total two", 1)
try:
    list(text_string_to_metric_families(broken))
    fail.append("negative control: a non-numeric value parsed")
except ValueError:
    pass

if fail:
    print("\n".join(fail))
    sys.exit(1)
print(f"prometheus_client parsed {len(families)} families, "
      f"{sum(len(f.samples) for f in families.values())} samples; negative control refused")

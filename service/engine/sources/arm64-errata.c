/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The known misbehaviour of the arm64 sources, keyed by source (errata.h):
 * the table errata.c matches the CPU (MIDR_EL1: vendor the implementer,
 * family the architecture field 0xf, model the part number, cpu-id.h) and
 * the probe's results against, in arm64 builds. None of these is a vendor
 * erratum with a number: they are what projects that met them reported,
 * and each entry says what is known and what is not. No microcode fix is
 * known for any of them (fixes NULL): where a CPU is in an entry's range,
 * the erratum status says "no microcode fix". The kernel hides neither
 * register on any of these CPUs (Linux 6.12 has no arm64 RNG erratum):
 * kernel_action NULL. */

#include "arch.h"
#include "errata.h"
#include "macro.h"

#if RNG_SOURCES_ARM64
const Erratum errata_table[] = {
        {
                /* FEX-Emu PR #3726 (2024-06, "HostFeatures: Work around
                 * Qualcomm Oryon RNG errata"): "reading the RNDRRS register
                 * never returns success"; FEX hides RNG from x86 guests on
                 * Oryon by its MIDR. FEX PR #5426 (2026-04, Snapdragon X2
                 * Elite): "RNDRRS is still broken on this CPU" (implementer
                 * 0x51 part 0x002, Oryon-3); Oryon-1 and -2 are part 0x001.
                 * The symptom is every try failing. Not known: whether
                 * every stepping is affected, and whether RNDR is (FEX
                 * reports it works). */
                .id = "qcom-oryon-rndrrs",
                .vendor = "0x51",
                .family = 0xf, .model_min = 0x001, .model_max = 0x002, .stepping = -1,
                .instruction = RNG_SOURCE_RNDRRS,
                .widths = 1u << 2,
                .symptom_failures = true, .min_failure_rate = 1.0,
                .description = "Qualcomm Oryon (implementer 0x51, parts 0x001 and 0x002) RNDRRS never succeeds",
                .fix = "none known: the kernel seeds from RNDR (or the SMCCC TRNG) instead; FEX hides RNG from "
                       "its guests on Oryon",
                .sources = "FEX-Emu/FEX PR #3726 \"HostFeatures: Work around Qualcomm Oryon RNG errata\" (2024); "
                           "FEX-Emu/FEX PR #5426 \"Snapdragon X2 Elite fixes\" (2026): part numbers. No "
                           "Qualcomm erratum number is published",
        },
        {
                /* aws/aws-lc #3453 (2026-08), aws/aws-lc-rs #1233,
                 * rustls/rustls #3274, istio/ztunnel #2072, astral-sh/uv
                 * #21743: on Google Cloud n4a (Axion) nodes about 3-4 % of
                 * TLS handshakes aborted, because a single RNDR read
                 * failed and aws-lc had no retry (fixed by aws-lc commit
                 * 8d931575, PR #3475: a bounded retry). The failures
                 * clustered on certain physical hosts ("per-instance
                 * rather than per-machine-type": feldera PR #6795 saw one
                 * n4a node where RNDR failed on every call while its
                 * sibling was fine), sometimes for hours. ztunnel #2072
                 * gives n4a's part as 0xd8e (Neoverse N3), unlike C4A
                 * Axion's 0xd4f (Neoverse V2), and says n4a fails at a
                 * much higher rate; aws-lc #3453 calls n4a Neoverse V2.
                 * Not known: a vendor erratum, a confirmed MIDR list, the
                 * failure rate of single tries (the 3-4 % are handshakes,
                 * each several reads), and the cause (firmware, hypervisor
                 * or silicon). Matched on both parts, only with failed
                 * tries observed. Named by the core, not the cloud: the
                 * same part is AWS Graviton4's (aws-lc-rs #1233). */
                .id = "neoverse-v2-rndr",
                .vendor = "0x41",
                .family = 0xf, .model_min = 0xd4f, .model_max = 0xd4f, .stepping = -1,
                .instruction = RNG_SOURCE_RNDR,
                .widths = 1u << 2,
                .symptom_failures = true,
                .description = "Neoverse V2 (0xd4f: Google Axion C4A, AWS Graviton4) RNDR reads reported to fail "
                               "intermittently on certain cloud hosts (aws-lc #3453 names Axion n4a as V2; "
                               "ztunnel #2072 gives n4a part 0xd8e)",
                .fix = "none known in hardware or firmware; programs must retry RNDR (aws-lc 8d931575, PR #3475)",
                .sources = "aws/aws-lc #3453 and commit 8d931575 (PR #3475); aws/aws-lc-rs #1233; astral-sh/uv "
                           "#21743; rustls/rustls #3274; istio/ztunnel #2072; feldera/feldera PR #6795",
        },
        {
                /* The same reports, n4a's part as ztunnel #2072 gives it. */
                .id = "neoverse-n3-rndr",
                .vendor = "0x41",
                .family = 0xf, .model_min = 0xd8e, .model_max = 0xd8e, .stepping = -1,
                .instruction = RNG_SOURCE_RNDR,
                .widths = 1u << 2,
                .symptom_failures = true,
                .description = "Google Axion n4a hosts (Neoverse N3 0xd8e, per istio/ztunnel #2072) fail RNDR "
                               "reads intermittently: about 3-4 % of TLS handshakes, clustered on certain hosts",
                .fix = "none known in hardware or firmware; programs must retry RNDR (aws-lc 8d931575, PR #3475)",
                .sources = "aws/aws-lc #3453 and commit 8d931575 (PR #3475); aws/aws-lc-rs #1233; astral-sh/uv "
                           "#21743; istio/ztunnel #2072; feldera/feldera PR #6795",
        },
        {
                /* aws/aws-lc-rs #1233: "Also reported on Graviton 3/4",
                 * without figures. Graviton3 is Neoverse V1 (0xd40),
                 * Graviton4 Neoverse V2 (0xd4f: neoverse-v2-rndr). Not
                 * known: how often, on which hosts. */
                .id = "neoverse-v1-rndr",
                .vendor = "0x41",
                .family = 0xf, .model_min = 0xd40, .model_max = 0xd40, .stepping = -1,
                .instruction = RNG_SOURCE_RNDR,
                .widths = 1u << 2,
                .symptom_failures = true,
                .description = "AWS Graviton3 (Neoverse V1 0xd40) RNDR reads reported to fail intermittently "
                               "(no figures published)",
                .fix = "none known in hardware or firmware; programs must retry RNDR (aws-lc 8d931575, PR #3475)",
                .sources = "aws/aws-lc-rs #1233 (\"Also reported on Graviton 3/4\"); aws/aws-lc #3453",
        },
};

const size_t errata_table_size = ELEMENTSOF(errata_table);
#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "kernel-rng-msg.h"

/* MESSAGE_IDs of rng-health's journal events, all in one place. Each was
 * made with `systemd-id128 new` (= `journalctl --new-id128`) and is
 * explained in units/rng-health.catalog; man rng-health(8) lists them.
 * Never reuse or change an id: admins filter on them. */

#include <systemd/sd-id128.h>

/* One probe of one instruction: its verdict and the counters of the run
 * that decided it (RNG_INSTRUCTION, RNG_VERDICT, RNG_WIDTH, ...). */
#define RNG_MID_PROBE_RESULT_STR        "a1d8857c7f454436bd2b315b0afb813c"
/* The overall verdict of the first probe after the daemon started. */
#define RNG_MID_VERDICT_BOOT_STR        "967e48a8dd4b4e31a946aa9d2f554e9f"
/* The overall verdict differs from the previous one (re-probe, reload). */
#define RNG_MID_VERDICT_CHANGED_STR     "78c178913bfa4de781820d76fbaf7dcd"
/* An output check (stuck value, rates, SP 800-90B RCT/APT) failed in a run. */
#define RNG_MID_OUTPUT_CHECK_STR        "40c58cd78a8941649f51fb936030cc44"
/* An instruction is not in CPUID, or the kernel disabled it. */
#define RNG_MID_UNAVAILABLE_STR         "94cb13611d724332a1c9276f6334ee76"
/* A configuration file could not be used (file:line and key named). */
#define RNG_MID_CONFIG_INVALID_STR      "c232ae4933f44c0c83cb4a44843234c4"
/* The verdict is one of FailOn=: the daemon exits with failure. */
#define RNG_MID_POLICY_FAILURE_STR      "24ba1f2b793047dc8ce6d83d30881331"

/* The kernel watch (kernel-watch.h): the kernel's own RNG messages. */
/* The kernel's retry loop ran out ("<prefix><NAME> exhausted after 10
 * tries on CPU 1", kernel-rng-msg.h; RNG_COUNT from the kernel's
 * counters). */
#define RNG_MID_KERNEL_EXHAUSTED_STR    "6afb1a83c7bc4980acdc39cf56eda719"
/* "<NAME> failed": the warning as first posted in 2024 (kernels with it
 * but without the rest of the series). */
#define RNG_MID_KERNEL_FAILED_STR       "afc3fa1e389d4fd09025eccfbafec529"
/* The kernel disabled a source (one of the reasons of the table beside
 * the source table, kernel-state.h). */
#define RNG_MID_KERNEL_DISABLED_STR     "5f601626a168491082d4dbeb04f2e135"
/* "<NAME> is defective.": the confidential-computing boot check's panic. */
#define RNG_MID_KERNEL_DEFECTIVE_STR    "e6f45ebba3664214908f96a4b5d070c3"

/* The kernel reseeded its CRNG for a virtual machine fork ("random: crng
 * reseeded due to virtual machine fork": vmgenid says this VM is a clone
 * or a restored snapshot); RNG_COUNT: this boot's, so far. */
#define RNG_MID_VM_FORK_STR             "504eb1b2351e4f26a462276ba20dfb60"
/* The CRNG became ready after the boot verdict said it was not
 * ("random: crng init done"; RNG_CRNG_INIT_USEC). */
#define RNG_MID_CRNG_READY_STR          "8f33b8d7721d4274b5ad919a2af46d7f"

/* The MESSAGE_ID of a kernel watch event of kind k (kernel-rng-msg.h), for
 * the events and for report: one mapping. */
static inline const char *rng_kernel_message_id(KernelRngMsgKind k) {
        switch (k) {
        case KERNEL_RNG_MSG_EXHAUSTED:
                return RNG_MID_KERNEL_EXHAUSTED_STR;
        case KERNEL_RNG_MSG_FAILED:
                return RNG_MID_KERNEL_FAILED_STR;
        case KERNEL_RNG_MSG_DISABLED:
                return RNG_MID_KERNEL_DISABLED_STR;
        case KERNEL_RNG_MSG_DEFECTIVE:
        default:
                return RNG_MID_KERNEL_DEFECTIVE_STR;
        }
}

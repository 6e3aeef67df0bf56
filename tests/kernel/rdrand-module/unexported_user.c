// SPDX-License-Identifier: GPL-2.0
/*
 * The negative control of rdrand_user.c: it refers to x86_init_rdrand(),
 * which the kernel does not export, so modpost must refuse to link it.
 * If it links, the check cannot tell an exported symbol from a missing one.
 */
#include <linux/init.h>
#include <linux/module.h>

#include <asm/archrandom.h>

static void (*unexported_user_fn)(struct cpuinfo_x86 *c) = x86_init_rdrand;

static int __init unexported_user_init(void)
{
	return unexported_user_fn ? 0 : -ENODEV;
}

module_init(unexported_user_init);
MODULE_DESCRIPTION("rng-health test: a module that must not link");
MODULE_LICENSE("GPL");

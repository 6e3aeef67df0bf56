// SPDX-License-Identifier: GPL-2.0
/*
 * A module that uses the kernel's x86 RNG helpers.  rdrand_long() and
 * rdseed_long() are inline, and with the rng-health series they call the
 * out-of-line slow path (and, with CONFIG_X86_RNG_FAULT_INJECTION, the
 * injection hook): modpost must find those exported, or the module does
 * not link.  Its init reports only whether a value was delivered, never a
 * value.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/random.h>

#include <asm/archrandom.h>

static int __init rdrand_user_init(void)
{
	unsigned long v;

	pr_info("rdrand_user: rdrand_long() %s, rdseed_long() %s, arch_get_random_longs() %zu\n",
		rdrand_long(&v) ? "delivered" : "failed",
		rdseed_long(&v) ? "delivered" : "failed",
		arch_get_random_longs(&v, 1));
	return 0;
}

static void __exit rdrand_user_exit(void)
{
}

module_init(rdrand_user_init);
module_exit(rdrand_user_exit);
MODULE_DESCRIPTION("rng-health test: a module calling rdrand_long() and rdseed_long()");
MODULE_LICENSE("GPL");

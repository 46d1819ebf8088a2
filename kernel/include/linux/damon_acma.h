/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DAMON_ACMA: what a platform that powers memory off and on tells it.
 */
#ifndef _LINUX_DAMON_ACMA_H
#define _LINUX_DAMON_ACMA_H

#include <linux/errno.h>
#include <linux/types.h>

/**
 * struct damon_acma_platform_ops - Platform hooks of DAMON_ACMA.
 * @range_wanted:	Make [@start, @start + @size) usable before DAMON_ACMA
 *			adds it: for example power its DRAM on and confirm it.
 *			Return 0 when the range may be added, or a negative
 *			error code to refuse the add.
 * @range_gone:		[@start, @start + @size) was removed from the system;
 *			for example power off the DRAM that holds no memory
 *			any more.
 *
 * Both are called from process context and may sleep.  Without a
 * registered platform, ranges are added and removed with nothing else done.
 */
struct damon_acma_platform_ops {
	int (*range_wanted)(phys_addr_t start, unsigned long size);
	void (*range_gone)(phys_addr_t start, unsigned long size);
};

#ifdef CONFIG_DAMON_ACMA
int damon_acma_register_platform(const struct damon_acma_platform_ops *ops);
#else
static inline int damon_acma_register_platform(
		const struct damon_acma_platform_ops *ops)
{
	return -ENODEV;
}
#endif

#endif	/* _LINUX_DAMON_ACMA_H */

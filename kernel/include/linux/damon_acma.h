/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DAMON_ACMA: what a platform that powers memory off and on tells it, and
 * what a driver that follows the size of the system (a balloon) asks of it.
 */
#ifndef _LINUX_DAMON_ACMA_H
#define _LINUX_DAMON_ACMA_H

#include <linux/errno.h>
#include <linux/notifier.h>
#include <linux/types.h>

/*
 * The name of the System RAM resources DAMON_ACMA adds back, and a platform
 * adds for it when the memory is not boot memory (driver-managed memory).
 */
#define DAMON_ACMA_RESOURCE_NAME	"System RAM (acma)"

/* Notifier event: damon_acma_given_bytes() changed. */
#define DAMON_ACMA_GIVEN_CHANGED	1

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
int damon_acma_set_max_mem(unsigned long bytes, unsigned long *applied);
unsigned long damon_acma_given_bytes(void);
unsigned long damon_acma_total_bytes(void);
int damon_acma_register_notifier(struct notifier_block *nb);
int damon_acma_unregister_notifier(struct notifier_block *nb);
#else
static inline int damon_acma_register_platform(
		const struct damon_acma_platform_ops *ops)
{
	return -ENODEV;
}

static inline int damon_acma_set_max_mem(unsigned long bytes,
		unsigned long *applied)
{
	return -EAGAIN;
}

static inline unsigned long damon_acma_given_bytes(void)
{
	return 0;
}

static inline unsigned long damon_acma_total_bytes(void)
{
	return 0;
}

static inline int damon_acma_register_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int damon_acma_unregister_notifier(struct notifier_block *nb)
{
	return 0;
}
#endif

#endif	/* _LINUX_DAMON_ACMA_H */

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
/* Notifier event: DAMON_ACMA was enabled or disabled. */
#define DAMON_ACMA_STATE_CHANGED	2

/**
 * struct damon_acma_platform_ops - The owner of the memory DAMON_ACMA scales.
 * @add_range:		Make [@start, @start + @size) usable and add it on node
 *			@nid with add_memory_driver_managed() and
 *			%DAMON_ACMA_RESOURCE_NAME: for example power its DRAM
 *			on, read the state back, then add the memory.  Return
 *			0 when the range was added, or a negative error code.
 * @remove_range:	Offline and remove [@start, @start + @size) with
 *			offline_and_remove_memory(), then for example power
 *			off the DRAM that holds no memory any more.  Return 0
 *			when the range was removed, or a negative error code
 *			(the range is then still in the system).
 *
 * @owns:		Is [@start, @start + @size) memory the platform adds and
 *			removes?  DAMON_ACMA scales no other memory while a
 *			platform is registered.
 * @domain_of:		Optional: the power domain [@start, @start + @size) is
 *			in, a number that every range going off with it shares
 *			(0 to INT_MAX), or a negative value when the range is
 *			in none or in several.  DAMON_ACMA empties the memory
 *			of one domain at a time, so that it goes off as early
 *			as it can.  Without it, each range is its own domain.
 *
 * All are called from process context and may sleep.  The platform runs
 * each sequence under its own lock, so that nothing it does on its own (a
 * power-off retried later, for example) can come between a range's power and
 * its memory.  Without a registered platform, ranges are added and removed
 * with nothing else done.
 */
struct damon_acma_platform_ops {
	int (*add_range)(int nid, phys_addr_t start, unsigned long size);
	int (*remove_range)(phys_addr_t start, unsigned long size);
	bool (*owns)(phys_addr_t start, unsigned long size);
	int (*domain_of)(phys_addr_t start, unsigned long size);
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

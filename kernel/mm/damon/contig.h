/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DAMOS alloc/free: what the physical address space operations and DAMON's
 * sysfs interface use of mm/damon/contig.c.
 */
#ifndef __MM_DAMON_CONTIG_H
#define __MM_DAMON_CONTIG_H

#include <linux/damon.h>

struct kobject;

/**
 * enum damon_contig_stat - Why a chunk was not taken or given back.
 *
 * @DAMON_CONTIG_HOLE:		The chunk has pages that are not online memory.
 * @DAMON_CONTIG_ZONE:		The chunk spans more than one zone.
 * @DAMON_CONTIG_BUSY:		alloc_contig_range() found unmovable, pinned or
 *				isolated pages, or raced with another user
 *				(an offline of the chunk's memory block).
 * @DAMON_CONTIG_NOMEM:		No memory to migrate the chunk's pages to.
 * @DAMON_CONTIG_REFUSED:	The scheme's owner refused the chunk.
 * @DAMON_CONTIG_FREE_REFUSED:	The scheme's owner kept the chunk.
 * @DAMON_CONTIG_OFFLINING:	The chunk's memory block is going offline.
 * @DAMON_CONTIG_FOREIGN:	The chunk belongs to another owner than the
 *				"free" scheme's.
 * @DAMON_CONTIG_IN_USE:	The chunk holds data, and the scheme's owner
 *				let only free chunks of its region be taken.
 * @DAMON_CONTIG_RELEASED:	Bytes whose ownership ended with their memory
 *				block going offline.
 * @NR_DAMON_CONTIG_STATS:	Number of counters.
 */
enum damon_contig_stat {
	DAMON_CONTIG_HOLE,
	DAMON_CONTIG_ZONE,
	DAMON_CONTIG_BUSY,
	DAMON_CONTIG_NOMEM,
	DAMON_CONTIG_REFUSED,
	DAMON_CONTIG_FREE_REFUSED,
	DAMON_CONTIG_OFFLINING,
	DAMON_CONTIG_FOREIGN,
	DAMON_CONTIG_IN_USE,
	DAMON_CONTIG_RELEASED,
	NR_DAMON_CONTIG_STATS,
};

#ifdef CONFIG_DAMON_CONTIG

unsigned long damon_contig_alloc_region(struct damon_region *r,
		struct damos *s);
unsigned long damon_contig_free_region(struct damon_region *r,
		struct damos *s);
int damon_contig_sysfs_init(struct kobject *damon_kobj);

#else	/* CONFIG_DAMON_CONTIG */

static inline unsigned long damon_contig_alloc_region(
		struct damon_region *r, struct damos *s)
{
	return 0;
}

static inline unsigned long damon_contig_free_region(
		struct damon_region *r, struct damos *s)
{
	return 0;
}

static inline int damon_contig_sysfs_init(struct kobject *damon_kobj)
{
	return 0;
}

#endif	/* CONFIG_DAMON_CONTIG */

#endif	/* __MM_DAMON_CONTIG_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * DAMON-based access-aware contiguous memory ownership: the DAMOS "alloc"
 * and "free" actions of the physical address space operations.
 *
 * "alloc" takes naturally aligned 2^order-page chunks of a DAMOS target
 * region away from the page allocator with alloc_contig_range(), reclaiming
 * the chunk's page cache and migrating the other in-use movable pages out,
 * so that the coldest memory is taken first.
 * Each chunk it takes is DAMON's until "free" gives it back.  The owner of a
 * scheme (for example a memory auto-scaling module) is told about every
 * chunk and may refuse it.
 *
 * Owned pages are PageOffline() and removed from the managed page count, as
 * virtio-mem does for memory it unplugs, and their reference count is
 * frozen at zero for as long as they are owned: pfn walkers that take
 * speculative references (DAMON's own access checks sample every region)
 * then never hold one, so nobody can free an owned page behind DAMON's back.
 * A memory block whose chunks are all owned can therefore be offlined
 * without migrating anything, since offline_pages() skips PageOffline()
 * pages without references.  While the block is going offline its chunks
 * cannot be given back; a cancelled offline lets them be given back again; a
 * completed offline ends the ownership, since the memory left the system
 * with its block (onlining the block again gives all of it to the page
 * allocator).
 *
 * The record of what is owned is an xarray indexed by pageblock, so that
 * the owned bytes of any physical range are cheap to count.
 */

#define pr_fmt(fmt) "damon-contig: " fmt

#include <linux/damon.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kobject.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/page-flags.h>
#include <linux/pageblock-flags.h>
#include <linux/sched/signal.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include "../internal.h"
#include "contig.h"
#include "ops-common.h"

/*
 * An owned chunk covers 2^(order - pageblock_order) consecutive entries of
 * the record, each holding the chunk's order and whether the chunk's memory
 * block is going offline.
 */
#define DAMON_CONTIG_OFFLINING_BIT	1UL

static DEFINE_XARRAY(damon_contig_owned);

/*
 * Serializes changes of ownership and of the owned pages' state
 * (PageOffline) against the memory notifier.
 */
static DEFINE_MUTEX(damon_contig_lock);

static atomic_long_t damon_contig_stats[NR_DAMON_CONTIG_STATS];

/* Pages owned now, for a constant-time total. */
static atomic_long_t damon_contig_nr_owned;

static void damon_contig_count(enum damon_contig_stat stat)
{
	atomic_long_inc(&damon_contig_stats[stat]);
}

static unsigned long damon_contig_units(unsigned int order)
{
	return 1UL << (order - pageblock_order);
}

static unsigned long damon_contig_index(unsigned long pfn)
{
	return pfn >> pageblock_order;
}

/*
 * The record.  These helpers take the xarray so that KUnit can exercise
 * them on a private one; callers serialize with damon_contig_lock.
 */

static int damon_contig_record_add(struct xarray *xa, unsigned long pfn,
		unsigned int order)
{
	unsigned long first = damon_contig_index(pfn);
	unsigned long i, nr = damon_contig_units(order);
	void *entry = xa_mk_value((unsigned long)order << 1);
	int err;

	for (i = 0; i < nr; i++) {
		err = xa_insert(xa, first + i, entry, GFP_KERNEL);
		if (err) {
			while (i--)
				xa_erase(xa, first + i);
			return err;
		}
	}
	return 0;
}

/* Return the order of the owned chunk starting at @pfn, or -ENOENT. */
static int damon_contig_record_order(struct xarray *xa, unsigned long pfn,
		bool *offlining)
{
	void *entry = xa_load(xa, damon_contig_index(pfn));

	if (!xa_is_value(entry))
		return -ENOENT;
	if (offlining)
		*offlining = xa_to_value(entry) & DAMON_CONTIG_OFFLINING_BIT;
	return xa_to_value(entry) >> 1;
}

static void damon_contig_record_set_offlining(struct xarray *xa,
		unsigned long pfn, unsigned int order, bool offlining)
{
	unsigned long first = damon_contig_index(pfn);
	unsigned long i, nr = damon_contig_units(order);
	unsigned long val = (unsigned long)order << 1;

	if (offlining)
		val |= DAMON_CONTIG_OFFLINING_BIT;
	for (i = 0; i < nr; i++)
		xa_store(xa, first + i, xa_mk_value(val), GFP_KERNEL);
}

static void damon_contig_record_del(struct xarray *xa, unsigned long pfn,
		unsigned int order)
{
	unsigned long first = damon_contig_index(pfn);
	unsigned long i, nr = damon_contig_units(order);

	for (i = 0; i < nr; i++)
		xa_erase(xa, first + i);
}

static unsigned long damon_contig_record_bytes(struct xarray *xa,
		unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long index, nr = 0;
	void *entry;

	if (end_pfn <= start_pfn)
		return 0;
	xa_for_each_range(xa, index, entry, damon_contig_index(start_pfn),
			damon_contig_index(end_pfn - 1))
		nr++;
	return nr << (pageblock_order + PAGE_SHIFT);
}

/*
 * Call @fn for every owned chunk that starts in [@start_pfn, @end_pfn).
 * Chunks are naturally aligned, so a range aligned to a memory block never
 * cuts one.
 */
static void damon_contig_record_for_each(struct xarray *xa,
		unsigned long start_pfn, unsigned long end_pfn,
		void (*fn)(unsigned long pfn, unsigned int order, bool offlining))
{
	unsigned long index = damon_contig_index(start_pfn);
	unsigned long last;
	void *entry;

	if (end_pfn <= start_pfn)
		return;
	last = damon_contig_index(end_pfn - 1);
	xa_for_each_range(xa, index, entry, index, last) {
		unsigned long val = xa_to_value(entry);
		unsigned int order = val >> 1;
		unsigned long pfn = index << pageblock_order;

		fn(pfn, order, val & DAMON_CONTIG_OFFLINING_BIT);
		/* skip the chunk's other entries */
		index += damon_contig_units(order) - 1;
	}
}

/* The owned pages. */

static void damon_contig_set_offline(unsigned long pfn, unsigned long nr,
		bool offline)
{
	unsigned long i;

	page_offline_begin();
	for (i = 0; i < nr; i++) {
		if (offline)
			__SetPageOffline(pfn_to_page(pfn + i));
		else
			__ClearPageOffline(pfn_to_page(pfn + i));
	}
	page_offline_end();
}

/*
 * alloc_contig_range() hands out each page with one reference.  Freeze it
 * at zero: a speculative reference taken meanwhile (folio_try_get() from a
 * pfn walker) makes the freeze fail, and the chunk is not taken.
 */
static int damon_contig_freeze(unsigned long pfn, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		if (!page_ref_freeze(pfn_to_page(pfn + i), 1)) {
			while (i--)
				page_ref_unfreeze(pfn_to_page(pfn + i), 1);
			return -EBUSY;
		}
	}
	return 0;
}

static void damon_contig_thaw(unsigned long pfn, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		page_ref_unfreeze(pfn_to_page(pfn + i), 1);
}

/*
 * A chunk can be taken only if it is online memory of a single zone:
 * alloc_contig_range() must not be given holes or zone boundaries.
 */
static int damon_contig_check_range(unsigned long pfn, unsigned long nr)
{
	struct page *first = pfn_to_online_page(pfn);
	struct zone *zone;
	unsigned long i;

	if (!first)
		return -ENXIO;
	zone = page_zone(first);
	for (i = 1; i < nr; i++) {
		struct page *page = pfn_to_online_page(pfn + i);

		if (!page)
			return -ENXIO;
		if (page_zone(page) != zone)
			return -EXDEV;
	}
	return 0;
}

/*
 * The page cache of a chunk about to be taken is reclaimed rather than
 * migrated: DAMOS hands "alloc" the coldest regions, whose clean file pages
 * cost less to read again, if they are ever needed, than to copy now (on a
 * guest full of a cold page cache, copying is most of the work).  What
 * reclaim leaves (anonymous memory without swap, dirty or busy pages) is
 * migrated by alloc_contig_range() as before; nothing is lost either way.
 */
static void damon_contig_reclaim_cache(unsigned long pfn, unsigned long nr)
{
	unsigned long end = pfn + nr;
	LIST_HEAD(folios);

	while (pfn < end) {
		struct folio *folio = damon_get_folio(pfn);

		if (!folio) {
			pfn++;
			continue;
		}
		pfn = folio_pfn(folio) + folio_nr_pages(folio);
		if (!folio_test_anon(folio) && folio_isolate_lru(folio))
			list_add(&folio->lru, &folios);
		folio_put(folio);
	}
	if (!list_empty(&folios))
		reclaim_pages(&folios);
}

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
/*
 * /sys/kernel/debug/damon_contig/take_stall_ms: each take waits this long
 * between alloc_contig_range() and recording the chunk, so that tests can
 * race other memory hotplug users against that window.  0 does not wait.
 */
static u32 damon_contig_take_stall_ms;

static void damon_contig_stall(unsigned long pfn)
{
	u32 ms = READ_ONCE(damon_contig_take_stall_ms);

	if (!ms)
		return;
	pr_info("stalling the take of pfn %#lx for %u ms\n", pfn, ms);
	msleep(ms);
}

static void __init damon_contig_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("damon_contig", NULL);

	debugfs_create_u32("take_stall_ms", 0600, dir,
			&damon_contig_take_stall_ms);
}
#else
static inline void damon_contig_stall(unsigned long pfn)
{
}

static inline void damon_contig_debugfs_init(void)
{
}
#endif

/* Give an owned chunk back to the page allocator.  Needs damon_contig_lock. */
static int damon_contig_release(unsigned long pfn, unsigned int order)
{
	unsigned long nr = 1UL << order;
	bool offlining;

	lockdep_assert_held(&damon_contig_lock);
	if (damon_contig_record_order(&damon_contig_owned, pfn, &offlining) !=
			order)
		return -ENOENT;
	if (offlining)
		return -EBUSY;
	damon_contig_record_del(&damon_contig_owned, pfn, order);
	atomic_long_sub(nr, &damon_contig_nr_owned);
	damon_contig_set_offline(pfn, nr, false);
	adjust_managed_page_count(pfn_to_page(pfn), nr);
	damon_contig_thaw(pfn, nr);
	free_contig_range(pfn, nr);
	return 0;
}

static int damon_contig_take(unsigned long pfn, struct damos *s)
{
	unsigned int order = s->alloc_order;
	unsigned long nr = 1UL << order;
	int err;

	if (damon_contig_record_order(&damon_contig_owned, pfn, NULL) >= 0)
		return -EEXIST;
	err = damon_contig_check_range(pfn, nr);
	if (err) {
		damon_contig_count(err == -ENXIO ? DAMON_CONTIG_HOLE :
				DAMON_CONTIG_ZONE);
		return err;
	}
	damon_contig_reclaim_cache(pfn, nr);
	err = alloc_contig_range(pfn, pfn + nr, MIGRATE_MOVABLE,
			GFP_KERNEL | __GFP_NOWARN);
	if (err) {
		damon_contig_count(err == -ENOMEM ? DAMON_CONTIG_NOMEM :
				DAMON_CONTIG_BUSY);
		return err;
	}
	damon_contig_stall(pfn);
	err = damon_contig_freeze(pfn, nr);
	if (err) {
		free_contig_range(pfn, nr);
		damon_contig_count(DAMON_CONTIG_BUSY);
		return err;
	}

	mutex_lock(&damon_contig_lock);
	err = damon_contig_record_add(&damon_contig_owned, pfn, order);
	if (!err) {
		damon_contig_set_offline(pfn, nr, true);
		adjust_managed_page_count(pfn_to_page(pfn), -nr);
		atomic_long_add(nr, &damon_contig_nr_owned);
	}
	mutex_unlock(&damon_contig_lock);
	if (err) {
		damon_contig_thaw(pfn, nr);
		free_contig_range(pfn, nr);
		damon_contig_count(DAMON_CONTIG_NOMEM);
		return err;
	}

	if (s->owner && s->owner->alloc && s->owner->alloc(s, pfn, order)) {
		mutex_lock(&damon_contig_lock);
		damon_contig_release(pfn, order);
		mutex_unlock(&damon_contig_lock);
		damon_contig_count(DAMON_CONTIG_REFUSED);
		return -EPERM;
	}
	return 0;
}

static int damon_contig_give(unsigned long pfn, struct damos *s)
{
	unsigned int order;
	int ret;

	ret = damon_contig_record_order(&damon_contig_owned, pfn, NULL);
	if (ret < 0)
		return ret;
	order = ret;
	/* a chunk taken with another order is given back whole */
	if (pfn & ((1UL << order) - 1))
		return -ENOENT;
	if (s->owner && s->owner->free && s->owner->free(s, pfn, order)) {
		damon_contig_count(DAMON_CONTIG_FREE_REFUSED);
		return -EPERM;
	}
	mutex_lock(&damon_contig_lock);
	ret = damon_contig_release(pfn, order);
	mutex_unlock(&damon_contig_lock);
	if (ret == -EBUSY)
		damon_contig_count(DAMON_CONTIG_OFFLINING);
	return ret ? ret : (int)order;
}

/*
 * Is the scheme's quota met?  "alloc" takes at least one chunk per quota
 * interval, so that a time quota learns the action's throughput; "free"
 * never goes over its quota, so a scheme whose goal shrank its quota to
 * almost nothing gives nothing back.
 */
static bool damon_contig_quota_met(struct damos *s, unsigned long applied,
		unsigned long chunk)
{
	unsigned long charged = s->quota.charged_sz + applied;

	if (!s->quota.esz)
		return false;
	if (s->action == DAMOS_ALLOC)
		return charged >= s->quota.esz;
	return charged + chunk > s->quota.esz;
}

/**
 * damon_contig_alloc_region() - Apply DAMOS_ALLOC to a region.
 * @r:	The region, in physical addresses.
 * @s:	The scheme.
 *
 * Takes every naturally aligned &damos->alloc_order chunk inside @r that is
 * not owned yet, stopping early once the scheme's quota is met.
 *
 * Context: kdamond, may sleep.
 * Return: the bytes taken.
 */
unsigned long damon_contig_alloc_region(struct damon_region *r,
		struct damos *s)
{
	unsigned long nr = 1UL << s->alloc_order;
	unsigned long pfn = ALIGN(PHYS_PFN(r->ar.start), nr);
	unsigned long end = PHYS_PFN(r->ar.end);
	unsigned long applied = 0;

	for (; pfn + nr <= end; pfn += nr) {
		if (damon_contig_quota_met(s, applied, nr << PAGE_SHIFT) ||
				fatal_signal_pending(current))
			break;
		if (!damon_contig_take(pfn, s))
			applied += nr << PAGE_SHIFT;
		cond_resched();
	}
	return applied;
}

/**
 * damon_contig_free_region() - Apply DAMOS_FREE to a region.
 * @r:	The region, in physical addresses.
 * @s:	The scheme.
 *
 * Gives back every owned chunk that starts inside @r, whatever order it was
 * taken with, after its owner agreed, stopping early once the scheme's
 * quota is met.
 *
 * Context: kdamond, may sleep.
 * Return: the bytes given back.
 */
unsigned long damon_contig_free_region(struct damon_region *r,
		struct damos *s)
{
	unsigned long pfn = ALIGN(PHYS_PFN(r->ar.start), pageblock_nr_pages);
	unsigned long end = PHYS_PFN(r->ar.end);
	unsigned long applied = 0;
	int order;

	while (pfn < end) {
		if (damon_contig_quota_met(s, applied,
					PAGE_SIZE << s->alloc_order) ||
				fatal_signal_pending(current))
			break;
		order = damon_contig_give(pfn, s);
		if (order >= 0) {
			applied += PAGE_SIZE << order;
			pfn += 1UL << order;
		} else {
			pfn += pageblock_nr_pages;
		}
		cond_resched();
	}
	return applied;
}

/**
 * damon_contig_owned_bytes() - Count the bytes DAMON owns in a range.
 * @start:	Start physical address, pageblock aligned.
 * @end:	End physical address (exclusive), pageblock aligned.
 *
 * Context: any context that may sleep; the count is a snapshot.
 * Return: the bytes of chunks owned through DAMOS_ALLOC in [@start, @end).
 */
unsigned long damon_contig_owned_bytes(phys_addr_t start, phys_addr_t end)
{
	return damon_contig_record_bytes(&damon_contig_owned, PHYS_PFN(start),
			PHYS_PFN(end));
}

/**
 * damon_contig_total_owned_bytes() - Count all the bytes DAMON owns.
 *
 * Context: any.
 * Return: the bytes of all chunks owned through DAMOS_ALLOC.
 */
unsigned long damon_contig_total_owned_bytes(void)
{
	return atomic_long_read(&damon_contig_nr_owned) << PAGE_SHIFT;
}

/**
 * damon_contig_free_range() - Give back owned chunks in a range.
 * @start:	Start physical address.
 * @end:	End physical address (exclusive).
 * @max_bytes:	Give back at most this many bytes.
 *
 * For the owner of DAMOS_ALLOC schemes, when it needs memory back at once
 * or stops: gives the chunks back, lowest first, without asking anybody.
 * Chunks whose memory block is going offline are left alone.
 *
 * Context: process context, may sleep.
 * Return: the bytes given back.
 */
unsigned long damon_contig_free_range(phys_addr_t start, phys_addr_t end,
		unsigned long max_bytes)
{
	unsigned long pfn = ALIGN(PHYS_PFN(start), pageblock_nr_pages);
	unsigned long end_pfn = PHYS_PFN(end);
	unsigned long freed = 0;
	int order;

	while (pfn < end_pfn) {
		order = damon_contig_record_order(&damon_contig_owned, pfn, NULL);
		if (order >= 0 && IS_ALIGNED(pfn, 1UL << order)) {
			if (freed + (PAGE_SIZE << order) > max_bytes)
				break;
			mutex_lock(&damon_contig_lock);
			if (!damon_contig_release(pfn, order))
				freed += PAGE_SIZE << order;
			mutex_unlock(&damon_contig_lock);
			pfn += 1UL << order;
		} else {
			pfn += pageblock_nr_pages;
		}
		cond_resched();
	}
	return freed;
}

/**
 * damos_contig_valid_order() - Check a DAMOS_ALLOC/FREE granularity.
 * @order:	The order of the chunks.
 *
 * A chunk spans at least a pageblock, which alloc_contig_range() isolates
 * as a whole, and at most a memory block, so that a block is made only of
 * whole chunks.
 *
 * Return: true if @order can be used.
 */
bool damos_contig_valid_order(unsigned int order)
{
	unsigned long block_pages = memory_block_size_bytes() >> PAGE_SHIFT;

	return order >= pageblock_order && (1UL << order) <= block_pages;
}

/* The memory notifier: let fully owned memory go offline without migration. */

/*
 * Owned pages hold no reference, so offline_pages() skips them; until the
 * offline completes or is cancelled, the chunk cannot be given back.
 */
static void damon_contig_going_offline(unsigned long pfn, unsigned int order,
		bool offlining)
{
	damon_contig_record_set_offlining(&damon_contig_owned, pfn, order, true);
}

static void damon_contig_cancel_offline(unsigned long pfn, unsigned int order,
		bool offlining)
{
	damon_contig_record_set_offlining(&damon_contig_owned, pfn, order,
			false);
}

static void damon_contig_forget(unsigned long pfn, unsigned int order,
		bool offlining)
{
	/*
	 * No chunk can be taken in a range that is being offlined (its
	 * pageblocks are isolated), so every chunk here was seen going offline.
	 */
	if (WARN_ON_ONCE(!offlining))
		return;
	damon_contig_record_del(&damon_contig_owned, pfn, order);
	atomic_long_sub(1L << order, &damon_contig_nr_owned);
	atomic_long_add(PAGE_SIZE << order,
			&damon_contig_stats[DAMON_CONTIG_RELEASED]);
}

static int damon_contig_memory_notifier(struct notifier_block *nb,
		unsigned long action, void *arg)
{
	struct memory_notify *mhp = arg;
	unsigned long start = mhp->start_pfn;
	unsigned long end = start + mhp->nr_pages;

	mutex_lock(&damon_contig_lock);
	switch (action) {
	case MEM_GOING_OFFLINE:
		damon_contig_record_for_each(&damon_contig_owned, start, end,
				damon_contig_going_offline);
		break;
	case MEM_CANCEL_OFFLINE:
		damon_contig_record_for_each(&damon_contig_owned, start, end,
				damon_contig_cancel_offline);
		break;
	case MEM_OFFLINE:
		damon_contig_record_for_each(&damon_contig_owned, start, end,
				damon_contig_forget);
		break;
	default:
		break;
	}
	mutex_unlock(&damon_contig_lock);
	return NOTIFY_OK;
}

static struct notifier_block damon_contig_memory_nb = {
	.notifier_call = damon_contig_memory_notifier,
};

/* sysfs: /sys/kernel/mm/damon/contig/ */

static ssize_t owned_bytes_show(struct kobject *kobj,
		struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", damon_contig_total_owned_bytes());
}

static struct kobj_attribute damon_contig_owned_bytes_attr =
		__ATTR_RO_MODE(owned_bytes, 0400);

static ssize_t damon_contig_stat_show(struct kobject *kobj,
		struct kobj_attribute *attr, char *buf);

#define DAMON_CONTIG_STAT_ATTR(_name) {					\
	.attr = { .name = _name, .mode = 0400 },			\
	.show = damon_contig_stat_show,					\
}

static struct kobj_attribute damon_contig_stat_attrs[] = {
	[DAMON_CONTIG_HOLE] = DAMON_CONTIG_STAT_ATTR("skipped_holes"),
	[DAMON_CONTIG_ZONE] = DAMON_CONTIG_STAT_ATTR("skipped_zone_boundaries"),
	[DAMON_CONTIG_BUSY] = DAMON_CONTIG_STAT_ATTR("skipped_busy"),
	[DAMON_CONTIG_NOMEM] = DAMON_CONTIG_STAT_ATTR("skipped_nomem"),
	[DAMON_CONTIG_REFUSED] = DAMON_CONTIG_STAT_ATTR("owner_refused_alloc"),
	[DAMON_CONTIG_FREE_REFUSED] = DAMON_CONTIG_STAT_ATTR("owner_refused_free"),
	[DAMON_CONTIG_OFFLINING] = DAMON_CONTIG_STAT_ATTR("skipped_offlining"),
	[DAMON_CONTIG_RELEASED] = DAMON_CONTIG_STAT_ATTR("released_by_offline"),
};

static ssize_t damon_contig_stat_show(struct kobject *kobj,
		struct kobj_attribute *attr, char *buf)
{
	unsigned int stat = attr - damon_contig_stat_attrs;

	return sysfs_emit(buf, "%ld\n",
			atomic_long_read(&damon_contig_stats[stat]));
}

static struct attribute *damon_contig_attrs[] = {
	&damon_contig_owned_bytes_attr.attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_HOLE].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_ZONE].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_BUSY].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_NOMEM].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_REFUSED].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_FREE_REFUSED].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_OFFLINING].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_RELEASED].attr,
	NULL,
};

static const struct attribute_group damon_contig_attr_group = {
	.attrs = damon_contig_attrs,
};

/**
 * damon_contig_sysfs_init() - Add the contig directory to DAMON's sysfs.
 * @damon_kobj:	The /sys/kernel/mm/damon kobject.
 *
 * The directory holds ``owned_bytes`` and one counter per reason a chunk
 * was skipped or refused.
 *
 * Context: boot, DAMON sysfs initialization.
 * Return: 0 on success, negative error code otherwise.
 */
int damon_contig_sysfs_init(struct kobject *damon_kobj)
{
	struct kobject *kobj;
	int err;

	kobj = kobject_create_and_add("contig", damon_kobj);
	if (!kobj)
		return -ENOMEM;
	err = sysfs_create_group(kobj, &damon_contig_attr_group);
	if (err)
		kobject_put(kobj);
	return err;
}

static int __init damon_contig_init(void)
{
	damon_contig_debugfs_init();
	return register_memory_notifier(&damon_contig_memory_nb);
}
subsys_initcall(damon_contig_init);

#include "tests/contig-kunit.h"

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
 * Owned pages follow the PageOffline() protocol of page-flags.h, as
 * virtio-mem's fake-offline pages do: they are PageOffline(), out of the
 * managed page count, and each keeps the one reference alloc_contig_range()
 * gave it, the owner's, so that a pfn walker's speculative reference can
 * never free one.  Whoever offlines their memory block (DAMON_ACMA, user
 * space, an ACPI eject, virtio-mem) goes through the memory notifier: in
 * MEM_GOING_OFFLINE the reference is dropped (the offline is refused while
 * anybody else still holds one), so that offline_pages() skips the pages
 * without migrating anything; MEM_CANCEL_OFFLINE takes it back; MEM_OFFLINE
 * ends the ownership, since the memory left the system with its block
 * (onlining the block again gives all of it to the page allocator).  While
 * the block is going offline its chunks cannot be given back.
 *
 * A chunk is recorded and marked in one step under the lock the notifier
 * takes, right after alloc_contig_range(): an offline that isolated its
 * pageblocks before that (and so may have passed MEM_GOING_OFFLINE without
 * seeing it) wins, and the chunk goes back to the page allocator untaken.
 *
 * The record of what is owned is an xarray indexed by pageblock, so that
 * the owned bytes of any physical range are cheap to count.  Each chunk
 * records its owner (&damos->owner, or none for the schemes user space sets
 * up), and only a scheme of the same owner gives it back.
 */

#define pr_fmt(fmt) "damon-contig: " fmt

#include <linux/bitfield.h>
#include <linux/damon.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kobject.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/page-flags.h>
#include <linux/page-isolation.h>
#include <linux/pageblock-flags.h>
#include <linux/sched/signal.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include "../internal.h"
#include "contig.h"
#include "ops-common.h"

/*
 * An owned chunk covers 2^(order - pageblock_order) consecutive entries of
 * the record, each a value holding whether the chunk's memory block is going
 * offline, the chunk's order and its owner's id.
 */
#define DAMON_CONTIG_ENTRY_OFFLINING	BIT(0)
#define DAMON_CONTIG_ENTRY_ORDER	GENMASK(6, 1)
#define DAMON_CONTIG_ENTRY_OWNER	GENMASK(10, 7)
#define DAMON_CONTIG_MAX_OWNERS		15

static DEFINE_XARRAY(damon_contig_owned);

/*
 * Serializes changes of ownership and of the owned pages' state
 * (PageOffline, the owner's reference) against the memory notifier.
 */
static DEFINE_MUTEX(damon_contig_lock);

/*
 * The owners of chunks, by the id the record keeps minus one; id 0 stands
 * for schemes without an owner.  In-kernel owners are few and built in: a
 * slot, once given, is kept, and lookups need no lock.
 */
static struct damos_contig_owner *damon_contig_owners[DAMON_CONTIG_MAX_OWNERS];

/* Return @owner's id, giving it one if @add; -ENOENT or -ENOSPC if none. */
static int damon_contig_owner_id(struct damos_contig_owner *owner, bool add)
{
	int i;

	if (!owner)
		return 0;
	for (i = 0; i < DAMON_CONTIG_MAX_OWNERS; i++) {
		struct damos_contig_owner *o = READ_ONCE(damon_contig_owners[i]);

		if (o == owner)
			return i + 1;
		if (!o) {
			if (!add)
				return -ENOENT;
			lockdep_assert_held(&damon_contig_lock);
			WRITE_ONCE(damon_contig_owners[i], owner);
			return i + 1;
		}
	}
	return add ? -ENOSPC : -ENOENT;
}

static atomic_long_t damon_contig_stats[NR_DAMON_CONTIG_STATS];

/* Pages owned now, for a constant-time total, and per owner id. */
static atomic_long_t damon_contig_nr_owned;
static atomic_long_t damon_contig_nr_owned_by[DAMON_CONTIG_MAX_OWNERS + 1];

static void damon_contig_count_owned(int owner, long nr)
{
	atomic_long_add(nr, &damon_contig_nr_owned);
	atomic_long_add(nr, &damon_contig_nr_owned_by[owner]);
}

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

static unsigned int damon_contig_entry_order(unsigned long val)
{
	return FIELD_GET(DAMON_CONTIG_ENTRY_ORDER, val);
}

static int damon_contig_entry_owner(unsigned long val)
{
	return FIELD_GET(DAMON_CONTIG_ENTRY_OWNER, val);
}

static bool damon_contig_entry_offlining(unsigned long val)
{
	return val & DAMON_CONTIG_ENTRY_OFFLINING;
}

static int damon_contig_record_add(struct xarray *xa, unsigned long pfn,
		unsigned int order, int owner)
{
	unsigned long first = damon_contig_index(pfn);
	unsigned long i, nr = damon_contig_units(order);
	void *entry = xa_mk_value(FIELD_PREP(DAMON_CONTIG_ENTRY_ORDER, order) |
			FIELD_PREP(DAMON_CONTIG_ENTRY_OWNER, owner));
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

/*
 * Return the record's entry for the owned chunk that holds @pfn (see
 * damon_contig_entry_*()), or -ENOENT.
 */
static long damon_contig_record_get(struct xarray *xa, unsigned long pfn)
{
	void *entry = xa_load(xa, damon_contig_index(pfn));

	if (!xa_is_value(entry))
		return -ENOENT;
	return xa_to_value(entry);
}

static void damon_contig_record_set_offlining(struct xarray *xa,
		unsigned long pfn, unsigned int order, bool offlining)
{
	unsigned long first = damon_contig_index(pfn);
	unsigned long i, nr = damon_contig_units(order);
	long val = damon_contig_record_get(xa, pfn);

	if (WARN_ON_ONCE(val < 0))
		return;
	if (offlining)
		val |= DAMON_CONTIG_ENTRY_OFFLINING;
	else
		val &= ~DAMON_CONTIG_ENTRY_OFFLINING;
	/* replacing a present entry allocates nothing */
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

/* The owned bytes in [@start_pfn, @end_pfn), of one owner or (-1) of all. */
static unsigned long damon_contig_record_bytes(struct xarray *xa,
		unsigned long start_pfn, unsigned long end_pfn, int owner)
{
	unsigned long index, nr = 0;
	void *entry;

	if (end_pfn <= start_pfn)
		return 0;
	xa_for_each_range(xa, index, entry, damon_contig_index(start_pfn),
			damon_contig_index(end_pfn - 1))
		if (owner < 0 ||
		    damon_contig_entry_owner(xa_to_value(entry)) == owner)
			nr++;
	return nr << (pageblock_order + PAGE_SHIFT);
}

/*
 * Call @fn for every owned chunk that starts in [@start_pfn, @end_pfn), with
 * the chunk's first pfn and its entry, until @fn returns non-zero; return
 * that.  Chunks are naturally aligned, so a range aligned to a memory block
 * never cuts one.
 */
static int damon_contig_record_for_each(struct xarray *xa,
		unsigned long start_pfn, unsigned long end_pfn,
		int (*fn)(unsigned long pfn, unsigned long val))
{
	unsigned long index = damon_contig_index(start_pfn);
	unsigned long last;
	void *entry;
	int ret;

	if (end_pfn <= start_pfn)
		return 0;
	last = damon_contig_index(end_pfn - 1);
	xa_for_each_range(xa, index, entry, index, last) {
		unsigned long val = xa_to_value(entry);
		unsigned int order = damon_contig_entry_order(val);

		ret = fn(index << pageblock_order, val);
		if (ret)
			return ret;
		/* skip the chunk's other entries */
		index += damon_contig_units(order) - 1;
	}
	return 0;
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
 * Drop the owner's reference of each page for the offline: only if nobody
 * else holds one (a pfn walker's speculative reference), since theirs would
 * be the last and free a page of memory that is going away.
 */
static int damon_contig_drop_refs(unsigned long pfn, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		if (!page_ref_freeze(pfn_to_page(pfn + i), 1)) {
			pr_info_ratelimited("owned pfn %#lx is referenced: its block goes offline later\n",
					pfn + i);
			while (i--)
				page_ref_unfreeze(pfn_to_page(pfn + i), 1);
			return -EBUSY;
		}
	}
	return 0;
}

/* Take the owner's references back after a cancelled offline. */
static void damon_contig_take_refs(unsigned long pfn, unsigned long nr)
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

/* Undo damon_contig_own(); the caller frees the pages. */
static void damon_contig_disown(unsigned long pfn, unsigned int order)
{
	unsigned long nr = 1UL << order;

	lockdep_assert_held(&damon_contig_lock);
	damon_contig_count_owned(damon_contig_entry_owner(
			damon_contig_record_get(&damon_contig_owned, pfn)), -nr);
	damon_contig_record_del(&damon_contig_owned, pfn, order);
	damon_contig_set_offline(pfn, nr, false);
	adjust_managed_page_count(pfn_to_page(pfn), nr);
}

/*
 * Make a chunk alloc_contig_range() just handed out an owned one, in one
 * step against the memory notifier: recorded with its owner, PageOffline(),
 * out of the managed page count, each page keeping its reference as the
 * owner's.  Then the owner may refuse it.  A chunk with a pageblock that
 * somebody isolated meanwhile is not taken: an offline that isolated it may
 * already have passed MEM_GOING_OFFLINE without seeing the chunk, so it
 * wins.  On failure the caller frees the pages.
 */
static int damon_contig_own(unsigned long pfn, struct damos *s)
{
	unsigned int order = s->alloc_order;
	unsigned long i, nr = 1UL << order;
	int owner, err;

	lockdep_assert_held(&damon_contig_lock);
	for (i = 0; i < nr; i += pageblock_nr_pages)
		if (is_migrate_isolate_page(pfn_to_page(pfn + i)))
			return -EBUSY;
	owner = damon_contig_owner_id(s->owner, true);
	if (owner < 0)
		return owner;
	err = damon_contig_record_add(&damon_contig_owned, pfn, order, owner);
	if (err)
		return err;
	damon_contig_set_offline(pfn, nr, true);
	adjust_managed_page_count(pfn_to_page(pfn), -nr);
	damon_contig_count_owned(owner, nr);

	if (s->owner && s->owner->alloc && s->owner->alloc(s, pfn, order)) {
		damon_contig_disown(pfn, order);
		return -EPERM;
	}
	return 0;
}

/*
 * Find the owned chunk that starts at @pfn and that @owner may give back.
 * Return its order; -ENOENT if no chunk starts there, -EACCES if the chunk
 * is somebody else's, -EBUSY if its memory block is going offline.
 */
static int damon_contig_givable(unsigned long pfn,
		struct damos_contig_owner *owner)
{
	long val = damon_contig_record_get(&damon_contig_owned, pfn);
	unsigned int order;

	lockdep_assert_held(&damon_contig_lock);
	if (val < 0)
		return -ENOENT;
	order = damon_contig_entry_order(val);
	/* a chunk taken with another order is given back whole */
	if (!IS_ALIGNED(pfn, 1UL << order))
		return -ENOENT;
	if (damon_contig_entry_owner(val) != damon_contig_owner_id(owner, false))
		return -EACCES;
	if (damon_contig_entry_offlining(val))
		return -EBUSY;
	return order;
}

/* Give an owned chunk back to the page allocator: its owner's reference. */
static void damon_contig_release(unsigned long pfn, unsigned int order)
{
	damon_contig_disown(pfn, order);
	free_contig_range(pfn, 1UL << order);
}

/*
 * How many pages from @pfn on are free: 0 if @pfn is not.  A free page is
 * in the buddy allocator, or on a CPU's page lists, which alloc_contig_range()
 * drains: no PageBuddy there, but no reference either, and no compound page.
 * Racy, without the zone lock: a hint for what alloc_contig_range() would
 * have to migrate, which decides.
 */
static unsigned long damon_contig_free_run(unsigned long pfn)
{
	unsigned int order, buddy;
	unsigned long head;
	struct page *page;

	page = pfn_to_online_page(pfn);
	if (page && !PageBuddy(page) && !page_ref_count(page) &&
	    !PageTail(page) && !PageOffline(page))
		return 1;
	for (order = 0; order <= MAX_PAGE_ORDER; order++) {
		head = pfn & ~((1UL << order) - 1);
		page = pfn_to_online_page(head);
		if (!page || !PageBuddy(page))
			continue;
		buddy = buddy_order_unsafe(page);
		if (buddy <= MAX_PAGE_ORDER && pfn < head + (1UL << buddy))
			return head + (1UL << buddy) - pfn;
	}
	return 0;
}

/* Are all pages of the chunk free (a hint, see damon_contig_free_run())? */
static bool damon_contig_chunk_free(unsigned long pfn, unsigned long nr)
{
	unsigned long run, end = pfn + nr;

	for (; pfn < end; pfn += run) {
		run = damon_contig_free_run(pfn);
		if (!run)
			return false;
	}
	return true;
}

static int damon_contig_take(unsigned long pfn, struct damos *s,
		bool migrate)
{
	unsigned int order = s->alloc_order;
	unsigned long nr = 1UL << order;
	int err;

	if (damon_contig_record_get(&damon_contig_owned, pfn) >= 0)
		return -EEXIST;
	if (!migrate && !damon_contig_chunk_free(pfn, nr)) {
		damon_contig_count(DAMON_CONTIG_IN_USE);
		return -EAGAIN;
	}
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
		if (s->owner && s->owner->failed)
			s->owner->failed(s, pfn, order, err);
		return err;
	}
	damon_contig_stall(pfn);

	mutex_lock(&damon_contig_lock);
	err = damon_contig_own(pfn, s);
	mutex_unlock(&damon_contig_lock);
	if (err) {
		free_contig_range(pfn, nr);
		damon_contig_count(err == -EPERM ? DAMON_CONTIG_REFUSED :
				err == -EBUSY ? DAMON_CONTIG_BUSY :
				DAMON_CONTIG_NOMEM);
	}
	return err;
}

static int damon_contig_give(unsigned long pfn, struct damos *s)
{
	int order;

	mutex_lock(&damon_contig_lock);
	order = damon_contig_givable(pfn, s->owner);
	if (order == -EBUSY)
		damon_contig_count(DAMON_CONTIG_OFFLINING);
	else if (order == -EACCES)
		damon_contig_count(DAMON_CONTIG_FOREIGN);
	if (order >= 0 && s->owner && s->owner->free &&
			s->owner->free(s, pfn, order)) {
		damon_contig_count(DAMON_CONTIG_FREE_REFUSED);
		order = -EPERM;
	}
	if (order >= 0)
		damon_contig_release(pfn, order);
	mutex_unlock(&damon_contig_lock);
	return order;
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
 * not owned yet, stopping early once the scheme's quota is met; only the
 * chunks that are free if the owner says the region's data stays.
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
	bool migrate = !s->owner || !s->owner->migrate ||
		s->owner->migrate(s, r);

	for (; pfn + nr <= end; pfn += nr) {
		if (damon_contig_quota_met(s, applied, nr << PAGE_SHIFT) ||
				fatal_signal_pending(current))
			break;
		if (!damon_contig_take(pfn, s, migrate))
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
			PHYS_PFN(end), -1);
}

/**
 * damon_contig_busy_bytes() - Count the bytes in a range that hold data.
 * @start:	Start physical address, pageblock aligned.
 * @end:	End physical address (exclusive), pageblock aligned.
 *
 * What taking the whole range would have to migrate: the pages that are
 * neither free in the buddy allocator nor owned.  Free blocks and folios are
 * naturally aligned, so that a walk from an aligned start steps from one
 * head to the next.  Racy, without the zone lock: a hint, as
 * damon_contig_free_run().
 *
 * Context: any context that may sleep.
 * Return: the bytes in [@start, @end) that hold data, an estimate.
 */
unsigned long damon_contig_busy_bytes(phys_addr_t start, phys_addr_t end)
{
	unsigned long pfn = PHYS_PFN(start), end_pfn = PHYS_PFN(end);
	unsigned long busy = 0, step;
	unsigned int order;
	struct page *page;

	for (; pfn < end_pfn; pfn += step) {
		page = pfn_to_online_page(pfn);
		step = 1;
		if (!page) {
			step = pageblock_nr_pages - (pfn & (pageblock_nr_pages - 1));
			continue;
		}
		if (PageBuddy(page)) {
			order = buddy_order_unsafe(page);
			if (order <= MAX_PAGE_ORDER)
				step = 1UL << order;
			continue;
		}
		/* owned, or free on a CPU's page lists */
		if (PageOffline(page) ||
		    (!page_ref_count(page) && !PageTail(page)))
			continue;
		if (PageHead(page)) {
			order = compound_order(page);
			if (order <= MAX_PAGE_ORDER + 1 &&
			    IS_ALIGNED(pfn, 1UL << order))
				step = 1UL << order;
		}
		busy += step;
		if (!(pfn & (pageblock_nr_pages - 1)))
			cond_resched();
	}
	return min(busy, end_pfn - PHYS_PFN(start)) << PAGE_SHIFT;
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
 * damon_contig_owner_bytes() - Count the bytes an owner owns.
 * @owner:	The owner of DAMOS_ALLOC schemes.
 *
 * Context: any.
 * Return: the bytes of all chunks that schemes of @owner took.
 */
unsigned long damon_contig_owner_bytes(struct damos_contig_owner *owner)
{
	int id = damon_contig_owner_id(owner, false);

	if (id < 0)
		return 0;
	return atomic_long_read(&damon_contig_nr_owned_by[id]) << PAGE_SHIFT;
}

/**
 * damon_contig_free_range() - Give back an owner's chunks in a range.
 * @owner:	The owner of the chunks.
 * @start:	Start physical address.
 * @end:	End physical address (exclusive).
 * @max_bytes:	Give back at most this many bytes.
 *
 * For the owner of DAMOS_ALLOC schemes, when it needs memory back at once
 * or stops: gives its chunks back, lowest first, without asking it.  Chunks
 * of other owners, and chunks whose memory block is going offline, are left
 * alone.
 *
 * Context: process context, may sleep.
 * Return: the bytes given back.
 */
unsigned long damon_contig_free_range(struct damos_contig_owner *owner,
		phys_addr_t start, phys_addr_t end, unsigned long max_bytes)
{
	unsigned long pfn = ALIGN(PHYS_PFN(start), pageblock_nr_pages);
	unsigned long end_pfn = PHYS_PFN(end);
	unsigned long freed = 0;
	bool full = false;
	int order;

	while (pfn < end_pfn && !full) {
		mutex_lock(&damon_contig_lock);
		order = damon_contig_givable(pfn, owner);
		if (order >= 0) {
			full = freed + (PAGE_SIZE << order) > max_bytes;
			if (!full) {
				damon_contig_release(pfn, order);
				freed += PAGE_SIZE << order;
			}
		}
		mutex_unlock(&damon_contig_lock);
		pfn += order >= 0 ? 1UL << order : pageblock_nr_pages;
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

/*
 * The memory notifier: the PageOffline() protocol.  Whoever offlines a
 * memory block, the owner's references to its owned pages are dropped in
 * MEM_GOING_OFFLINE, so that offline_pages() skips them without migrating
 * anything, and taken back if the offline is cancelled; a completed offline
 * ends the ownership.
 */

static int damon_contig_going_offline(unsigned long pfn, unsigned long val)
{
	unsigned int order = damon_contig_entry_order(val);
	int err;

	err = damon_contig_drop_refs(pfn, 1UL << order);
	if (!err)
		damon_contig_record_set_offlining(&damon_contig_owned, pfn,
				order, true);
	return err;
}

/* Also called for chunks that MEM_GOING_OFFLINE did not reach. */
static int damon_contig_cancel_offline(unsigned long pfn, unsigned long val)
{
	unsigned int order = damon_contig_entry_order(val);

	if (!damon_contig_entry_offlining(val))
		return 0;
	damon_contig_take_refs(pfn, 1UL << order);
	damon_contig_record_set_offlining(&damon_contig_owned, pfn, order,
			false);
	return 0;
}

static int damon_contig_forget(unsigned long pfn, unsigned long val)
{
	unsigned int order = damon_contig_entry_order(val);

	/*
	 * A chunk is recorded only in a range nobody isolated, so an offline
	 * saw every chunk of its range going offline.  Should one have slipped
	 * through, its memory left all the same: forget it too.
	 */
	WARN_ON_ONCE(!damon_contig_entry_offlining(val));
	damon_contig_record_del(&damon_contig_owned, pfn, order);
	damon_contig_count_owned(damon_contig_entry_owner(val), -(1L << order));
	atomic_long_add(PAGE_SIZE << order,
			&damon_contig_stats[DAMON_CONTIG_RELEASED]);
	return 0;
}

static int damon_contig_memory_notifier(struct notifier_block *nb,
		unsigned long action, void *arg)
{
	struct memory_notify *mhp = arg;
	unsigned long start = mhp->start_pfn;
	unsigned long end = start + mhp->nr_pages;
	int err = 0;

	mutex_lock(&damon_contig_lock);
	switch (action) {
	case MEM_GOING_OFFLINE:
		/* a refusal is followed by MEM_CANCEL_OFFLINE */
		err = damon_contig_record_for_each(&damon_contig_owned, start,
				end, damon_contig_going_offline);
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
	return notifier_from_errno(err);
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
	[DAMON_CONTIG_FOREIGN] = DAMON_CONTIG_STAT_ATTR("skipped_foreign"),
	[DAMON_CONTIG_IN_USE] = DAMON_CONTIG_STAT_ATTR("skipped_in_use"),
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
	&damon_contig_stat_attrs[DAMON_CONTIG_FOREIGN].attr,
	&damon_contig_stat_attrs[DAMON_CONTIG_IN_USE].attr,
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

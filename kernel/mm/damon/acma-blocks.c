// SPDX-License-Identifier: GPL-2.0
/*
 * DAMON_ACMA's block table: the state of every memory block it may scale,
 * changed in one place (damon_acma_set_block_state()) that keeps a count of
 * blocks per state; removing a block whose chunks are all taken and adding
 * it back, through the platform that owns its memory (the DRAM power
 * driver) or on its own; and following what others do to the blocks (the
 * memory notifier) and system sleep.
 */

#define pr_fmt(fmt) "damon-acma: " fmt

#include <linux/debugfs.h>
#include <linux/fault-inject.h>
#include <linux/memblock.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/page_reporting.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/xarray.h>

#include <linux/damon_acma.h>
#include "acma.h"

#include <trace/events/damon_acma.h>

/* What was reported to the host, and the drivers that follow the size. */
atomic_long_t damon_acma_reported_bytes;
atomic_long_t damon_acma_report_failures;

/*
 * Fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS): the error paths of
 * reporting a chunk to the host, adding a block and removing one, driven
 * from /sys/kernel/debug/damon_acma/fail_{report,add,remove}/ as
 * Documentation/fault-injection/fault-injection.rst describes.
 */
enum damon_acma_fault {
	DAMON_ACMA_FAIL_REPORT,
	DAMON_ACMA_FAIL_ADD,
	DAMON_ACMA_FAIL_REMOVE,
	NR_DAMON_ACMA_FAULTS,
};

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
static struct fault_attr damon_acma_faults[NR_DAMON_ACMA_FAULTS] = {
	[0 ... NR_DAMON_ACMA_FAULTS - 1] = FAULT_ATTR_INITIALIZER,
};

static bool damon_acma_should_fail(enum damon_acma_fault fault,
		unsigned long size)
{
	return should_fail(&damon_acma_faults[fault], size);
}

static void __init damon_acma_fault_init(void)
{
	static const char * const names[NR_DAMON_ACMA_FAULTS] = {
		[DAMON_ACMA_FAIL_REPORT] = "fail_report",
		[DAMON_ACMA_FAIL_ADD] = "fail_add",
		[DAMON_ACMA_FAIL_REMOVE] = "fail_remove",
	};
	struct dentry *dir = debugfs_create_dir("damon_acma", NULL);
	int i;

	for (i = 0; i < NR_DAMON_ACMA_FAULTS; i++)
		fault_create_debugfs_attr(names[i], dir, &damon_acma_faults[i]);
}
#else
static bool damon_acma_should_fail(enum damon_acma_fault fault,
		unsigned long size)
{
	return false;
}

static inline void damon_acma_fault_init(void)
{
}
#endif

struct damon_acma damon_acma = {
	.lock = __MUTEX_INITIALIZER(damon_acma.lock),
	.down = -1,
	.target = -1,
	.up = -1,
};

/* Blocks DAMON_ACMA added back itself, without a platform: its own. */
static DEFINE_XARRAY(damon_acma_added);

/* The platform layer, told when ranges go and asked before they come back. */
static const struct damon_acma_platform_ops *damon_acma_platform;
static DEFINE_MUTEX(damon_acma_platform_lock);

/**
 * damon_acma_register_platform() - Register the platform's range hooks.
 * @ops:	The hooks; NULL unregisters.
 *
 * Context: process context.
 * Return: 0 on success, -EBUSY if another platform is registered.
 */
int damon_acma_register_platform(const struct damon_acma_platform_ops *ops)
{
	int err = 0;

	mutex_lock(&damon_acma_platform_lock);
	if (ops && damon_acma_platform)
		err = -EBUSY;
	else
		damon_acma_platform = ops;
	mutex_unlock(&damon_acma_platform_lock);
	return err;
}
EXPORT_SYMBOL_GPL(damon_acma_register_platform);

/* Add a range, through the platform when it owns the memory's power. */
static int damon_acma_platform_add(int nid, phys_addr_t start,
		unsigned long size)
{
	int err;

	if (damon_acma_should_fail(DAMON_ACMA_FAIL_ADD, size))
		return -EIO;
	mutex_lock(&damon_acma_platform_lock);
	if (damon_acma_platform) {
		err = damon_acma_platform->add_range(nid, start, size);
	} else {
		err = add_memory_driver_managed(nid, start, size,
				DAMON_ACMA_RESOURCE_NAME, MHP_NONE);
		if (!err)
			err = xa_err(xa_store(&damon_acma_added,
					PHYS_PFN(start), xa_mk_value(1),
					GFP_KERNEL));
	}
	mutex_unlock(&damon_acma_platform_lock);
	return err;
}

/*
 * Is the block at @start DAMON_ACMA's to scale?  Only memory whose owner
 * adds and removes it for DAMON_ACMA: with a platform, the ranges it owns
 * (rank memory the DRAM power driver added once the rank was on); without
 * one (a VM guest), hot-plugged DIMMs (a static memory group) and blocks
 * DAMON_ACMA added back itself.  Boot memory, and memory a driver manages
 * on its own (virtio-mem's dynamic groups), is never taken.
 */
static bool damon_acma_owns(struct memory_block *mem, phys_addr_t start)
{
	bool owns;

	if (xa_load(&damon_acma_added, PHYS_PFN(start)))
		return true;
	mutex_lock(&damon_acma_platform_lock);
	if (damon_acma_platform)
		owns = damon_acma_platform->owns(start,
				memory_block_size_bytes());
	else
		owns = mem->group && !mem->group->is_dynamic;
	mutex_unlock(&damon_acma_platform_lock);
	return owns;
}

/* The platform's power domain of the block at @start, or a negative value. */
static int damon_acma_platform_domain(phys_addr_t start)
{
	int domain = -ENOENT;

	mutex_lock(&damon_acma_platform_lock);
	if (damon_acma_platform && damon_acma_platform->domain_of)
		domain = damon_acma_platform->domain_of(start,
				memory_block_size_bytes());
	mutex_unlock(&damon_acma_platform_lock);
	return domain;
}

static int damon_acma_platform_remove(phys_addr_t start, unsigned long size)
{
	int err;

	if (damon_acma_should_fail(DAMON_ACMA_FAIL_REMOVE, size))
		return -EIO;
	mutex_lock(&damon_acma_platform_lock);
	if (damon_acma_platform)
		err = damon_acma_platform->remove_range(start, size);
	else
		err = offline_and_remove_memory(start, size);
	mutex_unlock(&damon_acma_platform_lock);
	return err;
}

static const char * const damon_acma_block_state_names[] = {
	[DAMON_ACMA_BLOCK_ONLINE] = "online",
	[DAMON_ACMA_BLOCK_REMOVING] = "removing",
	[DAMON_ACMA_BLOCK_REMOVED] = "removed",
	[DAMON_ACMA_BLOCK_ADDING] = "adding",
	[DAMON_ACMA_BLOCK_OFFLINE] = "offline",
	[DAMON_ACMA_BLOCK_KERNEL] = "kernel",
};
static_assert(ARRAY_SIZE(damon_acma_block_state_names) ==
	      NR_DAMON_ACMA_BLOCK_STATES);

/**
 * damon_acma_block_id() - A scalable block's memory block number.
 * @i:	Index of the block in the block table.
 *
 * Return: the number /sys/devices/system/memory/memoryN names it by.
 */
unsigned long damon_acma_block_id(int i)
{
	return PHYS_PFN(damon_acma.block_start[i]) /
			PHYS_PFN(damon_acma.block_size);
}

/**
 * damon_acma_set_block_state() - Change the state of a block.
 * @i:		Index of the block in the block table.
 * @state:	Its new state.
 *
 * The one place a block's state changes, keeping the count of blocks in
 * each state (damon_acma_blocks_in()) and tracing the change.
 *
 * Context: needs damon_acma.lock.
 */
void damon_acma_set_block_state(int i,
		enum damon_acma_block_state state)
{
	enum damon_acma_block_state old = damon_acma.blocks[i];

	lockdep_assert_held(&damon_acma.lock);
	if (old != state && trace_damon_acma_block_state_enabled())
		trace_damon_acma_block_state(damon_acma_block_id(i),
				damon_acma_block_state_names[old],
				damon_acma_block_state_names[state]);
	WRITE_ONCE(damon_acma.nr_blocks_in[old],
			damon_acma.nr_blocks_in[old] - 1);
	WRITE_ONCE(damon_acma.nr_blocks_in[state],
			damon_acma.nr_blocks_in[state] + 1);
	WRITE_ONCE(damon_acma.blocks[i], state);
}

/**
 * damon_acma_blocks_in() - How many blocks are in a state.
 * @state:	The state.
 *
 * Context: any; the count may change right after it was read.
 * Return: the number of blocks in @state.
 */
int damon_acma_blocks_in(enum damon_acma_block_state state)
{
	return READ_ONCE(damon_acma.nr_blocks_in[state]);
}

/**
 * damon_acma_mem_bytes() - The memory Linux has now, in bytes.
 *
 * Online blocks minus what DAMON owns.  A block being
 * removed is counted out already, and so are its chunks while they are still
 * in the record.  The total is read before the blocks: a block whose chunks
 * leave the record in between is then under-counted, never over-counted.
 *
 * Return: the bytes of memory online and not taken.
 */
unsigned long damon_acma_mem_bytes(void)
{
	unsigned long online = damon_acma.fixed_bytes + damon_acma.block_size *
		(damon_acma_blocks_in(DAMON_ACMA_BLOCK_ONLINE) +
		 damon_acma_blocks_in(DAMON_ACMA_BLOCK_KERNEL));
	unsigned long owned = damon_contig_total_owned_bytes();
	int i;

	for (i = 0; i < damon_acma.nr_blocks; i++)
		if (READ_ONCE(damon_acma.blocks[i]) ==
				DAMON_ACMA_BLOCK_REMOVING)
			owned -= min(owned, damon_contig_owned_bytes(
					damon_acma.block_start[i],
					damon_acma.block_start[i] +
							damon_acma.block_size));
	return online - min(online, owned);
}

/**
 * damon_acma_machine_bytes() - The memory of the machine, in bytes.
 *
 * Return: the memory that is not scalable plus every scalable block, with
 * nothing given up.
 */
unsigned long damon_acma_machine_bytes(void)
{
	return damon_acma.fixed_bytes + (unsigned long)damon_acma.nr_blocks *
		damon_acma.block_size;
}


static unsigned int damon_acma_memmap_order(void)
{
	return get_order((damon_acma.block_size >> PAGE_SHIFT) *
			sizeof(struct page));
}

/**
 * damon_acma_memmap_room() - May scale-down take more memory?
 *
 * Adding a block back needs its memory map (2 MiB for 128 MiB) from memory
 * the kernel can use, outside of ZONE_MOVABLE.  Scale-down migrates data out
 * of the chunks it takes, into the kernel's zones once ZONE_MOVABLE is full:
 * it stops while their free memory above the min watermarks (what the
 * memory maps can take), with the page cache there that reclaim can free,
 * would not hold the memory map of every removed block and of one more, or
 * scaling back up could fail for want of a few megabytes.  A removed block
 * whose memory map is held (see damon_acma_hold_memmap()) needs no room.
 *
 * Return: whether the kernel's zones have room for the memory maps of every
 * removed block and of one more.
 */
bool damon_acma_memmap_room(void)
{
	long need = 1L << damon_acma_memmap_order();
	long free = 0;
	struct zone *zone;
	int i;

	for (i = 0; i < damon_acma.nr_blocks; i++) {
		enum damon_acma_block_state state =
				READ_ONCE(damon_acma.blocks[i]);

		/* blocks others offlined keep their memory maps */
		if ((state == DAMON_ACMA_BLOCK_REMOVING ||
		     state == DAMON_ACMA_BLOCK_REMOVED ||
		     state == DAMON_ACMA_BLOCK_ADDING) &&
				!READ_ONCE(damon_acma.memmap_held[i]))
			need += 1L << damon_acma_memmap_order();
	}

	for_each_populated_zone(zone) {
		if (zone_idx(zone) >= ZONE_MOVABLE)
			continue;
		/* page cache there is reclaimed for the memory map if need be */
		free += zone_page_state(zone, NR_FREE_PAGES) -
			min_wmark_pages(zone) +
			zone_page_state(zone, NR_ZONE_INACTIVE_FILE) +
			zone_page_state(zone, NR_ZONE_ACTIVE_FILE);
	}
	return free > need;
}

/**
 * damon_acma_report() - Report pages DAMON_ACMA holds to the host.
 * @pfn:	First page frame.
 * @order:	Order of the pages.
 *
 * In a virtual machine, the host drops the memory of pages DAMON_ACMA holds
 * (taken chunks, memory maps kept aside); the guest gets fresh memory when
 * they are given back and touched.  Without a page reporting device (bare
 * metal) there is nothing to do.
 *
 * Return: 0 if the pages were reported, -ENODEV without a page reporting
 * device, or the error of the report.
 */
int damon_acma_report(unsigned long pfn, unsigned int order)
{
	int err;

	if (!IS_ENABLED(CONFIG_DAMON_ACMA_PAGE_REPORT))
		return -ENODEV;
	if (damon_acma_should_fail(DAMON_ACMA_FAIL_REPORT, PAGE_SIZE << order))
		err = -EIO;
	else
		err = page_report(pfn, 1UL << order);
	if (err && err != -ENODEV)
		pr_warn_ratelimited("reporting pfn %#lx to the host failed: %d\n",
				pfn, err);
	return err;
}

/* Memory blocks */

struct damon_acma_scan {
	unsigned long fixed;
	int nr;
	int max;
	phys_addr_t *starts;
};

static int damon_acma_scan_block(struct memory_block *mem, void *arg)
{
	struct damon_acma_scan *scan = arg;
	unsigned long pfn = section_nr_to_pfn(mem->start_section_nr);
	struct page *page = pfn_to_online_page(pfn);

	if (!page)
		return 0;
	if (zone_idx(page_zone(page)) != ZONE_MOVABLE ||
	    !damon_acma_owns(mem, PFN_PHYS(pfn))) {
		scan->fixed += memory_block_size_bytes();
		return 0;
	}
	if (scan->starts && scan->nr < scan->max)
		scan->starts[scan->nr] = PFN_PHYS(pfn);
	scan->nr++;
	return 0;
}

/*
 * A removed block's memory map goes back to the kernel's zones, and adding
 * the block back needs as much again from there.  Hold pages of that size
 * (outside ZONE_MOVABLE: GFP_KERNEL) until the block comes back, so that
 * workloads that fill those zones meanwhile cannot make scaling up fail.
 * In a virtual machine they are reported to the host like taken chunks, so
 * that the host still gets the memory map's memory back.
 */
static unsigned int damon_acma_memmap_piece_order(void)
{
	return min_t(unsigned int, damon_acma_memmap_order(), MAX_PAGE_ORDER);
}

/* The pieces after the first are on the first one's lru list. */
static void damon_acma_free_memmap(struct page *first)
{
	unsigned int order = damon_acma_memmap_piece_order();
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &first->lru, lru) {
		list_del(&page->lru);
		__free_pages(page, order);
	}
	__free_pages(first, order);
}

/*
 * The memory map of a block of 512 MiB or more (2 GiB blocks on large x86
 * machines, 64 KiB pages) is above what the page allocator hands out at
 * once: it is held in pieces of at most MAX_PAGE_ORDER, all or none.
 */
static void damon_acma_hold_memmap(int i)
{
	unsigned int order = damon_acma_memmap_piece_order();
	unsigned long n = 1UL << (damon_acma_memmap_order() - order);
	struct page *first = NULL, *page;

	while (n--) {
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY,
				order);
		if (!page) {
			if (first)
				damon_acma_free_memmap(first);
			first = NULL;
			break;
		}
		if (first) {
			list_add_tail(&page->lru, &first->lru);
		} else {
			first = page;
			INIT_LIST_HEAD(&first->lru);
		}
	}
	damon_acma.memmap_held[i] = first;
	if (!first)
		return;
	damon_acma_report(page_to_pfn(first), order);
	list_for_each_entry(page, &first->lru, lru)
		damon_acma_report(page_to_pfn(page), order);
}

static void damon_acma_release_memmap(int i)
{
	if (!damon_acma.memmap_held[i])
		return;
	damon_acma_free_memmap(damon_acma.memmap_held[i]);
	damon_acma.memmap_held[i] = NULL;
}

/*
 * Find the scalable blocks: the movable ones online now that are ours.  The
 * walk asks the platform (under its lock, which it holds across memory
 * hotplug) and so runs outside damon_acma.lock; the memory notifier reads the
 * table under damon_acma.lock, so the new one replaces the old under it.
 */
/*
 * Number the power domains of the blocks from 0 up, in the order of their
 * first block: blocks the platform puts in one domain share its number, and
 * a block in none (or without a platform) gets one of its own.
 * Return: the number of domains.
 */
static int damon_acma_number_domains(const phys_addr_t *starts, int *domain,
		int nr)
{
	struct xarray ids;
	int i, id, n = 0;
	void *known;

	xa_init(&ids);
	for (i = 0; i < nr; i++) {
		id = damon_acma_platform_domain(starts[i]);
		known = id >= 0 ? xa_load(&ids, id) : NULL;
		if (known) {
			domain[i] = xa_to_value(known);
			continue;
		}
		domain[i] = n++;
		if (id >= 0)
			xa_store(&ids, id, xa_mk_value(domain[i]), GFP_KERNEL);
	}
	xa_destroy(&ids);
	return n;
}

/**
 * damon_acma_scan_blocks() - Build the block table.
 *
 * Finds the memory blocks DAMON_ACMA may scale (online, movable, owned for
 * it: damon_acma_owns()), their power domains, and starts every block ONLINE
 * with nothing deferred.  Called when DAMON_ACMA is enabled.
 *
 * Return: 0 on success, or -ENOMEM.
 */
int damon_acma_scan_blocks(void)
{
	struct damon_acma_scan scan = {};
	phys_addr_t end = PFN_PHYS(max_pfn) + memory_block_size_bytes();
	enum damon_acma_block_state *blocks;
	struct damon_acma_deferral *deferred;
	struct damon_acma_retry *add_retry, *remove_retry;
	struct damon_acma_block_view *view;
	unsigned long *scratch;
	phys_addr_t *starts;
	struct page **held;
	int *domain;
	int i, nr, nr_domains, err = 0;

	walk_memory_blocks(0, end, &scan, damon_acma_scan_block);
	blocks = kcalloc(scan.nr, sizeof(*blocks), GFP_KERNEL);
	starts = kcalloc(scan.nr, sizeof(*starts), GFP_KERNEL);
	held = kcalloc(scan.nr, sizeof(*held), GFP_KERNEL);
	domain = kcalloc(scan.nr, sizeof(*domain), GFP_KERNEL);
	deferred = kcalloc(scan.nr, sizeof(*deferred), GFP_KERNEL);
	view = kcalloc(scan.nr, sizeof(*view), GFP_KERNEL);
	/* as many domains as blocks at most */
	scratch = kcalloc(2 * scan.nr, sizeof(*scratch), GFP_KERNEL);
	add_retry = kcalloc(scan.nr, sizeof(*add_retry), GFP_KERNEL);
	remove_retry = kcalloc(scan.nr, sizeof(*remove_retry), GFP_KERNEL);
	if (blocks && starts && held && domain && deferred && view && scratch &&
	    add_retry && remove_retry) {
		scan.max = scan.nr;
		scan.nr = 0;
		scan.fixed = 0;
		scan.starts = starts;
		walk_memory_blocks(0, end, &scan, damon_acma_scan_block);
	} else {
		err = -ENOMEM;
	}
	nr = err ? 0 : min(scan.nr, scan.max);
	for (i = 0; i < nr; i++)
		blocks[i] = DAMON_ACMA_BLOCK_ONLINE;
	nr_domains = damon_acma_number_domains(starts, domain, nr);

	mutex_lock(&damon_acma.lock);
	for (i = 0; damon_acma.memmap_held && i < damon_acma.nr_blocks; i++)
		damon_acma_release_memmap(i);
	kfree(damon_acma.blocks);
	kfree(damon_acma.block_start);
	kfree(damon_acma.memmap_held);
	kfree(damon_acma.block_domain);
	kfree(damon_acma.deferred);
	kfree(damon_acma.view.b);
	kfree(damon_acma.view.scratch);
	kfree(damon_acma.add_retry);
	kfree(damon_acma.remove_retry);
	damon_acma.blocks = blocks;
	damon_acma.block_start = starts;
	damon_acma.memmap_held = held;
	damon_acma.block_domain = domain;
	damon_acma.deferred = deferred;
	damon_acma.view = (struct damon_acma_view){
		.b = view,
		.scratch = scratch,
	};
	damon_acma.add_retry = add_retry;
	damon_acma.remove_retry = remove_retry;
	damon_acma.nr_blocks = nr;
	damon_acma.nr_domains = nr_domains;
	damon_acma.down = -1;
	damon_acma.target = -1;
	damon_acma.fixed_bytes = scan.fixed;
	damon_acma.block_size = memory_block_size_bytes();
	memset(damon_acma.nr_blocks_in, 0, sizeof(damon_acma.nr_blocks_in));
	damon_acma.nr_blocks_in[DAMON_ACMA_BLOCK_ONLINE] = nr;
	mutex_unlock(&damon_acma.lock);
	return err;
}

/**
 * damon_acma_block_owned() - What DAMON_ACMA has taken of a block.
 * @i:	Index of the block in the block table.
 *
 * Return: the bytes of the block's chunks that DAMON_ACMA owns.
 */
unsigned long damon_acma_block_owned(int i)
{
	return damon_contig_owned_bytes(damon_acma.block_start[i],
			damon_acma.block_start[i] + damon_acma.block_size);
}

static int damon_acma_remove_block(int i)
{
	phys_addr_t start = damon_acma.block_start[i];
	int err;

	err = damon_acma_platform_remove(start, damon_acma.block_size);
	if (err) {
		pr_debug("removing %pa failed: %d\n", &start, err);
		return err;
	}
	damon_acma_hold_memmap(i);
	return 0;
}

/*
 * Memory hotplug onlines added memory as its policy says
 * (memhp_default_state, /sys/devices/system/memory/auto_online_blocks):
 * DAMON_ACMA can give back only a block onlined movable, so it checks the
 * policy before an add and the zone after it, instead of assuming.
 */
static bool damon_acma_online_movable(phys_addr_t start)
{
	struct page *page = pfn_to_online_page(PHYS_PFN(start));

	return page && zone_idx(page_zone(page)) == ZONE_MOVABLE;
}

/* The state of block @i, just onlined: ONLINE if movable, else @otherwise. */
static enum damon_acma_block_state damon_acma_online_state(int i,
		enum damon_acma_block_state otherwise)
{
	return damon_acma_online_movable(damon_acma.block_start[i]) ?
		DAMON_ACMA_BLOCK_ONLINE : otherwise;
}

/**
 * damon_acma_add_waits() - Must adds into a domain wait, after one failed?
 * @d:	The power domain.
 *
 * Context: needs damon_acma.lock.
 * Return: whether the domain's back-off has not run out yet.
 */
bool damon_acma_add_waits(int d)
{
	const struct damon_acma_retry *r = &damon_acma.add_retry[d];

	return r->ms && time_before(jiffies, r->at);
}

/**
 * damon_acma_remove_waits() - Must the removal of a block wait, after one
 * failed?
 * @i:	Index of the block in the block table.
 *
 * Context: needs damon_acma.lock.
 * Return: whether the block's back-off has not run out yet.
 */
bool damon_acma_remove_waits(int i)
{
	const struct damon_acma_retry *r = &damon_acma.remove_retry[i];

	return r->ms && time_before(jiffies, r->at);
}

/* Wait before the next try, longer each time in a row.  Needs the lock. */
static void damon_acma_back_off(struct damon_acma_retry *r)
{
	r->ms = clamp(r->ms * 2, DAMON_ACMA_RETRY_MIN_MS,
		      DAMON_ACMA_RETRY_MAX_MS);
	r->at = jiffies + msecs_to_jiffies(r->ms);
}

/*
 * An add into block @i's domain failed: the domain's firmware or the memory
 * hotplug core refused it.  Retrying at once would only fail again, and
 * flood the log: the domain waits, longer each time in a row (other domains'
 * blocks are added meanwhile).  Needs damon_acma.lock.
 */
static void damon_acma_add_failed(int i)
{
	damon_acma_back_off(&damon_acma.add_retry[damon_acma.block_domain[i]]);
}

static int damon_acma_add_block(int i)
{
	phys_addr_t start = damon_acma.block_start[i];
	int nid = memory_add_physaddr_to_nid(start);
	int err;

	/* added memory must come online movable, or it could never go again */
	switch (mhp_get_default_online_type()) {
	case MMOP_OFFLINE:
	case MMOP_ONLINE_KERNEL:
		pr_warn_once("memory hotplug would not online added memory movable; set memhp_default_state=online_movable\n");
		return -EINVAL;
	default:
		break;
	}
	damon_acma_release_memmap(i);
	err = damon_acma_platform_add(nid, start, damon_acma.block_size);
	if (!err && !damon_acma_online_movable(start)) {
		/* a kernel zone could never be given back: take it out again */
		pr_warn_once("added memory is not onlined movable; set memhp_default_state=online_movable\n");
		if (!damon_acma_platform_remove(start, damon_acma.block_size))
			err = -EINVAL;
	}
	if (err) {
		pr_warn_ratelimited("adding %pa failed: %d\n", &start, err);
		damon_acma_hold_memmap(i);
	}
	return err;
}

/**
 * damon_acma_adding_blocks() - Blocks on their way back.
 *
 * Return: the number of blocks being made usable, added and onlined.
 */
int damon_acma_adding_blocks(void)
{
	return damon_acma_blocks_in(DAMON_ACMA_BLOCK_ADDING);
}

/*
 * Add the blocks wanted back, then remove the ones that are fully taken:
 * a workload waiting for memory comes before memory that is already
 * counted out.
 */
static void damon_acma_resize_fn(struct work_struct *work)
{
	int i, err;

	mutex_lock(&damon_acma.lock);
	for (i = 0; i < damon_acma.nr_blocks && !damon_acma.sleeping; i++) {
		unsigned long t0 = jiffies;

		if (damon_acma.blocks[i] != DAMON_ACMA_BLOCK_ADDING)
			continue;
		/* another block of its domain just failed: not now */
		if (damon_acma_add_waits(damon_acma.block_domain[i])) {
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_REMOVED);
			continue;
		}
		mutex_unlock(&damon_acma.lock);
		err = damon_acma_add_block(i);
		mutex_lock(&damon_acma.lock);
		if (err) {
			damon_acma_add_failed(i);
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_REMOVED);
			continue;
		}
		damon_acma.add_retry[damon_acma.block_domain[i]].ms = 0;
		WRITE_ONCE(damon_acma.add_ms,
				(3 * READ_ONCE(damon_acma.add_ms) +
				jiffies_to_msecs(jiffies - t0)) / 4);
		/* somebody else may have offlined it since it came online */
		damon_acma_set_block_state(i, damon_acma_online_state(i,
				DAMON_ACMA_BLOCK_OFFLINE));
	}
	for (i = 0; i < damon_acma.nr_blocks && !damon_acma.sleeping; i++) {
		if (damon_acma.blocks[i] != DAMON_ACMA_BLOCK_REMOVING)
			continue;
		/* blocks wanted meanwhile go first */
		if (damon_acma_adding_blocks()) {
			queue_work(damon_acma.wq, &damon_acma.resize_work);
			break;
		}
		mutex_unlock(&damon_acma.lock);
		err = damon_acma_remove_block(i);
		mutex_lock(&damon_acma.lock);
		if (err) {
			/*
			 * Somebody holds a page of it, or the platform refused:
			 * it stays, counted, and is tried again later, not at
			 * every step.
			 */
			damon_acma_back_off(&damon_acma.remove_retry[i]);
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ONLINE);
			continue;
		}
		damon_acma.remove_retry[i].ms = 0;
		damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_REMOVED);
	}
	damon_acma_update_windows();
	mutex_unlock(&damon_acma.lock);
}

/*
 * Others may offline and online DAMON_ACMA's blocks too (user space, an ACPI
 * eject): follow them, so that the memory counted is the memory in the
 * system, and a block others took is not scaled until it is back online
 * movable.  Blocks DAMON_ACMA removes or adds are the resize work's to
 * record.  The memory notifier runs under the memory hotplug lock, which
 * no holder of damon_acma.lock waits for.
 */
static int damon_acma_memory_notifier(struct notifier_block *nb,
		unsigned long action, void *arg)
{
	struct memory_notify *mhp = arg;
	phys_addr_t start = PFN_PHYS(mhp->start_pfn);
	phys_addr_t end = start + PFN_PHYS(mhp->nr_pages);
	enum damon_acma_block_state state;
	int i;

	if (action != MEM_OFFLINE && action != MEM_ONLINE)
		return NOTIFY_OK;
	mutex_lock(&damon_acma.lock);
	for (i = 0; i < damon_acma.nr_blocks; i++) {
		if (damon_acma.block_start[i] < start ||
				damon_acma.block_start[i] >= end)
			continue;
		state = damon_acma.blocks[i];
		if (action == MEM_OFFLINE &&
		    (state == DAMON_ACMA_BLOCK_ONLINE ||
		     state == DAMON_ACMA_BLOCK_KERNEL))
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_OFFLINE);
		else if (action == MEM_ONLINE &&
				state == DAMON_ACMA_BLOCK_OFFLINE)
			damon_acma_set_block_state(i, damon_acma_online_state(i,
					DAMON_ACMA_BLOCK_KERNEL));
	}
	damon_acma_update_windows();
	mutex_unlock(&damon_acma.lock);
	return NOTIFY_OK;
}

static struct notifier_block damon_acma_memory_nb = {
	.notifier_call = damon_acma_memory_notifier,
};

/*
 * System sleep.  The resize work is freezable, but hibernation takes the
 * device hotplug lock before it freezes kernel threads and workqueues: a
 * removal or an addition that started in between would wait for that lock
 * and keep the workqueue busy, and freezing would fail (wq_busy) after
 * 20 s.  So before any task is frozen the work is told to stop between
 * two blocks and waited for; blocks on their way stay so (adding,
 * removing) and the work goes on once the system is back.
 */
static int damon_acma_pm_notifier(struct notifier_block *nb,
		unsigned long action, void *unused)
{
	switch (action) {
	case PM_HIBERNATION_PREPARE:
	case PM_RESTORE_PREPARE:
	case PM_SUSPEND_PREPARE:
		mutex_lock(&damon_acma.lock);
		damon_acma.sleeping = true;
		mutex_unlock(&damon_acma.lock);
		flush_work(&damon_acma.resize_work);
		break;
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
	case PM_POST_SUSPEND:
		mutex_lock(&damon_acma.lock);
		damon_acma.sleeping = false;
		if (damon_acma.nr_blocks)
			queue_work(damon_acma.wq, &damon_acma.resize_work);
		mutex_unlock(&damon_acma.lock);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block damon_acma_pm_nb = {
	.notifier_call = damon_acma_pm_notifier,
};

/**
 * damon_acma_removed_blocks() - Blocks not in the system.
 *
 * Return: the number of blocks removed and not added back yet, counting
 * those on their way back.
 */
int damon_acma_removed_blocks(void)
{
	return damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVED) +
		damon_acma_blocks_in(DAMON_ACMA_BLOCK_ADDING);
}

/**
 * damon_acma_give_all_back() - Give every block and chunk back.
 *
 * Give everything back, with kdamond stopped and scaling off: blocks on
 * their way out stay, removed blocks come back (empty), then every taken
 * chunk is freed.  The resize work is the only place blocks are added and
 * removed; it is queued and waited for, never called here, so that it never
 * runs twice at once.  With kdamond stopped and scaling off, nothing but
 * the work itself queues it.
 *
 * Return: 0, or -EBUSY when blocks could not be added back (the platform
 * refused them): they stay removed, and writing ``N`` again retries.
 */
int damon_acma_give_all_back(void)
{
	int i, removed = 0;

	while (flush_work(&damon_acma.resize_work))
		;
	mutex_lock(&damon_acma.lock);
	/* asked for by the operator: no domain waits out a back-off */
	for (i = 0; i < damon_acma.nr_domains; i++)
		damon_acma.add_retry[i].ms = 0;
	for (i = 0; i < damon_acma.nr_blocks; i++) {
		if (damon_acma.blocks[i] == DAMON_ACMA_BLOCK_REMOVING)
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ONLINE);
		else if (damon_acma.blocks[i] == DAMON_ACMA_BLOCK_REMOVED)
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ADDING);
	}
	mutex_unlock(&damon_acma.lock);
	queue_work(damon_acma.wq, &damon_acma.resize_work);
	while (flush_work(&damon_acma.resize_work))
		;
	for (i = 0; i < damon_acma.nr_blocks; i++)
		if (damon_acma.blocks[i] == DAMON_ACMA_BLOCK_ONLINE)
			damon_contig_free_range(&damon_acma_owner,
					damon_acma.block_start[i],
					damon_acma.block_start[i] +
							damon_acma.block_size,
					ULONG_MAX);
	mutex_lock(&damon_acma.lock);
	removed = damon_acma_removed_blocks() +
		damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVING);
	damon_acma_update_windows();
	mutex_unlock(&damon_acma.lock);
	if (removed)
		pr_warn("%d blocks could not be added back; write N to enabled again to retry\n",
			removed);
	return removed ? -EBUSY : 0;
}


/**
 * damon_acma_blocks_init() - Set up the block table's machinery at boot.
 *
 * Creates the resize work's workqueue and follows memory blocks that others
 * offline or online, and system sleep.
 *
 * Return: 0 on success, or a negative error code.
 */
int __init damon_acma_blocks_init(void)
{
	int err;

	damon_acma_fault_init();
	/* no block is removed or added while the system sleeps */
	damon_acma.wq = alloc_workqueue("damon_acma",
			WQ_FREEZABLE | WQ_UNBOUND, 1);
	if (!damon_acma.wq)
		return -ENOMEM;
	INIT_WORK(&damon_acma.resize_work, damon_acma_resize_fn);
	err = register_memory_notifier(&damon_acma_memory_nb);
	if (err)
		return err;
	return register_pm_notifier(&damon_acma_pm_nb);
}

#include "tests/acma-kunit.h"

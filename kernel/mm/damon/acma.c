// SPDX-License-Identifier: GPL-2.0
/*
 * DAMON-based Access/Contiguity-aware Memory Auto-scaling (ACMA)
 *
 * Scales the memory the system uses down and up by itself, between a
 * minimum and a maximum the administrator sets, keeping the memory pressure
 * (the "some" memory PSI) under a target.  Three DAMOS schemes on the
 * physical address space do the work, each tuned by the pressure:
 *
 *  - "reclaim" pages cold memory out everywhere, making free room;
 *  - "scale-down" takes 2 MiB chunks (DAMOS_ALLOC) of the highest memory
 *    block it may give up, coldest first;
 *  - "scale-up" gives chunks back (DAMOS_FREE) in the lowest memory block
 *    that has some taken, harder the higher the pressure.
 *
 * A memory block whose chunks are all taken is offlined and removed, which
 * frees its struct pages too, and the platform (for example DRAM power
 * management firmware) is told that the range is gone.  Scaling up first
 * asks the platform to make the range usable, then adds and onlines it.
 *
 * In a virtual machine, every chunk taken is also reported to the host
 * through page reporting (virtio-balloon's reporting queue), so that the host
 * drops the memory behind it; and a balloon driver may set the maximum from
 * the host's balloon target (damon_acma_set_max_mem()), learning what was
 * really given back from the notifier chain.
 *
 * Only movable memory blocks present when ACMA is enabled, and whose owner
 * adds and removes them for ACMA (see damon_acma_owns()), are scaled.
 */

#define pr_fmt(fmt) "damon-acma: " fmt

#include <linux/ctype.h>
#include <linux/damon.h>
#include <linux/debugfs.h>
#include <linux/fault-inject.h>
#include <linux/memblock.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mmzone.h>
#include <linux/notifier.h>
#include <linux/page_reporting.h>
#include <linux/suspend.h>
#include <linux/psi.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/swap.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <linux/damon_acma.h>
#include "modules-common.h"

#define CREATE_TRACE_POINTS
#include <trace/events/damon_acma.h>

#ifdef MODULE_PARAM_PREFIX
#undef MODULE_PARAM_PREFIX
#endif
#define MODULE_PARAM_PREFIX "damon_acma."

/*
 * Enable or disable DAMON_ACMA.
 *
 * Setting it ``Y`` checks the parameters below and starts scaling; invalid
 * parameters make the write fail with -EINVAL.  Setting it ``N`` stops
 * scaling and gives every taken chunk and every removed memory block back.
 * ``N`` by default.
 */
static bool enabled __read_mostly;

/*
 * Make DAMON_ACMA apply the parameters again, except ``enabled``.
 *
 * Parameters written while DAMON_ACMA runs take effect only when ``Y`` is
 * written here.  Invalid parameters make the write fail with -EINVAL and
 * the running configuration is kept.  Reads back ``N`` once applied.
 */
static bool commit_inputs __read_mostly;

/*
 * Minimum memory of the system, in bytes (K, M and G suffixes accepted).
 *
 * DAMON_ACMA never scales the memory Linux has below this.  Raising it
 * above the current size makes DAMON_ACMA scale up at once.  0 by default:
 * everything movable may be given up.
 */
static unsigned long min_mem __read_mostly;

/*
 * Maximum memory of the system, in bytes (K, M and G suffixes accepted).
 *
 * DAMON_ACMA never scales the memory Linux has above this.  Lowering it
 * below the current size makes DAMON_ACMA scale down at the full speed its
 * time quota allows until it is met.  0, the default, means all the memory
 * the machine has.
 */
static unsigned long max_mem __read_mostly;

/*
 * Acceptable memory pressure: ``some`` memory PSI stall in microseconds per
 * quota reset interval (``quota_reset_interval_ms``).
 *
 * The three schemes tune their aggressiveness to keep the pressure at this
 * level: reclaim and scale-down work harder below it, scale-up above it.
 * 1000 us per 1 s (0.1%) by default; must be above 0 and below the whole
 * reset interval.
 */
static unsigned long mem_pressure_us __read_mostly = 1000;

/*
 * Order of the chunks DAMON_ACMA takes and gives back.
 *
 * 9 (2 MiB with 4 KiB pages) or the pageblock order if that is higher (16K
 * and 64K pages) by default; at least the pageblock order, at most a memory
 * block.
 */
static unsigned int scale_order __read_mostly = DAMOS_ALLOC_ORDER_DEFAULT;

/*
 * Minimum age of memory that reclaim pages out, in microseconds.
 *
 * 5 seconds by default.
 */
static unsigned long reclaim_min_age_us __read_mostly = 5000000;

static struct damos_quota damon_acma_quota = {
	/* Use up to 100 ms per 1 s for each scheme, by default */
	.ms = 100,
	.sz = 0,
	.reset_interval = 1000,
	/* Within the quota, colder regions first. */
	.weight_sz = 0,
	.weight_nr_accesses = 1,
	.weight_age = 1,
};
DEFINE_DAMON_MODULES_DAMOS_TIME_QUOTA(damon_acma_quota);

static struct damon_attrs damon_acma_mon_attrs = {
	.sample_interval = 5000,	/* 5 ms */
	.aggr_interval = 100000,	/* 100 ms */
	.ops_update_interval = 0,
	.min_nr_regions = 10,
	.max_nr_regions = 1000,
};
DEFINE_DAMON_MODULES_MON_ATTRS_PARAMS(damon_acma_mon_attrs);

/* Read-only statistics of the three schemes. */
static struct damos_stat damon_acma_reclaim_stat;
DEFINE_DAMON_MODULES_DAMOS_STATS_PARAMS(damon_acma_reclaim_stat,
		reclaim_tried_regions, reclaimed_regions, reclaim_quota_exceeds);

static struct damos_stat damon_acma_scale_down_stat;
DEFINE_DAMON_MODULES_DAMOS_STATS_PARAMS(damon_acma_scale_down_stat,
		scale_down_tried_regions, scaled_down_regions,
		scale_down_quota_exceeds);

static struct damos_stat damon_acma_scale_up_stat;
DEFINE_DAMON_MODULES_DAMOS_STATS_PARAMS(damon_acma_scale_up_stat,
		scale_up_tried_regions, scaled_up_regions,
		scale_up_quota_exceeds);

/* Blocks added back in one step when memory is wanted urgently. */
#define DAMON_ACMA_MAX_ADDS	8

/*
 * How far ahead DAMON_ACMA looks when it keeps memory available for a
 * workload that grows: the time until its next step and the time one block
 * takes to be made usable, added and onlined, both measured, plus this
 * margin.
 */
#define DAMON_ACMA_HORIZON_MS	2000

/*
 * How long scale-down waits after memory was last wanted: a workload that
 * grows in bursts looks idle between two of them, and taking its memory
 * back in between only makes it wait for the next block.
 */
#define DAMON_ACMA_COOLDOWN_MS	10000

/*
 * How long the scale-down window may stay open on a block without taking a
 * chunk of it (its data are in use, or cannot be migrated) before scale-down
 * moves on, and how long it then leaves that block alone.
 */
#define DAMON_ACMA_STUCK_MS	10000
#define DAMON_ACMA_DEFER_MS	60000
#define DAMON_ACMA_DEFER_MAX	4	/* at most 2^4 times DEFER_MS */
/* A domain whose memory could not be added waits 100 ms, doubling to 5 s. */
#define DAMON_ACMA_ADD_RETRY_MIN_MS	100
#define DAMON_ACMA_ADD_RETRY_MAX_MS	5000

enum damon_acma_scheme_idx {
	DAMON_ACMA_RECLAIM,
	DAMON_ACMA_SCALE_DOWN,
	DAMON_ACMA_SCALE_UP,
	NR_DAMON_ACMA_SCHEMES,
};

/**
 * enum damon_acma_block_state - What became of a memory block.
 * @DAMON_ACMA_BLOCK_ONLINE:	In the system; chunks of it may be taken.
 * @DAMON_ACMA_BLOCK_REMOVING:	Fully taken, being offlined and removed.
 * @DAMON_ACMA_BLOCK_REMOVED:	Removed; the platform was told it is gone.
 * @DAMON_ACMA_BLOCK_ADDING:	Being made usable, added and onlined.
 * @DAMON_ACMA_BLOCK_OFFLINE:	Offlined by somebody else: out of the system,
 *				not scaled until it comes back online.
 * @DAMON_ACMA_BLOCK_KERNEL:	Onlined by somebody else into a kernel zone:
 *				in the system, never scaled (it could not be
 *				removed again).
 * @NR_DAMON_ACMA_BLOCK_STATES:	Number of states.
 *
 * Only DAMON_ACMA moves a block between the first four; the memory notifier
 * follows what others do (damon_acma_memory_notifier()).
 */
enum damon_acma_block_state {
	DAMON_ACMA_BLOCK_ONLINE,
	DAMON_ACMA_BLOCK_REMOVING,
	DAMON_ACMA_BLOCK_REMOVED,
	DAMON_ACMA_BLOCK_ADDING,
	DAMON_ACMA_BLOCK_OFFLINE,
	DAMON_ACMA_BLOCK_KERNEL,
	NR_DAMON_ACMA_BLOCK_STATES,
};

/**
 * struct damon_acma_cfg - The configuration DAMON_ACMA runs with.
 * @min_mem:		Applied ``min_mem``.
 * @max_mem:		Applied ``max_mem`` (never 0).
 * @mem_pressure_us:	Applied ``mem_pressure_us``.
 * @scale_order:	Applied ``scale_order``.
 * @reset_interval_ms:	Applied ``quota_reset_interval_ms``: the interval the
 *			pressure is measured over.
 * @cold_age:		Applied ``reclaim_min_age_us``, in aggregation
 *			intervals: the age of memory that reclaim pages out and
 *			that scale-down migrates.
 */
struct damon_acma_cfg {
	unsigned long min_mem;
	unsigned long max_mem;
	unsigned long mem_pressure_us;
	unsigned int scale_order;
	unsigned long reset_interval_ms;
	unsigned int cold_age;
};

/**
 * struct damon_acma_deferral - Why and until when scale-down leaves a block
 * alone.
 * @at:		When scale-down last gave up on the block (jiffies), or 0.
 * @times:	How often in a row it gave up on the block without taking
 *		anything of it in between: the wait, %DAMON_ACMA_DEFER_MS,
 *		doubles each time, up to %DAMON_ACMA_DEFER_MAX times.
 * @unmovable:	Its data could not be migrated (pinned pages, pages the
 *		kernel holds), rather than being in use while memory is under
 *		max_mem.
 * @tried_finish: Scale-down gave up on it while finishing it
 *		(damon_acma_may_finish()).
 */
struct damon_acma_deferral {
	unsigned long at;
	u8 times;
	bool unmovable;
	bool tried_finish;
};

/**
 * struct damon_acma_add_retry - When adds into a power domain may be tried
 * again after one failed (its firmware did not power it on, say).
 * @at:		Not before this (jiffies), if @ms is not 0.
 * @ms:		The current wait, 0 once an add went through.
 */
struct damon_acma_add_retry {
	unsigned long at;
	unsigned int ms;
};

/**
 * struct damon_acma - The state of DAMON_ACMA.
 * @ctx:		The DAMON context.
 * @cfg:		The configuration in force.
 * @blocks:		State of each scalable memory block, lowest first.
 * @block_start:	Physical address of each scalable memory block.
 * @memmap_held:	For each removed block, the pages held in its memory
 *			map's stead until it comes back, or NULL.
 * @block_domain:	Power domain of each block, 0 to @nr_domains - 1: the
 *			platform's domains, and a domain of its own for each
 *			block that is in none.
 * @deferred:		Why and until when scale-down leaves each block alone.
 * @add_retry:		Back-off of adds into each domain.
 * @domain_cost:	Scratch space for damon_acma_choose_down(), two per
 *			domain.
 * @nr_blocks:		Number of scalable memory blocks.
 * @nr_domains:		Number of power domains of the blocks.
 * @block_size:		Memory block size in bytes.
 * @fixed_bytes:	Online memory that is not scalable.
 * @nr_blocks_in:	Number of blocks in each state: changed only by
 *			damon_acma_set_block_state(), read without @lock.
 * @down:		Index of the scale-down window block, or -1.
 * @target:		The domain scale-down empties, or -1.
 * @down_owned:		Bytes taken of the window block at the last step.
 * @down_moved_at:	When scale-down last took a chunk of the window block,
 *			or last found its window closed (jiffies).
 * @chosen_at:		When damon_acma_choose_down() last ran (jiffies).
 * @chose_none:		It found no block to take chunks of.
 * @down_unmovable:	A chunk of the window block could not be taken: its
 *			pages could not be isolated or migrated.
 * @down_finish:	Warm data may move out of the window block: it was
 *			stuck, it is the last block that keeps its domain
 *			on, and what it holds fits in one chunk.
 * @up:			Index of the scale-up window block, or -1.
 * @psi_last:		``some`` memory PSI total at the last check, in us.
 * @psi_at:		When @psi_last was read.
 * @pressure_us:	Pressure of the last quota interval, in us.
 * @used_last:		Memory in use at the last step, in pages.
 * @used_at:		When @used_last was read.
 * @growth:		How fast the memory in use grows, in pages per second
 *			(rises at once, decays by an eighth per step).
 * @add_ms:		How long adding one block took, in ms (moving average).
 * @headroom:		Memory to keep available, in pages, as of the last step.
 * @wanted_at:		When memory was last wanted (jiffies), or 0.
 * @step_ms:		Time between two steps, in ms (rises at once, decays by
 *			an eighth per step): kdamond is slow to come back when
 *			the system is busy.
 * @pace:		Bytes reclaim and scale-down may apply per quota
 *			interval, or 0 for what their time quota allows: set
 *			by damon_acma_pace() from the pressure.
 * @applied_last:	Their sz_applied statistics at the last interval.
 * @urgent:		Whether each scheme runs at full speed.
 * @stashed_goals:	Quota goals of the scale-down and scale-up schemes,
 *			taken off while their scheme runs at full speed.
 * @stashed_ms:		Their time quotas, while they run at full speed.
 * @resize_work:	Removes and adds blocks outside of kdamond.
 * @wq:			Runs @resize_work; freezable, so that no block is
 *			removed or added while the system sleeps.
 * @sleeping:		A system sleep is being prepared or under way: the
 *			resize work leaves blocks as they are; under @lock.
 * @shrinker:		Brings removed blocks back when the kernel reclaims.
 * @scaling:		DAMON_ACMA is on; under @lock.
 * @lock:		Protects @blocks, @nr_blocks_in and the windows.
 */
struct damon_acma {
	struct damon_ctx *ctx;
	struct damon_acma_cfg cfg;
	enum damon_acma_block_state *blocks;
	phys_addr_t *block_start;
	struct page **memmap_held;
	int *block_domain;
	struct damon_acma_deferral *deferred;
	struct damon_acma_add_retry *add_retry;
	unsigned long *domain_cost;
	int nr_blocks;
	int nr_domains;
	unsigned long block_size;
	unsigned long fixed_bytes;
	int nr_blocks_in[NR_DAMON_ACMA_BLOCK_STATES];
	int down;
	int target;
	unsigned long down_owned;
	unsigned long down_moved_at;
	unsigned long chosen_at;
	bool chose_none;
	bool down_unmovable;
	bool down_finish;
	int up;
	u64 psi_last;
	unsigned long psi_at;
	unsigned long pressure_us;
	long used_last;
	unsigned long used_at;
	unsigned long growth;
	unsigned long add_ms;
	long headroom;
	unsigned long wanted_at;
	unsigned long step_ms;
	unsigned long pace[NR_DAMON_ACMA_SCHEMES];
	unsigned long applied_last[NR_DAMON_ACMA_SCHEMES];
	bool urgent[NR_DAMON_ACMA_SCHEMES];
	struct list_head stashed_goals[NR_DAMON_ACMA_SCHEMES];
	unsigned long stashed_ms[NR_DAMON_ACMA_SCHEMES];
	struct work_struct resize_work;
	struct workqueue_struct *wq;
	struct shrinker *shrinker;
	bool scaling;
	bool sleeping;
	struct mutex lock;
};

/* What was reported to the host, and the drivers that follow the size. */
static atomic_long_t damon_acma_reported_bytes;
static atomic_long_t damon_acma_report_failures;

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
static BLOCKING_NOTIFIER_HEAD(damon_acma_chain);
static unsigned long damon_acma_notified_bytes;

static struct damon_acma acma = {
	.lock = __MUTEX_INITIALIZER(acma.lock),
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

/* Block @i's number, as /sys/devices/system/memory/memoryN names it. */
static unsigned long damon_acma_block_id(int i)
{
	return PHYS_PFN(acma.block_start[i]) / PHYS_PFN(acma.block_size);
}

/*
 * The one place a block's state changes, keeping the count of blocks in
 * each state.  Needs acma.lock.
 */
static void damon_acma_set_block_state(int i,
		enum damon_acma_block_state state)
{
	enum damon_acma_block_state old = acma.blocks[i];

	lockdep_assert_held(&acma.lock);
	if (old != state && trace_damon_acma_block_state_enabled())
		trace_damon_acma_block_state(damon_acma_block_id(i),
				damon_acma_block_state_names[old],
				damon_acma_block_state_names[state]);
	WRITE_ONCE(acma.nr_blocks_in[old], acma.nr_blocks_in[old] - 1);
	WRITE_ONCE(acma.nr_blocks_in[state], acma.nr_blocks_in[state] + 1);
	WRITE_ONCE(acma.blocks[i], state);
}

static int damon_acma_blocks_in(enum damon_acma_block_state state)
{
	return READ_ONCE(acma.nr_blocks_in[state]);
}

/*
 * The memory Linux has: online blocks minus what DAMON owns.  A block being
 * removed is counted out already, and so are its chunks while they are still
 * in the record.  The total is read before the blocks: a block whose chunks
 * leave the record in between is then under-counted, never over-counted.
 */
static unsigned long damon_acma_mem_bytes(void)
{
	unsigned long online = acma.fixed_bytes + acma.block_size *
		(damon_acma_blocks_in(DAMON_ACMA_BLOCK_ONLINE) +
		 damon_acma_blocks_in(DAMON_ACMA_BLOCK_KERNEL));
	unsigned long owned = damon_contig_total_owned_bytes();
	int i;

	for (i = 0; i < acma.nr_blocks; i++)
		if (READ_ONCE(acma.blocks[i]) == DAMON_ACMA_BLOCK_REMOVING)
			owned -= min(owned, damon_contig_owned_bytes(
					acma.block_start[i],
					acma.block_start[i] + acma.block_size));
	return online - min(online, owned);
}

static unsigned long damon_acma_machine_bytes(void)
{
	return acma.fixed_bytes + (unsigned long)acma.nr_blocks *
		acma.block_size;
}

/* DAMOS owner callbacks: the min/max guarantees, one chunk at a time. */

static unsigned int damon_acma_memmap_order(void)
{
	return get_order((acma.block_size >> PAGE_SHIFT) *
			sizeof(struct page));
}

/*
 * Adding a block back needs its memory map (2 MiB for 128 MiB) from memory
 * the kernel can use, outside of ZONE_MOVABLE.  Scale-down migrates data out
 * of the chunks it takes, into the kernel's zones once ZONE_MOVABLE is full:
 * it stops while their free memory above the min watermarks (what the
 * memory maps can take), with the page cache there that reclaim can free,
 * would not hold the memory map of every removed block and of one more, or
 * scaling back up could fail for want of a few megabytes.  A removed block
 * whose memory map is held (see damon_acma_hold_memmap()) needs no room.
 */
static bool damon_acma_memmap_room(void)
{
	long need = 1L << damon_acma_memmap_order();
	long free = 0;
	struct zone *zone;
	int i;

	for (i = 0; i < acma.nr_blocks; i++) {
		enum damon_acma_block_state state = READ_ONCE(acma.blocks[i]);

		/* blocks others offlined keep their memory maps */
		if ((state == DAMON_ACMA_BLOCK_REMOVING ||
		     state == DAMON_ACMA_BLOCK_REMOVED ||
		     state == DAMON_ACMA_BLOCK_ADDING) &&
				!READ_ONCE(acma.memmap_held[i]))
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

/* Is scale-down still waiting after memory was wanted? */
static bool damon_acma_cooling(void)
{
	unsigned long at = READ_ONCE(acma.wanted_at);

	return at && time_before(jiffies,
			at + msecs_to_jiffies(DAMON_ACMA_COOLDOWN_MS));
}

/*
 * In a virtual machine, the host drops the memory of pages DAMON_ACMA holds
 * (taken chunks, memory maps kept aside); the guest gets fresh memory when
 * they are given back and touched.  Without a page reporting device (bare
 * metal) there is nothing to do.
 * Return: 0 if the pages were reported, -ENODEV without a page reporting
 * device, or the error of the report.
 */
static int damon_acma_report(unsigned long pfn, unsigned int order)
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

/*
 * May scale-down take memory?  Never while the memory maps of the removed
 * blocks could not come back; above max_mem, otherwise always: the maximum
 * wins over the headroom; under it, only what @avail (pages) spares beyond
 * the headroom and a block, and not for a while after memory was wanted.
 */
static bool damon_acma_may_take(bool over, long avail)
{
	if (!damon_acma_memmap_room())
		return false;
	if (over)
		return true;
	return !damon_acma_cooling() && avail > READ_ONCE(acma.headroom) +
		(long)(acma.block_size >> PAGE_SHIFT);
}

static int damon_acma_take_chunk(struct damos *s, unsigned long pfn,
		unsigned int order)
{
	unsigned long mem = damon_acma_mem_bytes();
	int err;

	/* the chunk is already counted as owned, and out of what is available */
	if (mem < acma.cfg.min_mem)
		return -EPERM;
	/* a workload may have grown since the step that set the window */
	if (!damon_acma_may_take(mem >= acma.cfg.max_mem,
				si_mem_available() + (1L << order)))
		return -EAGAIN;
	/*
	 * In a VM the chunk is given up only once the host has it: one that
	 * could not be reported goes back at once (and may be taken again).
	 */
	err = damon_acma_report(pfn, order);
	if (err && err != -ENODEV) {
		atomic_long_inc(&damon_acma_report_failures);
		return -EAGAIN;
	}
	if (!err)
		atomic_long_add(PAGE_SIZE << order, &damon_acma_reported_bytes);
	return 0;
}

static int damon_acma_give_chunk(struct damos *s, unsigned long pfn,
		unsigned int order)
{
	unsigned long chunk = PAGE_SIZE << order;

	if (damon_acma_mem_bytes() + chunk > acma.cfg.max_mem)
		return -EPERM;
	return 0;
}

/*
 * Under max_mem, scale-down moves data only out of regions that were not
 * accessed for reclaim_min_age_us (cold_age aggregations): memory that a
 * workload touches every few seconds stays where it is, and migrating it
 * would only slow the workload down.  Free chunks are taken anywhere.
 * Above max_mem, and in a block being finished (damon_acma_may_finish()),
 * anything goes.  Runs in kdamond, as damon_acma_step().
 */
static bool damon_acma_may_migrate(struct damos *s, struct damon_region *r)
{
	if (acma.urgent[DAMON_ACMA_SCALE_DOWN] || READ_ONCE(acma.down_finish))
		return true;
	return !r->nr_accesses && r->age >= acma.cfg.cold_age;
}

/*
 * Scale-down takes chunks of its window block only: a chunk whose pages
 * could not be isolated or migrated tells why the block may get stuck.
 */
static void damon_acma_chunk_failed(struct damos *s, unsigned long pfn,
		unsigned int order, int err)
{
	if (err == -EBUSY)
		WRITE_ONCE(acma.down_unmovable, true);
}

static struct damos_contig_owner damon_acma_owner = {
	.alloc = damon_acma_take_chunk,
	.free = damon_acma_give_chunk,
	.migrate = damon_acma_may_migrate,
	.failed = damon_acma_chunk_failed,
};

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
	acma.memmap_held[i] = first;
	if (!first)
		return;
	damon_acma_report(page_to_pfn(first), order);
	list_for_each_entry(page, &first->lru, lru)
		damon_acma_report(page_to_pfn(page), order);
}

static void damon_acma_release_memmap(int i)
{
	if (!acma.memmap_held[i])
		return;
	damon_acma_free_memmap(acma.memmap_held[i]);
	acma.memmap_held[i] = NULL;
}

/*
 * Find the scalable blocks: the movable ones online now that are ours.  The
 * walk asks the platform (under its lock, which it holds across memory
 * hotplug) and so runs outside acma.lock; the memory notifier reads the
 * table under acma.lock, so the new one replaces the old under it.
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

static int damon_acma_scan_blocks(void)
{
	struct damon_acma_scan scan = {};
	phys_addr_t end = PFN_PHYS(max_pfn) + memory_block_size_bytes();
	enum damon_acma_block_state *blocks;
	struct damon_acma_deferral *deferred;
	struct damon_acma_add_retry *add_retry;
	unsigned long *cost;
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
	cost = kcalloc(2 * scan.nr, sizeof(*cost), GFP_KERNEL);
	/* as many domains as blocks at most */
	add_retry = kcalloc(scan.nr, sizeof(*add_retry), GFP_KERNEL);
	if (blocks && starts && held && domain && deferred && cost &&
	    add_retry) {
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

	mutex_lock(&acma.lock);
	for (i = 0; acma.memmap_held && i < acma.nr_blocks; i++)
		damon_acma_release_memmap(i);
	kfree(acma.blocks);
	kfree(acma.block_start);
	kfree(acma.memmap_held);
	kfree(acma.block_domain);
	kfree(acma.deferred);
	kfree(acma.domain_cost);
	kfree(acma.add_retry);
	acma.blocks = blocks;
	acma.block_start = starts;
	acma.memmap_held = held;
	acma.block_domain = domain;
	acma.deferred = deferred;
	acma.domain_cost = cost;
	acma.add_retry = add_retry;
	acma.nr_blocks = nr;
	acma.nr_domains = nr_domains;
	acma.down = -1;
	acma.target = -1;
	acma.fixed_bytes = scan.fixed;
	acma.block_size = memory_block_size_bytes();
	memset(acma.nr_blocks_in, 0, sizeof(acma.nr_blocks_in));
	acma.nr_blocks_in[DAMON_ACMA_BLOCK_ONLINE] = nr;
	mutex_unlock(&acma.lock);
	return err;
}

static unsigned long damon_acma_block_owned(int i)
{
	return damon_contig_owned_bytes(acma.block_start[i],
			acma.block_start[i] + acma.block_size);
}

/* Until when scale-down leaves block @i alone (jiffies), if it is deferred. */
static unsigned long damon_acma_deferred_until(int i)
{
	const struct damon_acma_deferral *d = &acma.deferred[i];

	return d->at + (msecs_to_jiffies(DAMON_ACMA_DEFER_MS) <<
			min_t(int, max_t(int, d->times, 1) - 1,
			      DAMON_ACMA_DEFER_MAX));
}

/* Is block @i left alone by scale-down now? */
static bool damon_acma_deferred(int i)
{
	return acma.deferred[i].at &&
		time_before(jiffies, damon_acma_deferred_until(i));
}

/*
 * A few warm pages (a shell's stack, a daemon's data) should not keep a
 * rank on: the last block that keeps its domain on is finished, warm data
 * and all, if its data fit in one chunk.  Moving warm data pays only when a
 * rank goes off: a block that shares its domain with other blocks still in
 * the system waits for them (it is deferred, and taken up again once it is
 * the last one), and a working set is more than one chunk and stays where it
 * is.  Needs acma.lock.
 */
static bool damon_acma_may_finish(int i)
{
	int j;

	for (j = 0; j < acma.nr_blocks; j++)
		if (j != i && acma.block_domain[j] == acma.block_domain[i] &&
		    acma.blocks[j] != DAMON_ACMA_BLOCK_REMOVING &&
		    acma.blocks[j] != DAMON_ACMA_BLOCK_REMOVED)
			return false;
	return damon_contig_busy_bytes(acma.block_start[i],
			acma.block_start[i] + acma.block_size) <=
		PAGE_SIZE << acma.cfg.scale_order;
}

/*
 * May scale-down take chunks of block @i, as it is now?  A deferred block
 * may be taken up again early, to be finished, once it is the last one of its
 * domain and finishing it was not tried yet.
 */
static bool damon_acma_down_ok(int i, bool deferred_too)
{
	return acma.blocks[i] == DAMON_ACMA_BLOCK_ONLINE &&
		damon_acma_block_owned(i) < acma.block_size &&
		(deferred_too || !damon_acma_deferred(i) ||
		 (!acma.deferred[i].tried_finish && damon_acma_may_finish(i)));
}

/*
 * Point the scale-down window at block @i (-1: none).  A block that is still
 * deferred is the window only to be finished (damon_acma_down_ok()).
 */
static void damon_acma_set_down(int i)
{
	if (i == acma.down)
		return;
	acma.down = i;
	acma.down_owned = i >= 0 ? damon_acma_block_owned(i) : 0;
	acma.down_moved_at = jiffies;
	WRITE_ONCE(acma.down_unmovable, false);
	WRITE_ONCE(acma.down_finish, i >= 0 && damon_acma_deferred(i));
}

/* The highest block of domain @d that scale-down may take chunks of, or -1. */
static int damon_acma_domain_down(int d)
{
	int i;

	for (i = acma.nr_blocks - 1; d >= 0 && i >= 0; i--)
		if (acma.block_domain[i] == d && damon_acma_down_ok(i, false))
			return i;
	return -1;
}

/*
 * A domain lower down is chosen over a higher one only if it holds this many
 * chunks' worth of data less: for less, leaving the address order is not
 * worth it, and the choice stays the same from run to run.
 */
#define DAMON_ACMA_CHOICE_SLACK	8

/*
 * Choose the domain to empty next: a domain scale-down started on (some of
 * its blocks are removed) first, so that one domain at most is half empty
 * whatever came in between (memory wanted for a while); else the one whose
 * blocks hold the least data (what taking them would migrate), among those
 * that can go off at all (no block of theirs is held offline or in a kernel
 * zone by somebody else), the highest on a tie (DAMON_ACMA_CHOICE_SLACK).
 * Its blocks are then emptied highest first, and the choice holds until the
 * domain is empty, memory is wanted or every block of it was given up on
 * (see damon_acma_follow_down()), so that scale-down does not half-empty
 * several domains at once.  Walks the struct pages of the online
 * blocks: called only when a domain is done.  Needs acma.lock.
 */
static void damon_acma_choose_down(void)
{
	unsigned long slack = DAMON_ACMA_CHOICE_SLACK *
		(PAGE_SIZE << acma.cfg.scale_order);
	unsigned long *cost = acma.domain_cost;
	unsigned long *started = cost + acma.nr_domains;
	unsigned long best = ULONG_MAX;
	int i, d, pass, top = -1, pick = -1;
	bool any = false;

	for (d = 0; d < acma.nr_domains; d++)
		cost[d] = started[d] = 0;
	for (i = 0; i < acma.nr_blocks; i++) {
		d = acma.block_domain[i];
		switch (acma.blocks[i]) {
		case DAMON_ACMA_BLOCK_REMOVED:
		case DAMON_ACMA_BLOCK_REMOVING:
			started[d] = 1;
			break;
		case DAMON_ACMA_BLOCK_ONLINE:
			if (cost[d] != ULONG_MAX)
				cost[d] += damon_contig_busy_bytes(
						acma.block_start[i],
						acma.block_start[i] +
						acma.block_size);
			break;
		case DAMON_ACMA_BLOCK_OFFLINE:
		case DAMON_ACMA_BLOCK_KERNEL:
			cost[d] = ULONG_MAX;
			break;
		default:
			break;
		}
	}
	/* the highest block first, so that a tie goes to the highest domain */
	for (pass = 0; pass < 2 && !any; pass++) {
		for (i = acma.nr_blocks - 1; i >= 0; i--) {
			d = acma.block_domain[i];
			if (!damon_acma_down_ok(i, false))
				continue;
			if (top < 0)
				top = i;
			if (!pass && !started[d])
				continue;
			if (cost[d] != ULONG_MAX &&
			    (best == ULONG_MAX || cost[d] + slack < best)) {
				best = cost[d];
				pick = i;
				any = true;
			}
		}
	}
	/* no domain can go off: still scale the memory, highest first */
	if (!any)
		pick = top;
	acma.target = pick >= 0 ? acma.block_domain[pick] : -1;
	acma.chose_none = pick < 0;
	acma.chosen_at = jiffies;
	damon_acma_set_down(damon_acma_domain_down(acma.target));
}

/*
 * The windows: scale-down works on a block of the domain it empties (chosen
 * by damon_acma_choose_down()), scale-up on the lowest block that is partly
 * taken, outside of that domain first, else on the lowest removed block.
 * Cheap, called from the memory notifier too: a window block that is done
 * is followed by the next block of the same domain, or none until the next
 * step chooses a domain.  Needs acma.lock.
 */
static void damon_acma_update_windows(void)
{
	int i, pass;

	if (acma.down < 0 || !damon_acma_down_ok(acma.down, true))
		damon_acma_set_down(damon_acma_domain_down(acma.target));
	acma.up = -1;
	for (pass = 0; pass < 2 && acma.up < 0; pass++) {
		for (i = 0; i < acma.nr_blocks; i++) {
			if (acma.blocks[i] != DAMON_ACMA_BLOCK_ONLINE ||
			    !damon_acma_block_owned(i))
				continue;
			if (!pass && acma.block_domain[i] == acma.target)
				continue;
			acma.up = i;
			break;
		}
	}
	for (i = 0; i < acma.nr_blocks && acma.up < 0; i++)
		if (acma.blocks[i] == DAMON_ACMA_BLOCK_REMOVED)
			acma.up = i;
}

static int damon_acma_remove_block(int i)
{
	phys_addr_t start = acma.block_start[i];
	int err;

	err = damon_acma_platform_remove(start, acma.block_size);
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

/* Must adds into domain @d wait, after one failed?  Needs acma.lock. */
static bool damon_acma_add_waits(int d)
{
	const struct damon_acma_add_retry *r = &acma.add_retry[d];

	return r->ms && time_before(jiffies, r->at);
}

/*
 * An add into block @i's domain failed: the domain's firmware or the memory
 * hotplug core refused it.  Retrying at once would only fail again, and
 * flood the log: the domain waits, longer each time in a row (other domains'
 * blocks are added meanwhile).  Needs acma.lock.
 */
static void damon_acma_add_failed(int i)
{
	struct damon_acma_add_retry *r = &acma.add_retry[acma.block_domain[i]];

	r->ms = clamp(r->ms * 2, DAMON_ACMA_ADD_RETRY_MIN_MS,
		      DAMON_ACMA_ADD_RETRY_MAX_MS);
	r->at = jiffies + msecs_to_jiffies(r->ms);
}

static int damon_acma_add_block(int i)
{
	phys_addr_t start = acma.block_start[i];
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
	err = damon_acma_platform_add(nid, start, acma.block_size);
	if (!err && !damon_acma_online_movable(start)) {
		/* a kernel zone could never be given back: take it out again */
		pr_warn_once("added memory is not onlined movable; set memhp_default_state=online_movable\n");
		if (!damon_acma_platform_remove(start, acma.block_size))
			err = -EINVAL;
	}
	if (err) {
		pr_warn_ratelimited("adding %pa failed: %d\n", &start, err);
		damon_acma_hold_memmap(i);
	}
	return err;
}

/* Blocks on their way back. */
static int damon_acma_adding_blocks(void)
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

	mutex_lock(&acma.lock);
	for (i = 0; i < acma.nr_blocks && !acma.sleeping; i++) {
		unsigned long t0 = jiffies;

		if (acma.blocks[i] != DAMON_ACMA_BLOCK_ADDING)
			continue;
		/* another block of its domain just failed: not now */
		if (damon_acma_add_waits(acma.block_domain[i])) {
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_REMOVED);
			continue;
		}
		mutex_unlock(&acma.lock);
		err = damon_acma_add_block(i);
		mutex_lock(&acma.lock);
		if (err) {
			damon_acma_add_failed(i);
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_REMOVED);
			continue;
		}
		acma.add_retry[acma.block_domain[i]].ms = 0;
		WRITE_ONCE(acma.add_ms, (3 * READ_ONCE(acma.add_ms) +
				jiffies_to_msecs(jiffies - t0)) / 4);
		/* somebody else may have offlined it since it came online */
		damon_acma_set_block_state(i,
				damon_acma_online_movable(acma.block_start[i]) ?
				DAMON_ACMA_BLOCK_ONLINE : DAMON_ACMA_BLOCK_OFFLINE);
	}
	for (i = 0; i < acma.nr_blocks && !acma.sleeping; i++) {
		if (acma.blocks[i] != DAMON_ACMA_BLOCK_REMOVING)
			continue;
		/* blocks wanted meanwhile go first */
		if (damon_acma_adding_blocks()) {
			queue_work(acma.wq, &acma.resize_work);
			break;
		}
		mutex_unlock(&acma.lock);
		err = damon_acma_remove_block(i);
		mutex_lock(&acma.lock);
		if (err) {
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ONLINE);
			continue;
		}
		damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_REMOVED);
	}
	damon_acma_update_windows();
	mutex_unlock(&acma.lock);
}

/*
 * Others may offline and online DAMON_ACMA's blocks too (user space, an ACPI
 * eject): follow them, so that the memory counted is the memory in the
 * system, and a block others took is not scaled until it is back online
 * movable.  Blocks DAMON_ACMA removes or adds are the resize work's to
 * record.  The memory notifier runs under the memory hotplug lock, which
 * no holder of acma.lock waits for.
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
	mutex_lock(&acma.lock);
	for (i = 0; i < acma.nr_blocks; i++) {
		if (acma.block_start[i] < start || acma.block_start[i] >= end)
			continue;
		state = acma.blocks[i];
		if (action == MEM_OFFLINE && (state == DAMON_ACMA_BLOCK_ONLINE ||
					state == DAMON_ACMA_BLOCK_KERNEL))
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_OFFLINE);
		else if (action == MEM_ONLINE &&
				state == DAMON_ACMA_BLOCK_OFFLINE)
			damon_acma_set_block_state(i,
				damon_acma_online_movable(acma.block_start[i]) ?
				DAMON_ACMA_BLOCK_ONLINE : DAMON_ACMA_BLOCK_KERNEL);
	}
	damon_acma_update_windows();
	mutex_unlock(&acma.lock);
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
		mutex_lock(&acma.lock);
		acma.sleeping = true;
		mutex_unlock(&acma.lock);
		flush_work(&acma.resize_work);
		break;
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
	case PM_POST_SUSPEND:
		mutex_lock(&acma.lock);
		acma.sleeping = false;
		if (acma.nr_blocks)
			queue_work(acma.wq, &acma.resize_work);
		mutex_unlock(&acma.lock);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block damon_acma_pm_nb = {
	.notifier_call = damon_acma_pm_notifier,
};

/* Pressure */

static u64 damon_acma_psi_total_us(void)
{
#ifdef CONFIG_PSI
	if (static_branch_likely(&psi_disabled))
		return 0;
	return div_u64(psi_system.total[PSI_AVGS][PSI_MEM * 2], NSEC_PER_USEC);
#else
	return 0;
#endif
}

/*
 * Update the pressure of the last quota reset interval.
 * Return: whether a new interval's pressure was measured.
 */
static bool damon_acma_update_pressure(void)
{
	unsigned long interval = msecs_to_jiffies(acma.cfg.reset_interval_ms);
	u64 now = damon_acma_psi_total_us();

	if (!acma.psi_at) {
		acma.psi_at = jiffies;
		acma.psi_last = now;
		return false;
	}
	if (time_before(jiffies, acma.psi_at + interval))
		return false;
	acma.pressure_us = now - acma.psi_last;
	acma.psi_last = now;
	acma.psi_at = jiffies;
	return true;
}

/* Schemes */

static struct damos *damon_acma_new_scheme(enum damos_action action,
		unsigned int min_age)
{
	struct damos_access_pattern pattern = {
		.min_sz_region = PAGE_SIZE,
		.max_sz_region = ULONG_MAX,
		.min_nr_accesses = 0,
		.max_nr_accesses = action == DAMOS_PAGEOUT ? 0 : UINT_MAX,
		.min_age_region = min_age,
		.max_age_region = UINT_MAX,
	};
	struct damos_watermarks wmarks = { .metric = DAMOS_WMARK_NONE };

	return damon_new_scheme(&pattern, action, 0, &damon_acma_quota,
			&wmarks, NUMA_NO_NODE);
}

static int damon_acma_add_window(struct damos *s)
{
	struct damos_filter *filter;

	/* regions outside of the window are filtered out */
	filter = damos_new_filter(DAMOS_FILTER_TYPE_ADDR, false);
	if (!filter)
		return -ENOMEM;
	/* empty until the first window is known */
	filter->addr_range = (struct damon_addr_range){ .start = 0, .end = 0 };
	damos_add_filter(s, filter);
	return 0;
}

static struct damos_filter *damon_acma_window(struct damos *s)
{
	struct damos_filter *f;

	damos_for_each_filter(f, s)
		if (f->type == DAMOS_FILTER_TYPE_ADDR)
			return f;
	return NULL;
}

static int damon_acma_add_schemes(struct damon_ctx *ctx,
		const struct damon_acma_cfg *cfg)
{
	struct damos *s[NR_DAMON_ACMA_SCHEMES];
	struct damos_quota_goal *goal;
	int i;

	s[DAMON_ACMA_RECLAIM] = damon_acma_new_scheme(DAMOS_PAGEOUT,
			cfg->cold_age);
	s[DAMON_ACMA_SCALE_DOWN] = damon_acma_new_scheme(DAMOS_ALLOC, 0);
	s[DAMON_ACMA_SCALE_UP] = damon_acma_new_scheme(DAMOS_FREE, 0);
	for (i = 0; i < NR_DAMON_ACMA_SCHEMES; i++) {
		if (!s[i])
			goto fail;
		damon_add_scheme(ctx, s[i]);
	}
	/*
	 * Without swap, paging anonymous memory out only spends the quota
	 * (and kdamond's time) on pages that stay: reclaim file pages alone.
	 * Swap added later counts from the next commit.
	 */
	if (!total_swap_pages) {
		struct damos_filter *anon = damos_new_filter(
				DAMOS_FILTER_TYPE_ANON, true);

		if (!anon)
			return -ENOMEM;
		damos_add_filter(s[DAMON_ACMA_RECLAIM], anon);
	}
	for (i = DAMON_ACMA_SCALE_DOWN; i <= DAMON_ACMA_SCALE_UP; i++) {
		s[i]->alloc_order = cfg->scale_order;
		s[i]->owner = &damon_acma_owner;
		if (damon_acma_add_window(s[i]))
			return -ENOMEM;
	}
	/*
	 * Reclaim and scale-down work harder while the pressure is low: their
	 * size quotas are set by damon_acma_pace(), not by a pressure goal.
	 *
	 * scale-up works harder while the pressure is high: its goal is the
	 * headroom, fed by damon_acma_feed_scale_up() each interval.
	 */
	goal = damos_new_quota_goal(DAMOS_QUOTA_USER_INPUT, 10000);
	if (!goal)
		return -ENOMEM;
	goal->current_value = 10000;
	damos_add_quota_goal(&s[DAMON_ACMA_SCALE_UP]->quota, goal);
	return 0;
fail:
	while (i--)
		damon_destroy_scheme(s[i]);
	return -ENOMEM;
}

static struct damos *damon_acma_nth_scheme(struct damon_ctx *c, int n)
{
	struct damos *s;
	int i = 0;

	damon_for_each_scheme(s, c)
		if (i++ == n)
			return s;
	return NULL;
}

/*
 * Headroom feedback for scale-up: above 10000 (the goal) when the pressure
 * is under the target, so the quota shrinks; below it when the pressure is
 * over the target, so the quota grows.
 */
static void damon_acma_feed_scale_up(struct damos *s)
{
	struct damos_quota *quota = &s->quota;
	struct damos_quota_goal *goal;
	unsigned long pressure = max(acma.pressure_us, 1UL);

	damos_for_each_quota_goal(goal, quota)
		goal->current_value = min(10000UL * acma.cfg.mem_pressure_us /
				pressure, 1000000UL);
}

static void damon_acma_set_window(struct damos *s, int block)
{
	struct damos_filter *f = damon_acma_window(s);

	if (!f)
		return;
	if (block < 0) {
		f->addr_range.start = 0;
		f->addr_range.end = 0;
		return;
	}
	f->addr_range.start = acma.block_start[block];
	f->addr_range.end = acma.block_start[block] + acma.block_size;
}

/*
 * Where memory is outside of [min_mem, max_mem], the scheme that brings it
 * back works at full speed: its pressure goal is taken off (kept aside) and
 * its time quota becomes the whole quota interval until memory is back in
 * range, as a balloon inflates as fast as it can when its host asks.  Runs in
 * kdamond, or with kdamond stopped.
 */
static void damon_acma_set_urgent(struct damos *s, int idx, bool urgent)
{
	struct list_head *stash = &acma.stashed_goals[idx];

	if (!s || urgent == acma.urgent[idx])
		return;
	if (urgent) {
		list_splice_init(&s->quota.goals, stash);
		acma.stashed_ms[idx] = s->quota.ms;
		s->quota.ms = s->quota.reset_interval;
		s->quota.sz = 0;
	} else {
		list_splice_init(stash, &s->quota.goals);
		s->quota.ms = acma.stashed_ms[idx];
		s->quota.sz = acma.pace[idx];
	}
	acma.urgent[idx] = urgent;
}

/* Pace the schemes of a new run from their statistics as they are now. */
static void damon_acma_start_pace(struct damon_ctx *c)
{
	struct damos *s;
	int i = 0;

	damon_for_each_scheme(s, c)
		acma.applied_last[i++] = s->stat.sz_applied;
}

/*
 * The pace of reclaim and scale-down, set once per quota interval from the
 * pressure of the last one, in bytes per interval: none (what the time quota
 * allows) while the pressure stays at or under half the target; over the
 * target, half of what was applied in the last interval, and a chunk at
 * twice the target; back up, doubling per interval, once the pressure is low
 * again.  DAMOS' own goal tuner would do the same from one byte up, taking
 * some 27 intervals (half a minute by default) to reach the size of a memory
 * block each time it is enabled and after each pressure spike, while
 * DAMON_ACMA already stops scale-down whenever memory is wanted.
 */
static void damon_acma_pace(struct damos *s, int idx, bool measured)
{
	unsigned long chunk = PAGE_SIZE << acma.cfg.scale_order;
	unsigned long target = acma.cfg.mem_pressure_us;
	unsigned long applied, pace = acma.pace[idx];

	if (!s)
		return;
	if (measured) {
		applied = s->stat.sz_applied - acma.applied_last[idx];
		acma.applied_last[idx] = s->stat.sz_applied;
		if (acma.pressure_us >= 2 * target)
			pace = chunk;
		else if (acma.pressure_us > target)
			pace = max(min(pace ? pace : ULONG_MAX, applied) / 2,
					chunk);
		else if (pace && acma.pressure_us <= target / 2)
			pace = pace > damon_acma_machine_bytes() / 2 ?
				0 : pace * 2;
		acma.pace[idx] = pace;
	}
	if (!acma.urgent[idx])
		s->quota.sz = pace;
}

/* Put the stashed goals back, before the schemes are committed anew. */
static void damon_acma_unstash_goals(struct damon_ctx *c)
{
	damon_acma_set_urgent(damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_DOWN),
			DAMON_ACMA_SCALE_DOWN, false);
	damon_acma_set_urgent(damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_UP),
			DAMON_ACMA_SCALE_UP, false);
}

/*
 * The memory to keep available, in pages: a block, plus what the workload
 * takes, at the rate it grew lately, before more blocks can be online.  The
 * memory in use is what Linux has less what is available, so that chunks
 * DAMON_ACMA takes or blocks it adds do not count as growth.
 */
static long damon_acma_headroom(long avail, unsigned long mem)
{
	long used = (long)(mem >> PAGE_SHIFT) - avail;
	unsigned long now = jiffies, ms = jiffies_to_msecs(now - acma.used_at);
	unsigned long rate = acma.growth - acma.growth / 8;
	unsigned long horizon;

	if (acma.used_at && ms && used > acma.used_last)
		rate = max(rate, (used - acma.used_last) * MSEC_PER_SEC / ms);
	if (acma.used_at)
		acma.step_ms = max(ms, acma.step_ms - acma.step_ms / 8);
	horizon = DAMON_ACMA_HORIZON_MS + acma.step_ms + READ_ONCE(acma.add_ms);
	acma.growth = rate;
	acma.used_last = used;
	acma.used_at = now;
	return (acma.block_size >> PAGE_SHIFT) + rate * horizon / MSEC_PER_SEC;
}

/*
 * Mark up to @n removed blocks to come back, as far as max_mem allows with
 * the blocks already on their way: first those of domains that are powered
 * anyway, then the others, lowest first, skipping domains whose last add
 * failed a moment ago (damon_acma_add_failed()).  Memory being wanted ends the
 * choice of a domain to empty.  Needs acma.lock.
 * Return: the number of blocks marked.
 */
static int damon_acma_want_blocks(int n)
{
	unsigned long mem = damon_acma_mem_bytes();
	int room = (acma.cfg.max_mem - min(mem, acma.cfg.max_mem)) /
		acma.block_size - damon_acma_adding_blocks();
	unsigned long *on = acma.domain_cost;
	int i, pass, marked = 0;

	acma.target = -1;
	damon_acma_set_down(-1);
	n = min(n, room);
	if (n <= 0)
		return 0;
	/* a domain with some memory in the system is powered */
	for (i = 0; i < acma.nr_domains; i++)
		on[i] = 0;
	for (i = 0; i < acma.nr_blocks; i++)
		if (acma.blocks[i] != DAMON_ACMA_BLOCK_REMOVED)
			on[acma.block_domain[i]] = 1;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < acma.nr_blocks && marked < n; i++) {
			if (acma.blocks[i] != DAMON_ACMA_BLOCK_REMOVED ||
			    damon_acma_add_waits(acma.block_domain[i]))
				continue;
			if (!pass && !on[acma.block_domain[i]])
				continue;
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ADDING);
			marked++;
		}
	}
	return marked;
}

/*
 * The backstop for a workload that outgrows the headroom between two steps
 * (kdamond comes back late on a busy system): when memory runs so low that
 * the kernel reclaims, removed blocks come back at once.  Nothing is freed
 * here; the blocks are added by the resize work.
 */
static unsigned long damon_acma_shrink_count(struct shrinker *shrinker,
		struct shrink_control *sc)
{
	return READ_ONCE(acma.scaling) ? acma.block_size >> PAGE_SHIFT : 0;
}

static unsigned long damon_acma_shrink_scan(struct shrinker *shrinker,
		struct shrink_control *sc)
{
	bool queue = false;

	if (!mutex_trylock(&acma.lock))
		return SHRINK_STOP;
	if (acma.scaling && !damon_acma_adding_blocks())
		queue = damon_acma_want_blocks(DAMON_ACMA_MAX_ADDS / 4);
	mutex_unlock(&acma.lock);
	if (queue)
		queue_work(acma.wq, &acma.resize_work);
	return SHRINK_STOP;
}

/* Drivers that follow the size: a balloon telling its host */

/**
 * damon_acma_given_bytes() - The memory DAMON_ACMA has given up.
 *
 * Return: the bytes of the scaled memory that the system does not have now:
 * chunks taken and blocks removed, or 0 when DAMON_ACMA is off.
 */
unsigned long damon_acma_given_bytes(void)
{
	if (!READ_ONCE(acma.scaling))
		return 0;
	return damon_acma_machine_bytes() - damon_acma_mem_bytes();
}
EXPORT_SYMBOL_GPL(damon_acma_given_bytes);

/**
 * damon_acma_total_bytes() - The memory DAMON_ACMA scales within.
 *
 * Return: the bytes of memory the system has with nothing given up: the
 * memory that is not scalable plus every scalable block, or 0 when
 * DAMON_ACMA is off.
 */
unsigned long damon_acma_total_bytes(void)
{
	if (!READ_ONCE(acma.scaling))
		return 0;
	return damon_acma_machine_bytes();
}
EXPORT_SYMBOL_GPL(damon_acma_total_bytes);

/**
 * damon_acma_register_notifier() - Follow the memory DAMON_ACMA gives up.
 * @nb:	Called in process context with %DAMON_ACMA_GIVEN_CHANGED when
 *	damon_acma_given_bytes() changed, and with %DAMON_ACMA_STATE_CHANGED
 *	when DAMON_ACMA was enabled or disabled.
 *
 * Return: 0 on success, or a negative error code.
 */
int damon_acma_register_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&damon_acma_chain, nb);
}
EXPORT_SYMBOL_GPL(damon_acma_register_notifier);

/**
 * damon_acma_unregister_notifier() - Stop following DAMON_ACMA.
 * @nb:	The notifier block given to damon_acma_register_notifier().
 *
 * Return: 0 on success, or -ENOENT if @nb was not registered.
 */
int damon_acma_unregister_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&damon_acma_chain, nb);
}
EXPORT_SYMBOL_GPL(damon_acma_unregister_notifier);

static void damon_acma_notify(void)
{
	unsigned long given = damon_acma_given_bytes();

	if (given == READ_ONCE(damon_acma_notified_bytes))
		return;
	WRITE_ONCE(damon_acma_notified_bytes, given);
	blocking_notifier_call_chain(&damon_acma_chain,
			DAMON_ACMA_GIVEN_CHANGED, NULL);
}

/* Leave the scale-down window block @i alone for a while.  Needs acma.lock. */
static void damon_acma_defer(int i)
{
	struct damon_acma_deferral *d = &acma.deferred[i];

	d->at = jiffies ? jiffies : 1;
	if (d->times <= DAMON_ACMA_DEFER_MAX)
		d->times++;
	d->unmovable = READ_ONCE(acma.down_unmovable);
	d->tried_finish = READ_ONCE(acma.down_finish);
}

/*
 * Keep the scale-down window moving: a block of which the open window took
 * nothing for DAMON_ACMA_STUCK_MS (its data are in use and memory is under
 * max_mem, or they cannot be migrated) is finished if it is the last one
 * that keeps its domain on and its data fit in one chunk
 * (damon_acma_may_finish()), else, or when that did not help either,
 * left alone for a while (damon_acma_defer()), for the next block of the
 * same domain, or of the next domain; a domain that is done is followed by
 * the next one.  A deferred block that becomes the last of its domain is
 * taken up again to be finished (damon_acma_down_ok()).  Needs acma.lock.
 */
static void damon_acma_follow_down(bool open)
{
	unsigned long owned;

	if (!open) {
		acma.down_moved_at = jiffies;
		return;
	}
	if (acma.down >= 0) {
		owned = damon_acma_block_owned(acma.down);
		if (owned != acma.down_owned) {
			acma.down_owned = owned;
			acma.down_moved_at = jiffies;
			/* it moves: no longer deferred, the back-off starts over */
			acma.deferred[acma.down] = (struct damon_acma_deferral){};
		} else if (time_after(jiffies, acma.down_moved_at +
				msecs_to_jiffies(DAMON_ACMA_STUCK_MS))) {
			if (!acma.down_finish &&
			    damon_acma_may_finish(acma.down)) {
				WRITE_ONCE(acma.down_finish, true);
				acma.down_moved_at = jiffies;
				return;
			}
			damon_acma_defer(acma.down);
			damon_acma_set_down(damon_acma_domain_down(
					acma.target));
		}
	}
	/* choosing walks the blocks' pages: after none, once a second */
	if (acma.down < 0 && (!acma.chose_none ||
			time_after(jiffies, acma.chosen_at + HZ)))
		damon_acma_choose_down();
}

/* Called after each aggregation, in kdamond: move windows, queue resizes. */
static void damon_acma_step(struct damon_ctx *c)
{
	struct damos *down = damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_DOWN);
	struct damos *up = damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_UP);
	unsigned long mem = damon_acma_mem_bytes();
	bool over = mem > acma.cfg.max_mem;
	bool under = mem < acma.cfg.min_mem;
	long avail = si_mem_available();
	long headroom = damon_acma_headroom(avail, mem);
	bool urgent, wanted, measured, open, resize = false;
	int i;

	measured = damon_acma_update_pressure();
	WRITE_ONCE(acma.headroom, headroom);
	/*
	 * The pressure of a whole quota interval comes late for a workload
	 * that grows fast (without swap there is none until memory runs out):
	 * running short of the headroom is urgent too.
	 */
	urgent = under || avail < headroom;
	wanted = urgent || acma.pressure_us > acma.cfg.mem_pressure_us;
	if (wanted)
		WRITE_ONCE(acma.wanted_at, jiffies ? jiffies : 1);
	/*
	 * Wanted memory comes from taken chunks of the scale-up window first,
	 * at once: the scale-up scheme's quota grows with the pressure, too
	 * slowly for that.
	 */
	mutex_lock(&acma.lock);
	i = acma.up;
	mutex_unlock(&acma.lock);
	if (wanted && i >= 0 && mem < acma.cfg.max_mem) {
		phys_addr_t start = acma.block_start[i];

		damon_contig_free_range(&damon_acma_owner, start,
				start + acma.block_size,
				acma.cfg.max_mem - mem);
		mem = damon_acma_mem_bytes();
	}

	mutex_lock(&acma.lock);
	/* fully taken blocks leave the system */
	for (i = 0; i < acma.nr_blocks; i++) {
		if (acma.blocks[i] == DAMON_ACMA_BLOCK_ONLINE &&
				damon_acma_block_owned(i) == acma.block_size) {
			/* count the block out now, chunks and all */
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_REMOVING);
			resize = true;
		}
	}
	damon_acma_update_windows();
	/*
	 * Removed blocks come back, lowest first, when memory is wanted and
	 * allowed: when it is wanted urgently, as many as the headroom needs.
	 */
	if (wanted) {
		unsigned long block_pages = acma.block_size >> PAGE_SHIFT;
		long short_by = headroom - avail;
		int n = 1;

		if (mem < acma.cfg.min_mem)
			short_by = max_t(long, short_by,
					(acma.cfg.min_mem - mem) >> PAGE_SHIFT);
		/* blocks on their way count as available already */
		short_by -= damon_acma_adding_blocks() * block_pages;
		if (urgent)
			n = clamp_t(long, DIV_ROUND_UP(max(short_by, 0L),
					block_pages), 0, DAMON_ACMA_MAX_ADDS);
		if (damon_acma_want_blocks(n))
			resize = true;
	}
	/*
	 * The scale-down window stops at min_mem, while memory is wanted and
	 * for a while after (wanted_at is set above), and while taking a block
	 * more would eat into the headroom: a workload that grows would get
	 * back what it just got, through migration.
	 */
	open = (over || mem > acma.cfg.min_mem) &&
		damon_acma_may_take(over, avail);
	damon_acma_follow_down(open);
	damon_acma_set_window(down, open ? acma.down : -1);
	/* a removed window has nothing to free until it is added */
	damon_acma_set_window(up, acma.up >= 0 &&
			acma.blocks[acma.up] == DAMON_ACMA_BLOCK_ONLINE ?
			acma.up : -1);
	mutex_unlock(&acma.lock);

	damon_acma_set_urgent(down, DAMON_ACMA_SCALE_DOWN, over);
	damon_acma_set_urgent(up, DAMON_ACMA_SCALE_UP, under);
	damon_acma_pace(damon_acma_nth_scheme(c, DAMON_ACMA_RECLAIM),
			DAMON_ACMA_RECLAIM, measured);
	damon_acma_pace(down, DAMON_ACMA_SCALE_DOWN, measured);
	damon_acma_feed_scale_up(up);
	if (resize)
		queue_work(acma.wq, &acma.resize_work);
	trace_damon_acma_step(mem, acma.cfg.min_mem, acma.cfg.max_mem,
			max(avail, 0L) << PAGE_SHIFT,
			max(headroom, 0L) << PAGE_SHIFT,
			acma.pressure_us, wanted, urgent, open,
			damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVING),
			damon_acma_adding_blocks());
	damon_acma_notify();
}

/* Parameters */

static int damon_acma_check(struct damon_acma_cfg *cfg)
{
	unsigned long machine = damon_acma_machine_bytes();

	cfg->min_mem = min_mem;
	cfg->max_mem = max_mem ? max_mem : machine;
	cfg->mem_pressure_us = mem_pressure_us;
	cfg->scale_order = scale_order;
	cfg->reset_interval_ms = damon_acma_quota.reset_interval;
	cfg->cold_age = damon_acma_mon_attrs.aggr_interval ?
		reclaim_min_age_us / damon_acma_mon_attrs.aggr_interval : 0;

	if (cfg->min_mem > cfg->max_mem || cfg->max_mem > machine)
		return -EINVAL;
	if (!cfg->reset_interval_ms ||
	    cfg->reset_interval_ms > ULONG_MAX / USEC_PER_MSEC)
		return -EINVAL;
	if (!cfg->mem_pressure_us || cfg->mem_pressure_us >=
			cfg->reset_interval_ms * USEC_PER_MSEC)
		return -EINVAL;
	if (!damos_contig_valid_order(cfg->scale_order))
		return -EINVAL;
	/* what damon_set_attrs() refuses, refused here, where the writer sees it */
	if (!damon_acma_mon_attrs.aggr_interval ||
	    damon_acma_mon_attrs.sample_interval >
			damon_acma_mon_attrs.aggr_interval ||
	    damon_acma_mon_attrs.min_nr_regions < 3 ||
	    damon_acma_mon_attrs.min_nr_regions >
			damon_acma_mon_attrs.max_nr_regions)
		return -EINVAL;
	return 0;
}

/*
 * The parameter values in force, so that a commit refused leaves the files
 * showing what runs, not what was refused.  Under the parameters' lock
 * (kernel_param_lock()) or in kdamond while a commit is applied.
 */
static struct {
	unsigned long min_mem;
	unsigned long max_mem;
	unsigned long mem_pressure_us;
	unsigned int scale_order;
	unsigned long reclaim_min_age_us;
	unsigned long quota_ms;
	unsigned long reset_interval;
	struct damon_attrs attrs;
} damon_acma_in_force;

static void damon_acma_save_parameters(void)
{
	damon_acma_in_force.min_mem = min_mem;
	damon_acma_in_force.max_mem = max_mem;
	damon_acma_in_force.mem_pressure_us = mem_pressure_us;
	damon_acma_in_force.scale_order = scale_order;
	damon_acma_in_force.reclaim_min_age_us = reclaim_min_age_us;
	damon_acma_in_force.quota_ms = damon_acma_quota.ms;
	damon_acma_in_force.reset_interval = damon_acma_quota.reset_interval;
	damon_acma_in_force.attrs = damon_acma_mon_attrs;
}

static void damon_acma_restore_parameters(void)
{
	min_mem = damon_acma_in_force.min_mem;
	max_mem = damon_acma_in_force.max_mem;
	mem_pressure_us = damon_acma_in_force.mem_pressure_us;
	scale_order = damon_acma_in_force.scale_order;
	reclaim_min_age_us = damon_acma_in_force.reclaim_min_age_us;
	damon_acma_quota.ms = damon_acma_in_force.quota_ms;
	damon_acma_quota.reset_interval = damon_acma_in_force.reset_interval;
	damon_acma_mon_attrs = damon_acma_in_force.attrs;
}

/* Build a context from the parameters and commit it to the running one. */
static int damon_acma_apply_parameters(const struct damon_acma_cfg *cfg)
{
	struct damon_ctx *param_ctx;
	struct damon_target *param_target;
	struct damon_addr_range range;
	int err;

	err = damon_modules_new_paddr_ctx_target(&param_ctx, &param_target);
	if (err)
		return err;
	err = damon_set_attrs(param_ctx, &damon_acma_mon_attrs);
	if (err)
		goto out;
	err = damon_acma_add_schemes(param_ctx, cfg);
	if (err)
		goto out;
	/* all memory, up to the end of the highest scalable block */
	range.start = 0;
	range.end = acma.nr_blocks ? acma.block_start[acma.nr_blocks - 1] +
		acma.block_size : PFN_PHYS(max_pfn);
	err = damon_set_regions(param_target, &range, 1);
	if (err)
		goto out;
	err = damon_commit_ctx(acma.ctx, param_ctx);
	if (!err) {
		acma.cfg = *cfg;
		damon_acma_save_parameters();
	}
out:
	damon_destroy_ctx(param_ctx);
	return err;
}

static int damon_acma_after_aggregation(struct damon_ctx *c)
{
	struct damos *s;
	int i = 0, err = 0;

	damon_for_each_scheme(s, c) {
		if (i == DAMON_ACMA_RECLAIM)
			damon_acma_reclaim_stat = s->stat;
		else if (i == DAMON_ACMA_SCALE_DOWN)
			damon_acma_scale_down_stat = s->stat;
		else
			damon_acma_scale_up_stat = s->stat;
		i++;
	}
	if (commit_inputs) {
		struct damon_acma_cfg cfg;

		/* checked when written; the machine may have changed since */
		damon_acma_unstash_goals(c);
		err = damon_acma_check(&cfg);
		if (!err)
			err = damon_acma_apply_parameters(&cfg);
		if (err) {
			pr_warn("commit failed (%d); running as before\n", err);
			damon_acma_restore_parameters();
		}
		commit_inputs = false;
	}
	damon_acma_step(c);
	return 0;
}

/* Blocks removed and not added back (yet): not in the system. */
static int damon_acma_removed_blocks(void)
{
	return damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVED) +
		damon_acma_blocks_in(DAMON_ACMA_BLOCK_ADDING);
}

/*
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
static int damon_acma_give_all_back(void)
{
	int i, removed = 0;

	while (flush_work(&acma.resize_work))
		;
	mutex_lock(&acma.lock);
	/* asked for by the operator: no domain waits out a back-off */
	for (i = 0; i < acma.nr_domains; i++)
		acma.add_retry[i].ms = 0;
	for (i = 0; i < acma.nr_blocks; i++) {
		if (acma.blocks[i] == DAMON_ACMA_BLOCK_REMOVING)
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ONLINE);
		else if (acma.blocks[i] == DAMON_ACMA_BLOCK_REMOVED)
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ADDING);
	}
	mutex_unlock(&acma.lock);
	queue_work(acma.wq, &acma.resize_work);
	while (flush_work(&acma.resize_work))
		;
	for (i = 0; i < acma.nr_blocks; i++)
		if (acma.blocks[i] == DAMON_ACMA_BLOCK_ONLINE)
			damon_contig_free_range(&damon_acma_owner,
					acma.block_start[i],
					acma.block_start[i] + acma.block_size,
					ULONG_MAX);
	mutex_lock(&acma.lock);
	removed = damon_acma_removed_blocks() +
		damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVING);
	damon_acma_update_windows();
	mutex_unlock(&acma.lock);
	if (removed)
		pr_warn("%d blocks could not be added back; write N to enabled again to retry\n",
			removed);
	return removed ? -EBUSY : 0;
}

static int damon_acma_turn(bool on)
{
	struct damon_acma_cfg cfg;
	int err;

	if (!on) {
		mutex_lock(&acma.lock);
		WRITE_ONCE(acma.scaling, false);
		mutex_unlock(&acma.lock);
		if (damon_is_running(acma.ctx)) {
			err = damon_stop(&acma.ctx, 1);
			if (err)
				return err;
		}
		damon_acma_unstash_goals(acma.ctx);
		err = damon_acma_give_all_back();
		damon_acma_notify();
		return err;
	}
	/* nothing of the last run may still be under way */
	cancel_work_sync(&acma.resize_work);
	err = damon_acma_scan_blocks();
	if (err)
		return err;
	err = damon_acma_check(&cfg);
	if (err)
		return err;
	err = damon_acma_apply_parameters(&cfg);
	if (err)
		return err;
	acma.psi_at = 0;
	acma.pressure_us = 0;
	memset(acma.pace, 0, sizeof(acma.pace));
	damon_acma_start_pace(acma.ctx);
	acma.used_at = 0;
	acma.growth = 0;
	acma.step_ms = 0;
	acma.wanted_at = 0;
	err = damon_start(&acma.ctx, 1, true);
	if (err)
		return err;
	mutex_lock(&acma.lock);
	WRITE_ONCE(acma.scaling, true);
	mutex_unlock(&acma.lock);
	return 0;
}

static int damon_acma_enabled_store(const char *val,
		const struct kernel_param *kp)
{
	bool on;
	int err;

	err = kstrtobool(val, &on);
	if (err)
		return err;
	if (!acma.ctx) {
		/* before init, from the command line: init turns it on */
		enabled = on;
		return 0;
	}
	if (damon_is_running(acma.ctx) == on &&
	    (on || !damon_acma_removed_blocks()))
		return 0;
	err = damon_acma_turn(on);
	if (!err)
		enabled = on;
	/* who meets a balloon target may have changed: let them look again */
	blocking_notifier_call_chain(&damon_acma_chain,
			DAMON_ACMA_STATE_CHANGED, NULL);
	return err;
}

static int damon_acma_enabled_load(char *buffer,
		const struct kernel_param *kp)
{
	bool on = acma.ctx && damon_is_running(acma.ctx);

	return sprintf(buffer, "%c\n", on ? 'Y' : 'N');
}

static const struct kernel_param_ops enabled_param_ops = {
	.set = damon_acma_enabled_store,
	.get = damon_acma_enabled_load,
};
module_param_cb(enabled, &enabled_param_ops, &enabled, 0600);
MODULE_PARM_DESC(enabled, "Enable or disable DAMON_ACMA (default: disabled)");

static int damon_acma_commit_inputs_store(const char *val,
		const struct kernel_param *kp)
{
	struct damon_acma_cfg cfg;
	bool commit;
	int err;

	err = kstrtobool(val, &commit);
	if (err)
		return err;
	if (!commit)
		return 0;
	if (!acma.ctx || !damon_is_running(acma.ctx))
		return -EINVAL;
	/*
	 * Refuse bad input here, where the writer sees it; the files then show
	 * the values in force again.
	 */
	err = damon_acma_check(&cfg);
	if (err) {
		damon_acma_restore_parameters();
		return err;
	}
	commit_inputs = true;
	return 0;
}

static const struct kernel_param_ops commit_inputs_param_ops = {
	.set = damon_acma_commit_inputs_store,
	.get = param_get_bool,
};
module_param_cb(commit_inputs, &commit_inputs_param_ops, &commit_inputs,
		0600);

/**
 * damon_acma_set_max_mem() - Set the maximum from a driver.
 * @bytes:	The memory the system may have at most, in bytes.
 * @applied:	Set to the maximum that applies: @bytes clamped between
 *		``min_mem`` and the memory DAMON_ACMA scales.
 *
 * For a driver that learns the size of the system from outside, such as a
 * balloon whose host sets a target.  The maximum becomes the ``max_mem``
 * parameter and is committed like an administrator's at the next step; a
 * maximum below the current size makes scale-down run at full allowed
 * speed until it is met.
 *
 * Context: Process context.
 * Return: 0 on success; -EAGAIN if DAMON_ACMA is not running, or -ENODEV
 * if it has no memory to scale (the caller then handles the size itself);
 * -EINVAL if even the parameters in force do not allow it (nothing is
 * changed then).  Parameters written since the last commit that are invalid
 * are dropped for the values in force.
 */
int damon_acma_set_max_mem(unsigned long bytes, unsigned long *applied)
{
	struct damon_acma_cfg cfg;
	unsigned long old;
	int err = -EAGAIN;

	kernel_param_lock(THIS_MODULE);
	if (!acma.ctx || !damon_is_running(acma.ctx))
		goto out;
	/* nothing to scale: the driver must give the memory back itself */
	err = -ENODEV;
	if (!acma.nr_blocks)
		goto out;
	old = max_mem;
	max_mem = clamp(bytes, min_mem, damon_acma_machine_bytes());
	err = damon_acma_check(&cfg);
	if (err) {
		/*
		 * Parameters written since the last commit are invalid: they
		 * would be refused at commit anyway.  The host's maximum goes
		 * with the values in force, so that the driver never gives
		 * memory back itself while DAMON_ACMA scales too.
		 */
		damon_acma_restore_parameters();
		max_mem = clamp(bytes, min_mem, damon_acma_machine_bytes());
		err = damon_acma_check(&cfg);
	}
	if (err) {
		max_mem = old;
		goto out;
	}
	*applied = max_mem;
	commit_inputs = true;
out:
	kernel_param_unlock(THIS_MODULE);
	return err;
}
EXPORT_SYMBOL_GPL(damon_acma_set_max_mem);

/*
 * A size in bytes with an optional K, M, G, T, P or E suffix.  Unlike
 * memparse(), a number that does not fit is refused, not wrapped.
 */
static int damon_acma_bytes_store(const char *val,
		const struct kernel_param *kp)
{
	static const char suffixes[] = "KMGTPE";
	unsigned long long bytes;
	unsigned int shift = 0;
	const char *s;
	char buf[32];
	size_t len;
	int err;

	len = strlen(val);
	if (len && val[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, val, len);
	buf[len] = '\0';
	s = strchr(suffixes, toupper(buf[len - 1]));
	if (s && *s) {
		shift = 10 * (s - suffixes + 1);
		buf[--len] = '\0';
	}
	err = kstrtoull(buf, 0, &bytes);
	if (err)
		return -EINVAL;
	if (bytes > (ULONG_MAX >> shift))
		return -EINVAL;
	*(unsigned long *)kp->arg = bytes << shift;
	return 0;
}

static const struct kernel_param_ops bytes_param_ops = {
	.set = damon_acma_bytes_store,
	.get = param_get_ulong,
};
module_param_cb(min_mem, &bytes_param_ops, &min_mem, 0600);
module_param_cb(max_mem, &bytes_param_ops, &max_mem, 0600);
module_param(mem_pressure_us, ulong, 0600);
module_param(scale_order, uint, 0600);
module_param(reclaim_min_age_us, ulong, 0600);

static int damon_acma_kdamond_pid_load(char *buffer,
		const struct kernel_param *kp)
{
	int pid = acma.ctx ? damon_kdamond_pid(acma.ctx) : -1;

	return sprintf(buffer, "%d\n", pid < 0 ? -1 : pid);
}

static int damon_acma_ro_store(const char *val, const struct kernel_param *kp)
{
	/* read-only, but the kernel command line may name it */
	return 0;
}

static const struct kernel_param_ops kdamond_pid_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_kdamond_pid_load,
};
/* PID of the DAMON thread while enabled, else -1. */
module_param_cb(kdamond_pid, &kdamond_pid_param_ops, NULL, 0400);

static int damon_acma_count_online(struct memory_block *mem, void *arg)
{
	if (mem->state == MEM_ONLINE)
		*(unsigned long *)arg += memory_block_size_bytes();
	return 0;
}

static int damon_acma_mem_bytes_load(char *buffer,
		const struct kernel_param *kp)
{
	unsigned long online = 0;

	if (acma.ctx && damon_is_running(acma.ctx))
		return sprintf(buffer, "%lu\n", damon_acma_mem_bytes());
	/* not scaling: what is online now */
	walk_memory_blocks(0, PFN_PHYS(max_pfn) + memory_block_size_bytes(),
			&online, damon_acma_count_online);
	return sprintf(buffer, "%lu\n",
			online - damon_contig_total_owned_bytes());
}

static const struct kernel_param_ops mem_bytes_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_mem_bytes_load,
};
/* The memory Linux has now, in bytes: online memory minus taken chunks. */
module_param_cb(mem_bytes, &mem_bytes_param_ops, NULL, 0400);

static int damon_acma_owned_bytes_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%lu\n",
			damon_contig_owner_bytes(&damon_acma_owner));
}

static const struct kernel_param_ops owned_bytes_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_owned_bytes_load,
};
/* Bytes of the chunks taken and not given back, in blocks still present. */
module_param_cb(owned_bytes, &owned_bytes_param_ops, NULL, 0400);

static int damon_acma_removed_blocks_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%d\n", damon_acma_removed_blocks());
}

static const struct kernel_param_ops removed_blocks_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_removed_blocks_load,
};
/* Memory blocks DAMON_ACMA removed and not added back (yet). */
module_param_cb(removed_blocks, &removed_blocks_param_ops, NULL, 0400);

/*
 * One line per block scale-down leaves alone for now: "memoryN in-use S" (its
 * data are in use and memory is under max_mem) or "memoryN unmovable S" (its
 * data could not be migrated: pinned pages, pages the kernel holds), S the
 * seconds until scale-down tries the block again.
 */
static int damon_acma_deferred_blocks_load(char *buffer,
		const struct kernel_param *kp)
{
	char line[48];
	int i, n, len = 0;
	unsigned int secs;

	mutex_lock(&acma.lock);
	for (i = 0; acma.scaling && i < acma.nr_blocks; i++) {
		if (acma.blocks[i] != DAMON_ACMA_BLOCK_ONLINE ||
		    !damon_acma_deferred(i))
			continue;
		secs = DIV_ROUND_UP(jiffies_to_msecs(
				damon_acma_deferred_until(i) - jiffies),
				MSEC_PER_SEC);
		n = scnprintf(line, sizeof(line), "memory%lu %s %u\n",
				damon_acma_block_id(i),
				acma.deferred[i].unmovable ? "unmovable" :
				"in-use", secs);
		/* whole lines only: the first PAGE_SIZE bytes' worth */
		if (len + n >= PAGE_SIZE)
			break;
		memcpy(buffer + len, line, n + 1);
		len += n;
	}
	mutex_unlock(&acma.lock);
	return len;
}

static const struct kernel_param_ops deferred_blocks_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_deferred_blocks_load,
};
/* Blocks scale-down leaves alone for now, why, and for how long. */
module_param_cb(deferred_blocks, &deferred_blocks_param_ops, NULL, 0400);

static int damon_acma_pressure_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%lu\n", acma.pressure_us);
}

static const struct kernel_param_ops pressure_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_pressure_load,
};
/* ``some`` memory PSI stall of the last quota interval, in microseconds. */
module_param_cb(measured_pressure_us, &pressure_param_ops, NULL, 0400);

static int damon_acma_reported_bytes_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%ld\n",
			atomic_long_read(&damon_acma_reported_bytes));
}

static const struct kernel_param_ops reported_bytes_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_reported_bytes_load,
};
/* Bytes of taken chunks reported to the host (VM guests), since boot. */
module_param_cb(reported_bytes, &reported_bytes_param_ops, NULL, 0400);

static int damon_acma_report_failures_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%ld\n",
			atomic_long_read(&damon_acma_report_failures));
}

static const struct kernel_param_ops report_failures_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_report_failures_load,
};
/* Chunks that could not be reported to the host and were not taken. */
module_param_cb(report_failures, &report_failures_param_ops, NULL, 0400);

static int __init damon_acma_init(void)
{
	struct damon_target *target;
	int i, err;

	damon_acma_fault_init();
	/* no block is removed or added while the system sleeps */
	acma.wq = alloc_workqueue("damon_acma", WQ_FREEZABLE | WQ_UNBOUND, 1);
	if (!acma.wq)
		return -ENOMEM;
	err = register_memory_notifier(&damon_acma_memory_nb);
	if (err)
		return err;
	err = register_pm_notifier(&damon_acma_pm_nb);
	if (err)
		return err;
	/* with 16K or 64K pages, 2 MiB is below a pageblock */
	if (scale_order < pageblock_order)
		scale_order = pageblock_order;
	INIT_WORK(&acma.resize_work, damon_acma_resize_fn);
	for (i = 0; i < NR_DAMON_ACMA_SCHEMES; i++)
		INIT_LIST_HEAD(&acma.stashed_goals[i]);
	err = damon_modules_new_paddr_ctx_target(&acma.ctx, &target);
	if (err)
		return err;
	acma.ctx->callback.after_aggregation = damon_acma_after_aggregation;
	acma.shrinker = shrinker_alloc(0, "damon-acma");
	if (acma.shrinker) {
		/* called at every reclaim pass, not once per batch of pages */
		acma.shrinker->batch = 1;
		acma.shrinker->count_objects = damon_acma_shrink_count;
		acma.shrinker->scan_objects = damon_acma_shrink_scan;
		shrinker_register(acma.shrinker);
	} else {
		pr_warn("no shrinker: scale-up follows kdamond's steps only\n");
	}

	/* enabled from the command line */
	if (enabled)
		err = damon_acma_turn(true);
	return err;
}

module_init(damon_acma_init);

#include "tests/acma-kunit.h"

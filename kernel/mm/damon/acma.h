/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DAMON_ACMA's parts, one layer per file:
 *
 *  - acma.c: the parameters, enabling and committing them;
 *  - acma-blocks.c: the block table (one state per scalable memory block,
 *    one setter, per-state counters), adding and removing blocks, and the
 *    platform that owns their memory;
 *  - acma-policy.c: the scaling policy: the schemes, the windows they work
 *    in, the pressure and the headroom, one step per aggregation interval.
 */

#ifndef _MM_DAMON_ACMA_H
#define _MM_DAMON_ACMA_H

#include <linux/damon.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

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
/*
 * A domain whose memory could not be added, or a block that could not be
 * removed, waits 100 ms before it is tried again, doubling to 5 s.
 */
#define DAMON_ACMA_RETRY_MIN_MS	100
#define DAMON_ACMA_RETRY_MAX_MS	5000

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
 * struct damon_acma_retry - When an add into a power domain, or the removal
 * of a block, may be tried again after one failed (the domain's firmware did
 * not power it on, somebody holds a page of the block, say).
 * @at:		Not before this (jiffies), if @ms is not 0.
 * @ms:		The current wait, 0 once one went through.
 */
struct damon_acma_retry {
	unsigned long at;
	unsigned int ms;
};

/**
 * struct damon_acma_block_view - A block as the scaling policy sees it.
 * @owned:	Bytes of it that are taken.
 * @busy:	Bytes of it that hold data, where the policy asks
 *		(%DAMON_ACMA_BUSY_UNKNOWN elsewhere: counting walks the block's
 *		struct pages).
 * @domain:	Its power domain.
 * @state:	Its state.
 * @deferred:	Scale-down leaves it alone for now (damon_acma_deferred()).
 * @tried_finish: Scale-down gave up on it while finishing it.
 * @remove_waits: Its removal failed a moment ago
 *		(damon_acma_remove_waits()).
 * @add_waits:	Adds into its domain wait after one failed
 *		(damon_acma_add_waits()).
 */
struct damon_acma_block_view {
	unsigned long owned;
	unsigned long busy;
	int domain;
	enum damon_acma_block_state state;
	bool deferred;
	bool tried_finish;
	bool remove_waits;
	bool add_waits;
};

#define DAMON_ACMA_BUSY_UNKNOWN	ULONG_MAX

/**
 * struct damon_acma_view - The block table as a decision of the scaling
 * policy sees it.
 * @b:		One per block, lowest first.
 * @scratch:	Two per domain, for the decisions' own use.
 * @nr_blocks:	Number of blocks.
 * @nr_domains:	Number of power domains.
 * @block_size:	Memory block size in bytes.
 * @chunk:	Bytes in a chunk scale-down takes.
 *
 * Taken under damon_acma.lock (damon_acma_snapshot()); the decisions are
 * functions of a view alone (and of the domain scale-down empties), so that
 * KUnit tests them on views of its own.  A decision that changes blocks
 * writes its choice into the view, and the caller applies what changed.
 */
struct damon_acma_view {
	struct damon_acma_block_view *b;
	unsigned long *scratch;
	int nr_blocks;
	int nr_domains;
	unsigned long block_size;
	unsigned long chunk;
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
 * @remove_retry:	Back-off of the removal of each block.
 * @view:		The block table as the policy's last decision saw it.
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
 * @lock:		Protects @blocks, @nr_blocks_in, @view and the windows.
 */
struct damon_acma {
	struct damon_ctx *ctx;
	struct damon_acma_cfg cfg;
	enum damon_acma_block_state *blocks;
	phys_addr_t *block_start;
	struct page **memmap_held;
	int *block_domain;
	struct damon_acma_deferral *deferred;
	struct damon_acma_retry *add_retry;
	struct damon_acma_retry *remove_retry;
	struct damon_acma_view view;
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
	struct mutex lock;	/* the blocks, their counts and the windows */
};

extern struct damon_acma damon_acma;
extern struct damos_quota damon_acma_quota;
extern struct damos_contig_owner damon_acma_owner;
extern atomic_long_t damon_acma_reported_bytes;
extern atomic_long_t damon_acma_report_failures;

/* acma-blocks.c: the block table */
int damon_acma_blocks_init(void);
int damon_acma_scan_blocks(void);
unsigned long damon_acma_block_id(int i);
void damon_acma_set_block_state(int i, enum damon_acma_block_state state);
int damon_acma_blocks_in(enum damon_acma_block_state state);
unsigned long damon_acma_block_owned(int i);
unsigned long damon_acma_mem_bytes(void);
unsigned long damon_acma_machine_bytes(void);
bool damon_acma_memmap_room(void);
int damon_acma_report(unsigned long pfn, unsigned int order);
bool damon_acma_add_waits(int d);
bool damon_acma_remove_waits(int i);
int damon_acma_adding_blocks(void);
int damon_acma_removed_blocks(void);
int damon_acma_give_all_back(void);

/* acma-policy.c: the scaling policy */
void damon_acma_policy_init(void);
int damon_acma_add_schemes(struct damon_ctx *ctx,
			   const struct damon_acma_cfg *cfg);
void damon_acma_start_pace(struct damon_ctx *c);
void damon_acma_unstash_goals(struct damon_ctx *c);
void damon_acma_step(struct damon_ctx *c);
void damon_acma_update_windows(void);
int damon_acma_want_blocks(int n);
bool damon_acma_deferred(int i);
unsigned long damon_acma_deferred_until(int i);
void damon_acma_notify(void);
void damon_acma_notify_state(void);

#endif /* _MM_DAMON_ACMA_H */

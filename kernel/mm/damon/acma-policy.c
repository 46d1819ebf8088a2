// SPDX-License-Identifier: GPL-2.0
/*
 * DAMON_ACMA's scaling policy: the three schemes (reclaim, scale-down and
 * scale-up) and their quotas, tuned by the memory pressure; the windows
 * they work in (which block scale-down empties, and in which power domain;
 * where scale-up gives back); the headroom kept for a workload that grows;
 * and the step kdamond runs after every aggregation interval.  Also the
 * interface of the drivers that follow the size (a balloon).
 */

#define pr_fmt(fmt) "damon-acma: " fmt

#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/psi.h>
#include <linux/shrinker.h>
#include <linux/swap.h>

#include <linux/damon_acma.h>
#include "acma.h"

#include <trace/events/damon_acma.h>

static BLOCKING_NOTIFIER_HEAD(damon_acma_chain);
static unsigned long damon_acma_notified_bytes;

/* DAMOS owner callbacks: the min/max guarantees, one chunk at a time. */

/* Is scale-down still waiting after memory was wanted? */
static bool damon_acma_cooling(void)
{
	unsigned long at = READ_ONCE(damon_acma.wanted_at);

	return at && time_before(jiffies,
			at + msecs_to_jiffies(DAMON_ACMA_COOLDOWN_MS));
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
	return !damon_acma_cooling() && avail > READ_ONCE(damon_acma.headroom) +
		(long)(damon_acma.block_size >> PAGE_SHIFT);
}

static int damon_acma_take_chunk(struct damos *s, unsigned long pfn,
		unsigned int order)
{
	unsigned long mem = damon_acma_mem_bytes();
	int err;

	/* the chunk is already counted as owned, and out of what is available */
	if (mem < damon_acma.cfg.min_mem)
		return -EPERM;
	/* a workload may have grown since the step that set the window */
	if (!damon_acma_may_take(mem >= damon_acma.cfg.max_mem,
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

	if (damon_acma_mem_bytes() + chunk > damon_acma.cfg.max_mem)
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
	if (damon_acma.urgent[DAMON_ACMA_SCALE_DOWN] ||
			READ_ONCE(damon_acma.down_finish))
		return true;
	return !r->nr_accesses && r->age >= damon_acma.cfg.cold_age;
}

/*
 * Scale-down takes chunks of its window block only: a chunk whose pages
 * could not be isolated or migrated tells why the block may get stuck.
 */
static void damon_acma_chunk_failed(struct damos *s, unsigned long pfn,
		unsigned int order, int err)
{
	if (err == -EBUSY)
		WRITE_ONCE(damon_acma.down_unmovable, true);
}

struct damos_contig_owner damon_acma_owner = {
	.alloc = damon_acma_take_chunk,
	.free = damon_acma_give_chunk,
	.migrate = damon_acma_may_migrate,
	.failed = damon_acma_chunk_failed,
};


/**
 * damon_acma_deferred_until() - Until when scale-down leaves a block alone.
 * @i:	Index of the block in the block table.
 *
 * Return: the end of the block's deferral (jiffies), if it is deferred.
 */
unsigned long damon_acma_deferred_until(int i)
{
	const struct damon_acma_deferral *d = &damon_acma.deferred[i];

	return d->at + (msecs_to_jiffies(DAMON_ACMA_DEFER_MS) <<
			min_t(int, max_t(int, d->times, 1) - 1,
			      DAMON_ACMA_DEFER_MAX));
}

/**
 * damon_acma_deferred() - Is a block left alone by scale-down now?
 * @i:	Index of the block in the block table.
 *
 * Return: whether scale-down gave up on the block a while ago and still
 * waits before it tries it again.
 */
bool damon_acma_deferred(int i)
{
	return damon_acma.deferred[i].at &&
		time_before(jiffies, damon_acma_deferred_until(i));
}

/* The view: the block table as the policy's decisions see it */

/*
 * The blocks of each domain that are still in the system (not removed or
 * being removed), into @v->scratch.
 */
static void damon_acma_count_present(const struct damon_acma_view *v)
{
	int i;

	for (i = 0; i < v->nr_domains; i++)
		v->scratch[i] = 0;
	for (i = 0; i < v->nr_blocks; i++)
		if (v->b[i].state != DAMON_ACMA_BLOCK_REMOVING &&
		    v->b[i].state != DAMON_ACMA_BLOCK_REMOVED)
			v->scratch[v->b[i].domain]++;
}

/* Count what block @i of the view holds, if it was not counted yet. */
static void damon_acma_view_busy(struct damon_acma_view *v, int i)
{
	phys_addr_t start = damon_acma.block_start[i];

	if (v->b[i].busy == DAMON_ACMA_BUSY_UNKNOWN)
		v->b[i].busy = damon_contig_busy_bytes(start,
				start + v->block_size);
}

enum {
	DAMON_ACMA_BUSY_NONE = -1,	/* only what a decision may need */
	DAMON_ACMA_BUSY_ALL = -2,	/* and every online block's */
};

/*
 * damon_acma_snapshot() - Take the view of the block table.
 * @busy:	Whose busy bytes to count besides the blocks that may be
 *		finished: a block's index, %DAMON_ACMA_BUSY_NONE or
 *		%DAMON_ACMA_BUSY_ALL (choosing a domain compares them all).
 *
 * Needs damon_acma.lock.  Return: the view, damon_acma.view.
 */
static struct damon_acma_view *damon_acma_snapshot(int busy)
{
	struct damon_acma_view *v = &damon_acma.view;
	struct damon_acma_block_view *b;
	int i;

	v->nr_blocks = damon_acma.nr_blocks;
	v->nr_domains = damon_acma.nr_domains;
	v->block_size = damon_acma.block_size;
	v->chunk = PAGE_SIZE << damon_acma.cfg.scale_order;
	for (i = 0; i < v->nr_blocks; i++) {
		b = &v->b[i];
		b->state = damon_acma.blocks[i];
		b->domain = damon_acma.block_domain[i];
		b->owned = b->state == DAMON_ACMA_BLOCK_ONLINE ?
				damon_acma_block_owned(i) : 0;
		b->busy = DAMON_ACMA_BUSY_UNKNOWN;
		b->deferred = damon_acma_deferred(i);
		b->tried_finish = damon_acma.deferred[i].tried_finish;
		b->remove_waits = damon_acma_remove_waits(i);
		b->add_waits = damon_acma_add_waits(b->domain);
	}
	/* a deferred block may be finished once it is the last of its domain */
	damon_acma_count_present(v);
	for (i = 0; i < v->nr_blocks; i++) {
		b = &v->b[i];
		if (b->state != DAMON_ACMA_BLOCK_ONLINE)
			continue;
		if (busy == DAMON_ACMA_BUSY_ALL || busy == i ||
		    (b->deferred && !b->tried_finish &&
		     v->scratch[b->domain] == 1))
			damon_acma_view_busy(v, i);
	}
	return v;
}

/* The decisions, functions of a view */

/*
 * A few warm pages (a shell's stack, a daemon's data) should not keep a
 * rank on: the last block that keeps its domain on is finished, warm data
 * and all, if its data fit in one chunk.  Moving warm data pays only when a
 * rank goes off: a block that shares its domain with other blocks still in
 * the system waits for them (it is deferred, and taken up again once it is
 * the last one), and a working set is more than one chunk and stays where it
 * is.  A block whose data were not counted is not finished.
 */
static bool damon_acma_may_finish(const struct damon_acma_view *v, int i)
{
	int j;

	for (j = 0; j < v->nr_blocks; j++)
		if (j != i && v->b[j].domain == v->b[i].domain &&
		    v->b[j].state != DAMON_ACMA_BLOCK_REMOVING &&
		    v->b[j].state != DAMON_ACMA_BLOCK_REMOVED)
			return false;
	return v->b[i].busy <= v->chunk;
}

/*
 * May scale-down take chunks of block @i?  A deferred block may be taken up
 * again early, to be finished, once it is the last one of its domain and
 * finishing it was not tried yet.
 */
static bool damon_acma_down_ok(const struct damon_acma_view *v, int i,
		bool deferred_too)
{
	const struct damon_acma_block_view *b = &v->b[i];

	return b->state == DAMON_ACMA_BLOCK_ONLINE &&
		b->owned < v->block_size &&
		(deferred_too || !b->deferred ||
		 (!b->tried_finish && damon_acma_may_finish(v, i)));
}

/* The highest block of domain @d that scale-down may take chunks of, or -1. */
static int damon_acma_domain_down(const struct damon_acma_view *v, int d)
{
	int i;

	for (i = v->nr_blocks - 1; d >= 0 && i >= 0; i--)
		if (v->b[i].domain == d && damon_acma_down_ok(v, i, false))
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
 * The block scale-down starts on, or -1 for none: the highest of the domain
 * to empty next.  A domain scale-down started on (some of its blocks are
 * removed) first, so that one domain at most is half empty whatever came in
 * between (memory wanted for a while); else the one whose blocks hold the
 * least data (what taking them would migrate), among those that can go off
 * at all (no block of theirs is held offline or in a kernel zone by somebody
 * else), the highest on a tie (DAMON_ACMA_CHOICE_SLACK); when no domain can
 * go off, still the highest block, to scale the memory.  Needs the busy
 * bytes of every online block (%DAMON_ACMA_BUSY_ALL).
 */
static int damon_acma_choose(const struct damon_acma_view *v)
{
	unsigned long slack = DAMON_ACMA_CHOICE_SLACK * v->chunk;
	unsigned long *cost = v->scratch;
	unsigned long *started = cost + v->nr_domains;
	unsigned long best = ULONG_MAX;
	int i, d, pass, top = -1, pick = -1;

	for (d = 0; d < v->nr_domains; d++)
		cost[d] = started[d] = 0;
	for (i = 0; i < v->nr_blocks; i++) {
		d = v->b[i].domain;
		switch (v->b[i].state) {
		case DAMON_ACMA_BLOCK_REMOVED:
		case DAMON_ACMA_BLOCK_REMOVING:
			started[d] = 1;
			break;
		case DAMON_ACMA_BLOCK_ONLINE:
			if (cost[d] != ULONG_MAX)
				cost[d] += min(v->b[i].busy, v->block_size);
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
	for (pass = 0; pass < 2 && pick < 0; pass++) {
		for (i = v->nr_blocks - 1; i >= 0; i--) {
			d = v->b[i].domain;
			if (!damon_acma_down_ok(v, i, false))
				continue;
			if (top < 0)
				top = i;
			if (!pass && !started[d])
				continue;
			if (cost[d] != ULONG_MAX &&
			    (best == ULONG_MAX || cost[d] + slack < best)) {
				best = cost[d];
				pick = i;
			}
		}
	}
	return pick >= 0 ? pick : top;
}

/*
 * The scale-up window: the lowest block that is partly taken, outside of
 * domain @target (the one scale-down empties) first, else the lowest
 * removed block, or -1.
 */
static int damon_acma_choose_up(const struct damon_acma_view *v, int target)
{
	int i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < v->nr_blocks; i++) {
			if (v->b[i].state != DAMON_ACMA_BLOCK_ONLINE ||
			    !v->b[i].owned)
				continue;
			if (!pass && v->b[i].domain == target)
				continue;
			return i;
		}
	}
	for (i = 0; i < v->nr_blocks; i++)
		if (v->b[i].state == DAMON_ACMA_BLOCK_REMOVED)
			return i;
	return -1;
}

/*
 * Choose up to @n removed blocks to come back, marked ADDING in the view:
 * first those of domains that are powered anyway (some of their memory is
 * in the system), then the others, lowest first, skipping domains whose
 * last add failed a moment ago.  Return: the number chosen.
 */
static int damon_acma_choose_adds(struct damon_acma_view *v, int n)
{
	unsigned long *on = v->scratch;
	int i, pass, chosen = 0;

	for (i = 0; i < v->nr_domains; i++)
		on[i] = 0;
	for (i = 0; i < v->nr_blocks; i++)
		if (v->b[i].state != DAMON_ACMA_BLOCK_REMOVED)
			on[v->b[i].domain] = 1;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < v->nr_blocks && chosen < n; i++) {
			if (v->b[i].state != DAMON_ACMA_BLOCK_REMOVED ||
			    v->b[i].add_waits)
				continue;
			if (!pass && !on[v->b[i].domain])
				continue;
			v->b[i].state = DAMON_ACMA_BLOCK_ADDING;
			chosen++;
		}
	}
	return chosen;
}

/*
 * The blocks that leave the system, marked REMOVING in the view: those that
 * are online and fully taken, unless their removal failed a moment ago.
 * Return: how many.
 */
static int damon_acma_choose_removals(struct damon_acma_view *v)
{
	int i, chosen = 0;

	for (i = 0; i < v->nr_blocks; i++) {
		if (v->b[i].state == DAMON_ACMA_BLOCK_ONLINE &&
		    v->b[i].owned == v->block_size && !v->b[i].remove_waits) {
			v->b[i].state = DAMON_ACMA_BLOCK_REMOVING;
			chosen++;
		}
	}
	return chosen;
}

/* Applying them */

/*
 * Point the scale-down window at block @i of view @v (-1: none).  A block
 * that is still deferred is the window only to be finished
 * (damon_acma_down_ok()).
 */
static void damon_acma_set_down(const struct damon_acma_view *v, int i)
{
	if (i == damon_acma.down)
		return;
	damon_acma.down = i;
	damon_acma.down_owned = i >= 0 ? v->b[i].owned : 0;
	damon_acma.down_moved_at = jiffies;
	WRITE_ONCE(damon_acma.down_unmovable, false);
	WRITE_ONCE(damon_acma.down_finish, i >= 0 && v->b[i].deferred);
}

/*
 * Choose the domain to empty next (damon_acma_choose()).  Its blocks are then
 * emptied highest first, and the choice holds until the domain is empty,
 * memory is wanted or every block of it was given up on (see
 * damon_acma_follow_down()), so that scale-down does not half-empty several
 * domains at once.  Walks the struct pages of the online blocks: called only
 * when a domain is done.  Needs damon_acma.lock.
 */
static void damon_acma_choose_down(void)
{
	struct damon_acma_view *v = damon_acma_snapshot(DAMON_ACMA_BUSY_ALL);
	int pick = damon_acma_choose(v);

	damon_acma.target = pick >= 0 ? v->b[pick].domain : -1;
	damon_acma.chose_none = pick < 0;
	damon_acma.chosen_at = jiffies;
	damon_acma_set_down(v, damon_acma_domain_down(v, damon_acma.target));
}

/**
 * damon_acma_update_windows() - Move the scale-down and scale-up windows.
 *
 * The windows: scale-down works on a block of the domain it empties (chosen
 * by damon_acma_choose_down()), scale-up on the lowest block that is partly
 * taken, outside of that domain first, else on the lowest removed block.
 * Cheap, called from the memory notifier too: a window block that is done
 * is followed by the next block of the same domain, or none until the next
 * step chooses a domain.
 *
 * Context: needs damon_acma.lock.
 */
void damon_acma_update_windows(void)
{
	struct damon_acma_view *v = damon_acma_snapshot(DAMON_ACMA_BUSY_NONE);

	if (damon_acma.down < 0 || !damon_acma_down_ok(v, damon_acma.down, true))
		damon_acma_set_down(v, damon_acma_domain_down(v,
				damon_acma.target));
	damon_acma.up = damon_acma_choose_up(v, damon_acma.target);
}

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
	unsigned long interval =
			msecs_to_jiffies(damon_acma.cfg.reset_interval_ms);
	u64 now = damon_acma_psi_total_us();

	if (!damon_acma.psi_at) {
		damon_acma.psi_at = jiffies;
		damon_acma.psi_last = now;
		return false;
	}
	if (time_before(jiffies, damon_acma.psi_at + interval))
		return false;
	damon_acma.pressure_us = now - damon_acma.psi_last;
	damon_acma.psi_last = now;
	damon_acma.psi_at = jiffies;
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

/**
 * damon_acma_add_schemes() - Give a DAMON context the three schemes.
 * @ctx:	The context.
 * @cfg:	The configuration they run with.
 *
 * Reclaim, scale-down and scale-up, each with its quota and its goal on the
 * memory pressure, working on the physical address space.
 *
 * Return: 0 on success, or -ENOMEM.
 */
int damon_acma_add_schemes(struct damon_ctx *ctx,
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
	unsigned long pressure = max(damon_acma.pressure_us, 1UL);

	damos_for_each_quota_goal(goal, quota)
		goal->current_value =
				min(10000UL * damon_acma.cfg.mem_pressure_us /
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
	f->addr_range.start = damon_acma.block_start[block];
	f->addr_range.end = damon_acma.block_start[block] +
			damon_acma.block_size;
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
	struct list_head *stash = &damon_acma.stashed_goals[idx];

	if (!s || urgent == damon_acma.urgent[idx])
		return;
	if (urgent) {
		list_splice_init(&s->quota.goals, stash);
		damon_acma.stashed_ms[idx] = s->quota.ms;
		s->quota.ms = s->quota.reset_interval;
		s->quota.sz = 0;
	} else {
		list_splice_init(stash, &s->quota.goals);
		s->quota.ms = damon_acma.stashed_ms[idx];
		s->quota.sz = damon_acma.pace[idx];
	}
	damon_acma.urgent[idx] = urgent;
}

/**
 * damon_acma_start_pace() - Start pacing the schemes of a new run.
 * @c:	The DAMON context.
 *
 * Paces them from their statistics as they are now.
 */
void damon_acma_start_pace(struct damon_ctx *c)
{
	struct damos *s;
	int i = 0;

	damon_for_each_scheme(s, c)
		damon_acma.applied_last[i++] = s->stat.sz_applied;
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
	unsigned long chunk = PAGE_SIZE << damon_acma.cfg.scale_order;
	unsigned long target = damon_acma.cfg.mem_pressure_us;
	unsigned long applied, pace = damon_acma.pace[idx];

	if (!s)
		return;
	if (measured) {
		applied = s->stat.sz_applied - damon_acma.applied_last[idx];
		damon_acma.applied_last[idx] = s->stat.sz_applied;
		if (damon_acma.pressure_us >= 2 * target)
			pace = chunk;
		else if (damon_acma.pressure_us > target)
			pace = max(min(pace ? pace : ULONG_MAX, applied) / 2,
					chunk);
		else if (pace && damon_acma.pressure_us <= target / 2)
			pace = pace > damon_acma_machine_bytes() / 2 ?
				0 : pace * 2;
		damon_acma.pace[idx] = pace;
	}
	if (!damon_acma.urgent[idx])
		s->quota.sz = pace;
}

/**
 * damon_acma_unstash_goals() - Give the schemes their stashed quota goals.
 * @c:	The DAMON context.
 *
 * Puts the goals taken off while a scheme ran at full speed back, before
 * the schemes are committed anew.
 */
void damon_acma_unstash_goals(struct damon_ctx *c)
{
	damon_acma_set_urgent(damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_DOWN),
			DAMON_ACMA_SCALE_DOWN, false);
	damon_acma_set_urgent(damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_UP),
			DAMON_ACMA_SCALE_UP, false);
}

/*
 * How fast the memory in use grows, in pages per second: as fast as it grew
 * since the last step (@used_last pages, @ms ago; 0: no last step) at once,
 * decaying by an eighth per step from @rate when it grows slower.
 */
static unsigned long damon_acma_growth(unsigned long rate, long used,
		long used_last, unsigned long ms)
{
	unsigned long now = rate - rate / 8;

	if (ms && used > used_last)
		now = max(now, (used - used_last) * MSEC_PER_SEC / ms);
	return now;
}

/*
 * The memory to keep available, in pages: a block, plus what a workload
 * growing at @rate pages a second takes in @horizon_ms.
 */
static long damon_acma_headroom_pages(unsigned long block_pages,
		unsigned long rate, unsigned long horizon_ms)
{
	return block_pages + rate * horizon_ms / MSEC_PER_SEC;
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
	unsigned long now = jiffies, ms =
			jiffies_to_msecs(now - damon_acma.used_at);
	unsigned long horizon;

	if (damon_acma.used_at)
		damon_acma.step_ms = max(ms,
				damon_acma.step_ms - damon_acma.step_ms / 8);
	horizon = DAMON_ACMA_HORIZON_MS + damon_acma.step_ms +
			READ_ONCE(damon_acma.add_ms);
	damon_acma.growth = damon_acma_growth(damon_acma.growth, used,
			damon_acma.used_last, damon_acma.used_at ? ms : 0);
	damon_acma.used_last = used;
	damon_acma.used_at = now;
	return damon_acma_headroom_pages(damon_acma.block_size >> PAGE_SHIFT,
			damon_acma.growth, horizon);
}

/**
 * damon_acma_want_blocks() - Mark removed blocks to come back.
 * @n:	How many at most.
 *
 * Mark up to @n removed blocks to come back, as far as max_mem allows with
 * the blocks already on their way: first those of domains that are powered
 * anyway, then the others, lowest first, skipping domains whose last add
 * failed a moment ago (damon_acma_add_failed()).  Memory being wanted ends the
 * choice of a domain to empty.
 *
 * Context: needs damon_acma.lock.
 * Return: the number of blocks marked.
 */
int damon_acma_want_blocks(int n)
{
	unsigned long mem = damon_acma_mem_bytes();
	int room = (damon_acma.cfg.max_mem - min(mem, damon_acma.cfg.max_mem)) /
		damon_acma.block_size - damon_acma_adding_blocks();
	struct damon_acma_view *v;
	int i, chosen;

	damon_acma.target = -1;
	damon_acma_set_down(&damon_acma.view, -1);
	n = min(n, room);
	if (n <= 0)
		return 0;
	v = damon_acma_snapshot(DAMON_ACMA_BUSY_NONE);
	chosen = damon_acma_choose_adds(v, n);
	for (i = 0; i < v->nr_blocks; i++)
		if (v->b[i].state == DAMON_ACMA_BLOCK_ADDING &&
		    damon_acma.blocks[i] == DAMON_ACMA_BLOCK_REMOVED)
			damon_acma_set_block_state(i, DAMON_ACMA_BLOCK_ADDING);
	return chosen;
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
	return READ_ONCE(damon_acma.scaling) ?
			damon_acma.block_size >> PAGE_SHIFT : 0;
}

static unsigned long damon_acma_shrink_scan(struct shrinker *shrinker,
		struct shrink_control *sc)
{
	bool queue = false;

	if (!mutex_trylock(&damon_acma.lock))
		return SHRINK_STOP;
	if (damon_acma.scaling && !damon_acma_adding_blocks())
		queue = damon_acma_want_blocks(DAMON_ACMA_MAX_ADDS / 4);
	mutex_unlock(&damon_acma.lock);
	if (queue)
		queue_work(damon_acma.wq, &damon_acma.resize_work);
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
	if (!READ_ONCE(damon_acma.scaling))
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
	if (!READ_ONCE(damon_acma.scaling))
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

/**
 * damon_acma_notify() - Tell the drivers that follow the size what changed.
 *
 * Calls the notifier chain with %DAMON_ACMA_GIVEN_CHANGED if
 * damon_acma_given_bytes() changed since it was last called.
 */
void damon_acma_notify(void)
{
	unsigned long given = damon_acma_given_bytes();

	if (given == READ_ONCE(damon_acma_notified_bytes))
		return;
	WRITE_ONCE(damon_acma_notified_bytes, given);
	blocking_notifier_call_chain(&damon_acma_chain,
			DAMON_ACMA_GIVEN_CHANGED, NULL);
}

/**
 * damon_acma_notify_state() - Tell the drivers that follow the size that
 * DAMON_ACMA was enabled or disabled.
 */
void damon_acma_notify_state(void)
{
	blocking_notifier_call_chain(&damon_acma_chain,
			DAMON_ACMA_STATE_CHANGED, NULL);
}

/*
 * Leave the scale-down window block @i alone for a while.  Needs
 * damon_acma.lock.
 */
static void damon_acma_defer(int i)
{
	struct damon_acma_deferral *d = &damon_acma.deferred[i];

	d->at = jiffies ? jiffies : 1;
	if (d->times <= DAMON_ACMA_DEFER_MAX)
		d->times++;
	d->unmovable = READ_ONCE(damon_acma.down_unmovable);
	d->tried_finish = READ_ONCE(damon_acma.down_finish);
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
 * taken up again to be finished (damon_acma_down_ok()).  Needs damon_acma.lock.
 */
static void damon_acma_follow_down(bool open)
{
	struct damon_acma_view *v;
	unsigned long owned;

	if (!open) {
		damon_acma.down_moved_at = jiffies;
		return;
	}
	if (damon_acma.down >= 0) {
		owned = damon_acma_block_owned(damon_acma.down);
		if (owned != damon_acma.down_owned) {
			damon_acma.down_owned = owned;
			damon_acma.down_moved_at = jiffies;
			/* it moves: no longer deferred, the back-off starts over */
			damon_acma.deferred[damon_acma.down] =
					(struct damon_acma_deferral){};
		} else if (time_after(jiffies, damon_acma.down_moved_at +
				msecs_to_jiffies(DAMON_ACMA_STUCK_MS))) {
			v = damon_acma_snapshot(damon_acma.down);
			if (!damon_acma.down_finish &&
			    damon_acma_may_finish(v, damon_acma.down)) {
				WRITE_ONCE(damon_acma.down_finish, true);
				damon_acma.down_moved_at = jiffies;
				return;
			}
			damon_acma_defer(damon_acma.down);
			/* deferred now: the view follows */
			v = damon_acma_snapshot(DAMON_ACMA_BUSY_NONE);
			damon_acma_set_down(v, damon_acma_domain_down(v,
					damon_acma.target));
		}
	}
	/* choosing walks the blocks' pages: after none, once a second */
	if (damon_acma.down < 0 && (!damon_acma.chose_none ||
			time_after(jiffies, damon_acma.chosen_at + HZ)))
		damon_acma_choose_down();
}

/**
 * damon_acma_step() - One step of the scaling policy.
 * @c:	The DAMON context.
 *
 * Called after each aggregation, in kdamond: measures the pressure, moves
 * the windows, paces the schemes and queues the blocks to remove or add.
 */
void damon_acma_step(struct damon_ctx *c)
{
	struct damos *down = damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_DOWN);
	struct damos *up = damon_acma_nth_scheme(c, DAMON_ACMA_SCALE_UP);
	unsigned long mem = damon_acma_mem_bytes();
	bool over = mem > damon_acma.cfg.max_mem;
	bool under = mem < damon_acma.cfg.min_mem;
	long avail = si_mem_available();
	long headroom = damon_acma_headroom(avail, mem);
	bool urgent, wanted, measured, open, resize = false;
	struct damon_acma_view *v;
	int i;

	measured = damon_acma_update_pressure();
	WRITE_ONCE(damon_acma.headroom, headroom);
	/*
	 * The pressure of a whole quota interval comes late for a workload
	 * that grows fast (without swap there is none until memory runs out):
	 * running short of the headroom is urgent too.
	 */
	urgent = under || avail < headroom;
	wanted = urgent ||
			damon_acma.pressure_us > damon_acma.cfg.mem_pressure_us;
	if (wanted)
		WRITE_ONCE(damon_acma.wanted_at, jiffies ? jiffies : 1);
	/*
	 * Wanted memory comes from taken chunks of the scale-up window first,
	 * at once: the scale-up scheme's quota grows with the pressure, too
	 * slowly for that.
	 */
	mutex_lock(&damon_acma.lock);
	i = damon_acma.up;
	mutex_unlock(&damon_acma.lock);
	if (wanted && i >= 0 && mem < damon_acma.cfg.max_mem) {
		phys_addr_t start = damon_acma.block_start[i];

		damon_contig_free_range(&damon_acma_owner, start,
				start + damon_acma.block_size,
				damon_acma.cfg.max_mem - mem);
		mem = damon_acma_mem_bytes();
	}

	mutex_lock(&damon_acma.lock);
	/* fully taken blocks leave the system: counted out now, chunks and all */
	v = damon_acma_snapshot(DAMON_ACMA_BUSY_NONE);
	if (damon_acma_choose_removals(v)) {
		for (i = 0; i < v->nr_blocks; i++)
			if (v->b[i].state == DAMON_ACMA_BLOCK_REMOVING &&
			    damon_acma.blocks[i] == DAMON_ACMA_BLOCK_ONLINE)
				damon_acma_set_block_state(i,
						DAMON_ACMA_BLOCK_REMOVING);
		resize = true;
	}
	damon_acma_update_windows();
	/*
	 * Removed blocks come back, lowest first, when memory is wanted and
	 * allowed: when it is wanted urgently, as many as the headroom needs.
	 */
	if (wanted) {
		unsigned long block_pages = damon_acma.block_size >> PAGE_SHIFT;
		long short_by = headroom - avail;
		int n = 1;

		if (mem < damon_acma.cfg.min_mem)
			short_by = max_t(long, short_by, PHYS_PFN(
					damon_acma.cfg.min_mem - mem));
		/* blocks on their way count as available already */
		short_by -= damon_acma_adding_blocks() * block_pages;
		if (urgent)
			n = clamp_t(long, DIV_ROUND_UP(max(short_by, 0L),
					block_pages), 0, DAMON_ACMA_MAX_ADDS);
		/* what min_mem asks for is no guess: all of it in one step */
		if (mem < damon_acma.cfg.min_mem)
			n = max_t(long, n, DIV_ROUND_UP(PHYS_PFN(
					damon_acma.cfg.min_mem - mem), block_pages) -
					damon_acma_adding_blocks());
		if (damon_acma_want_blocks(n))
			resize = true;
	}
	/*
	 * The scale-down window stops at min_mem, while memory is wanted and
	 * for a while after (wanted_at is set above), and while taking a block
	 * more would eat into the headroom: a workload that grows would get
	 * back what it just got, through migration.
	 */
	open = (over || mem > damon_acma.cfg.min_mem) &&
		damon_acma_may_take(over, avail);
	damon_acma_follow_down(open);
	damon_acma_set_window(down, open ? damon_acma.down : -1);
	/* a removed window has nothing to free until it is added */
	damon_acma_set_window(up, damon_acma.up >= 0 &&
			damon_acma.blocks[damon_acma.up] ==
					DAMON_ACMA_BLOCK_ONLINE ?
			damon_acma.up : -1);
	mutex_unlock(&damon_acma.lock);

	damon_acma_set_urgent(down, DAMON_ACMA_SCALE_DOWN, over);
	damon_acma_set_urgent(up, DAMON_ACMA_SCALE_UP, under);
	damon_acma_pace(damon_acma_nth_scheme(c, DAMON_ACMA_RECLAIM),
			DAMON_ACMA_RECLAIM, measured);
	damon_acma_pace(down, DAMON_ACMA_SCALE_DOWN, measured);
	damon_acma_feed_scale_up(up);
	if (resize)
		queue_work(damon_acma.wq, &damon_acma.resize_work);
	trace_damon_acma_step(mem, damon_acma.cfg.min_mem,
			damon_acma.cfg.max_mem,
			max(avail, 0L) << PAGE_SHIFT,
			max(headroom, 0L) << PAGE_SHIFT,
			damon_acma.pressure_us, wanted, urgent, open,
			damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVING),
			damon_acma_adding_blocks());
	damon_acma_notify();
}

/* Parameters */


/**
 * damon_acma_policy_init() - Set up the scaling policy at boot.
 *
 * Prepares the stashes of the schemes' quota goals and registers the
 * shrinker that brings removed blocks back when the kernel reclaims.
 */
void __init damon_acma_policy_init(void)
{
	int i;

	for (i = 0; i < NR_DAMON_ACMA_SCHEMES; i++)
		INIT_LIST_HEAD(&damon_acma.stashed_goals[i]);
	damon_acma.shrinker = shrinker_alloc(0, "damon-acma");
	if (!damon_acma.shrinker) {
		pr_warn("no shrinker: scale-up follows kdamond's steps only\n");
		return;
	}
	/* called at every reclaim pass, not once per batch of pages */
	damon_acma.shrinker->batch = 1;
	damon_acma.shrinker->count_objects = damon_acma_shrink_count;
	damon_acma.shrinker->scan_objects = damon_acma_shrink_scan;
	shrinker_register(damon_acma.shrinker);
}

#include "tests/acma-policy-kunit.h"

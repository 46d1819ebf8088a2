/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of DAMON_ACMA's memory block table and of the memory maps it
 * holds for removed blocks.  They run at boot, before DAMON_ACMA is enabled,
 * on a table of their own that they swap in and out under damon_acma.lock.
 */

#ifdef CONFIG_DAMON_ACMA_KUNIT_TEST

#ifndef _DAMON_ACMA_TEST_H
#define _DAMON_ACMA_TEST_H

#include <kunit/test.h>

#define DAMON_ACMA_TEST_BLOCKS	4

struct damon_acma_test_saved {
	enum damon_acma_block_state *blocks;
	struct page **memmap_held;
	phys_addr_t *block_start;
	int *block_domain;
	struct damon_acma_deferral *deferred;
	struct damon_acma_view view;
	struct damon_acma_retry *add_retry;
	struct damon_acma_retry *remove_retry;
	int nr_blocks;
	int nr_domains;
	int down;
	int target;
	unsigned long block_size;
	unsigned long fixed_bytes;
	unsigned long max_mem;
	int nr_blocks_in[NR_DAMON_ACMA_BLOCK_STATES];
};

/* Each test block is a domain of its own, unless the test says otherwise. */
static int damon_acma_test_domain[DAMON_ACMA_TEST_BLOCKS];
static phys_addr_t damon_acma_test_start[DAMON_ACMA_TEST_BLOCKS];
static struct damon_acma_deferral damon_acma_test_deferred[DAMON_ACMA_TEST_BLOCKS];
static struct damon_acma_block_view damon_acma_test_view[DAMON_ACMA_TEST_BLOCKS];
static unsigned long damon_acma_test_scratch[2 * DAMON_ACMA_TEST_BLOCKS];
static struct damon_acma_retry damon_acma_test_retry[DAMON_ACMA_TEST_BLOCKS];
static struct damon_acma_retry damon_acma_test_remove_retry[DAMON_ACMA_TEST_BLOCKS];

/*
 * Give DAMON_ACMA the test's blocks, under damon_acma.lock until
 * damon_acma_test_swap_out(); the test is skipped while DAMON_ACMA runs (it
 * would act on the test's blocks).  They lie at the top of the physical
 * address space, where no memory is: nothing of them is owned.
 */
static void damon_acma_test_swap_in(struct kunit *test,
		struct damon_acma_test_saved *saved,
		enum damon_acma_block_state *blocks, struct page **held,
		unsigned long block_size)
{
	phys_addr_t top = round_down(PHYS_ADDR_MAX >> 1, block_size);
	int i;

	mutex_lock(&damon_acma.lock);
	if (damon_acma.ctx && damon_is_running(damon_acma.ctx)) {
		mutex_unlock(&damon_acma.lock);
		kunit_skip(test, "DAMON_ACMA is running");
	}
	saved->blocks = damon_acma.blocks;
	saved->memmap_held = damon_acma.memmap_held;
	saved->block_start = damon_acma.block_start;
	saved->block_domain = damon_acma.block_domain;
	saved->deferred = damon_acma.deferred;
	saved->view = damon_acma.view;
	saved->add_retry = damon_acma.add_retry;
	saved->remove_retry = damon_acma.remove_retry;
	saved->nr_blocks = damon_acma.nr_blocks;
	saved->nr_domains = damon_acma.nr_domains;
	saved->down = damon_acma.down;
	saved->target = damon_acma.target;
	saved->block_size = damon_acma.block_size;
	saved->fixed_bytes = damon_acma.fixed_bytes;
	saved->max_mem = damon_acma.cfg.max_mem;
	memcpy(saved->nr_blocks_in, damon_acma.nr_blocks_in,
			sizeof(saved->nr_blocks_in));
	for (i = 0; i < DAMON_ACMA_TEST_BLOCKS; i++) {
		blocks[i] = DAMON_ACMA_BLOCK_ONLINE;
		damon_acma_test_domain[i] = i;
		damon_acma_test_start[i] = top -
			(DAMON_ACMA_TEST_BLOCKS - i) * block_size;
	}
	damon_acma.blocks = blocks;
	damon_acma.memmap_held = held;
	damon_acma.block_start = damon_acma_test_start;
	damon_acma.block_domain = damon_acma_test_domain;
	memset(damon_acma_test_deferred, 0, sizeof(damon_acma_test_deferred));
	damon_acma.deferred = damon_acma_test_deferred;
	damon_acma.view = (struct damon_acma_view){
		.b = damon_acma_test_view,
		.scratch = damon_acma_test_scratch,
	};
	memset(damon_acma_test_retry, 0, sizeof(damon_acma_test_retry));
	damon_acma.add_retry = damon_acma_test_retry;
	memset(damon_acma_test_remove_retry, 0,
	       sizeof(damon_acma_test_remove_retry));
	damon_acma.remove_retry = damon_acma_test_remove_retry;
	damon_acma.nr_blocks = DAMON_ACMA_TEST_BLOCKS;
	damon_acma.nr_domains = DAMON_ACMA_TEST_BLOCKS;
	damon_acma.down = -1;
	damon_acma.target = -1;
	damon_acma.block_size = block_size;
	damon_acma.fixed_bytes = 0;
	damon_acma.cfg.max_mem = DAMON_ACMA_TEST_BLOCKS * block_size;
	memset(damon_acma.nr_blocks_in, 0, sizeof(damon_acma.nr_blocks_in));
	damon_acma.nr_blocks_in[DAMON_ACMA_BLOCK_ONLINE] =
			DAMON_ACMA_TEST_BLOCKS;
}

static void damon_acma_test_swap_out(struct damon_acma_test_saved *saved)
{
	damon_acma.blocks = saved->blocks;
	damon_acma.memmap_held = saved->memmap_held;
	damon_acma.block_start = saved->block_start;
	damon_acma.block_domain = saved->block_domain;
	damon_acma.deferred = saved->deferred;
	damon_acma.view = saved->view;
	damon_acma.add_retry = saved->add_retry;
	damon_acma.remove_retry = saved->remove_retry;
	damon_acma.nr_blocks = saved->nr_blocks;
	damon_acma.nr_domains = saved->nr_domains;
	damon_acma.down = saved->down;
	damon_acma.target = saved->target;
	damon_acma.block_size = saved->block_size;
	damon_acma.fixed_bytes = saved->fixed_bytes;
	damon_acma.cfg.max_mem = saved->max_mem;
	memcpy(damon_acma.nr_blocks_in, saved->nr_blocks_in,
			sizeof(damon_acma.nr_blocks_in));
	mutex_unlock(&damon_acma.lock);
}

/* Every state change keeps the counts of blocks per state. */
static void damon_acma_test_block_states(struct kunit *test)
{
	enum damon_acma_block_state blocks[DAMON_ACMA_TEST_BLOCKS];
	struct page *held[DAMON_ACMA_TEST_BLOCKS] = {};
	struct damon_acma_test_saved saved;

	damon_acma_test_swap_in(test, &saved, blocks, held,
			memory_block_size_bytes());
	damon_acma_set_block_state(3, DAMON_ACMA_BLOCK_REMOVING);
	damon_acma_set_block_state(2, DAMON_ACMA_BLOCK_OFFLINE);
	KUNIT_EXPECT_EQ(test, damon_acma_blocks_in(DAMON_ACMA_BLOCK_ONLINE), 2);
	KUNIT_EXPECT_EQ(test, damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVING),
			1);
	damon_acma_set_block_state(3, DAMON_ACMA_BLOCK_REMOVED);
	damon_acma_set_block_state(1, DAMON_ACMA_BLOCK_REMOVING);
	KUNIT_EXPECT_EQ(test, damon_acma_removed_blocks(), 1);
	damon_acma_set_block_state(3, DAMON_ACMA_BLOCK_ADDING);
	KUNIT_EXPECT_EQ(test, damon_acma_removed_blocks(), 1);
	KUNIT_EXPECT_EQ(test, damon_acma_adding_blocks(), 1);
	damon_acma_set_block_state(2, DAMON_ACMA_BLOCK_KERNEL);
	damon_acma_set_block_state(3, DAMON_ACMA_BLOCK_ONLINE);
	damon_acma_set_block_state(1, DAMON_ACMA_BLOCK_ONLINE);
	KUNIT_EXPECT_EQ(test, damon_acma_blocks_in(DAMON_ACMA_BLOCK_ONLINE), 3);
	KUNIT_EXPECT_EQ(test, damon_acma_blocks_in(DAMON_ACMA_BLOCK_KERNEL), 1);
	KUNIT_EXPECT_EQ(test, damon_acma_removed_blocks(), 0);
	KUNIT_EXPECT_EQ(test, damon_acma_blocks_in(DAMON_ACMA_BLOCK_REMOVING) +
			damon_acma_blocks_in(DAMON_ACMA_BLOCK_OFFLINE), 0);
	damon_acma_test_swap_out(&saved);
}

/*
 * The memory map of a 1 GiB block (16 MiB with 4 KiB pages and 64-byte
 * struct pages) is above MAX_PAGE_ORDER: it is still held, in pieces, and
 * given back whole.
 */
static void damon_acma_test_hold_large_memmap(struct kunit *test)
{
	enum damon_acma_block_state blocks[DAMON_ACMA_TEST_BLOCKS];
	struct page *held[DAMON_ACMA_TEST_BLOCKS] = {};
	struct damon_acma_test_saved saved;
	unsigned long pieces = 1;
	struct page *page;

	damon_acma_test_swap_in(test, &saved, blocks, held, SZ_1G);
	if (damon_acma_memmap_order() <= MAX_PAGE_ORDER) {
		damon_acma_test_swap_out(&saved);
		kunit_skip(test, "a 1 GiB block's memory map fits one allocation");
	}
	damon_acma_hold_memmap(0);
	/* No KUNIT_ASSERT while swapped in: it would return with the lock held. */
	KUNIT_EXPECT_NOT_NULL(test, held[0]);
	if (held[0]) {
		list_for_each_entry(page, &held[0]->lru, lru)
			pieces++;
		KUNIT_EXPECT_EQ(test, pieces, 1UL <<
				(damon_acma_memmap_order() - MAX_PAGE_ORDER));
		damon_acma_release_memmap(0);
		KUNIT_EXPECT_NULL(test, held[0]);
	}
	damon_acma_test_swap_out(&saved);
}

/*
 * Interleaved domains (blocks 0 and 2 in one, 1 and 3 in the other): a
 * removed block comes back to the domain that is still on before the lowest
 * one powers a domain on, and memory being wanted ends the choice of the
 * domain to empty.
 */
static void damon_acma_test_want_powered_first(struct kunit *test)
{
	enum damon_acma_block_state blocks[DAMON_ACMA_TEST_BLOCKS];
	struct page *held[DAMON_ACMA_TEST_BLOCKS] = {};
	struct damon_acma_test_saved saved;
	int marked;

	damon_acma_test_swap_in(test, &saved, blocks, held,
			memory_block_size_bytes());
	damon_acma_test_domain[2] = 0;
	damon_acma_test_domain[3] = 1;
	damon_acma.nr_domains = 2;
	damon_acma.target = 1;
	damon_acma_set_block_state(0, DAMON_ACMA_BLOCK_REMOVED);
	damon_acma_set_block_state(1, DAMON_ACMA_BLOCK_REMOVED);
	damon_acma_set_block_state(2, DAMON_ACMA_BLOCK_REMOVED);
	marked = damon_acma_want_blocks(1);
	KUNIT_EXPECT_EQ(test, marked, 1);
	KUNIT_EXPECT_EQ(test, blocks[1], DAMON_ACMA_BLOCK_ADDING);
	KUNIT_EXPECT_EQ(test, blocks[0], DAMON_ACMA_BLOCK_REMOVED);
	KUNIT_EXPECT_EQ(test, damon_acma.target, -1);
	/* then the other domain, lowest first, as max_mem allows */
	marked = damon_acma_want_blocks(DAMON_ACMA_TEST_BLOCKS);
	KUNIT_EXPECT_EQ(test, marked, 2);
	KUNIT_EXPECT_EQ(test, blocks[0], DAMON_ACMA_BLOCK_ADDING);
	KUNIT_EXPECT_EQ(test, blocks[2], DAMON_ACMA_BLOCK_ADDING);
	KUNIT_EXPECT_EQ(test, damon_acma_want_blocks(1), 0);
	damon_acma_test_swap_out(&saved);
}

/*
 * A domain whose add failed waits, longer each time in a row, while the
 * blocks of other domains come back; an add that goes through ends the wait.
 */
static void damon_acma_test_add_backoff(struct kunit *test)
{
	enum damon_acma_block_state blocks[DAMON_ACMA_TEST_BLOCKS];
	struct page *held[DAMON_ACMA_TEST_BLOCKS] = {};
	struct damon_acma_test_saved saved;

	damon_acma_test_swap_in(test, &saved, blocks, held,
			memory_block_size_bytes());
	damon_acma_set_block_state(0, DAMON_ACMA_BLOCK_REMOVED);
	damon_acma_set_block_state(1, DAMON_ACMA_BLOCK_REMOVED);
	damon_acma_add_failed(0);
	KUNIT_EXPECT_EQ(test, damon_acma_test_retry[0].ms,
			DAMON_ACMA_RETRY_MIN_MS);
	KUNIT_EXPECT_TRUE(test, damon_acma_add_waits(0));
	KUNIT_EXPECT_FALSE(test, damon_acma_add_waits(1));
	/* the block of the waiting domain is passed over, the other comes */
	KUNIT_EXPECT_EQ(test, damon_acma_want_blocks(DAMON_ACMA_TEST_BLOCKS),
			1);
	KUNIT_EXPECT_EQ(test, blocks[0], DAMON_ACMA_BLOCK_REMOVED);
	KUNIT_EXPECT_EQ(test, blocks[1], DAMON_ACMA_BLOCK_ADDING);
	/* again and again: doubling, up to the longest wait */
	damon_acma_add_failed(0);
	KUNIT_EXPECT_EQ(test, damon_acma_test_retry[0].ms,
			2 * DAMON_ACMA_RETRY_MIN_MS);
	while (damon_acma_test_retry[0].ms < DAMON_ACMA_RETRY_MAX_MS)
		damon_acma_add_failed(0);
	damon_acma_add_failed(0);
	KUNIT_EXPECT_EQ(test, damon_acma_test_retry[0].ms,
			DAMON_ACMA_RETRY_MAX_MS);
	/* the wait over, the block is wanted again */
	damon_acma_test_retry[0].at = jiffies - 1;
	KUNIT_EXPECT_FALSE(test, damon_acma_add_waits(0));
	KUNIT_EXPECT_EQ(test, damon_acma_want_blocks(DAMON_ACMA_TEST_BLOCKS),
			1);
	KUNIT_EXPECT_EQ(test, blocks[0], DAMON_ACMA_BLOCK_ADDING);
	damon_acma_test_swap_out(&saved);
}

static struct kunit_case damon_acma_test_cases[] = {
	KUNIT_CASE(damon_acma_test_block_states),
	KUNIT_CASE(damon_acma_test_want_powered_first),
	KUNIT_CASE(damon_acma_test_add_backoff),
	KUNIT_CASE(damon_acma_test_hold_large_memmap),
	{},
};

static struct kunit_suite damon_acma_test_suite = {
	.name = "damon-acma",
	.test_cases = damon_acma_test_cases,
};
kunit_test_suite(damon_acma_test_suite);

#endif	/* _DAMON_ACMA_TEST_H */

#endif	/* CONFIG_DAMON_ACMA_KUNIT_TEST */

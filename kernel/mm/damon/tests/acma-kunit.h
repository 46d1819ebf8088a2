/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of DAMON_ACMA's memory block table and of the memory maps it
 * holds for removed blocks.  They run at boot, before DAMON_ACMA is enabled,
 * on a table of their own that they swap in and out under acma.lock.
 */

#ifdef CONFIG_DAMON_ACMA_KUNIT_TEST

#ifndef _DAMON_ACMA_TEST_H
#define _DAMON_ACMA_TEST_H

#include <kunit/test.h>

#define DAMON_ACMA_TEST_BLOCKS	4

struct damon_acma_test_saved {
	enum damon_acma_block_state *blocks;
	struct page **memmap_held;
	int nr_blocks;
	unsigned long block_size;
	int nr_blocks_in[NR_DAMON_ACMA_BLOCK_STATES];
};

static void damon_acma_test_swap_in(struct kunit *test,
		struct damon_acma_test_saved *saved,
		enum damon_acma_block_state *blocks, struct page **held,
		unsigned long block_size)
{
	int i;

	mutex_lock(&acma.lock);
	saved->blocks = acma.blocks;
	saved->memmap_held = acma.memmap_held;
	saved->nr_blocks = acma.nr_blocks;
	saved->block_size = acma.block_size;
	memcpy(saved->nr_blocks_in, acma.nr_blocks_in,
			sizeof(saved->nr_blocks_in));
	for (i = 0; i < DAMON_ACMA_TEST_BLOCKS; i++)
		blocks[i] = DAMON_ACMA_BLOCK_ONLINE;
	acma.blocks = blocks;
	acma.memmap_held = held;
	acma.nr_blocks = DAMON_ACMA_TEST_BLOCKS;
	acma.block_size = block_size;
	memset(acma.nr_blocks_in, 0, sizeof(acma.nr_blocks_in));
	acma.nr_blocks_in[DAMON_ACMA_BLOCK_ONLINE] = DAMON_ACMA_TEST_BLOCKS;
}

static void damon_acma_test_swap_out(struct damon_acma_test_saved *saved)
{
	acma.blocks = saved->blocks;
	acma.memmap_held = saved->memmap_held;
	acma.nr_blocks = saved->nr_blocks;
	acma.block_size = saved->block_size;
	memcpy(acma.nr_blocks_in, saved->nr_blocks_in,
			sizeof(acma.nr_blocks_in));
	mutex_unlock(&acma.lock);
}

/* Every state change keeps the counts of blocks per state. */
static void damon_acma_test_block_states(struct kunit *test)
{
	enum damon_acma_block_state blocks[DAMON_ACMA_TEST_BLOCKS];
	struct page *held[DAMON_ACMA_TEST_BLOCKS] = {};
	struct damon_acma_test_saved saved;

	if (acma.ctx && damon_is_running(acma.ctx))
		kunit_skip(test, "DAMON_ACMA is running");
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

	if (acma.ctx && damon_is_running(acma.ctx))
		kunit_skip(test, "DAMON_ACMA is running");
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

static struct kunit_case damon_acma_test_cases[] = {
	KUNIT_CASE(damon_acma_test_block_states),
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

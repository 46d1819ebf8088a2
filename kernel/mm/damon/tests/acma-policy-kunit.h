/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of DAMON_ACMA's scaling policy: which power domain scale-down
 * empties next and where its window goes, decided over a block table of the
 * tests' own.  Its blocks lie at the top of the physical address space,
 * where no memory is: they hold no data and nothing of them is owned, so
 * that every domain costs the same to empty and the decisions follow from
 * the blocks' states and domains alone.  They run at boot, before DAMON_ACMA
 * is enabled, with the table swapped in under damon_acma.lock.
 */

#ifdef CONFIG_DAMON_ACMA_KUNIT_TEST

#ifndef _DAMON_ACMA_POLICY_TEST_H
#define _DAMON_ACMA_POLICY_TEST_H

#include <kunit/test.h>

#define DAMON_ACMA_POLICY_TEST_BLOCKS	4

/* The table the tests decide over: two domains of two blocks each. */
struct damon_acma_policy_test {
	enum damon_acma_block_state blocks[DAMON_ACMA_POLICY_TEST_BLOCKS];
	phys_addr_t start[DAMON_ACMA_POLICY_TEST_BLOCKS];
	int domain[DAMON_ACMA_POLICY_TEST_BLOCKS];
	struct damon_acma_deferral deferred[DAMON_ACMA_POLICY_TEST_BLOCKS];
	unsigned long cost[2 * DAMON_ACMA_POLICY_TEST_BLOCKS];
	struct damon_acma saved;
};

/*
 * Swap the test's table in, blocks 0 and 1 in domain 0, blocks 2 and 3 in
 * domain 1, every block online; skipped while DAMON_ACMA runs.
 */
static void damon_acma_policy_test_in(struct kunit *test,
		struct damon_acma_policy_test *t)
{
	unsigned long size = memory_block_size_bytes();
	phys_addr_t top = round_down(PHYS_ADDR_MAX >> 1, size);
	int i;

	mutex_lock(&damon_acma.lock);
	if (damon_acma.ctx && damon_is_running(damon_acma.ctx)) {
		mutex_unlock(&damon_acma.lock);
		kunit_skip(test, "DAMON_ACMA is running");
	}
	memcpy(&t->saved, &damon_acma, sizeof(t->saved));
	for (i = 0; i < DAMON_ACMA_POLICY_TEST_BLOCKS; i++) {
		t->blocks[i] = DAMON_ACMA_BLOCK_ONLINE;
		t->start[i] = top - (DAMON_ACMA_POLICY_TEST_BLOCKS - i) * size;
		t->domain[i] = i / 2;
	}
	memset(t->deferred, 0, sizeof(t->deferred));
	damon_acma.blocks = t->blocks;
	damon_acma.block_start = t->start;
	damon_acma.block_domain = t->domain;
	damon_acma.deferred = t->deferred;
	damon_acma.domain_cost = t->cost;
	damon_acma.nr_blocks = DAMON_ACMA_POLICY_TEST_BLOCKS;
	damon_acma.nr_domains = 2;
	damon_acma.block_size = size;
	damon_acma.down = -1;
	damon_acma.target = -1;
	damon_acma.up = -1;
	damon_acma.cfg.scale_order = pageblock_order;
	memset(damon_acma.nr_blocks_in, 0, sizeof(damon_acma.nr_blocks_in));
	damon_acma.nr_blocks_in[DAMON_ACMA_BLOCK_ONLINE] =
			DAMON_ACMA_POLICY_TEST_BLOCKS;
}

/* Put DAMON_ACMA's own state back, the lock with it. */
static void damon_acma_policy_test_out(struct damon_acma_policy_test *t)
{
	struct mutex *lock = &damon_acma.lock;

	/* everything but the lock, which is held */
	memcpy(&damon_acma, &t->saved, offsetof(struct damon_acma, lock));
	mutex_unlock(lock);
}

/*
 * Every domain can go off and none was started: the highest goes first (a
 * tie in cost), and scale-down empties it from its highest block down.
 */
static void damon_acma_policy_test_highest_first(struct kunit *test)
{
	struct damon_acma_policy_test t;

	damon_acma_policy_test_in(test, &t);
	damon_acma_choose_down();
	KUNIT_EXPECT_EQ(test, damon_acma.target, 1);
	KUNIT_EXPECT_EQ(test, damon_acma.down, 3);
	KUNIT_EXPECT_FALSE(test, damon_acma.chose_none);
	/* its highest block gone: the window moves to the next one down */
	damon_acma_set_block_state(3, DAMON_ACMA_BLOCK_REMOVED);
	damon_acma_update_windows();
	KUNIT_EXPECT_EQ(test, damon_acma.target, 1);
	KUNIT_EXPECT_EQ(test, damon_acma.down, 2);
	/* nothing is partly taken: scale-up would bring the removed one back */
	KUNIT_EXPECT_EQ(test, damon_acma.up, 3);
	damon_acma_policy_test_out(&t);
}

/*
 * A domain scale-down started on (one of its blocks is removed) is finished
 * before any other is started, even a higher one.
 */
static void damon_acma_policy_test_started_first(struct kunit *test)
{
	struct damon_acma_policy_test t;

	damon_acma_policy_test_in(test, &t);
	damon_acma_set_block_state(0, DAMON_ACMA_BLOCK_REMOVED);
	damon_acma_choose_down();
	KUNIT_EXPECT_EQ(test, damon_acma.target, 0);
	KUNIT_EXPECT_EQ(test, damon_acma.down, 1);
	damon_acma_policy_test_out(&t);
}

/*
 * A domain that cannot go off (somebody else holds a block of it offline,
 * or online in a kernel zone) is not chosen while another can go off; when
 * none can, memory is still given up, highest block first.
 */
static void damon_acma_policy_test_refusals(struct kunit *test)
{
	struct damon_acma_policy_test t;

	damon_acma_policy_test_in(test, &t);
	damon_acma_set_block_state(3, DAMON_ACMA_BLOCK_OFFLINE);
	damon_acma_choose_down();
	KUNIT_EXPECT_EQ(test, damon_acma.target, 0);
	KUNIT_EXPECT_EQ(test, damon_acma.down, 1);

	damon_acma_set_block_state(0, DAMON_ACMA_BLOCK_KERNEL);
	damon_acma_choose_down();
	KUNIT_EXPECT_EQ(test, damon_acma.target, 1);
	KUNIT_EXPECT_EQ(test, damon_acma.down, 2);
	damon_acma_policy_test_out(&t);
}

/*
 * A block scale-down gave up on a moment ago is left alone: the window
 * passes over it, to the next block of the same domain, until the wait is
 * over.
 */
static void damon_acma_policy_test_deferred(struct kunit *test)
{
	struct damon_acma_policy_test t;

	damon_acma_policy_test_in(test, &t);
	t.deferred[3].at = jiffies;
	t.deferred[3].times = 1;
	KUNIT_EXPECT_TRUE(test, damon_acma_deferred(3));
	damon_acma_choose_down();
	KUNIT_EXPECT_EQ(test, damon_acma.target, 1);
	KUNIT_EXPECT_EQ(test, damon_acma.down, 2);
	/* the wait over, the highest block is the window again */
	t.deferred[3].at = jiffies - msecs_to_jiffies(DAMON_ACMA_DEFER_MS) - 1;
	KUNIT_EXPECT_FALSE(test, damon_acma_deferred(3));
	damon_acma_choose_down();
	KUNIT_EXPECT_EQ(test, damon_acma.down, 3);
	damon_acma_policy_test_out(&t);
}

static struct kunit_case damon_acma_policy_test_cases[] = {
	KUNIT_CASE(damon_acma_policy_test_highest_first),
	KUNIT_CASE(damon_acma_policy_test_started_first),
	KUNIT_CASE(damon_acma_policy_test_refusals),
	KUNIT_CASE(damon_acma_policy_test_deferred),
	{},
};

static struct kunit_suite damon_acma_policy_test_suite = {
	.name = "damon-acma-policy",
	.test_cases = damon_acma_policy_test_cases,
};
kunit_test_suite(damon_acma_policy_test_suite);

#endif	/* _DAMON_ACMA_POLICY_TEST_H */

#endif	/* CONFIG_DAMON_ACMA_KUNIT_TEST */

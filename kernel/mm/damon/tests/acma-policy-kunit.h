/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of DAMON_ACMA's scaling policy: its decisions (which power
 * domain scale-down empties next and where its window goes, when a block is
 * finished, where scale-up gives back, which blocks leave and which come
 * back) are functions of a view of the block table, and the tests make
 * views of their own: two domains of two blocks each, blocks 0 and 1 in
 * domain 0, blocks 2 and 3 in domain 1.  Nothing of DAMON_ACMA's own state
 * is touched, so that they run whether it is enabled or not.
 */

#ifdef CONFIG_DAMON_ACMA_KUNIT_TEST

#ifndef _DAMON_ACMA_POLICY_TEST_H
#define _DAMON_ACMA_POLICY_TEST_H

#include <kunit/test.h>

#define DAMON_ACMA_POLICY_TEST_BLOCKS	4
#define DAMON_ACMA_POLICY_TEST_CHUNK	SZ_2M

struct damon_acma_policy_test {
	struct damon_acma_block_view b[DAMON_ACMA_POLICY_TEST_BLOCKS];
	unsigned long scratch[2 * DAMON_ACMA_POLICY_TEST_BLOCKS];
	struct damon_acma_view v;
};

/* Every block online, nothing taken, no data, nothing deferred. */
static struct damon_acma_view *
damon_acma_policy_test_view(struct damon_acma_policy_test *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < DAMON_ACMA_POLICY_TEST_BLOCKS; i++) {
		t->b[i].state = DAMON_ACMA_BLOCK_ONLINE;
		t->b[i].domain = i / 2;
	}
	t->v = (struct damon_acma_view){
		.b = t->b,
		.scratch = t->scratch,
		.nr_blocks = DAMON_ACMA_POLICY_TEST_BLOCKS,
		.nr_domains = 2,
		.block_size = SZ_128M,
		.chunk = DAMON_ACMA_POLICY_TEST_CHUNK,
	};
	return &t->v;
}

/*
 * Every domain can go off and none was started: the highest goes first (a
 * tie in cost), and scale-down empties it from its highest block down.
 */
static void damon_acma_policy_test_highest_first(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 3);
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), 3);
	/* its highest block gone: the window moves to the next one down */
	t.b[3].state = DAMON_ACMA_BLOCK_REMOVED;
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), 2);
	/* nothing is partly taken: scale-up would bring the removed one back */
	KUNIT_EXPECT_EQ(test, damon_acma_choose_up(v, 1), 3);
	/* the domain emptied, nothing is left to take of it */
	t.b[2].state = DAMON_ACMA_BLOCK_REMOVED;
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), -1);
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, -1), -1);
}

/*
 * A domain scale-down started on (one of its blocks is removed) is finished
 * before any other is started, even a higher one that holds less.
 */
static void damon_acma_policy_test_started_first(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	t.b[0].state = DAMON_ACMA_BLOCK_REMOVED;
	t.b[1].busy = SZ_64M;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 1);
	/* being removed counts as started too */
	t.b[0].state = DAMON_ACMA_BLOCK_ONLINE;
	t.b[0].busy = 0;
	t.b[1].state = DAMON_ACMA_BLOCK_REMOVING;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 0);
}

/*
 * The domain that holds the least data goes first, but a lower one only if
 * it holds DAMON_ACMA_CHOICE_SLACK chunks less: for a few chunks the
 * address order wins.
 */
static void damon_acma_policy_test_least_data(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);
	unsigned long slack = DAMON_ACMA_CHOICE_SLACK *
			DAMON_ACMA_POLICY_TEST_CHUNK;

	t.b[2].busy = slack + DAMON_ACMA_POLICY_TEST_CHUNK;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 1);
	t.b[2].busy = slack;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 3);
	/* the cost is the domain's, over all its online blocks */
	t.b[2].busy = slack / 2;
	t.b[3].busy = slack;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 1);
}

/*
 * A domain that cannot go off (somebody else holds a block of it offline,
 * or online in a kernel zone) is not chosen while another can go off; when
 * none can, memory is still given up, highest block first.
 */
static void damon_acma_policy_test_refusals(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	t.b[3].state = DAMON_ACMA_BLOCK_OFFLINE;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 1);
	t.b[0].state = DAMON_ACMA_BLOCK_KERNEL;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 2);
	/* fully taken blocks are no window, and none left is no choice */
	t.b[1].owned = t.v.block_size;
	t.b[2].owned = t.v.block_size;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), -1);
}

/*
 * A block scale-down gave up on a moment ago is left alone: the window
 * passes over it, to the next block of the same domain, until the wait is
 * over.
 */
static void damon_acma_policy_test_deferred(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	t.b[3].deferred = true;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 2);
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), 2);
	/* the window stays on it while it is the window (deferred_too) */
	KUNIT_EXPECT_TRUE(test, damon_acma_down_ok(v, 3, true));
	t.b[3].deferred = false;
	KUNIT_EXPECT_EQ(test, damon_acma_choose(v), 3);
}

/*
 * The last block that keeps its domain on is finished if what it holds fits
 * in a chunk and finishing it was not tried yet: a deferred block is taken
 * up again for that, and not otherwise.
 */
static void damon_acma_policy_test_finish(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	t.b[3].deferred = true;
	t.b[3].busy = DAMON_ACMA_POLICY_TEST_CHUNK;
	/* another block of the domain is in the system: it waits for it */
	KUNIT_EXPECT_FALSE(test, damon_acma_may_finish(v, 3));
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), 2);
	t.b[2].state = DAMON_ACMA_BLOCK_REMOVED;
	KUNIT_EXPECT_TRUE(test, damon_acma_may_finish(v, 3));
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), 3);
	/* more than a chunk is a working set: it stays */
	t.b[3].busy = DAMON_ACMA_POLICY_TEST_CHUNK + PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), -1);
	/* not counted: not finished */
	t.b[3].busy = DAMON_ACMA_BUSY_UNKNOWN;
	KUNIT_EXPECT_FALSE(test, damon_acma_may_finish(v, 3));
	/* tried once already: left alone until the wait is over */
	t.b[3].busy = 0;
	t.b[3].tried_finish = true;
	KUNIT_EXPECT_EQ(test, damon_acma_domain_down(v, 1), -1);
}

/*
 * Scale-up gives back the lowest partly taken block, outside of the domain
 * scale-down empties first; with none partly taken, a removed block.
 */
static void damon_acma_policy_test_up_window(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	KUNIT_EXPECT_EQ(test, damon_acma_choose_up(v, 1), -1);
	t.b[1].owned = DAMON_ACMA_POLICY_TEST_CHUNK;
	t.b[3].owned = DAMON_ACMA_POLICY_TEST_CHUNK;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_up(v, 1), 1);
	KUNIT_EXPECT_EQ(test, damon_acma_choose_up(v, 0), 3);
	t.b[3].owned = 0;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_up(v, 0), 1);
	t.b[1].owned = 0;
	t.b[2].state = DAMON_ACMA_BLOCK_REMOVED;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_up(v, 0), 2);
}

/*
 * Fully taken online blocks leave the system, but not one whose removal
 * failed a moment ago; nothing else does.
 */
static void damon_acma_policy_test_removals(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	t.b[1].owned = t.v.block_size - DAMON_ACMA_POLICY_TEST_CHUNK;
	t.b[2].owned = t.v.block_size;
	t.b[3].state = DAMON_ACMA_BLOCK_REMOVED;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_removals(v), 1);
	KUNIT_EXPECT_EQ(test, t.b[2].state, DAMON_ACMA_BLOCK_REMOVING);
	KUNIT_EXPECT_EQ(test, t.b[1].state, DAMON_ACMA_BLOCK_ONLINE);
	KUNIT_EXPECT_EQ(test, t.b[3].state, DAMON_ACMA_BLOCK_REMOVED);
	KUNIT_EXPECT_EQ(test, damon_acma_choose_removals(v), 0);
	t.b[1].owned = t.v.block_size;
	t.b[1].remove_waits = true;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_removals(v), 0);
	KUNIT_EXPECT_EQ(test, t.b[1].state, DAMON_ACMA_BLOCK_ONLINE);
}

/*
 * Removed blocks come back to a domain that is on anyway first, then lowest
 * first; a domain whose add failed a moment ago is passed over.
 */
static void damon_acma_policy_test_adds(struct kunit *test)
{
	struct damon_acma_policy_test t;
	struct damon_acma_view *v = damon_acma_policy_test_view(&t);

	/* domain 0 is off, domain 1 on with block 2 */
	t.b[0].state = DAMON_ACMA_BLOCK_REMOVED;
	t.b[1].state = DAMON_ACMA_BLOCK_REMOVED;
	t.b[3].state = DAMON_ACMA_BLOCK_REMOVED;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_adds(v, 1), 1);
	KUNIT_EXPECT_EQ(test, t.b[3].state, DAMON_ACMA_BLOCK_ADDING);
	KUNIT_EXPECT_EQ(test, t.b[0].state, DAMON_ACMA_BLOCK_REMOVED);
	/* then the domain that is off, lowest first, as many as asked */
	t.b[0].add_waits = true;
	t.b[1].add_waits = true;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_adds(v, 2), 0);
	t.b[0].add_waits = false;
	t.b[1].add_waits = false;
	KUNIT_EXPECT_EQ(test, damon_acma_choose_adds(v, 1), 1);
	KUNIT_EXPECT_EQ(test, t.b[0].state, DAMON_ACMA_BLOCK_ADDING);
	KUNIT_EXPECT_EQ(test, t.b[1].state, DAMON_ACMA_BLOCK_REMOVED);
	KUNIT_EXPECT_EQ(test, damon_acma_choose_adds(v, 4), 1);
	KUNIT_EXPECT_EQ(test, t.b[1].state, DAMON_ACMA_BLOCK_ADDING);
}

/*
 * The headroom: a block, plus what the workload takes over the horizon at
 * the rate it grew; a rate rises at once and decays by an eighth a step.
 */
static void damon_acma_policy_test_headroom(struct kunit *test)
{
	unsigned long rate;

	/* 1000 pages in 500 ms: 2000 pages a second */
	rate = damon_acma_growth(0, 11000, 10000, 500);
	KUNIT_EXPECT_EQ(test, rate, 2000UL);
	KUNIT_EXPECT_EQ(test, damon_acma_headroom_pages(32768, rate, 3000),
			32768L + 6000);
	/* flat or shrinking: an eighth less each step */
	rate = damon_acma_growth(rate, 11000, 11000, 500);
	KUNIT_EXPECT_EQ(test, rate, 1750UL);
	rate = damon_acma_growth(rate, 9000, 11000, 500);
	KUNIT_EXPECT_EQ(test, rate, 1532UL);
	/* slower growth does not lower it faster than that */
	KUNIT_EXPECT_EQ(test, damon_acma_growth(rate, 9100, 9000, 1000),
			1341UL);
	/* faster growth takes over at once */
	KUNIT_EXPECT_EQ(test, damon_acma_growth(rate, 19000, 9000, 1000),
			10000UL);
	/* no last step to compare with: no growth seen */
	KUNIT_EXPECT_EQ(test, damon_acma_growth(0, 19000, 0, 0), 0UL);
	KUNIT_EXPECT_EQ(test, damon_acma_headroom_pages(32768, 0, 3000),
			32768L);
}

static struct kunit_case damon_acma_policy_test_cases[] = {
	KUNIT_CASE(damon_acma_policy_test_highest_first),
	KUNIT_CASE(damon_acma_policy_test_started_first),
	KUNIT_CASE(damon_acma_policy_test_least_data),
	KUNIT_CASE(damon_acma_policy_test_refusals),
	KUNIT_CASE(damon_acma_policy_test_deferred),
	KUNIT_CASE(damon_acma_policy_test_finish),
	KUNIT_CASE(damon_acma_policy_test_up_window),
	KUNIT_CASE(damon_acma_policy_test_removals),
	KUNIT_CASE(damon_acma_policy_test_adds),
	KUNIT_CASE(damon_acma_policy_test_headroom),
	{},
};

static struct kunit_suite damon_acma_policy_test_suite = {
	.name = "damon-acma-policy",
	.test_cases = damon_acma_policy_test_cases,
};
kunit_test_suite(damon_acma_policy_test_suite);

#endif	/* _DAMON_ACMA_POLICY_TEST_H */

#endif	/* CONFIG_DAMON_ACMA_KUNIT_TEST */

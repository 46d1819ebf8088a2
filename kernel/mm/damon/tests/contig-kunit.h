/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the DAMOS alloc/free ownership record.
 *
 * The record is exercised on a private xarray, so the tests touch no page.
 */

#ifdef CONFIG_DAMON_CONTIG_KUNIT_TEST

#ifndef _DAMON_CONTIG_TEST_H
#define _DAMON_CONTIG_TEST_H

#include <kunit/test.h>

#define PB_BYTES	(PAGE_SIZE << pageblock_order)

static unsigned int damon_contig_test_seen_chunks;
static unsigned long damon_contig_test_seen_pages;

static int damon_contig_test_count(unsigned long pfn, unsigned long val)
{
	damon_contig_test_seen_chunks++;
	damon_contig_test_seen_pages += 1UL << damon_contig_entry_order(val);
	return 0;
}

/* Refuses the second chunk it sees, as MEM_GOING_OFFLINE may. */
static int damon_contig_test_refuse_second(unsigned long pfn,
		unsigned long val)
{
	return ++damon_contig_test_seen_chunks == 2 ? -EBUSY : 0;
}

/* The order of the chunk holding @pfn, or -ENOENT. */
static int damon_contig_test_order(struct xarray *xa, unsigned long pfn,
		bool *offlining)
{
	long val = damon_contig_record_get(xa, pfn);

	if (val < 0)
		return val;
	if (offlining)
		*offlining = damon_contig_entry_offlining(val);
	return damon_contig_entry_order(val);
}

static void damon_contig_test_add_and_count(struct kunit *test)
{
	unsigned long pb = pageblock_nr_pages;
	struct xarray xa;

	xa_init(&xa);
	/* a pageblock-order chunk at pageblock 4, a 4-pageblock one at 8 */
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 4 * pb,
				pageblock_order, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 8 * pb,
				pageblock_order + 2, 0), 0);

	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 16 * pb, -1),
			5 * PB_BYTES);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 5 * pb, 8 * pb, -1),
			0UL);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 9 * pb, 11 * pb, -1),
			2 * PB_BYTES);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 4 * pb, 4 * pb, -1),
			0UL);

	KUNIT_EXPECT_EQ(test, damon_contig_test_order(&xa, 4 * pb, NULL),
			(int)pageblock_order);
	KUNIT_EXPECT_EQ(test, damon_contig_test_order(&xa, 9 * pb, NULL),
			(int)pageblock_order + 2);
	KUNIT_EXPECT_EQ(test, damon_contig_test_order(&xa, 5 * pb, NULL),
			-ENOENT);

	damon_contig_record_del(&xa, 8 * pb, pageblock_order + 2);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 16 * pb, -1),
			PB_BYTES);
	xa_destroy(&xa);
}

static void damon_contig_test_no_double_ownership(struct kunit *test)
{
	unsigned long pb = pageblock_nr_pages;
	struct xarray xa;

	xa_init(&xa);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 2 * pb,
				pageblock_order, 0), 0);
	/* an overlapping bigger chunk is refused and leaves nothing behind */
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 0,
				pageblock_order + 2, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 4 * pb, -1),
			PB_BYTES);
	KUNIT_EXPECT_EQ(test, damon_contig_test_order(&xa, 0, NULL), -ENOENT);
	xa_destroy(&xa);
}

static void damon_contig_test_offline_marks(struct kunit *test)
{
	unsigned long pb = pageblock_nr_pages;
	struct xarray xa;
	bool offlining = true;

	xa_init(&xa);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 0,
				pageblock_order + 1, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 4 * pb,
				pageblock_order, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_test_order(&xa, 0, &offlining),
			(int)pageblock_order + 1);
	KUNIT_EXPECT_FALSE(test, offlining);

	damon_contig_record_set_offlining(&xa, 0, pageblock_order + 1, true);
	KUNIT_EXPECT_EQ(test, damon_contig_test_order(&xa, pb, &offlining),
			(int)pageblock_order + 1);
	KUNIT_EXPECT_TRUE(test, offlining);
	/* marking keeps the count */
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 8 * pb, -1),
			3 * PB_BYTES);

	damon_contig_record_set_offlining(&xa, 0, pageblock_order + 1, false);
	damon_contig_test_order(&xa, 0, &offlining);
	KUNIT_EXPECT_FALSE(test, offlining);
	xa_destroy(&xa);
}

static void damon_contig_test_visit_chunks_once(struct kunit *test)
{
	unsigned long pb = pageblock_nr_pages;
	struct xarray xa;

	xa_init(&xa);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 0,
				pageblock_order + 2, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 4 * pb,
				pageblock_order, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 16 * pb,
				pageblock_order, 0), 0);

	damon_contig_test_seen_chunks = 0;
	damon_contig_test_seen_pages = 0;
	damon_contig_record_for_each(&xa, 0, 8 * pb, damon_contig_test_count);
	KUNIT_EXPECT_EQ(test, damon_contig_test_seen_chunks, 2U);
	KUNIT_EXPECT_EQ(test, damon_contig_test_seen_pages, 5 * pb);
	xa_destroy(&xa);
}

static void damon_contig_test_owners(struct kunit *test)
{
	unsigned long pb = pageblock_nr_pages;
	struct xarray xa;
	bool offlining;
	long val;

	xa_init(&xa);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 0,
				pageblock_order + 1, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 2 * pb,
				pageblock_order, 3), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 3 * pb,
				pageblock_order, DAMON_CONTIG_MAX_OWNERS), 0);

	/* each owner counts its own, -1 counts all */
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 8 * pb, 0),
			2 * PB_BYTES);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 8 * pb, 3),
			PB_BYTES);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 8 * pb,
				DAMON_CONTIG_MAX_OWNERS), PB_BYTES);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 8 * pb, 1),
			0UL);
	KUNIT_EXPECT_EQ(test, damon_contig_record_bytes(&xa, 0, 8 * pb, -1),
			4 * PB_BYTES);

	/* marking a chunk going offline keeps its order and owner */
	damon_contig_record_set_offlining(&xa, 2 * pb, pageblock_order, true);
	val = damon_contig_record_get(&xa, 2 * pb);
	KUNIT_EXPECT_EQ(test, damon_contig_entry_owner(val), 3);
	KUNIT_EXPECT_EQ(test, damon_contig_entry_order(val), pageblock_order);
	KUNIT_EXPECT_TRUE(test, damon_contig_entry_offlining(val));
	damon_contig_record_set_offlining(&xa, 2 * pb, pageblock_order, false);
	KUNIT_EXPECT_EQ(test, damon_contig_test_order(&xa, 2 * pb, &offlining),
			(int)pageblock_order);
	KUNIT_EXPECT_FALSE(test, offlining);
	KUNIT_EXPECT_EQ(test, damon_contig_entry_owner(
				damon_contig_record_get(&xa, 3 * pb)),
			DAMON_CONTIG_MAX_OWNERS);
	xa_destroy(&xa);
}

static void damon_contig_test_visit_stops(struct kunit *test)
{
	unsigned long pb = pageblock_nr_pages;
	struct xarray xa;

	xa_init(&xa);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 0,
				pageblock_order, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, pb,
				pageblock_order, 0), 0);
	KUNIT_EXPECT_EQ(test, damon_contig_record_add(&xa, 2 * pb,
				pageblock_order, 0), 0);
	damon_contig_test_seen_chunks = 0;
	KUNIT_EXPECT_EQ(test, damon_contig_record_for_each(&xa, 0, 4 * pb,
				damon_contig_test_refuse_second), -EBUSY);
	KUNIT_EXPECT_EQ(test, damon_contig_test_seen_chunks, 2U);
	xa_destroy(&xa);
}

static struct kunit_case damon_contig_test_cases[] = {
	KUNIT_CASE(damon_contig_test_add_and_count),
	KUNIT_CASE(damon_contig_test_no_double_ownership),
	KUNIT_CASE(damon_contig_test_offline_marks),
	KUNIT_CASE(damon_contig_test_visit_chunks_once),
	KUNIT_CASE(damon_contig_test_owners),
	KUNIT_CASE(damon_contig_test_visit_stops),
	{},
};

static struct kunit_suite damon_contig_test_suite = {
	.name = "damon-contig",
	.test_cases = damon_contig_test_cases,
};
kunit_test_suite(damon_contig_test_suite);

#endif	/* _DAMON_CONTIG_TEST_H */

#endif	/* CONFIG_DAMON_CONTIG_KUNIT_TEST */

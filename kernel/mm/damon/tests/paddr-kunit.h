/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of where the physical address space schemes' walks look next.
 */

#ifdef CONFIG_DAMON_KUNIT_TEST

#ifndef _DAMON_PADDR_TEST_H
#define _DAMON_PADDR_TEST_H

#include <kunit/test.h>

/* A page somebody holds is no free block: the walk looks at the next page. */
static void damon_pa_test_next_addr_held(struct kunit *test)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long addr;

	KUNIT_ASSERT_NOT_NULL(test, page);
	addr = PFN_PHYS(page_to_pfn(page));
	KUNIT_EXPECT_EQ(test, damon_pa_next_addr(addr), addr + PAGE_SIZE);
	__free_page(page);
}

/*
 * A free buddy block is stepped over whole, and not further.  A block of
 * MAX_PAGE_ORDER goes straight back to the buddy allocator (no per-CPU list
 * keeps that order) and cannot merge into a larger one.
 */
static void damon_pa_test_next_addr_free(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_PAGE_ORDER);
	unsigned long pfn;

	if (!page)
		kunit_skip(test, "no free block of order %d", MAX_PAGE_ORDER);
	pfn = page_to_pfn(page);
	__free_pages(page, MAX_PAGE_ORDER);
	if (!PageBuddy(page))
		kunit_skip(test, "the block was allocated again at once");
	KUNIT_EXPECT_EQ(test, damon_pa_next_addr(PFN_PHYS(pfn)),
			PFN_PHYS(pfn + MAX_ORDER_NR_PAGES));
}

/* Inside a section that is not online, the walk goes on at the next one. */
static void damon_pa_test_next_addr_no_section(struct kunit *test)
{
#ifdef CONFIG_SPARSEMEM
	unsigned long nr = NR_MEM_SECTIONS - 1;
	unsigned long pfn = section_nr_to_pfn(nr);

	if (online_section_nr(nr))
		kunit_skip(test, "the highest possible section is online");
	KUNIT_EXPECT_EQ(test, damon_pa_next_addr(PFN_PHYS(pfn + 3)),
			PFN_PHYS(section_nr_to_pfn(nr + 1)));
#else
	kunit_skip(test, "no memory sections");
#endif
}

static struct kunit_case damon_pa_test_cases[] = {
	KUNIT_CASE(damon_pa_test_next_addr_held),
	KUNIT_CASE(damon_pa_test_next_addr_free),
	KUNIT_CASE(damon_pa_test_next_addr_no_section),
	{},
};

static struct kunit_suite damon_pa_test_suite = {
	.name = "damon-paddr",
	.test_cases = damon_pa_test_cases,
};
kunit_test_suite(damon_pa_test_suite);

#endif	/* _DAMON_PADDR_TEST_H */

#endif	/* CONFIG_DAMON_KUNIT_TEST */

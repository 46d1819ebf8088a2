/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pattern.h - the data test programs write and check: each 8-byte word of a
 * page holds a value derived from the page's index and the word's, so that a
 * page lost, zeroed or swapped with another shows.
 */
#ifndef ACMA_TEST_PATTERN_H
#define ACMA_TEST_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define PAGE		4096UL
#define PAGE_WORDS	(PAGE / sizeof(uint64_t))

static inline uint64_t pattern(size_t page, size_t word)
{
	uint64_t x = (page + 1) * 0x9e3779b97f4a7c15ULL ^ (word * 0xbf58476d1ce4e5b9ULL);

	return x ^ (x >> 31);
}

#endif

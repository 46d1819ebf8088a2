// SPDX-License-Identifier: GPL-2.0
/*
 * pagefile - write a file whose every page is unique, and check it later.
 *
 *   pagefile write FILE MIB
 *   pagefile check FILE
 *
 * "write" fills FILE with MIB MiB, each 4 KiB page holding the pattern of
 * its index (pattern.h, as memhog's pages), so that a page lost, zeroed or
 * swapped with another shows (a checksum of the whole file would miss two
 * identical pages swapped).
 * "check" reads FILE back and prints "check ok N pages" or "check FAIL N of
 * M pages corrupt, first at page P"; it exits 1 when a page is corrupt.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pattern.h"

#define BATCH_PAGES	256UL

static void fill(uint64_t *page, size_t index)
{
	size_t i;

	for (i = 0; i < PAGE_WORDS; i++)
		page[i] = pattern(index, i);
}

static int do_write(const char *path, unsigned long mib)
{
	static uint64_t buf[BATCH_PAGES * PAGE_WORDS];
	unsigned long pages = mib * (1UL << 20) / PAGE, n = 0, i;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0) {
		fprintf(stderr, "pagefile: %s: %s\n", path, strerror(errno));
		return 2;
	}
	while (n < pages) {
		unsigned long batch = pages - n < BATCH_PAGES ? pages - n :
				      BATCH_PAGES;
		size_t len = batch * PAGE, done = 0;

		for (i = 0; i < batch; i++)
			fill(buf + i * PAGE_WORDS, n + i);
		while (done < len) {
			ssize_t w = write(fd, (char *)buf + done, len - done);

			if (w < 0) {
				fprintf(stderr, "pagefile: writing %s: %s\n",
					path, strerror(errno));
				return 2;
			}
			done += w;
		}
		n += batch;
	}
	if (fsync(fd) || close(fd)) {
		fprintf(stderr, "pagefile: %s: %s\n", path, strerror(errno));
		return 2;
	}
	printf("wrote %lu pages\n", pages);
	return 0;
}

static int do_check(const char *path)
{
	static uint64_t want[PAGE_WORDS];
	static uint64_t buf[BATCH_PAGES * PAGE_WORDS];
	unsigned long n = 0, bad = 0, first = 0, i;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "pagefile: %s: %s\n", path, strerror(errno));
		return 2;
	}
	for (;;) {
		size_t got = 0;

		while (got < sizeof(buf)) {
			ssize_t r = read(fd, (char *)buf + got,
					 sizeof(buf) - got);

			if (r < 0) {
				fprintf(stderr, "pagefile: reading %s: %s\n",
					path, strerror(errno));
				return 2;
			}
			if (!r)
				break;
			got += r;
		}
		if (got % PAGE) {
			fprintf(stderr, "pagefile: %s: not whole pages\n", path);
			return 2;
		}
		for (i = 0; i < got / PAGE; i++, n++) {
			fill(want, n);
			if (memcmp(want, buf + i * PAGE_WORDS, PAGE)) {
				if (!bad++)
					first = n;
			}
		}
		if (got < sizeof(buf))
			break;
	}
	close(fd);
	if (bad) {
		printf("check FAIL %lu of %lu pages corrupt, first at page %lu\n",
		       bad, n, first);
		return 1;
	}
	printf("check ok %lu pages\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], strtoul(argv[3], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "check"))
		return do_check(argv[2]);
	fprintf(stderr, "usage: pagefile write FILE MIB | pagefile check FILE\n");
	return 2;
}

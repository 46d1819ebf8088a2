// SPDX-License-Identifier: GPL-2.0
/*
 * membw - the guest's page-copy bandwidth, what page migration is bound by.
 *
 *   membw [MIB]
 *
 * Copies MIB MiB (default 256) page by page between two buffers, three times,
 * and prints the best rate in GiB/s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t bytes = (argc > 1 ? strtoul(argv[1], NULL, 0) : 256) << 20;
	char *src = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *dst = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double best = 0;

	if (src == MAP_FAILED || dst == MAP_FAILED) {
		perror("membw: mmap");
		return 1;
	}
	memset(src, 0x5a, bytes);
	memset(dst, 0xa5, bytes);
	for (int run = 0; run < 3; run++) {
		double t = now_s();

		for (size_t off = 0; off < bytes; off += 4096)
			memcpy(dst + off, src + off, 4096);
		t = now_s() - t;
		if (bytes / t > best)
			best = bytes / t;
	}
	printf("%.3f\n", best / (1UL << 30));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * memhog - hold checksummed data in memory and report where it lives.
 *
 *   memhog MIB FIFO [MIB_PER_S]
 *
 * Allocates MIB MiB, fills every page with a pattern derived from its index
 * (at most MIB_PER_S MiB per second when given, as a workload that grows),
 * and prints "ready" followed by where its pages are: "block N PAGES" lines,
 * one per memory block (from /proc/self/pagemap; needs root). It then reads
 * commands from FIFO: "check" verifies every page and prints "check ok" or
 * "check FAIL N pages corrupt", then the block lines again; "moved" prints
 * "moved N", the number of pages that are no longer at the page frame they
 * were at when "ready" was printed, then "moved-from N PAGES" per block they
 * left; "warm" starts a child that reads every
 * page over and over (a workload's working set: DAMON sees it accessed in
 * every aggregation interval), "cool" stops it; "pin" pins one page in
 * each memory block the pages sit in, by vmsplice() into a pipe that nobody
 * reads (the page cannot be migrated while the pipe holds it), and prints
 * "pinned memoryN" per block; "unpin" reads the pages back out of the pipe,
 * compares them with what the program wrote, and prints "unpin ok N" or
 * "unpin FAIL ..."; each prints "end" when done; "exit" ends it.  Without "warm" the memory is touched only by the checks,
 * so DAMON sees it as cold between them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"

/* Allocated in pieces, as a growing program would: no single huge request. */
#define PIECE_PAGES	((16UL << 20) / PAGE)

static uint64_t **pieces;
static size_t nr_pieces;
/* Where each page was when it was filled: what "moved" compares against. */
static uint64_t *first_pfn;

static uint64_t *page_at(size_t p)
{
	return pieces[p / PIECE_PAGES] + (p % PIECE_PAGES) * (PAGE / 8);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fill(size_t pages, double mib_per_s)
{
	double start = now_s();

	nr_pieces = (pages + PIECE_PAGES - 1) / PIECE_PAGES;
	pieces = calloc(nr_pieces, sizeof(*pieces));
	if (!pieces)
		return -1;
	for (size_t p = 0; p < pages; p++) {
		uint64_t *page;

		if (!(p % PIECE_PAGES)) {
			void *m = mmap(NULL, PIECE_PAGES * PAGE,
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (m == MAP_FAILED)
				return -1;
			madvise(m, PIECE_PAGES * PAGE, MADV_NOHUGEPAGE);
			pieces[p / PIECE_PAGES] = m;
		}
		page = page_at(p);
		for (size_t w = 0; w < PAGE / 8; w++)
			page[w] = pattern(p, w);
		/* pace the growth every MiB */
		if (mib_per_s > 0 && !((p + 1) % 256)) {
			double due = start + (p + 1) / 256.0 / mib_per_s;
			double left = due - now_s();

			if (left > 0)
				usleep(left * 1e6);
		}
	}
	return 0;
}

static size_t verify(size_t pages)
{
	size_t bad = 0;

	for (size_t p = 0; p < pages; p++) {
		const uint64_t *page = page_at(p);

		for (size_t w = 0; w < PAGE / 8; w++)
			if (page[w] != pattern(p, w)) {
				bad++;
				break;
			}
	}
	return bad;
}

static unsigned long block_pages(void)
{
	FILE *f = fopen("/sys/devices/system/memory/block_size_bytes", "r");
	unsigned long bytes = 128UL << 20;

	if (f) {
		if (fscanf(f, "%lx", &bytes) != 1)
			bytes = 128UL << 20;
		fclose(f);
	}
	return bytes / PAGE;
}

/* The page frame behind page @p, 0 if none: needs root for the PFN bits. */
static uint64_t pfn_of(int fd, size_t p)
{
	off_t off = ((uintptr_t)page_at(p) / PAGE) * sizeof(uint64_t);
	uint64_t entry;

	if (pread(fd, &entry, sizeof(entry), off) != sizeof(entry))
		return 0;
	if (!(entry & (1ULL << 63)))
		return 0;
	return entry & ((1ULL << 55) - 1);
}

/* Print how many of the pages sit in each memory block. */
static void where(size_t pages)
{
	unsigned long per_block = block_pages();
	unsigned long blocks[4096] = { 0 };
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0) {
		printf("pagemap: %s\n", strerror(errno));
		return;
	}
	for (size_t p = 0; p < pages; p++) {
		uint64_t pfn = pfn_of(fd, p);

		if (first_pfn && !first_pfn[p])
			first_pfn[p] = pfn;
		if (pfn && pfn / per_block < 4096)
			blocks[pfn / per_block]++;
	}
	close(fd);
	for (unsigned long b = 0; b < 4096; b++)
		if (blocks[b])
			printf("block %lu %lu\n", b, blocks[b]);
}

/*
 * Print how many pages are no longer where they were first seen, then how
 * many of them left each block ("moved-from N PAGES").
 */
static void moved(size_t pages)
{
	unsigned long per_block = block_pages();
	unsigned long blocks[4096] = { 0 };
	int fd = open("/proc/self/pagemap", O_RDONLY);
	size_t n = 0;

	if (fd < 0) {
		printf("pagemap: %s\n", strerror(errno));
		return;
	}
	for (size_t p = 0; p < pages; p++)
		if (pfn_of(fd, p) != first_pfn[p]) {
			n++;
			if (first_pfn[p] / per_block < 4096)
				blocks[first_pfn[p] / per_block]++;
		}
	close(fd);
	printf("moved %zu\n", n);
	for (unsigned long b = 0; b < 4096; b++)
		if (blocks[b])
			printf("moved-from %lu %lu\n", b, blocks[b]);
}

/* The working set: a child reads a word of every page, without a pause. */
static pid_t warm(size_t pages)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	for (;;)
		for (size_t p = 0; p < pages; p++)
			(void)*(volatile uint64_t *)page_at(p);
}

static void cool(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGKILL);
	waitpid(*pid, NULL, 0);
	*pid = 0;
}

/* The pinned pages: one per block, in a pipe nobody reads until "unpin". */
static int pin_pipe[2] = { -1, -1 };
static size_t pinned[4096];
static size_t nr_pinned;

static void pin(size_t pages)
{
	unsigned long per_block = block_pages();
	static unsigned char seen[4096];
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0 || pin_pipe[0] >= 0 || pipe(pin_pipe)) {
		printf("pin FAIL %s\n", fd < 0 ? strerror(errno) :
		       "already pinned, or no pipe");
		if (fd >= 0)
			close(fd);
		return;
	}
	memset(seen, 0, sizeof(seen));
	for (size_t p = 0; p < pages; p++) {
		uint64_t pfn = pfn_of(fd, p), b = pfn / per_block;

		if (pfn && b < 4096 && !seen[b]) {
			seen[b] = 1;
			pinned[nr_pinned++] = p;
		}
	}
	close(fd);
	/* one pipe slot per page: a pipe holds 16 by default */
	if (nr_pinned > 16 &&
	    fcntl(pin_pipe[1], F_SETPIPE_SZ, (int)(nr_pinned * PAGE)) < 0) {
		printf("pin FAIL F_SETPIPE_SZ: %s\n", strerror(errno));
		return;
	}
	for (size_t i = 0; i < nr_pinned; i++) {
		struct iovec iov = { page_at(pinned[i]), PAGE };
		uint64_t pfn;

		if (vmsplice(pin_pipe[1], &iov, 1, 0) != PAGE) {
			printf("pin FAIL vmsplice: %s\n", strerror(errno));
			return;
		}
		fd = open("/proc/self/pagemap", O_RDONLY);
		pfn = fd < 0 ? 0 : pfn_of(fd, pinned[i]);
		if (fd >= 0)
			close(fd);
		printf("pinned memory%llu\n",
		       (unsigned long long)(pfn / per_block));
	}
}

static void unpin(void)
{
	static uint64_t buf[PAGE / 8];
	size_t bad = 0;

	if (pin_pipe[0] < 0) {
		printf("unpin FAIL nothing pinned\n");
		return;
	}
	for (size_t i = 0; i < nr_pinned; i++) {
		if (read(pin_pipe[0], buf, PAGE) != PAGE) {
			printf("unpin FAIL read: %s\n", strerror(errno));
			return;
		}
		for (size_t w = 0; w < PAGE / 8; w++)
			if (buf[w] != pattern(pinned[i], w)) {
				bad++;
				break;
			}
	}
	close(pin_pipe[0]);
	close(pin_pipe[1]);
	pin_pipe[0] = pin_pipe[1] = -1;
	if (bad)
		printf("unpin FAIL %zu of %zu pinned pages corrupt\n", bad,
		       nr_pinned);
	else
		printf("unpin ok %zu\n", nr_pinned);
	nr_pinned = 0;
}

int main(int argc, char **argv)
{
	char line[64];
	pid_t toucher = 0;
	size_t pages;
	FILE *cmd;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: memhog MIB FIFO [MIB_PER_S]\n");
		return 2;
	}
	pages = strtoul(argv[1], NULL, 0) * (1UL << 20) / PAGE;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fill(pages, argc == 4 ? strtod(argv[3], NULL) : 0)) {
		perror("memhog: mmap");
		return 1;
	}
	first_pfn = calloc(pages, sizeof(*first_pfn));
	if (!first_pfn) {
		perror("memhog: calloc");
		return 1;
	}
	printf("ready\n");
	where(pages);
	printf("end\n");

	/*
	 * Read and write: with a write end of its own the FIFO never reads EOF
	 * between two commands. Opened read-only, it did once a command's writer
	 * closed, and a command whose writer opened the FIFO between that EOF
	 * and the close that followed went away with the pipe's buffer when
	 * both ends were closed: memhog then waited for a writer forever (test
	 * 85 on the interleaved board, "exit" lost after "check").
	 */
	cmd = fopen(argv[2], "r+");
	if (!cmd) {
		perror("memhog: fifo");
		return 1;
	}
	for (;;) {
		if (!fgets(line, sizeof(line), cmd)) {
			perror("memhog: fifo");
			return 1;
		}
		if (!strncmp(line, "exit", 4))
			break;
		if (!strncmp(line, "moved", 5)) {
			moved(pages);
			printf("end\n");
		}
		if (!strncmp(line, "warm", 4)) {
			cool(&toucher);
			toucher = warm(pages);
			printf(toucher > 0 ? "warm\n" : "warm FAIL\n");
			printf("end\n");
		}
		if (!strncmp(line, "pin", 3)) {
			pin(pages);
			printf("end\n");
		}
		if (!strncmp(line, "unpin", 5)) {
			unpin();
			printf("end\n");
		}
		if (!strncmp(line, "cool", 4)) {
			cool(&toucher);
			printf("end\n");
		}
		if (!strncmp(line, "check", 5)) {
			size_t bad = verify(pages);

			if (bad)
				printf("check FAIL %zu pages corrupt\n", bad);
			else
				printf("check ok\n");
			where(pages);
			printf("end\n");
		}
	}
	cool(&toucher);
	return 0;
}

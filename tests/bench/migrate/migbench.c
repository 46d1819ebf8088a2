// SPDX-License-Identifier: GPL-2.0
/*
 * migbench - memory hot-unplug (echo offline) of the blocks holding a process's
 * anonymous data, against the page-copy bandwidth (tests/e2e/helpers/membw.c),
 * in one guest and run. For scripts/migrate-bench.sh (tests/bench/MIGRATION.md).
 *
 *   migbench [-w] [MIB]
 *
 * A child fills MIB MiB (default 1024) of anonymous memory and then sleeps (-w: keeps
 * writing one word per page). The parent finds the movable memory blocks that hold
 * the child's pages (/proc/PID/pagemap), offlines the MIB / block-size blocks holding
 * most of them one by one, timing each write of "offline", and prints the pages
 * migrated (pgmigrate_success in /proc/vmstat, or without VM_EVENT_COUNTERS the
 * child's pages in those blocks) per second of offlining, beside the
 * best of three 4 KiB-page memcpy passes over 256 MiB, and the changes of a few
 * migration, THP and compaction events ("# vmstat NAME +DELTA"). It then onlines the
 * blocks (online_movable) and ends the child.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MEMDIR "/sys/devices/system/memory"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double copy_bw(size_t bytes)
{
	char *src = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *dst = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double best = 0;

	if (src == MAP_FAILED || dst == MAP_FAILED) {
		perror("mmap");
		exit(1);
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
	munmap(src, bytes);
	munmap(dst, bytes);
	return best / (1UL << 30);
}

static unsigned long read_ul(const char *path, int hex)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return strtoul(buf, NULL, hex ? 16 : 10);
}

static unsigned long vmstat(const char *name)
{
	char key[64];
	unsigned long v;
	FILE *f = fopen("/proc/vmstat", "r");

	while (f && fscanf(f, "%63s %lu", key, &v) == 2)
		if (!strcmp(key, name)) {
			fclose(f);
			return v;
		}
	if (f)
		fclose(f);
	return 0;
}

/* /proc/vmstat events printed as deltas around the offlining, when the kernel counts them */
static const char *const events[] = {
	"pgmigrate_success", "pgmigrate_fail", "thp_migration_success", "thp_migration_fail",
	"thp_migration_split", "thp_split_page", "compact_stall", "compact_migrate_scanned",
	"compact_success", "compact_fail",
};
#define NEVENTS (sizeof(events) / sizeof(events[0]))

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && write(fd, s, strlen(s)) == (ssize_t)strlen(s);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	int writer = argc > 1 && !strcmp(argv[1], "-w");
	size_t mib = argc > 1 + writer ? strtoul(argv[1 + writer], NULL, 0) : 1024;
	size_t bytes = mib << 20;
	unsigned long bs = read_ul(MEMDIR "/block_size_bytes", 1);
	unsigned long pages_per_block = bs >> 12, nblocks = 0;
	unsigned long *count, *chosen;
	size_t want = bytes / bs;
	int ready[2];
	char c, path[128];
	pid_t pid;
	double copy, t_total = 0;
	unsigned long mig0, mig1, thp, data_pages = 0, ev0[NEVENTS];
	int fd;

	/* blocks: enough for 64 GiB of physical address space */
	nblocks = (64UL << 30) / bs;
	count = calloc(nblocks, sizeof(*count));
	chosen = calloc(want, sizeof(*chosen));

	copy = copy_bw(256 << 20);

	if (pipe(ready))
		return 1;
	pid = fork();
	if (pid == 0) {
		volatile uint64_t *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t gen = 1;

		if (p == MAP_FAILED)
			_exit(1);
		for (size_t i = 0; i < bytes / 8; i++)
			p[i] = i;
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		if (!writer)
			for (;;)
				pause();
		for (;; gen++)
			for (size_t i = 0; i < bytes / 8; i += 512)
				p[i] = gen;
	}
	if (read(ready[0], &c, 1) != 1)
		return 1;

	/* where the child's pages are */
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	{
		FILE *maps = fopen(path, "r");
		unsigned long start, end, best_start = 0, best_len = 0;
		char line[256];

		while (maps && fgets(line, sizeof(line), maps))
			if (sscanf(line, "%lx-%lx", &start, &end) == 2 && end - start > best_len)
				best_start = start, best_len = end - start;
		fclose(maps);
		snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
		fd = open(path, O_RDONLY);
		for (size_t i = 0; i < best_len >> 12; i++) {
			uint64_t e;

			if (pread(fd, &e, 8, (best_start >> 12 << 3) + i * 8) != 8)
				break;
			if ((e >> 63) & 1) {
				unsigned long pfn = e & ((1ULL << 55) - 1);

				if (pfn / pages_per_block < nblocks)
					count[pfn / pages_per_block]++;
			}
		}
		close(fd);
	}
	thp = vmstat("nr_anon_transparent_hugepages");

	/* the movable blocks holding most of the data */
	for (size_t k = 0; k < want; k++) {
		unsigned long best = 0, bi = 0;

		for (unsigned long b = 0; b < nblocks; b++) {
			if (count[b] <= best)
				continue;
			snprintf(path, sizeof(path), MEMDIR "/memory%lu/valid_zones", b);
			{
				char z[64] = "";
				FILE *f = fopen(path, "r");

				if (!f)
					continue;
				if (!fgets(z, sizeof(z), f))
					z[0] = 0;
				fclose(f);
				if (strncmp(z, "Movable", 7)) {
					count[b] = 0;
					continue;
				}
			}
			best = count[b], bi = b;
		}
		if (!best)
			break;
		chosen[k] = bi;
		data_pages += count[bi];
		printf("# block %lu holds %lu MiB of the data\n", bi, count[bi] >> 8);
		count[bi] = 0;
	}

	printf("# profile on %s\n", writer ? "writing" : "idle");
	fflush(stdout);
	for (size_t i = 0; i < NEVENTS; i++)
		ev0[i] = vmstat(events[i]);
	mig0 = vmstat("pgmigrate_success");
	for (size_t k = 0; k < want && chosen[k]; k++) {
		double t;

		snprintf(path, sizeof(path), MEMDIR "/memory%lu/state", chosen[k]);
		t = now_s();
		if (write_str(path, "offline"))
			printf("# offline memory%lu failed\n", chosen[k]);
		t = now_s() - t;
		printf("# offline memory%lu %.0f ms\n", chosen[k], t * 1000);
		t_total += t;
	}
	mig1 = vmstat("pgmigrate_success");
	printf("# profile off\n");
	for (size_t i = 0; i < NEVENTS; i++) {
		unsigned long v = vmstat(events[i]);

		if (v != ev0[i])
			printf("# vmstat %s +%lu\n", events[i], v - ev0[i]);
	}
	fflush(stdout);

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	for (size_t k = 0; k < want && chosen[k]; k++) {
		snprintf(path, sizeof(path), MEMDIR "/memory%lu/state", chosen[k]);
		write_str(path, "online_movable");
	}

	{
		/* without VM_EVENT_COUNTERS (tinyconfig), the data's pages in the blocks */
		double mibs = (mig1 > mig0 ? mig1 - mig0 : data_pages) / 256.0;
		double gibps = mibs / 1024 / t_total;

		printf("migbench %s copy_gibps %.3f offline_ms %.0f migrated_mib %.0f offline_gibps %.3f ratio %.2f thp_mib %lu\n",
		       writer ? "writing" : "idle", copy, t_total * 1000, mibs, gibps, gibps / copy, thp * 2);
	}
	return 0;
}

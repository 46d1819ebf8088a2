// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore-read - read a crash kernel's /proc/vmcore whole, as makedumpfile does.
 *
 *   vmcore-read [FILE]
 *
 * Maps the dump (default /proc/vmcore) in 64 MiB windows, as makedumpfile does
 * (read(2) copies page by page through a temporary mapping and is several times
 * slower), and reads every word of it. Prints "BYTES SIZE SECONDS CHECKSUM":
 * bytes read, the file's size, the time taken and a sum of the words (so the
 * reads cannot be optimised away).
 * Exit status: 0 read to the end, 1 an error (printed), 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WINDOW	(64UL << 20)

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/proc/vmcore";
	uint64_t sum = 0, done = 0;
	struct timespec t0, t1;
	struct stat st;
	int fd;

	if (argc > 2) {
		fprintf(stderr, "usage: vmcore-read [FILE]\n");
		return 2;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "vmcore-read: %s: %s\n", path, strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (done < (uint64_t)st.st_size) {
		size_t len = st.st_size - done < WINDOW ? st.st_size - done : WINDOW;
		const volatile uint64_t *p;
		size_t i;

		if (len < 4096) {
			/* a tail smaller than a page: mmap() would reach past it */
			uint64_t tail[512] = { 0 };

			if (pread(fd, tail, len, done) != (ssize_t)len) {
				fprintf(stderr, "vmcore-read: read at %llu: %s\n",
					(unsigned long long)done, strerror(errno));
				return 1;
			}
			for (i = 0; i < 512; i++)
				sum += tail[i];
			done += len;
			break;
		}
		len &= ~4095UL;
		p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, done);
		if (p == MAP_FAILED) {
			fprintf(stderr, "vmcore-read: mmap at %llu: %s\n",
				(unsigned long long)done, strerror(errno));
			return 1;
		}
		for (i = 0; i < len / 8; i++)
			sum += p[i];
		munmap((void *)p, len);
		done += len;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%llu %llu %ld %016llx\n", (unsigned long long)done,
	       (unsigned long long)st.st_size, (long)(t1.tv_sec - t0.tv_sec),
	       (unsigned long long)sum);
	close(fd);
	return 0;
}

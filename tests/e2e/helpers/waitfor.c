// SPDX-License-Identifier: GPL-2.0
/*
 * waitfor - time how long a sysfs value takes to reach a target.
 *
 *   waitfor [-w FILE VALUE] [-t TIMEOUT_MS] FILE TARGET
 *
 * With -w, writes VALUE to FILE first (the clock starts before the write).
 * Then reads FILE every millisecond until its first word equals TARGET, and
 * prints "ELAPSED_MS LAST_VALUE".
 * Exit status: 0 reached, 1 timed out (the elapsed time is still printed),
 * 2 usage or I/O error.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int read_word(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, " \n")] = '\0';
	return 0;
}

int main(int argc, char **argv)
{
	const char *wfile = NULL, *wvalue = NULL;
	long timeout_ms = 120000;
	char value[256] = "";
	double start;
	int opt;

	while ((opt = getopt(argc, argv, "w:t:")) != -1) {
		switch (opt) {
		case 'w':
			if (optind >= argc)
				goto usage;
			wfile = optarg;
			wvalue = argv[optind++];
			break;
		case 't':
			timeout_ms = atol(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;

	start = now_ms();
	if (wfile) {
		int fd = open(wfile, O_WRONLY);

		if (fd < 0 || write(fd, wvalue, strlen(wvalue)) < 0) {
			perror(wfile);
			return 2;
		}
		close(fd);
	}
	for (;;) {
		if (read_word(argv[optind], value, sizeof(value))) {
			perror(argv[optind]);
			return 2;
		}
		if (!strcmp(value, argv[optind + 1])) {
			printf("%.1f %s\n", now_ms() - start, value);
			return 0;
		}
		if (now_ms() - start > timeout_ms) {
			printf("%.1f %s\n", now_ms() - start, value);
			return 1;
		}
		usleep(1000);
	}
usage:
	fprintf(stderr, "usage: waitfor [-w FILE VALUE] [-t TIMEOUT_MS] FILE TARGET\n");
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * punch-fails.c - LD_PRELOAD shim for test 48: fallocate() fails with EIO
 * on the one file named by $ACMA_TEST_PUNCH_FAILS, as a failing disk or a
 * file system without hole punching would; every other call goes to libc.
 *
 *   gcc -shared -fPIC -o punch-fails.so punch-fails.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fails(int fd)
{
	const char *victim = getenv("ACMA_TEST_PUNCH_FAILS");
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (!victim)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return !strcmp(path, victim);
}

int fallocate(int fd, int mode, off_t offset, off_t len)
{
	static int (*real)(int, int, off_t, off_t);

	if (fails(fd)) {
		errno = EIO;
		return -1;
	}
	if (!real)
		real = (int (*)(int, int, off_t, off_t))dlsym(RTLD_NEXT, "fallocate");
	return real(fd, mode, offset, len);
}

int fallocate64(int fd, int mode, off_t offset, off_t len)
{
	return fallocate(fd, mode, offset, len);
}

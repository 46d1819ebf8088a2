// SPDX-License-Identifier: GPL-2.0
/*
 * kexec-load - load a kernel with kexec_file_load(2), as kexec-tools' `kexec -s` does.
 *
 *   kexec-load [-p] KERNEL INITRD CMDLINE
 *   kexec-load -e
 *
 * -p loads it as the crash kernel (KEXEC_FILE_ON_CRASH): it boots on the next
 *    panic, with the old kernel's memory in /proc/vmcore.
 * -e boots the kernel loaded (without -p) at once (reboot(LINUX_REBOOT_CMD_KEXEC)),
 *    through the kernel's restart path: the reboot notifiers run first.
 *
 * The guests have no kexec-tools; the kernel does the loading itself (the image
 * is checked, the purgatory and, for -p, the ELF core header are made by it).
 * Exit status: 0 loaded (-e does not return), 1 the kernel refused (its errno
 * printed), 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef KEXEC_FILE_ON_CRASH
#define KEXEC_FILE_ON_CRASH	0x00000002
#endif

static int open_or_die(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "kexec-load: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	unsigned long flags = 0;
	int exec_now = 0, opt, kfd, ifd;
	const char *cmdline;

	while ((opt = getopt(argc, argv, "pe")) != -1) {
		switch (opt) {
		case 'p':
			flags |= KEXEC_FILE_ON_CRASH;
			break;
		case 'e':
			exec_now = 1;
			break;
		default:
			goto usage;
		}
	}
	if (exec_now) {
		if (flags || optind != argc)
			goto usage;
		sync();
		syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
			LINUX_REBOOT_CMD_KEXEC, NULL);
		fprintf(stderr, "kexec-load: reboot(KEXEC): %s\n", strerror(errno));
		return 1;
	}
	if (argc - optind != 3)
		goto usage;
	kfd = open_or_die(argv[optind]);
	ifd = open_or_die(argv[optind + 1]);
	cmdline = argv[optind + 2];
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline,
		    flags)) {
		fprintf(stderr, "kexec-load: kexec_file_load: %s\n", strerror(errno));
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: kexec-load [-p] KERNEL INITRD CMDLINE\n"
		"       kexec-load -e\n");
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * boardgen - validate a board file and generate what the build needs from it
 *
 * Usage: boardgen COMMAND BOARD-FILE [ARGS]
 *
 *   check FILE                          validate only
 *   shell FILE                          BOARD_* shell variable assignments
 *   qemu-args FILE SHMDIR PREFIX        QEMU memory arguments, one per line
 *   backing-files FILE SHMDIR PREFIX    one line per rank range
 *   ranks FILE                          rank table for the guest's tests
 *   bmc FILE SHMDIR PREFIX              the BMC plugin's configuration
 *   states FILE                         power states for the guest's tests
 *   mpst FILE                           the ACPI MPST, iasl data-table source
 *   ssdt FILE                           the ACPI SSDT, ASL
 *   uboot-env FILE                      U-Boot's environment (mkenvimage text)
 *   dts FILE                            the DRAM power node as devicetree source
 *   needs FILE                          what the build makes for the board
 *
 * Exit status: 0 on success, 1 if the board file is unreadable or invalid,
 * 2 on a usage error. The format is documented in boards/README.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acpi.h"
#include "board.h"
#include "dt.h"

#define MB(x)	((x) / BOARD_SZ_1M)

static const char *prog = "boardgen";

static void usage(void)
{
	fprintf(stderr,
		"usage: %s COMMAND BOARD-FILE [ARGS]\n"
		"commands:\n"
		"  check FILE                        validate the board file\n"
		"  shell FILE                        print BOARD_* shell variables\n"
		"  qemu-args FILE SHMDIR PREFIX      print QEMU memory arguments, one per line\n"
		"  backing-files FILE SHMDIR PREFIX  print 'RANK INDEX PATH BASE SIZE' per range\n"
		"  ranks FILE                        print 'RANK DIMM BASE SIZE' per range\n"
		"  bmc FILE SHMDIR PREFIX            print the BMC plugin's configuration\n"
		"  states FILE                       print 'NAME POWER-mW LATENCY-ns kept|lost' per state\n"
		"  mpst FILE                         print the ACPI MPST (iasl data-table source)\n"
		"  ssdt FILE                         print the ACPI SSDT (ASL)\n"
		"  uboot-env FILE                    print U-Boot's environment, name=value per line\n"
		"  dts FILE                          print the DRAM power node as devicetree source\n"
		"  needs FILE                        print what the board needs built: mpst, ssdt,\n"
		"                                    uboot-env, dtb, bmc\n",
		prog);
}

/* Print NAME='VALUE' with VALUE quoted for a POSIX shell. */
static void shell_var(const char *name, const char *value)
{
	printf("%s='", name);
	for (; *value; value++) {
		if (*value == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*value);
	}
	puts("'");
}

static void shell_var_num(const char *name, unsigned long long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", value);
	shell_var(name, buf);
}

static int cmd_shell(const struct board *b)
{
	char id[24] = "", vmem_base[24] = "";

	shell_var("BOARD_NAME", b->name);
	shell_var("BOARD_ARCH", board_arch_name(b->arch));
	shell_var("BOARD_QEMU_MACHINE", board_machine_name(b->machine));
	shell_var_num("BOARD_CPUS", b->cpus);
	shell_var_num("BOARD_BOOT_MEMORY_MB", MB(b->boot_memory));
	shell_var_num("BOARD_MEMORY_BLOCK_MB", MB(b->memory_block));
	shell_var("BOARD_FIRMWARE", board_firmware_name(b->firmware));
	/* the BMC's Get Device ID, "MANUFACTURER PRODUCT"; empty without a BMC */
	if (b->firmware != BOARD_FIRMWARE_NONE)
		snprintf(id, sizeof(id), "%u %u", b->bmc_manufacturer, b->bmc_product);
	shell_var("BOARD_BMC_ID", id);
	shell_var_num("BOARD_INTERLEAVE", b->interleave);
	shell_var_num("BOARD_RANKS", b->nr_ranks);
	shell_var_num("BOARD_DIMMS", b->nr_dimms);
	shell_var_num("BOARD_RANK_MEMORY_MB", MB(board_total_rank_memory(b)));
	shell_var_num("BOARD_VM_MEMORY_MB", MB(board_total_vm_memory(b)));
	shell_var("BOARD_BALLOON", board_balloon_name(b->balloon));
	shell_var_num("BOARD_SCRATCH_DISK_MB", MB(b->scratch_disk));
	/* the virtio-mem device's memory: 0 and empty without one */
	shell_var_num("BOARD_VIRTIO_MEM_MB", MB(b->virtio_mem.range.size));
	if (b->virtio_mem.range.size)
		snprintf(vmem_base, sizeof(vmem_base), "0x%llx", b->virtio_mem.range.base);
	shell_var("BOARD_VIRTIO_MEM_BASE", vmem_base);
	return 0;
}

/* Length of @dir without trailing slashes (but "/" stays "/"). */
static int dir_len(const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return (int)n;
}

/* Print the path of the file that backs range @idx of rank @rank. */
static void print_backing_path(const char *shmdir, const char *prefix, int rank,
			       int idx)
{
	printf("%.*s/%s-rank%d-%d", dir_len(shmdir), shmdir, prefix, rank, idx);
}

static int cmd_qemu_args(const struct board *b, const char *shmdir,
			 const char *prefix)
{
	unsigned long long boot = MB(b->boot_memory);
	int i, j;

	printf("-m\n%lluM,slots=%d,maxmem=%lluM\n", boot, board_nr_slots(b),
	       boot + MB(board_hotplug_memory(b)));
	for (i = 0; i < b->nr_ranks; i++) {
		const struct board_rank *r = &b->ranks[i];

		for (j = 0; j < r->nr_ranges; j++) {
			printf("-object\n");
			printf("memory-backend-file,id=mem-rank%d-%d,size=%lluM,mem-path=",
			       r->id, j, MB(r->ranges[j].size));
			print_backing_path(shmdir, prefix, r->id, j);
			printf(",share=on,prealloc=off\n");
			printf("-device\n");
			printf("pc-dimm,id=dimm-rank%d-%d,memdev=mem-rank%d-%d,addr=0x%llx\n",
			       r->id, j, r->id, j, r->ranges[j].base);
		}
	}
	/* A VM guest's memory is anonymous host RAM: nothing in SHMDIR. */
	for (i = 0; i < b->nr_vm_memory; i++) {
		printf("-object\nmemory-backend-ram,id=mem-vm%d,size=%lluM\n", i,
		       MB(b->vm_memory[i].range.size));
		printf("-device\npc-dimm,id=dimm-vm%d,memdev=mem-vm%d,addr=0x%llx\n", i, i,
		       b->vm_memory[i].range.base);
	}
	/*
	 * A virtio-mem device: anonymous host RAM too, at the board's address,
	 * all of it plugged at boot. No slot; maxmem counts its size.
	 */
	if (b->virtio_mem.range.size) {
		printf("-object\nmemory-backend-ram,id=mem-virtio-mem0,size=%lluM\n",
		       MB(b->virtio_mem.range.size));
		printf("-device\nvirtio-mem-pci,id=virtio-mem0,memdev=mem-virtio-mem0,memaddr=0x%llx,requested-size=%lluM\n",
		       b->virtio_mem.range.base, MB(b->virtio_mem.range.size));
	}
	if (b->balloon != BOARD_BALLOON_NONE)
		printf("-device\nvirtio-balloon-pci,id=balloon0,free-page-reporting=%s\n",
		       b->balloon == BOARD_BALLOON_FREE_PAGE_REPORTING ? "on" : "off");
	return 0;
}

static int cmd_backing_files(const struct board *b, const char *shmdir,
			     const char *prefix)
{
	int i, j;

	for (i = 0; i < b->nr_ranks; i++) {
		const struct board_rank *r = &b->ranks[i];

		for (j = 0; j < r->nr_ranges; j++) {
			printf("%d %d ", r->id, j);
			print_backing_path(shmdir, prefix, r->id, j);
			printf(" 0x%llx %llu\n", r->ranges[j].base,
			       r->ranges[j].size);
		}
	}
	return 0;
}

static int cmd_ranks(const struct board *b)
{
	int i, j;

	for (i = 0; i < b->nr_ranks; i++) {
		const struct board_rank *r = &b->ranks[i];

		for (j = 0; j < r->nr_ranges; j++)
			printf("%d %s 0x%llx %llu\n", r->id, b->dimms[r->dimm].name,
			       r->ranges[j].base, r->ranges[j].size);
	}
	return 0;
}

/*
 * The BMC plugin's configuration (format: firmware-glue/PROTOCOL.md):
 *   board NAME
 *   state NAME kept|lost                        one per power state, in order
 *   rank ID dimm=DIMM STATE=POWERmW,LATENCYns... file=PATH,0xBASE,SIZE...
 * The files are the ones 'backing-files' lists.
 */
static int cmd_bmc(const struct board *b, const char *shmdir, const char *prefix)
{
	int i, j;

	if (b->firmware == BOARD_FIRMWARE_NONE) {
		fprintf(stderr, "%s: bmc: board %s has firmware none (a VM guest): it has no BMC\n",
			prog, b->name);
		return 1;
	}

	printf("# acma BMC configuration, generated by boardgen bmc\n");
	printf("board %s\n", b->name);
	for (i = 0; i < b->nr_power_states; i++)
		printf("state %s %s\n", b->power_states[i].name,
		       b->power_states[i].contents_kept ? "kept" : "lost");
	for (i = 0; i < b->nr_ranks; i++) {
		const struct board_rank *r = &b->ranks[i];

		printf("rank %d dimm=%s", r->id, b->dimms[r->dimm].name);
		for (j = 0; j < b->nr_power_states; j++)
			printf(" %s=%llumW,%lluns", b->power_states[j].name,
			       b->power_states[j].power_mw,
			       b->power_states[j].latency_ns);
		for (j = 0; j < r->nr_ranges; j++) {
			printf(" file=");
			print_backing_path(shmdir, prefix, r->id, j);
			printf(",0x%llx,%llu", r->ranges[j].base, r->ranges[j].size);
		}
		putchar('\n');
	}
	/* last, so that the lines above keep their numbers */
	printf("bmc-id %u 0x%04x\n", b->bmc_manufacturer, b->bmc_product);
	return 0;
}

/* The power states in board order (= the BMC's state index), one per line. */
static int cmd_states(const struct board *b)
{
	int i;

	for (i = 0; i < b->nr_power_states; i++)
		printf("%s %llu %llu %s\n", b->power_states[i].name,
		       b->power_states[i].power_mw, b->power_states[i].latency_ns,
		       b->power_states[i].contents_kept ? "kept" : "lost");
	return 0;
}

/*
 * What the build makes for the board, one word a line: "mpst" and "ssdt"
 * (its ACPI tables, x86_64 boards with ranks), "uboot-env" and "dtb" (U-Boot's
 * environment and the DRAM power node compiled for checking, arm64 boards with
 * ranks) and "bmc" (the BMC plugin, boards with firmware ipmi or acpi). A VM
 * guest (firmware none) needs none.
 */
static int cmd_needs(const struct board *b)
{
	bool ranks = b->firmware != BOARD_FIRMWARE_NONE;

	if (ranks && b->arch == BOARD_ARCH_X86_64)
		printf("mpst\nssdt\n");
	if (ranks && b->arch == BOARD_ARCH_ARM64)
		printf("uboot-env\ndtb\n");
	if (ranks)
		printf("bmc\n");
	return 0;
}

static const struct command {
	const char *name;
	int nr_args;		/* after BOARD-FILE */
} commands[] = {
	{ "check", 0 },
	{ "shell", 0 },
	{ "qemu-args", 2 },
	{ "backing-files", 2 },
	{ "ranks", 0 },
	{ "bmc", 2 },
	{ "states", 0 },
	{ "mpst", 0 },
	{ "ssdt", 0 },
	{ "uboot-env", 0 },
	{ "dts", 0 },
	{ "needs", 0 },
};

int main(int argc, char **argv)
{
	const struct command *cmd = NULL;
	const char *file;
	struct board b;
	size_t i;
	FILE *f;
	int ret;

	if (argc < 3) {
		usage();
		return 2;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			cmd = &commands[i];
	if (!cmd) {
		fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
		usage();
		return 2;
	}
	if (argc != 3 + cmd->nr_args) {
		fprintf(stderr, "%s: %s takes %d argument%s after BOARD-FILE\n", prog,
			cmd->name, cmd->nr_args, cmd->nr_args == 1 ? "" : "s");
		usage();
		return 2;
	}

	file = argv[2];
	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		return 1;
	}
	ret = board_parse(f, file, &b, stderr);
	fclose(f);
	if (ret) {
		board_free(&b);
		return 1;
	}

	if (!strcmp(cmd->name, "check"))
		ret = 0;
	else if (!strcmp(cmd->name, "shell"))
		ret = cmd_shell(&b);
	else if (!strcmp(cmd->name, "qemu-args"))
		ret = cmd_qemu_args(&b, argv[3], argv[4]);
	else if (!strcmp(cmd->name, "backing-files"))
		ret = cmd_backing_files(&b, argv[3], argv[4]);
	else if (!strcmp(cmd->name, "bmc"))
		ret = cmd_bmc(&b, argv[3], argv[4]);
	else if (!strcmp(cmd->name, "states"))
		ret = cmd_states(&b);
	else if (!strcmp(cmd->name, "mpst"))
		ret = acpi_write_mpst(&b, file, stdout, stderr) ? 1 : 0;
	else if (!strcmp(cmd->name, "ssdt"))
		ret = acpi_write_ssdt(&b, file, stdout, stderr) ? 1 : 0;
	else if (!strcmp(cmd->name, "uboot-env"))
		ret = dt_write_uboot_env(&b, file, stdout, stderr) ? 1 : 0;
	else if (!strcmp(cmd->name, "dts"))
		ret = dt_write_dts(&b, file, stdout, stderr) ? 1 : 0;
	else if (!strcmp(cmd->name, "needs"))
		ret = cmd_needs(&b);
	else
		ret = cmd_ranks(&b);
	board_free(&b);

	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return 1;
	}
	return ret;
}

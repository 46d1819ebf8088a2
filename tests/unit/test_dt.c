// SPDX-License-Identifier: GPL-2.0
/*
 * test_dt.c - unit tests of boardgen's devicetree generators (dts, uboot-env)
 *
 * Usage: test-dt [PATH-TO-boards/qemu-x86_64/board.hw]
 *
 * The arm64 board is read from the same boards folder: boards/qemu-arm64.
 *
 * Prints TAP version 13; the last line is "N passed, N failed". Exits 1 if
 * any test failed. Boards are inline strings read through fmemopen(); the
 * generated source is checked line by line here, compiled by dtc and checked
 * against the binding by the build (make dt-check), and the U-Boot commands
 * run in a real U-Boot when the board boots.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "dt.h"
#include "gen.h"
#include "tap.h"

/* ---- fixtures ----------------------------------------------------------- */

/* 2 DIMMs x 2 ranks at virt's device-memory base, not interleaved. */
#define VIRT_RANKS						\
	"dimm DIMM0 2\n"					\
	"dimm DIMM1 2\n"					\
	"rank 0 DIMM0 0x80000000+512M\n"			\
	"rank 1 DIMM0 0xa0000000+512M\n"			\
	"rank 2 DIMM1 0xc0000000+512M\n"			\
	"rank 3 DIMM1 0xe0000000+512M\n"

/*
 * Ranks 0 and 1 interleaved in 128M steps, above 4G; DIMMs declared in
 * reverse order, rank 1 before rank 0.
 */
#define INTERLEAVED_RANKS					\
	"dimm B 1\n"						\
	"dimm A 1\n"						\
	"rank 1 B 0x108000000+128M 0x118000000+128M\n"		\
	"rank 0 A 0x100000000+128M 0x110000000+128M\n"

/* Three states, a retained one in between, latencies that do not divide. */
#define THREE_STATES						\
	"power-state on 1350mW 0us kept\n"			\
	"power-state sr 300mW 1500ns kept\n"			\
	"power-state off 0mW 20ms lost\n"

/* The line of @text after the @nth (0-based) line that starts with @prefix. */
static const char *line_after(const char *text, const char *prefix, int nth)
{
	const char *s = text;
	size_t len = strlen(prefix);

	for (; *s; s = strchr(s, '\n') + 1) {
		if (!strncmp(s, prefix, len) && nth-- == 0)
			return strchr(s, '\n') ? strchr(s, '\n') + 1 : "";
		if (!strchr(s, '\n'))
			break;
	}
	return NULL;
}

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* The value of variable @name (up to the end of its line) in an environment. */
static char *env_value(const char *env, const char *name)
{
	char key[64];
	const char *s, *end;

	snprintf(key, sizeof(key), "\n%s=", name);
	s = strstr(env, key);
	if (!s)
		return NULL;
	s += strlen(key);
	end = strchr(s, '\n');
	return strndup(s, end ? (size_t)(end - s) : strlen(s));
}

/* ---- tests -------------------------------------------------------------- */

static bool test_dts_node(void)
{
	static const char expected[] =
		"/dts-v1/;\n"
		"\n"
		"/ {\n"
		"\tmodel = \"linux,dummy-virt\";\n"
		"\tcompatible = \"linux,dummy-virt\";\n"
		"\t#address-cells = <2>;\n"
		"\t#size-cells = <2>;\n"
		"\n"
		"\tdram-power {\n"
		"\t\tcompatible = \"acma,dram-power\";\n"
		"\t\tacma,firmware = \"ipmi\";\n"
		"\t\t#address-cells = <2>;\n"
		"\t\t#size-cells = <2>;\n"
		"\t\tacma,state-names = \"on\", \"off\";\n"
		"\t\tacma,state-power-microwatt = <1350000 0>;\n"
		"\t\tacma,state-exit-latency-us = <0 20000>;\n"
		"\t\tacma,state-retains-contents = <1 0>;\n"
		"\t\tacma,bmc-id = <32473 44106>;\n"
		"\n"
		"\t\trank@80000000 {\n"
		"\t\t\treg = <0x0 0x80000000 0x0 0x20000000>;\n"
		"\t\t\tacma,domain = <0>;\n"
		"\t\t\tacma,dimm = <0>;\n"
		"\t\t};\n"
		"\n"
		"\t\trank@a0000000 {\n"
		"\t\t\treg = <0x0 0xa0000000 0x0 0x20000000>;\n"
		"\t\t\tacma,domain = <1>;\n"
		"\t\t\tacma,dimm = <0>;\n"
		"\t\t};\n";
	const char *body;
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("arm64", "virt", "ipmi", "none") TWO_STATES VIRT_RANKS, &b),
	      "fixture\n");
	gen(dt_write_dts, &b, &g);
	CHECK(g.ret == 0 && !g.err[0], "ret %d: %s\n", g.ret, g.err);
	CHECK(!strncmp(g.out, "/*\n", 3) && strstr(g.out, "`boardgen dts test.hw`"),
	      "header comment:\n%s", g.out);
	body = strstr(g.out, "/dts-v1/;");
	CHECK(starts(body, expected), "got:\n%s", g.out);
	CHECK(strstr(g.out, "\t\trank@e0000000 {\n"
			    "\t\t\treg = <0x0 0xe0000000 0x0 0x20000000>;\n"
			    "\t\t\tacma,domain = <3>;\n"
			    "\t\t\tacma,dimm = <1>;\n"
			    "\t\t};\n"
			    "\t};\n"
			    "};\n"), "the end:\n%s", g.out);
	CHECK(count(g.out, "rank@") == 4, "4 ranks\n");
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_dts_interleaved(void)
{
	const char *rank;
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("arm64", "virt", "ipmi", "2") TWO_STATES INTERLEAVED_RANKS, &b),
	      "fixture\n");
	gen(dt_write_dts, &b, &g);
	CHECK(g.ret == 0, "ret %d: %s\n", g.ret, g.err);
	/* by id; the unit address is the first range's; one quadruple per range */
	rank = line_after(g.out, "\t\trank@100000000 {", 0);
	CHECK(starts(rank, "\t\t\treg = <0x1 0x0 0x0 0x8000000 0x1 0x10000000 0x0 0x8000000>;\n"
			   "\t\t\tacma,domain = <0>;\n"
			   "\t\t\tacma,dimm = <0>;\n"), "rank 0:\n%s", g.out);
	rank = line_after(g.out, "\t\trank@108000000 {", 0);
	CHECK(starts(rank, "\t\t\treg = <0x1 0x8000000 0x0 0x8000000 0x1 0x18000000 0x0 0x8000000>;\n"
			   "\t\t\tacma,domain = <1>;\n"
			   "\t\t\tacma,dimm = <1>;\n"), "rank 1:\n%s", g.out);
	CHECK(strstr(g.out, "rank@100000000") < strstr(g.out, "rank@108000000"), "id order\n");
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_dts_states(void)
{
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("arm64", "virt", "ipmi", "none") THREE_STATES VIRT_RANKS, &b),
	      "fixture\n");
	gen(dt_write_dts, &b, &g);
	CHECK(g.ret == 0, "ret %d: %s\n", g.ret, g.err);
	/* board order; 1500 ns is 2 us: a latency is rounded up, never down */
	CHECK(strstr(g.out, "\t\tacma,state-names = \"on\", \"sr\", \"off\";\n"
			    "\t\tacma,state-power-microwatt = <1350000 300000 0>;\n"
			    "\t\tacma,state-exit-latency-us = <0 2 20000>;\n"
			    "\t\tacma,state-retains-contents = <1 1 0>;\n"), "states:\n%s", g.out);
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_uboot_env(void)
{
	struct board b;
	struct gen g;
	char *v;

	CHECK(parse(BOARD_HEAD("arm64", "virt", "ipmi", "none") TWO_STATES VIRT_RANKS, &b),
	      "fixture\n");
	gen(dt_write_uboot_env, &b, &g);
	CHECK(g.ret == 0 && !g.err[0], "ret %d: %s\n", g.ret, g.err);
	/* every line a comment or name=value; no acma_args: the runner adds it */
	for (const char *s = g.out; *s; s = strchr(s, '\n') + 1) {
		CHECK(*s == '#' || strcspn(s, "=\n") < strcspn(s, "\n"), "line: %.40s\n", s);
		CHECK(strncmp(s, "acma_args=", 10), "acma_args given\n");
		CHECK(strchr(s, '\n'), "last line without newline\n");
	}
	CHECK(strstr(g.out, "\nkernel_addr_r=0x40400000\nramdisk_addr_r=0x44000000\n"
			    "fdt_addr_r=0x48000000\n"), "addresses:\n%s", g.out);
	CHECK(strstr(g.out, "\nbootargs=console=ttyAMA0 nokaslr panic=-1\n"), "bootargs\n");
	CHECK(strstr(g.out, "\nacma_load=qfw load ${kernel_addr_r} ${ramdisk_addr_r} && "
			    "setenv acma_initrd_size ${filesize}\n"), "load\n");
	CHECK(strstr(g.out, "\nacma_fdt=fdt addr ${fdtcontroladdr} && fdt move ${fdtcontroladdr} "
			    "${fdt_addr_r} 0x100000 && fdt addr ${fdt_addr_r}\n"), "move\n");

	v = env_value(g.out, "bootcmd");
	CHECK(v && !strcmp(v, "run acma_load acma_fdt acma_dt && "
			      "echo \"acma: board test: 4 DRAM power domains in the devicetree\" && "
			      "setenv bootargs \"${bootargs} ${acma_args}\" && "
			      "booti ${kernel_addr_r} ${ramdisk_addr_r}:${acma_initrd_size} ${fdt_addr_r}; "
			      "echo \"acma: U-Boot could not boot board test\"; reset"), "bootcmd %s\n", v);
	free(v);

	v = env_value(g.out, "acma_dt");
	CHECK(v, "no acma_dt\n");
	/* the node first, its properties and ranks last to first: libfdt prepends */
	CHECK(starts(v, "fdt mknode / dram-power && "
			  "fdt set /dram-power acma,bmc-id \"<32473 44106>\" && "
			  "fdt set /dram-power acma,state-retains-contents \"<1 0>\" && "
			  "fdt set /dram-power acma,state-exit-latency-us \"<0 20000>\" && "
			  "fdt set /dram-power acma,state-power-microwatt \"<1350000 0>\" && "
			  "fdt set /dram-power acma,state-names \"on\" \"off\" && "
			  "fdt set /dram-power \"#size-cells\" \"<2>\" && "
			  "fdt set /dram-power \"#address-cells\" \"<2>\" && "
			  "fdt set /dram-power acma,firmware \"ipmi\" && "
			  "fdt set /dram-power compatible \"acma,dram-power\" && "
			  "fdt mknode /dram-power rank@e0000000 && "
			  "fdt set /dram-power/rank@e0000000 acma,dimm \"<1>\" && "
			  "fdt set /dram-power/rank@e0000000 acma,domain \"<3>\" && "
			  "fdt set /dram-power/rank@e0000000 reg \"<0x0 0xe0000000 0x0 0x20000000>\" && "
			  "fdt mknode /dram-power rank@c0000000 && "), "acma_dt %s\n", v);
	CHECK(count(v, "fdt mknode") == 5 && count(v, "fdt set") == 9 + 4 * 3 &&
	      count(v, " && ") == 5 + 9 + 4 * 3 - 1, "commands: %s\n", v);
	CHECK(strstr(v, "&& fdt set /dram-power/rank@80000000 reg \"<0x0 0x80000000 0x0 0x20000000>\"") &&
	      v[strlen(v) - 1] == '"', "ends with rank 0's reg: %s\n", v);
	free(v);
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_refused_boards(void)
{
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("x86_64", "q35", "ipmi", "none") TWO_STATES
		    "dimm D 1\nrank 0 D 0x100000000+512M\n", &b), "q35 fixture\n");
	gen(dt_write_dts, &b, &g);
	CHECK(g.ret == -1 && !g.out[0] && strstr(g.err, "boardgen: dts: board test is a q35 machine"),
	      "q35 dts: %s\n", g.err);
	gen_free(&g);
	gen(dt_write_uboot_env, &b, &g);
	CHECK(g.ret == -1 && !g.out[0] && strstr(g.err, "boardgen: uboot-env: board test is a q35"),
	      "q35 uboot-env: %s\n", g.err);
	gen_free(&g);
	board_free(&b);

	CHECK(parse(BOARD_HEAD("arm64", "virt", "none", "none") "vm-memory 0x80000000+1G\n", &b),
	      "VM fixture\n");
	gen(dt_write_dts, &b, &g);
	CHECK(g.ret == -1 && !g.out[0] && strstr(g.err, "has firmware none (a VM guest)"),
	      "VM dts: %s\n", g.err);
	gen_free(&g);
	board_free(&b);

	CHECK(parse(BOARD_HEAD("arm64", "virt", "ipmi", "none")
		    "power-state on 4295W 0us kept\n"
		    "power-state off 0mW 20ms lost\n" VIRT_RANKS, &b), "power fixture\n");
	gen(dt_write_uboot_env, &b, &g);
	CHECK(g.ret == -1 && !g.out[0] && strstr(g.err, "power-state 'on': 4295000 mW") &&
	      strstr(g.err, "does not fit a 32-bit cell"), "huge power: %s\n", g.err);
	gen_free(&g);
	board_free(&b);

	CHECK(parse(BOARD_HEAD("arm64", "virt", "ipmi", "none")
		    "power-state on 4294W 0us kept\n"
		    "power-state off 0mW 4294967295000ns lost\n" VIRT_RANKS, &b), "limits fixture\n");
	gen(dt_write_dts, &b, &g);
	CHECK(g.ret == 0 && strstr(g.out, "acma,state-power-microwatt = <4294000000 0>;") &&
	      strstr(g.out, "acma,state-exit-latency-us = <0 4294967295>;"), "limits: %s%s\n",
	      g.err, g.out);
	gen_free(&g);
	board_free(&b);
	return true;
}

/* The real board: what U-Boot adds for it names its 4 ranks and 2 DIMMs. */
static bool test_real_board(void)
{
	static const char tail[] = "qemu-x86_64/board.hw";
	size_t len = strlen(real_board_path);
	char path[4096];
	struct board b;
	struct gen g;
	int errors;
	FILE *f;

	CHECK(len >= sizeof(tail) - 1 && !strcmp(real_board_path + len - (sizeof(tail) - 1), tail) &&
	      len + 1 < sizeof(path), "%s does not end in %s\n", real_board_path, tail);
	snprintf(path, sizeof(path), "%.*sqemu-arm64/board.hw", (int)(len - (sizeof(tail) - 1)),
		 real_board_path);
	f = fopen(path, "r");
	CHECK(f, "cannot open %s\n", path);
	errors = board_parse(f, path, &b, stderr);
	fclose(f);
	CHECK(errors == 0, "%d errors\n", errors);
	CHECK(!strcmp(b.name, "qemu-arm64") && b.arch == BOARD_ARCH_ARM64 &&
	      b.machine == BOARD_MACHINE_VIRT && b.firmware == BOARD_FIRMWARE_IPMI,
	      "name %s\n", b.name);
	CHECK(board_device_memory_base(&b) == 0x80000000ULL, "base 0x%llx\n",
	      board_device_memory_base(&b));
	gen(dt_write_uboot_env, &b, &g);
	CHECK(g.ret == 0 && strstr(g.out, "\"acma: board qemu-arm64: 4 DRAM power domains in the devicetree\""),
	      "echo: %s\n", g.err);
	CHECK(count(g.out, "fdt mknode /dram-power rank@") == 4 &&
	      strstr(g.out, "rank@c0000000 acma,dimm \"<1>\""), "ranks\n");
	gen_free(&g);
	board_free(&b);
	return true;
}

static const struct tap_test tests[] = {
	{ "dts: the virt root, the node, ranks by id with reg, domain, DIMM", test_dts_node },
	{ "dts of an interleaved board: a quadruple per range, first range's unit address",
	  test_dts_interleaved },
	{ "dts power states: board order, microwatts, microseconds rounded up", test_dts_states },
	{ "uboot-env: addresses, load, move, the node's commands, bootcmd", test_uboot_env },
	{ "q35, VM and 32-bit overflowing boards are refused; the limits fit",
	  test_refused_boards },
	{ "real board qemu-arm64: 4 ranks on 2 DIMMs at 0x80000000", test_real_board },
};

int main(int argc, char **argv)
{
	if (argc > 1)
		real_board_path = argv[1];
	return tap_run_all(tests, sizeof(tests) / sizeof(tests[0]));
}

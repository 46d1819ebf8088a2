// SPDX-License-Identifier: GPL-2.0
/*
 * test_acpi.c - unit tests of boardgen's ACPI table generators (MPST, SSDT)
 *
 * Usage: test-acpi [PATH-TO-boards/qemu-x86_64/board.hw]
 *
 * Prints TAP version 13; the last line is "N passed, N failed". Exits 1 if
 * any test failed. Boards are inline strings read through fmemopen(); the
 * generated source is checked line by line here, and compiled with the real
 * iasl by tests/build/40-acpi-tables.sh.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi.h"
#include "board.h"
#include "gen.h"
#include "tap.h"

/* ---- fixtures ----------------------------------------------------------- */

/* 2 DIMMs x 2 ranks, not interleaved. */
#define FLAT_RANKS						\
	"dimm DIMM0 2\n"					\
	"dimm DIMM1 2\n"					\
	"rank 0 DIMM0 0x100000000+512M\n"			\
	"rank 1 DIMM0 0x120000000+512M\n"			\
	"rank 2 DIMM1 0x140000000+512M\n"			\
	"rank 3 DIMM1 0x160000000+512M\n"

/* Ranks 0 and 1 interleaved in 128M steps; DIMMs declared in reverse order. */
#define INTERLEAVED_RANKS					\
	"dimm B 1\n"						\
	"dimm A 1\n"						\
	"rank 1 B 0x108000000+128M 0x118000000+128M\n"		\
	"rank 0 A 0x100000000+128M 0x110000000+128M\n"

/* Four states, none in depth order. */
#define FOUR_STATES						\
	"power-state off 0mW 20ms lost\n"			\
	"power-state sr 300mW 1us kept\n"			\
	"power-state on 1350mW 0us kept\n"			\
	"power-state pd 600mW 100ns kept\n"

/*
 * The value of the @nth (0-based) data-table field @name in @text, or -1.
 * Field lines are "[LEN] NAME : HEX".
 */
static long long field(const char *text, const char *name, int nth)
{
	char key[64];
	const char *s = text;

	snprintf(key, sizeof(key), " %s : ", name);
	while ((s = strstr(s, key))) {
		const char *bol = s, *c;

		while (bol > text && bol[-1] != '\n')
			bol--;
		/* "[LEN]", blanks, then exactly NAME: not "Table Length" for "Length" */
		for (c = bol + 6; *bol == '[' && c < s && *c == ' '; c++)
			;
		if (*bol == '[' && c == s && nth-- == 0)
			return strtoll(s + strlen(key), NULL, 16);
		s++;
	}
	return -1;
}

/* ---- tests -------------------------------------------------------------- */

static bool test_mpst_real_board(void)
{
	FILE *f = fopen(real_board_path, "r");
	struct board b;
	struct gen g;
	int i;

	CHECK(f, "cannot open %s\n", real_board_path);
	CHECK(board_parse(f, real_board_path, &b, stderr) == 0, "board errors\n");
	fclose(f);
	gen(acpi_write_mpst, &b, &g);
	CHECK(g.ret == 0, "ret %d: %s\n", g.ret, g.err);
	CHECK(count(g.out, "\"MPST\"") == 1, "signature\n");
	CHECK(field(g.out, "Channel ID", 0) == 0, "channel\n");
	CHECK(field(g.out, "Power Node Count", 0) == 8, "node count\n");
	CHECK(count(g.out, " Node ID : ") == 8, "%d nodes\n", count(g.out, " Node ID : "));
	for (i = 0; i < 8; i++) {
		CHECK(field(g.out, "Node ID", i) == i, "node %d id\n", i);
		CHECK(field(g.out, "Flags (decoded below)", i) == 0x03, "node %d flags\n", i);
		CHECK(field(g.out, "Length", i) == 32 + 2 * 2 + 2, "node %d length\n", i);
		CHECK(field(g.out, "Range Address", i) == 0x100000000LL + i * 0x20000000LL,
		      "node %d base\n", i);
		CHECK(field(g.out, "Range Length", i) == 0x20000000LL, "node %d size\n", i);
		CHECK(field(g.out, "Num Power States", i) == 2, "node %d states\n", i);
		CHECK(field(g.out, "Component Id", i) == i / 2, "node %d dimm\n", i);
	}
	CHECK(field(g.out, "Characteristics Count", 0) == 2, "characteristics\n");
	CHECK(field(g.out, "Average Power", 0) == 1350 && field(g.out, "Average Power", 1) == 0,
	      "power\n");
	CHECK(field(g.out, "Power Saving", 0) == 0 && field(g.out, "Power Saving", 1) == 100,
	      "saving\n");
	CHECK(field(g.out, "Exit Latency", 0) == 0 &&
	      field(g.out, "Exit Latency", 1) == 20000000, "latency\n");
	CHECK(field(g.out, "Structure ID", 0) == 1 && field(g.out, "Structure ID", 1) == 1,
	      "structure id\n");
	/* node flags are 8 entries, then the states' */
	CHECK(field(g.out, "Flags (decoded below)", 8) == 0x01 &&
	      field(g.out, "Flags (decoded below)", 9) == 0x00, "state flags\n");
	CHECK(count(g.out, "Memory Preserved : 1") == 1 &&
	      count(g.out, "Memory Preserved : 0") == 1, "decoded preserved bits\n");
	CHECK(count(g.out, "Node Enabled : 1") == 8 && count(g.out, "Power Managed : 1") == 8,
	      "decoded node bits\n");
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_mpst_interleaved(void)
{
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("x86_64", "q35", "ipmi", "2") TWO_STATES INTERLEAVED_RANKS, &b),
	      "fixture\n");
	gen(acpi_write_mpst, &b, &g);
	CHECK(g.ret == 0, "ret %d: %s\n", g.ret, g.err);
	/* one node structure per range, the rank's id on each, rank order */
	CHECK(field(g.out, "Power Node Count", 0) == 4, "node count\n");
	CHECK(field(g.out, "Node ID", 0) == 0 && field(g.out, "Node ID", 1) == 0 &&
	      field(g.out, "Node ID", 2) == 1 && field(g.out, "Node ID", 3) == 1, "ids\n");
	CHECK(field(g.out, "Range Address", 0) == 0x100000000LL &&
	      field(g.out, "Range Address", 1) == 0x110000000LL &&
	      field(g.out, "Range Address", 2) == 0x108000000LL &&
	      field(g.out, "Range Address", 3) == 0x118000000LL, "bases\n");
	CHECK(field(g.out, "Range Length", 3) == 0x8000000LL, "size\n");
	/* DIMMs numbered by first use: rank 0's DIMM A is 0, although B is declared first */
	CHECK(field(g.out, "Component Id", 0) == 0 && field(g.out, "Component Id", 2) == 1,
	      "components\n");
	CHECK(board_dimm_index(&b, 0) == 0 && board_dimm_index(&b, 1) == 1, "dimm index\n");
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_state_order(void)
{
	int order[BOARD_MAX_POWER_STATES];
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("x86_64", "q35", "ipmi", "none") FOUR_STATES FLAT_RANKS, &b),
	      "fixture\n");
	/* board order: off 0, sr 1, on 2, pd 3; MPST order: on, pd, sr, off */
	CHECK(acpi_mpst_states(&b, order) == 4, "count\n");
	CHECK(order[0] == 2 && order[1] == 3 && order[2] == 1 && order[3] == 0,
	      "order %d %d %d %d\n", order[0], order[1], order[2], order[3]);
	gen(acpi_write_mpst, &b, &g);
	CHECK(g.ret == 0, "ret %d: %s\n", g.ret, g.err);
	CHECK(field(g.out, "Num Power States", 0) == 4, "states\n");
	CHECK(field(g.out, "Power State", 3) == 3 && field(g.out, "InfoIndex", 3) == 3,
	      "value = index\n");
	CHECK(field(g.out, "Average Power", 0) == 1350 && field(g.out, "Average Power", 1) == 600 &&
	      field(g.out, "Average Power", 2) == 300 && field(g.out, "Average Power", 3) == 0,
	      "powers in MPST order\n");
	CHECK(field(g.out, "Exit Latency", 1) == 100 && field(g.out, "Exit Latency", 2) == 1000,
	      "latencies\n");
	/* 750/1350 = 55.6 %, 1050/1350 = 77.8 % */
	CHECK(field(g.out, "Power Saving", 1) == 56 && field(g.out, "Power Saving", 2) == 78 &&
	      field(g.out, "Power Saving", 3) == 100, "savings\n");
	CHECK(count(g.out, "Memory Preserved : 1") == 3, "preserved\n");
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_ssdt_ipmi_board(void)
{
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("x86_64", "q35", "ipmi", "none") TWO_STATES FLAT_RANKS, &b),
	      "fixture\n");
	gen(acpi_write_ssdt, &b, &g);
	CHECK(g.ret == 0, "ret %d: %s\n", g.ret, g.err);
	CHECK(strstr(g.out, "DefinitionBlock (\"\", \"SSDT\", 2, \"ACMA\", \"ACMASSDT\""),
	      "definition block\n");
	CHECK(strstr(g.out, "Device (ACMA)") && strstr(g.out, "Name (_HID, \"ACMA0001\")"),
	      "device\n");
	CHECK(!strstr(g.out, "OperationRegion") && !strstr(g.out, "Method") &&
	      !strstr(g.out, "External"), "no methods with firmware ipmi:\n%s", g.out);
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_ssdt_acpi_board(void)
{
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("x86_64", "q35", "acpi", "none") FOUR_STATES FLAT_RANKS, &b),
	      "fixture\n");
	gen(acpi_write_ssdt, &b, &g);
	CHECK(g.ret == 0, "ret %d: %s\n", g.ret, g.err);
	CHECK(strstr(g.out, "External (\\_SB.PCI0.SF8.MI1, DeviceObj)") &&
	      strstr(g.out, "Scope (\\_SB.PCI0.SF8.MI1)"), "IPMI device scope\n");
	CHECK(strstr(g.out, "OperationRegion (R01, IPMI, 0x0601, 0x0100)") &&
	      strstr(g.out, "OperationRegion (R43, IPMI, 0x3043, 0x0100)") &&
	      strstr(g.out, "OperationRegion (R44, IPMI, 0x3044, 0x0100)"), "regions\n");
	CHECK(count(g.out, "Field (R4") == 2 && count(g.out, "Field (R01") == 1 &&
	      count(g.out, "AccessAs (BufferAcc, AttribBytes (66)),") == 3, "fields\n");
	CHECK(strstr(g.out, "Method (RGET, 1, Serialized)") &&
	      strstr(g.out, "Method (RSET, 2, Serialized)") &&
	      strstr(g.out, "Method (BMID, 0, Serialized)"), "methods\n");
	/* the BMC's identity is asked before each OEM command, after the argument checks */
	CHECK(count(g.out, "Local0 = BMID ()") == 2 &&
	      strstr(g.out, "Local1 = (\\_SB.PCI0.SF8.MI1.F01 = Local1)"), "BMC identity check\n");
	CHECK(strstr(g.out, "Name (NRNK, 4)"), "rank count\n");
	/* MPST value -> BMC index: on is 2, pd 3, sr 1, off 0 in board order */
	CHECK(strstr(g.out, "0x02,  /* MPS0 = on */") && strstr(g.out, "0x03,  /* MPS1 = pd */") &&
	      strstr(g.out, "0x01,  /* MPS2 = sr */") && strstr(g.out, "0x00   /* MPS3 = off */"),
	      "state map:\n%s", g.out);
	CHECK(strstr(g.out, "Local1 = (\\_SB.PCI0.SF8.MI1.F43 = Local1)") &&
	      strstr(g.out, "Local1 = (\\_SB.PCI0.SF8.MI1.F44 = Local1)"), "transfers\n");
	CHECK(strstr(g.out, "Return ((0x200 | Local0))") && strstr(g.out, "Return ((0x100 | Local0))") &&
	      count(g.out, "Return (0x300)") == 2 && count(g.out, "Return (0x301)") == 4 &&
	      count(g.out, "Return (0x302)") == 1,
	      "error codes\n");
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_refused_boards(void)
{
	struct board b;
	struct gen g;

	CHECK(parse(BOARD_HEAD("arm64", "virt", "ipmi", "none") TWO_STATES FLAT_RANKS, &b),
	      "arm64 fixture\n");
	gen(acpi_write_mpst, &b, &g);
	CHECK(g.ret == -1 && strstr(g.err, "x86_64 boards only"), "arm64 mpst: %s\n", g.err);
	gen_free(&g);
	gen(acpi_write_ssdt, &b, &g);
	CHECK(g.ret == -1 && strstr(g.err, "x86_64 boards only"), "arm64 ssdt: %s\n", g.err);
	gen_free(&g);
	board_free(&b);

	CHECK(parse(BOARD_HEAD("x86_64", "q35", "ipmi", "none")
		    "power-state on 4294968W 0us kept\n"
		    "power-state off 0mW 20ms lost\n" FLAT_RANKS, &b), "power fixture\n");
	gen(acpi_write_mpst, &b, &g);
	CHECK(g.ret == -1 && strstr(g.err, "does not fit"), "huge power: %s\n", g.err);
	gen_free(&g);
	board_free(&b);
	return true;
}

static bool test_power_saving(void)
{
	struct board b;

	CHECK(parse(BOARD_HEAD("x86_64", "q35", "ipmi", "none")
		    "power-state on 0mW 0us kept\n"
		    "power-state off 0mW 20ms lost\n" FLAT_RANKS, &b), "fixture\n");
	CHECK(acpi_power_saving(&b, 1) == 0, "on draws nothing: no saving\n");
	board_free(&b);
	CHECK(parse(BOARD_HEAD("x86_64", "q35", "ipmi", "none")
		    "power-state on 1000mW 0us kept\n"
		    "power-state hot 1500mW 0us kept\n"
		    "power-state half 995mW 1us kept\n"
		    "power-state off 0mW 20ms lost\n" FLAT_RANKS, &b), "fixture\n");
	CHECK(acpi_power_saving(&b, 0) == 0 && acpi_power_saving(&b, 1) == 0 &&
	      acpi_power_saving(&b, 2) == 1 && acpi_power_saving(&b, 3) == 100,
	      "%u %u %u %u\n", acpi_power_saving(&b, 0), acpi_power_saving(&b, 1),
	      acpi_power_saving(&b, 2), acpi_power_saving(&b, 3));
	board_free(&b);
	return true;
}

static const struct tap_test tests[] = {
	{ "mpst of qemu-x86_64: 8 nodes, ranges, states, DIMMs", test_mpst_real_board },
	{ "mpst of an interleaved board: one node per range, same id", test_mpst_interleaved },
	{ "mpst power states: on first, then by depth", test_state_order },
	{ "ssdt with firmware ipmi: the device, no methods", test_ssdt_ipmi_board },
	{ "ssdt with firmware acpi: IPMI regions, RGET, RSET, state map", test_ssdt_acpi_board },
	{ "arm64 board and a 32-bit power overflow are refused", test_refused_boards },
	{ "relative power saving in percent, rounded", test_power_saving },
};

int main(int argc, char **argv)
{
	if (argc > 1)
		real_board_path = argv[1];
	return tap_run_all(tests, sizeof(tests) / sizeof(tests[0]));
}

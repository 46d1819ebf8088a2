// SPDX-License-Identifier: GPL-2.0
/*
 * test_board.c - unit tests of the board file parser (scripts/boardgen)
 *
 * Usage: test-board [PATH-TO-boards/qemu-x86_64/board.hw]
 *
 * The VM board is read from the same folder: boards/qemu-x86_64-vm/board.hw.
 *
 * Prints TAP version 13; the last line is "N passed, N failed". Exits 1 if
 * any test failed. Fixtures are inline strings read through fmemopen().
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "tap.h"

static const char *real_board_path = "boards/qemu-x86_64/board.hw";

/* ---- fixtures ----------------------------------------------------------- */

/* A valid board; tests patch single lines (numbers below are file lines). */
static const char *const base[] = {
	/*  1 */ "board test",
	/*  2 */ "arch x86_64",
	/*  3 */ "qemu-machine q35",
	/*  4 */ "cpus 2",
	/*  5 */ "boot-memory 1G",
	/*  6 */ "memory-block 128M",
	/*  7 */ "firmware ipmi",
	/*  8 */ "interleave none",
	/*  9 */ "power-state on 1350mW 0us kept",
	/* 10 */ "power-state off 0mW 20ms lost",
	/* 11 */ "dimm DIMM0 2",
	/* 12 */ "dimm DIMM1 2",
	/* 13 */ "rank 0 DIMM0 0x100000000+512M",
	/* 14 */ "rank 1 DIMM0 0x120000000+512M",
	/* 15 */ "rank 2 DIMM1 0x140000000+512M",
	/* 16 */ "rank 3 DIMM1 0x160000000+512M",
};

#define NR_BASE	((int)(sizeof(base) / sizeof(base[0])))

/* A valid VM board (firmware none), patched the same way. */
static const char *const vm_base[] = {
	/*  1 */ "board test",
	/*  2 */ "arch x86_64",
	/*  3 */ "qemu-machine q35",
	/*  4 */ "cpus 1",
	/*  5 */ "boot-memory 1G",
	/*  6 */ "memory-block 128M",
	/*  7 */ "firmware none",
	/*  8 */ "vm-memory 0x100000000+1G",
	/*  9 */ "vm-memory 0x140000000+1G",
	/* 10 */ "balloon free-page-reporting",
	/* 11 */ "scratch-disk 2G",
};

#define NR_VM_BASE	((int)(sizeof(vm_base) / sizeof(vm_base[0])))
#define NR_MAX_BASE	(NR_BASE > NR_VM_BASE ? NR_BASE : NR_VM_BASE)

/* @nr lines of @lines, patched as the pairs in @ap say. */
static char *patch_lines(const char *const *lines, int nr, int line, va_list ap)
{
	const char *repl[NR_MAX_BASE + 1] = { NULL };
	size_t len = 0;
	char *text = NULL;
	FILE *f;
	int i;

	for (; line; line = va_arg(ap, int))
		repl[line] = va_arg(ap, const char *);

	f = open_memstream(&text, &len);
	if (!f)
		abort();
	for (i = 1; i <= nr; i++)
		fprintf(f, "%s\n", repl[i] ? repl[i] : lines[i - 1]);
	fclose(f);
	return text;
}

/*
 * The base board with patches: pairs of (line number, replacement text),
 * ended by 0. A replacement may hold several lines ("a\nb") or be empty.
 */
static char *fixture(int line, ...)
{
	va_list ap;
	char *text;

	va_start(ap, line);
	text = patch_lines(base, NR_BASE, line, ap);
	va_end(ap);
	return text;
}

/* The VM base board with patches, as fixture(). */
static char *vm_fixture(int line, ...)
{
	va_list ap;
	char *text;

	va_start(ap, line);
	text = patch_lines(vm_base, NR_VM_BASE, line, ap);
	va_end(ap);
	return text;
}

struct result {
	int errors;
	char *out;		/* everything written to the error stream */
	int lines;		/* lines of @out containing " error: " */
};

static void parse_str(const char *text, const char *name, struct board *b,
		      struct result *res)
{
	size_t len = 0;
	FILE *in, *err;
	const char *s;

	memset(res, 0, sizeof(*res));
	in = fmemopen((void *)text, strlen(text), "r");
	err = open_memstream(&res->out, &len);
	if (!in || !err)
		abort();
	res->errors = board_parse(in, name, b, err);
	fclose(in);
	fclose(err);
	for (s = res->out; (s = strstr(s, " error: ")); s++)
		res->lines++;
}

/*
 * Parse @text (freed here) as "test.hw" and check that it gives @nr_errors
 * errors (-1: any number > 0) and that the messages contain each of the
 * NULL-terminated strings that follow.
 */
static bool expect_errors(char *text, int nr_errors, ...)
{
	struct result res;
	struct board b;
	const char *needle;
	bool ok = true;
	va_list ap;

	parse_str(text, "test.hw", &b, &res);
	free(text);
	if (nr_errors < 0 ? res.errors < 1 : res.errors != nr_errors) {
		diag("expected %d errors, got %d\n", nr_errors, res.errors);
		ok = false;
	}
	va_start(ap, nr_errors);
	while ((needle = va_arg(ap, const char *))) {
		if (!strstr(res.out, needle)) {
			diag("missing in output: %s\n", needle);
			ok = false;
		}
	}
	va_end(ap);
	if (!ok)
		diag("output was:\n%s", res.out);
	free(res.out);
	board_free(&b);
	return ok;
}

/* ---- tests -------------------------------------------------------------- */

static bool test_real_board(void)
{
	struct board b;
	FILE *f = fopen(real_board_path, "r");
	int errors;

	CHECK(f, "cannot open %s\n", real_board_path);
	errors = board_parse(f, real_board_path, &b, stderr);
	fclose(f);
	CHECK(errors == 0, "%d errors\n", errors);
	CHECK(!strcmp(b.name, "qemu-x86_64"), "name %s\n", b.name);
	CHECK(b.arch == BOARD_ARCH_X86_64 && b.machine == BOARD_MACHINE_Q35, "arch/machine\n");
	CHECK(b.cpus == 1 && b.firmware == BOARD_FIRMWARE_IPMI && b.interleave == 0,
	      "cpus %d firmware %d interleave %d\n", b.cpus, b.firmware, b.interleave);
	CHECK(b.boot_memory == BOARD_SZ_1G, "boot %llu\n", b.boot_memory);
	CHECK(b.memory_block == 128 * BOARD_SZ_1M, "block %llu\n", b.memory_block);
	CHECK(b.nr_ranks == 8, "%d ranks\n", b.nr_ranks);
	CHECK(b.nr_dimms == 4, "%d dimms\n", b.nr_dimms);
	CHECK(board_nr_ranges(&b) == 8, "%d ranges\n", board_nr_ranges(&b));
	CHECK(board_device_memory_base(&b) == 0x100000000ULL, "base 0x%llx\n",
	      board_device_memory_base(&b));
	CHECK(board_total_rank_memory(&b) == 4 * BOARD_SZ_1G, "total %llu\n",
	      board_total_rank_memory(&b));
	CHECK(b.nr_power_states == 2, "%d states\n", b.nr_power_states);
	CHECK(!strcmp(b.power_states[0].name, "on") && b.power_states[0].power_mw == 1350 &&
	      b.power_states[0].latency_ns == 0 && b.power_states[0].contents_kept,
	      "state on\n");
	CHECK(!strcmp(b.power_states[1].name, "off") && b.power_states[1].power_mw == 0 &&
	      b.power_states[1].latency_ns == 20000000ULL && !b.power_states[1].contents_kept,
	      "state off\n");
	for (int i = 0; i < 8; i++) {
		CHECK(b.ranks[i].id == i, "rank %d has id %d\n", i, b.ranks[i].id);
		CHECK(b.ranks[i].dimm == i / 2, "rank %d on dimm %d\n", i, b.ranks[i].dimm);
		CHECK(b.ranks[i].nr_ranges == 1 &&
		      b.ranks[i].ranges[0].base == 0x100000000ULL + i * 512 * BOARD_SZ_1M &&
		      b.ranks[i].ranges[0].size == 512 * BOARD_SZ_1M, "rank %d range\n", i);
	}
	board_free(&b);
	return true;
}

static bool test_base_fixture_valid(void)
{
	struct result res;
	struct board b;
	char *text = fixture(0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0 && !res.out[0], "%d errors:\n%s", res.errors, res.out);
	free(res.out);
	CHECK(b.nr_ranks == 4 && b.nr_dimms == 2, "ranks %d dimms %d\n", b.nr_ranks,
	      b.nr_dimms);
	board_free(&b);
	return true;
}

static bool test_comments_and_blanks(void)
{
	static const char text[] =
		"# a comment\n"
		"\n"
		"\tboard\ttest   # trailing comment\n"
		"description  A test board, with  spaces   # and a comment\n"
		"arch x86_64\r\n"
		"qemu-machine q35\n   \n"
		"cpus 64\nboot-memory 1024M\nmemory-block 128M\nfirmware acpi\n"
		"interleave none\n"
		"power-state on 3W 0ns kept\npower-state off 0mW 1s lost\n"
		"power-state self-refresh 200mW 5us kept\n"
		"rank 0 D_0 0x100000000+1G\n"
		"dimm D_0 1";
	struct result res;
	struct board b;

	parse_str(text, "test.hw", &b, &res);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	CHECK(!strcmp(b.description, "A test board, with  spaces"), "description '%s'\n",
	      b.description);
	CHECK(b.cpus == 64 && b.firmware == BOARD_FIRMWARE_ACPI, "cpus/firmware\n");
	CHECK(b.power_states[0].power_mw == 3000, "3W = %llu mW\n", b.power_states[0].power_mw);
	CHECK(b.power_states[1].latency_ns == 1000000000ULL, "1s\n");
	CHECK(b.power_states[2].latency_ns == 5000 && b.power_states[2].contents_kept,
	      "self-refresh\n");
	CHECK(b.ranks[0].dimm == 0, "dimm declared after the rank\n");
	board_free(&b);
	return true;
}

static bool test_unknown_keyword(void)
{
	return expect_errors(fixture(16, "rnak 3 DIMM1 0x160000000+512M", 0), 1,
			     "test.hw:16: error: unknown keyword 'rnak' (did you mean 'rank'?)",
			     NULL) &&
	       expect_errors(fixture(2, "arhc x86_64", 0), 1,
			     "test.hw:2: error: unknown keyword 'arhc' (did you mean 'arch'?)",
			     NULL);
}

static bool test_unknown_keyword_no_suggestion(void)
{
	struct result res;
	struct board b;
	char *text = fixture(4, "cpus 2\nfrobnicate 1", 0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 1 && strstr(res.out, "test.hw:5: error: unknown keyword 'frobnicate'"),
	      "%s", res.out);
	CHECK(!strstr(res.out, "did you mean"), "%s", res.out);
	free(res.out);
	return true;
}

/* A value outside of a keyword's fixed set names the keyword and every choice. */
static bool test_unknown_choice(void)
{
	return expect_errors(fixture(2, "arch sparc", 0), 1,
			     "test.hw:2: error: unknown arch 'sparc' (expected x86_64 or arm64)",
			     NULL) &&
	       expect_errors(fixture(3, "qemu-machine pc", 0), 1,
			     "test.hw:3: error: unknown qemu-machine 'pc' (expected q35 or virt)",
			     NULL) &&
	       expect_errors(fixture(7, "firmware uefi", 0), 1,
			     "test.hw:7: error: unknown firmware 'uefi' (expected ipmi, acpi or none)",
			     NULL);
}

static bool test_bad_size_suffix(void)
{
	return expect_errors(fixture(5, "boot-memory 1X", 0), 1,
			     "test.hw:5: error: boot-memory: '1X' is not a size",
			     "K, M, G or T", NULL) &&
	       expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512MB", 0), 1,
			     "test.hw:16: error: rank 3: range '0x160000000+512MB': size '512MB' is not a size",
			     NULL);
}

static bool test_misaligned_range(void)
{
	return expect_errors(fixture(14, "rank 1 DIMM0 0x120000000+51M", 0), 1,
			     "test.hw:14: error: rank 1: range 0x120000000+51M: size is not a multiple of memory-block (128M)",
			     NULL) &&
	       expect_errors(fixture(16, "rank 3 DIMM1 0x164000000+64M", 0), 2,
			     "test.hw:16: error: rank 3: range 0x164000000+64M: base is not a multiple of memory-block (128M)",
			     "test.hw:16: error: rank 3: range 0x164000000+64M: size is not a multiple",
			     NULL);
}

static bool test_overlapping_ranges(void)
{
	return expect_errors(fixture(15, "rank 2 DIMM1 0x110000000+512M", 0), 2,
			     "test.hw:15: error: rank 2: range 0x110000000+512M overlaps range 0x100000000+512M of rank 0 (line 13)",
			     "test.hw:15: error: rank 2: range 0x110000000+512M overlaps range 0x120000000+512M of rank 1 (line 14)",
			     NULL);
}

static bool test_range_below_base(void)
{
	return expect_errors(fixture(13, "rank 0 DIMM0 0xc0000000+512M", 0), 1,
			     "test.hw:13: error: rank 0: range 0xc0000000+512M starts below the device-memory base 0x100000000",
			     NULL);
}

static bool test_range_beyond_area(void)
{
	/* area: 4G .. 4G + 2G rank memory + 4 x 1G = 0x280000000 */
	return expect_errors(fixture(16, "rank 3 DIMM1 0x280000000+512M", 0), 1,
			     "test.hw:16: error: rank 3: range 0x280000000+512M ends beyond the device-memory area 0x100000000..0x280000000",
			     NULL) &&
	       expect_errors(fixture(16, "rank 3 DIMM1 0x260000000+512M", 0), 0, NULL);
}

static bool test_duplicate_keyword(void)
{
	return expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512M\narch arm64", 0), 1,
			     "test.hw:17: error: duplicate 'arch' (first given on line 2)", NULL) &&
	       expect_errors(fixture(12, "dimm DIMM0 2", 0), -1,
			     "test.hw:12: error: duplicate dimm 'DIMM0' (first declared on line 11)",
			     NULL) &&
	       expect_errors(fixture(16, "rank 2 DIMM1 0x160000000+512M", 0), 1,
			     "test.hw:16: error: duplicate rank 2 (first declared on line 15)", NULL);
}

static bool test_missing_keyword(void)
{
	return expect_errors(fixture(7, "", 0), 1,
			     "test.hw: error: missing 'firmware' (expected 'firmware ipmi|acpi|none')",
			     NULL);
}

static bool test_undeclared_dimm(void)
{
	return expect_errors(fixture(16, "rank 3 DIMM9 0x160000000+512M", 0), 2,
			     "test.hw:16: error: rank 3: dimm 'DIMM9' is not declared",
			     "test.hw:12: error: dimm 'DIMM1' declares 2 ranks, but 1 rank line names it",
			     NULL);
}

static bool test_dimm_rank_count(void)
{
	return expect_errors(fixture(12, "dimm DIMM1 3", 0), 1,
			     "test.hw:12: error: dimm 'DIMM1' declares 3 ranks, but 2 rank lines name it",
			     NULL);
}

static bool test_rank_id_gap(void)
{
	return expect_errors(fixture(16, "rank 4 DIMM1 0x160000000+512M", 0), 1,
			     "test.hw:16: error: rank 4: rank ids must be 0..3 with no gaps (missing: 3)",
			     NULL);
}

static bool test_missing_off_state(void)
{
	return expect_errors(fixture(10, "", 0), 1,
			     "test.hw: error: missing power-state 'off'", NULL) &&
	       expect_errors(fixture(10, "power-state off 0mW 20ms kept", 0), 1,
			     "test.hw:10: error: power-state 'off' must lose the contents", NULL);
}

static bool test_interleave_none_two_ranges(void)
{
	return expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+256M 0x170000000+256M", 0), 1,
			     "test.hw:16: error: rank 3: interleave none allows exactly one range per rank, got 2",
			     NULL);
}

static bool test_interleaved_board(void)
{
	struct result res;
	struct board b;
	char *text = fixture(8, "interleave 2",
			     13, "rank 0 DIMM0 0x100000000+256M 0x140000000+256M",
			     14, "rank 1 DIMM0 0x110000000+256M 0x150000000+256M",
			     15, "rank 2 DIMM1 0x120000000+256M 0x160000000+256M",
			     16, "rank 3 DIMM1 0x130000000+256M 0x170000000+256M", 0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	CHECK(b.interleave == 2 && b.nr_ranks == 4, "interleave %d ranks %d\n", b.interleave,
	      b.nr_ranks);
	CHECK(board_nr_ranges(&b) == 8 && board_total_rank_memory(&b) == 2 * BOARD_SZ_1G,
	      "ranges %d\n", board_nr_ranges(&b));
	CHECK(b.ranks[3].ranges[1].base == 0x170000000ULL, "rank 3 range 1\n");
	board_free(&b);
	return true;
}

static bool test_bad_power_unit(void)
{
	return expect_errors(fixture(9, "power-state on 27OOmW 0us kept", 0), 1,
			     "test.hw:9: error: power-state 'on': power '27OOmW' is not a number with unit mW or W",
			     NULL) &&
	       expect_errors(fixture(10, "power-state off 0mW 20min lost", 0), 1,
			     "test.hw:10: error: power-state 'off': latency '20min' is not a number with unit ns, us, ms or s",
			     NULL);
}

static bool test_line_too_long(void)
{
	size_t n = 5000;
	char *longline = malloc(n + 3), *text;
	bool ok;

	memset(longline, 'x', n + 2);
	memcpy(longline, "# ", 2);
	longline[n + 2] = '\0';
	/* the long comment goes after line 16, as line 17 */
	text = malloc(strlen(longline) + 64);
	sprintf(text, "rank 3 DIMM1 0x160000000+512M\n%s", longline);
	ok = expect_errors(fixture(16, text, 0), 1,
			   "test.hw:17: error: line is too long (5002 characters, at most 4095)",
			   NULL);
	/* exactly 4095 characters is fine */
	longline[4095] = '\0';
	sprintf(text, "rank 3 DIMM1 0x160000000+512M\n%s", longline);
	ok = ok && expect_errors(fixture(16, text, 0), 0, NULL);
	free(text);
	free(longline);
	return ok;
}

static bool test_machine_arch_mismatch(void)
{
	return expect_errors(fixture(2, "arch arm64", 0), 1,
			     "test.hw:3: error: qemu-machine q35 requires arch x86_64, but arch is arm64 (line 2)",
			     NULL);
}

/* An arm64 virt board: ranks from 2G (RAM at 1G + 1G of boot memory), file:line errors. */
static bool test_virt_board(void)
{
	return expect_errors(fixture(2, "arch arm64", 3, "qemu-machine virt",
				     13, "rank 0 DIMM0 0x80000000+512M", 14, "rank 1 DIMM0 0xa0000000+512M",
				     15, "rank 2 DIMM1 0xc0000000+512M", 16, "rank 3 DIMM1 0xe0000000+512M",
				     0), 0, NULL) &&
	       expect_errors(fixture(2, "arch arm64", 3, "qemu-machine virt",
				     13, "rank 0 DIMM0 0x60000000+512M", 14, "rank 1 DIMM0 0xa0000000+512M",
				     15, "rank 2 DIMM1 0xc0000000+512M", 16, "rank 3 DIMM1 0xe0000000+512M",
				     0), 1,
			     "test.hw:13: error: rank 0: range 0x60000000+512M starts below the device-memory base 0x80000000 (virt with boot-memory 1G)",
			     NULL) &&
	       expect_errors(fixture(3, "qemu-machine virt", 0), -1,
			     "test.hw:3: error: qemu-machine virt requires arch arm64, but arch is x86_64 (line 2)",
			     NULL);
}

static bool test_folder_name(void)
{
	struct result res;
	struct board b;
	char *text = fixture(0);

	parse_str(text, "boards/other/board.hw", &b, &res);
	CHECK(res.errors == 1 &&
	      strstr(res.out, "boards/other/board.hw:1: error: board name 'test' does not match its folder 'other'"),
	      "%s", res.out);
	free(res.out);
	parse_str(text, "../x/boards/test/board.hw", &b, &res);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	board_free(&b);
	parse_str(text, "/tmp/other/board.hw", &b, &res);
	CHECK(res.errors == 0, "not under boards/: %s", res.out);
	free(res.out);
	board_free(&b);
	free(text);
	return true;
}

static bool test_many_errors_capped(void)
{
	struct result res;
	struct board b;
	char *text = malloc(25 * 8 + 1);
	int i;

	text[0] = '\0';
	for (i = 0; i < 25; i++)
		strcat(text, "xyzzy 1\n");
	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors >= 25, "%d errors\n", res.errors);
	CHECK(res.lines == BOARD_MAX_ERRORS, "%d error lines printed\n", res.lines);
	CHECK(strstr(res.out, "test.hw:1: error: unknown keyword 'xyzzy'") &&
	      strstr(res.out, "test.hw:20: error: unknown keyword 'xyzzy'") &&
	      !strstr(res.out, "test.hw:21:") && strstr(res.out, "more errors not shown"),
	      "%s", res.out);
	free(res.out);
	return true;
}

static bool test_all_errors_reported(void)
{
	/* several independent errors, printed in line order */
	struct result res;
	struct board b;
	char *text = fixture(4, "cpus 65", 9, "power-state on 1.5W 0us kept",
			     14, "rank 1 DIMM0 0x120000000+51M", 0);
	const char *a, *c, *d;

	parse_str(text, "test.hw", &b, &res);
	free(text);
	a = strstr(res.out, "test.hw:4: error: cpus: '65' is not a number in 1..64");
	c = strstr(res.out, "test.hw:9: error: power-state 'on': power '1.5W'");
	d = strstr(res.out, "test.hw:14: error: rank 1:");
	CHECK(res.errors == 3 && a && c && d && a < c && c < d, "%s", res.out);
	free(res.out);
	return true;
}

static bool test_rank_order(void)
{
	struct result res;
	struct board b;
	char *text = fixture(13, "rank 3 DIMM1 0x160000000+512M",
			     16, "rank 0 DIMM0 0x100000000+512M", 0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	for (int i = 0; i < b.nr_ranks; i++)
		CHECK(b.ranks[i].id == i, "ranks[%d].id = %d\n", i, b.ranks[i].id);
	board_free(&b);
	return true;
}

static bool test_device_memory_base(void)
{
	struct board b = { .machine = BOARD_MACHINE_Q35 };

	b.boot_memory = BOARD_SZ_1G;
	CHECK(board_device_memory_base(&b) == 4 * BOARD_SZ_1G, "q35 1G\n");
	b.boot_memory = 2 * BOARD_SZ_1G;
	CHECK(board_device_memory_base(&b) == 4 * BOARD_SZ_1G, "q35 2G\n");
	b.boot_memory = 0xb0000000ULL;	/* 2816M: lowmem 2G, 768M above 4G */
	CHECK(board_device_memory_base(&b) == 5 * BOARD_SZ_1G, "q35 2816M\n");
	b.boot_memory = 3 * BOARD_SZ_1G;
	CHECK(board_device_memory_base(&b) == 5 * BOARD_SZ_1G, "q35 3G\n");
	b.boot_memory = 6 * BOARD_SZ_1G;
	CHECK(board_device_memory_base(&b) == 8 * BOARD_SZ_1G, "q35 6G\n");
	b.machine = BOARD_MACHINE_VIRT;
	b.boot_memory = BOARD_SZ_1G;
	CHECK(board_device_memory_base(&b) == 2 * BOARD_SZ_1G, "virt 1G\n");
	b.boot_memory = 1536 * BOARD_SZ_1M;
	CHECK(board_device_memory_base(&b) == 3 * BOARD_SZ_1G, "virt 1536M\n");
	return true;
}

static bool test_size_parsing(void)
{
	static const struct { const char *s; unsigned long long v; } good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "4K", 4096 }, { "512M", 512ULL << 20 },
		{ "1G", 1ULL << 30 }, { "2T", 2ULL << 40 }, { "1536M", 1536ULL << 20 },
		{ "18446744073709551615", ~0ULL }, { "16777215T", 16777215ULL << 40 },
	};
	static const char *const bad[] = {
		"", "M", "1X", "1MB", "1m", "-1", "+1", " 1", "1 ", "0x10", "1.5G",
		"18446744073709551616", "16777216T",
	};
	unsigned long long v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(!board_parse_size(good[i].s, &v) && v == good[i].v, "'%s' -> %llu\n",
		      good[i].s, v);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(board_parse_size(bad[i], &v), "'%s' accepted\n", bad[i]);
	CHECK(!board_parse_address("0x100000000", &v) && v == 0x100000000ULL, "hex\n");
	CHECK(!board_parse_address("0X1aF", &v) && v == 0x1af, "hex case\n");
	CHECK(!board_parse_address("4096", &v) && v == 4096, "decimal\n");
	CHECK(!board_parse_address("0xffffffffffffffff", &v) && v == ~0ULL, "max\n");
	CHECK(board_parse_address("0x", &v) && board_parse_address("0xg", &v) &&
	      board_parse_address("0x1_0", &v) && board_parse_address("0x10000000000000000", &v) &&
	      board_parse_address("", &v) && board_parse_address("1G", &v), "bad addresses\n");
	return true;
}

static bool test_size_formatting(void)
{
	static const struct { unsigned long long v; const char *s; } cases[] = {
		{ 0, "0" }, { 1000, "1000" }, { 4096, "4K" }, { 512ULL << 20, "512M" },
		{ 1ULL << 30, "1G" }, { 1536ULL << 20, "1536M" }, { 3ULL << 40, "3T" },
		{ (1ULL << 30) + 1, "1073741825" }, { ~0ULL, "18446744073709551615" },
	};
	char buf[BOARD_SIZE_BUF];
	unsigned long long v;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		board_format_size(cases[i].v, buf, sizeof(buf));
		CHECK(!strcmp(buf, cases[i].s), "%llu -> '%s', want '%s'\n", cases[i].v, buf,
		      cases[i].s);
		CHECK(!board_parse_size(buf, &v) && v == cases[i].v, "round trip of '%s'\n", buf);
	}
	for (v = 1; v < (1ULL << 42); v = v * 3 + 1024) {
		board_format_size(v, buf, sizeof(buf));
		unsigned long long back;

		CHECK(!board_parse_size(buf, &back) && back == v, "round trip %llu via '%s'\n",
		      v, buf);
	}
	return true;
}

/* ---- VM boards (firmware none) ------------------------------------------ */

static bool test_real_vm_board(void)
{
	static const char tail[] = "/board.hw";
	size_t len = strlen(real_board_path);
	char path[4096];
	struct board b;
	int errors;
	FILE *f;

	CHECK(len > sizeof(tail) && !strcmp(real_board_path + len - (sizeof(tail) - 1), tail) &&
	      len + 3 < sizeof(path), "%s does not end in %s\n", real_board_path, tail);
	snprintf(path, sizeof(path), "%.*s-vm%s", (int)(len - (sizeof(tail) - 1)),
		 real_board_path, tail);
	f = fopen(path, "r");
	CHECK(f, "cannot open %s\n", path);
	errors = board_parse(f, path, &b, stderr);
	fclose(f);
	CHECK(errors == 0, "%d errors\n", errors);
	CHECK(!strcmp(b.name, "qemu-x86_64-vm"), "name %s\n", b.name);
	CHECK(b.firmware == BOARD_FIRMWARE_NONE && b.nr_ranks == 0 && b.nr_dimms == 0 &&
	      b.nr_power_states == 0, "firmware %d ranks %d\n", b.firmware, b.nr_ranks);
	CHECK(b.nr_vm_memory == 2 && b.vm_memory[0].range.base == 0x100000000ULL &&
	      b.vm_memory[1].range.base == 0x140000000ULL &&
	      board_total_vm_memory(&b) == 2 * BOARD_SZ_1G, "vm-memory\n");
	CHECK(b.balloon == BOARD_BALLOON_FREE_PAGE_REPORTING, "balloon %d\n", b.balloon);
	CHECK(b.scratch_disk == 2 * BOARD_SZ_1G, "scratch-disk %llu\n", b.scratch_disk);
	board_free(&b);
	return true;
}

static bool test_vm_fixture_valid(void)
{
	struct result res;
	struct board b;
	char *text = vm_fixture(0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0 && !res.out[0], "%d errors:\n%s", res.errors, res.out);
	free(res.out);
	CHECK(b.firmware == BOARD_FIRMWARE_NONE && b.interleave == 0, "firmware %d\n",
	      b.firmware);
	CHECK(b.nr_vm_memory == 2 && b.vm_memory[1].line == 9 &&
	      b.vm_memory[1].range.size == BOARD_SZ_1G, "vm-memory\n");
	CHECK(board_nr_slots(&b) == 2 && board_nr_ranges(&b) == 0, "slots %d\n",
	      board_nr_slots(&b));
	CHECK(board_hotplug_memory(&b) == 2 * BOARD_SZ_1G &&
	      board_total_rank_memory(&b) == 0, "hotplug %llu\n", board_hotplug_memory(&b));
	/* 2G of vm-memory plus 1G per slot */
	CHECK(board_device_memory_size(&b) == 4 * BOARD_SZ_1G, "area %llu\n",
	      board_device_memory_size(&b));
	CHECK(b.balloon == BOARD_BALLOON_FREE_PAGE_REPORTING &&
	      !strcmp(board_balloon_name(b.balloon), "free-page-reporting"), "balloon\n");
	CHECK(b.scratch_disk == 2 * BOARD_SZ_1G, "scratch-disk %llu\n", b.scratch_disk);
	CHECK(b.virtio_mem.range.size == 0 && b.virtio_mem.line == 0, "virtio-mem %llu\n",
	      b.virtio_mem.range.size);
	board_free(&b);
	return true;
}

/* virtio-mem: its range, maxmem counts it, no pc-dimm slot for it */
static bool test_vm_virtio_mem(void)
{
	struct result res;
	struct board b;
	char *text = vm_fixture(11, "scratch-disk 2G\nvirtio-mem 0x180000000+256M", 0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0 && !res.out[0], "%d errors:\n%s", res.errors, res.out);
	free(res.out);
	CHECK(b.virtio_mem.line == 12 && b.virtio_mem.range.base == 0x180000000ULL &&
	      b.virtio_mem.range.size == 256 * BOARD_SZ_1M, "virtio-mem line %d 0x%llx+%llu\n",
	      b.virtio_mem.line, b.virtio_mem.range.base, b.virtio_mem.range.size);
	CHECK(board_nr_slots(&b) == 2 && board_total_vm_memory(&b) == 2 * BOARD_SZ_1G,
	      "slots %d\n", board_nr_slots(&b));
	CHECK(board_hotplug_memory(&b) == 2 * BOARD_SZ_1G + 256 * BOARD_SZ_1M,
	      "hotplug %llu\n", board_hotplug_memory(&b));
	/* 2G of vm-memory, 256M of virtio-mem, 1G per pc-dimm slot */
	CHECK(board_device_memory_size(&b) == 4 * BOARD_SZ_1G + 256 * BOARD_SZ_1M,
	      "area %llu\n", board_device_memory_size(&b));
	board_free(&b);
	/* right after the device-memory base, below the vm-memory */
	text = vm_fixture(8, "vm-memory 0x110000000+1G", 9, "vm-memory 0x150000000+1G",
			  11, "scratch-disk 2G\nvirtio-mem 0x100000000+256M", 0);
	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	board_free(&b);
	return true;
}

static bool test_vm_virtio_mem_errors(void)
{
	return expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512M\nvirtio-mem 0x200000000+256M", 0), 1,
			     "test.hw:17: error: 'virtio-mem' needs firmware none, but firmware is ipmi (line 7): a server's hot-pluggable memory is its ranks",
			     NULL) &&
	       expect_errors(vm_fixture(2, "arch arm64", 3, "qemu-machine virt",
					11, "scratch-disk 2G\nvirtio-mem 0x180000000+256M", 0), 1,
			     "test.hw:12: error: 'virtio-mem' needs qemu-machine q35, but it is virt (line 3): QEMU 7.2 has no virtio-mem on virt",
			     NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem 0x180000000+256M\nvirtio-mem 0x190000000+256M", 0), 1,
			     "test.hw:12: error: duplicate 'virtio-mem' (first given on line 11)", NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem", 0), 1,
			     "test.hw:11: error: 'virtio-mem' takes 1 value, got 0 (expected 'virtio-mem BASE+SIZE'",
			     NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem 256M", 0), 1,
			     "test.hw:11: error: virtio-mem: range '256M' is not BASE+SIZE", NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem 0x180000000+256MB", 0), 1,
			     "test.hw:11: error: virtio-mem: range '0x180000000+256MB': size '256MB' is not a size",
			     NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem 0x180000000+100M", 0), 1,
			     "test.hw:11: error: virtio-mem: range 0x180000000+100M: size is not a multiple of memory-block (128M)",
			     NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem 0x184000000+256M", 0), 1,
			     "test.hw:11: error: virtio-mem: range 0x184000000+256M: base is not a multiple of memory-block (128M)",
			     NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem 0x170000000+256M", 0), 1,
			     "test.hw:11: error: virtio-mem: range 0x170000000+256M overlaps range 0x140000000+1G of vm-memory (line 9)",
			     NULL) &&
	       expect_errors(vm_fixture(11, "virtio-mem 0xc0000000+256M", 0), 1,
			     "test.hw:11: error: virtio-mem: range 0xc0000000+256M starts below the device-memory base 0x100000000 (q35 with boot-memory 1G); virtio-mem must lie in 0x100000000..0x210000000",
			     NULL) &&
	       /* the area grows by the virtio-mem memory, but by no slot's 1G */
	       expect_errors(vm_fixture(11, "virtio-mem 0x208000000+256M", 0), 1,
			     "test.hw:11: error: virtio-mem: range 0x208000000+256M ends beyond the device-memory area 0x100000000..0x210000000 (vm-memory and virtio-mem plus 1G per vm-memory range)",
			     NULL) &&
	       expect_errors(vm_fixture(11, "virtio-men 0x180000000+256M", 0), 1,
			     "test.hw:11: error: unknown keyword 'virtio-men' (did you mean 'virtio-mem'?)",
			     NULL);
}

static bool test_vm_optional_keywords(void)
{
	struct result res;
	struct board b;
	char *text = vm_fixture(7, "firmware none\ninterleave none", 10, "", 11, "", 0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	CHECK(b.balloon == BOARD_BALLOON_NONE && b.scratch_disk == 0, "no balloon, no disk\n");
	board_free(&b);
	text = vm_fixture(10, "balloon plain", 0);
	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0 && b.balloon == BOARD_BALLOON_PLAIN &&
	      !strcmp(board_balloon_name(b.balloon), "plain"), "%s", res.out);
	free(res.out);
	board_free(&b);
	return true;
}

static bool test_vm_rank_keywords(void)
{
	return expect_errors(vm_fixture(11, "scratch-disk 2G\nrank 0 DIMM0 0x180000000+512M", 0), 1,
			     "test.hw:12: error: 'rank' with firmware none (line 7): a VM guest has no rank power control",
			     "(1 'rank' line)", NULL) &&
	       expect_errors(vm_fixture(11, "scratch-disk 2G\n"
					    "power-state on 1350mW 0us kept\n"
					    "power-state off 0mW 20ms lost\n"
					    "dimm DIMM0 1", 0), 2,
			     "test.hw:12: error: 'power-state' with firmware none (line 7)",
			     "(2 'power-state' lines)",
			     "test.hw:14: error: 'dimm' with firmware none (line 7)", NULL) &&
	       expect_errors(vm_fixture(7, "firmware none\ninterleave 2", 0), 1,
			     "test.hw:8: error: interleave 2 with firmware none (line 7): a VM guest has no ranks to interleave",
			     NULL);
}

static bool test_vm_memory_needs_firmware_none(void)
{
	return expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512M\nvm-memory 0x200000000+1G", 0), 1,
			     "test.hw:17: error: 'vm-memory' needs firmware none, but firmware is ipmi (line 7)",
			     NULL) &&
	       expect_errors(vm_fixture(7, "firmware acpi", 0), -1,
			     "test.hw:8: error: 'vm-memory' needs firmware none, but firmware is acpi (line 7)",
			     "(2 'vm-memory' lines)", "missing power-state 'on'", NULL);
}

static bool test_vm_memory_ranges(void)
{
	return expect_errors(vm_fixture(9, "vm-memory 0x120000000+1G", 0), 1,
			     "test.hw:9: error: vm-memory: range 0x120000000+1G overlaps range 0x100000000+1G of vm-memory (line 8)",
			     NULL) &&
	       expect_errors(vm_fixture(9, "vm-memory 0x140000000+100M", 0), 1,
			     "test.hw:9: error: vm-memory: range 0x140000000+100M: size is not a multiple of memory-block (128M)",
			     NULL) &&
	       expect_errors(vm_fixture(9, "vm-memory 0xc0000000+1G", 0), 1,
			     "test.hw:9: error: vm-memory: range 0xc0000000+1G starts below the device-memory base 0x100000000 (q35 with boot-memory 1G); vm-memory must lie in 0x100000000..0x200000000",
			     NULL) &&
	       expect_errors(vm_fixture(9, "vm-memory 0x200000000+1G", 0), 1,
			     "test.hw:9: error: vm-memory: range 0x200000000+1G ends beyond the device-memory area 0x100000000..0x200000000 (vm-memory plus 1G per range)",
			     NULL) &&
	       expect_errors(vm_fixture(9, "vm-memory 0x140000000+1X", 0), 1,
			     "test.hw:9: error: vm-memory: range '0x140000000+1X': size '1X' is not a size",
			     NULL) &&
	       expect_errors(vm_fixture(9, "vm-memory 0x140000000+1G 0x180000000+1G", 0), 1,
			     "test.hw:9: error: 'vm-memory' takes 1 value, got 2 (expected 'vm-memory BASE+SIZE'",
			     NULL);
}

static bool test_vm_bad_balloon(void)
{
	return expect_errors(vm_fixture(10, "balloon yes", 0), 1,
			     "test.hw:10: error: unknown balloon 'yes' (expected free-page-reporting or plain)",
			     NULL) &&
	       expect_errors(vm_fixture(10, "balloon", 0), 1,
			     "test.hw:10: error: 'balloon' needs a value (expected 'balloon free-page-reporting|plain')",
			     NULL) &&
	       expect_errors(vm_fixture(10, "ballon plain", 0), 1,
			     "test.hw:10: error: unknown keyword 'ballon' (did you mean 'balloon'?)",
			     NULL);
}

static bool test_vm_scratch_disk(void)
{
	return expect_errors(vm_fixture(11, "scratch-disk 2G\nscratch-disk 1G", 0), 1,
			     "test.hw:12: error: duplicate 'scratch-disk' (first given on line 11)",
			     NULL) &&
	       expect_errors(vm_fixture(11, "scratch-disk 0", 0), 1,
			     "test.hw:11: error: scratch-disk 0 is not a positive multiple of 1M", NULL) &&
	       expect_errors(vm_fixture(11, "scratch-disk 1000K", 0), 1,
			     "test.hw:11: error: scratch-disk 1000K is not a positive multiple of 1M",
			     NULL) &&
	       expect_errors(vm_fixture(11, "scratch-disk 2GB", 0), 1,
			     "test.hw:11: error: scratch-disk: '2GB' is not a size", NULL);
}

static bool test_vm_missing_vm_memory(void)
{
	return expect_errors(vm_fixture(8, "", 9, "", 0), 1,
			     "test.hw: error: no 'vm-memory' lines (firmware none expects at least one 'vm-memory BASE+SIZE'",
			     NULL) &&
	       /* a typo gets its suggestion, not a "no vm-memory" on top */
	       expect_errors(vm_fixture(8, "vm-memroy 0x100000000+1G", 9, "", 0), 1,
			     "test.hw:8: error: unknown keyword 'vm-memroy' (did you mean 'vm-memory'?)",
			     NULL);
}

/* bmc-id: the BMC's Get Device ID IDs, defaults without the line. */
static bool test_bmc_id(void)
{
	struct result res;
	struct board b;
	char *text = fixture(0);

	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	CHECK(b.bmc_manufacturer == 32473 && b.bmc_product == 0xac4a,
	      "default bmc-id %u 0x%x\n", b.bmc_manufacturer, b.bmc_product);
	board_free(&b);
	text = fixture(16, "rank 3 DIMM1 0x160000000+512M\nbmc-id 0x7ed9 4660", 0);
	parse_str(text, "test.hw", &b, &res);
	free(text);
	CHECK(res.errors == 0, "%s", res.out);
	free(res.out);
	CHECK(b.bmc_manufacturer == 0x7ed9 && b.bmc_product == 0x1234,
	      "bmc-id %u 0x%x\n", b.bmc_manufacturer, b.bmc_product);
	board_free(&b);
	return expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512M\nbmc-id 1", 0), 1,
			     "test.hw:17: error: 'bmc-id' takes two values, got 1", NULL) &&
	       expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512M\nbmc-id 0xfffff 1", 0), 1,
			     "test.hw:17: error: bmc-id manufacturer '0xfffff' is not valid", NULL) &&
	       expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512M\nbmc-id 1 0x10000", 0), 1,
			     "test.hw:17: error: bmc-id product '0x10000' is not valid", NULL) &&
	       expect_errors(fixture(16, "rank 3 DIMM1 0x160000000+512M\nbmc-id 1 2\nbmc-id 1 2", 0), 1,
			     "test.hw:18: error: duplicate 'bmc-id' (first given on line 17)", NULL) &&
	       expect_errors(vm_fixture(11, "scratch-disk 2G\nbmc-id 1 2", 0), 1,
			     "test.hw:12: error: 'bmc-id' with firmware none (line 7): a VM guest has no BMC",
			     NULL);
}

static const struct tap_test tests[] = {
	{ "real board qemu-x86_64: 8 ranks, 4 dimms, base 0x100000000, 4G", test_real_board },
	{ "base fixture is valid", test_base_fixture_valid },
	{ "comments, blanks, tabs, CRLF, description, dimm after rank", test_comments_and_blanks },
	{ "unknown keyword with suggestion", test_unknown_keyword },
	{ "unknown keyword without suggestion", test_unknown_keyword_no_suggestion },
	{ "unknown arch, qemu-machine and firmware values", test_unknown_choice },
	{ "bad size suffix", test_bad_size_suffix },
	{ "misaligned range", test_misaligned_range },
	{ "overlapping ranges across ranks", test_overlapping_ranges },
	{ "range below device-memory base", test_range_below_base },
	{ "range beyond device-memory area", test_range_beyond_area },
	{ "duplicate keyword, dimm, rank", test_duplicate_keyword },
	{ "missing keyword", test_missing_keyword },
	{ "undeclared dimm", test_undeclared_dimm },
	{ "dimm rank count mismatch", test_dimm_rank_count },
	{ "rank id gap", test_rank_id_gap },
	{ "missing off state", test_missing_off_state },
	{ "interleave none with two ranges", test_interleave_none_two_ranges },
	{ "interleaved board", test_interleaved_board },
	{ "bad power and latency units", test_bad_power_unit },
	{ "line too long", test_line_too_long },
	{ "qemu-machine and arch mismatch", test_machine_arch_mismatch },
	{ "arm64 virt board: ranks from 0x80000000, file:line errors", test_virt_board },
	{ "board name matches folder", test_folder_name },
	{ "errors capped at 20", test_many_errors_capped },
	{ "all errors reported in line order", test_all_errors_reported },
	{ "ranks sorted by id", test_rank_order },
	{ "device-memory base (QEMU 7.2 rule)", test_device_memory_base },
	{ "size and address parsing", test_size_parsing },
	{ "size formatting round trips", test_size_formatting },
	{ "real board qemu-x86_64-vm: firmware none, 2 x 1G vm-memory", test_real_vm_board },
	{ "VM fixture is valid: slots, hot-pluggable memory, balloon, disk",
	  test_vm_fixture_valid },
	{ "VM board: interleave none, balloon and scratch-disk optional",
	  test_vm_optional_keywords },
	{ "firmware none with rank, power-state, dimm, interleave lines", test_vm_rank_keywords },
	{ "vm-memory without firmware none", test_vm_memory_needs_firmware_none },
	{ "vm-memory range checks: overlap, alignment, device-memory area",
	  test_vm_memory_ranges },
	{ "bad balloon value", test_vm_bad_balloon },
	{ "duplicate and bad scratch-disk", test_vm_scratch_disk },
	{ "firmware none without vm-memory", test_vm_missing_vm_memory },
	{ "virtio-mem: range, maxmem, no slot", test_vm_virtio_mem },
	{ "virtio-mem errors: firmware, machine, duplicate, values, ranges, typo",
	  test_vm_virtio_mem_errors },
	{ "bmc-id: defaults, values, errors, not with firmware none", test_bmc_id },
};

int main(int argc, char **argv)
{
	if (argc > 1)
		real_board_path = argv[1];
	return tap_run_all(tests, sizeof(tests) / sizeof(tests[0]));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * board.c - parser and validator of board files (boards/<name>/board.hw)
 *
 * The file is read line by line; each line is checked on its own and the
 * statements are collected into a struct board. Checks that need the whole
 * file (missing keywords, what firmware none allows, DIMM rank counts, rank
 * ids, range alignment, overlaps and placement in QEMU's device-memory area,
 * of ranks, vm-memory and virtio-mem alike)
 * run afterwards.
 * Errors are collected, sorted by line and the first BOARD_MAX_ERRORS are
 * printed like compiler diagnostics.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "board.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum kw {
	KW_BOARD,
	KW_ARCH,
	KW_QEMU_MACHINE,
	KW_CPUS,
	KW_BOOT_MEMORY,
	KW_MEMORY_BLOCK,
	KW_FIRMWARE,
	KW_INTERLEAVE,
	KW_DESCRIPTION,
	KW_POWER_STATE,
	KW_DIMM,
	KW_RANK,
	KW_VM_MEMORY,
	KW_BALLOON,
	KW_SCRATCH_DISK,
	KW_VIRTIO_MEM,
	KW_BMC_ID,
	KW_COUNT,
};

static const struct keyword {
	const char *name;
	bool once;		/* board-wide: at most once */
	bool required;
	const char *syntax;	/* for "expected ..." */
} keywords[KW_COUNT] = {
	[KW_BOARD]	 = { "board", true, true, "board NAME" },
	[KW_ARCH]	 = { "arch", true, true, "arch x86_64|arm64" },
	[KW_QEMU_MACHINE] = { "qemu-machine", true, true, "qemu-machine q35|virt" },
	[KW_CPUS]	 = { "cpus", true, true, "cpus N (1..64)" },
	[KW_BOOT_MEMORY] = { "boot-memory", true, true, "boot-memory SIZE" },
	[KW_MEMORY_BLOCK] = { "memory-block", true, true, "memory-block SIZE" },
	[KW_FIRMWARE]	 = { "firmware", true, true, "firmware ipmi|acpi|none" },
	[KW_INTERLEAVE]	 = { "interleave", true, true, "interleave none|N (2..8)" },
	[KW_DESCRIPTION] = { "description", true, false, "description TEXT" },
	[KW_POWER_STATE] = { "power-state", false, false,
			     "power-state NAME POWER LATENCY kept|lost" },
	[KW_DIMM]	 = { "dimm", false, false, "dimm NAME RANKS" },
	[KW_RANK]	 = { "rank", false, false, "rank ID DIMM BASE+SIZE [BASE+SIZE...]" },
	[KW_VM_MEMORY]	 = { "vm-memory", false, false, "vm-memory BASE+SIZE" },
	[KW_BALLOON]	 = { "balloon", true, false, "balloon free-page-reporting|plain" },
	[KW_SCRATCH_DISK] = { "scratch-disk", true, false, "scratch-disk SIZE" },
	[KW_VIRTIO_MEM]	 = { "virtio-mem", true, false, "virtio-mem BASE+SIZE" },
	[KW_BMC_ID]	 = { "bmc-id", true, false, "bmc-id MANUFACTURER PRODUCT" },
};

struct diag {
	int line;		/* 0: not tied to a line */
	int seq;		/* order of discovery, for a stable sort */
	char *msg;
};

/* What the parser knows about a rank line beyond struct board_rank. */
struct rank_extra {
	char *dimm_name;
	int nr_given;		/* ranges written on the line, valid or not */
};

struct parser {
	const char *fname;
	struct board *b;
	int errors;
	struct diag *diags;
	int nr_diags;
	int cap_diags;
	int line;
	int kw_line[KW_COUNT];		/* first line of a board-wide keyword */
	bool kw_valid[KW_COUNT];	/* its value was accepted */
	bool kw_suggested[KW_COUNT];	/* "did you mean" it for a typo */
	struct rank_extra *rank_extra;	/* parallel to b->ranks */
	bool rank_dropped;		/* a rank line was not accepted */
	int first_line[KW_COUNT];	/* first line of a keyword, even if rejected */
	int nr_lines[KW_COUNT];		/* lines of a keyword, even if rejected */
	bool oom;
};

/* Keep memory bounded on absurd inputs; only BOARD_MAX_ERRORS are shown. */
#define MAX_STORED_DIAGS	1000

static void xfree(void *p)
{
	free(p);
}

static void error_line(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void error_line(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	struct diag *d;
	int len;

	p->errors++;
	if (p->nr_diags >= MAX_STORED_DIAGS)
		return;
	if (p->nr_diags == p->cap_diags) {
		int cap = p->cap_diags ? 2 * p->cap_diags : 16;
		struct diag *n = realloc(p->diags, cap * sizeof(*n));

		if (!n) {
			p->oom = true;
			return;
		}
		p->diags = n;
		p->cap_diags = cap;
	}
	d = &p->diags[p->nr_diags];

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	d->msg = malloc(len + 1);
	if (!d->msg) {
		p->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(d->msg, len + 1, fmt, ap);
	va_end(ap);
	d->line = line;
	d->seq = p->nr_diags;
	p->nr_diags++;
}

#define error(p, ...)		error_line(p, (p)->line, __VA_ARGS__)
#define error_file(p, ...)	error_line(p, 0, __VA_ARGS__)

static int diag_cmp(const void *a, const void *b)
{
	const struct diag *x = a, *y = b;
	long lx = x->line ? x->line : LONG_MAX;
	long ly = y->line ? y->line : LONG_MAX;

	if (lx != ly)
		return lx < ly ? -1 : 1;
	return x->seq - y->seq;
}

static void print_diags(struct parser *p, FILE *err)
{
	int i;

	if (p->nr_diags)
		qsort(p->diags, p->nr_diags, sizeof(*p->diags), diag_cmp);
	for (i = 0; err && i < p->nr_diags && i < BOARD_MAX_ERRORS; i++) {
		if (p->diags[i].line)
			fprintf(err, "%s:%d: error: %s\n", p->fname, p->diags[i].line,
				p->diags[i].msg);
		else
			fprintf(err, "%s: error: %s\n", p->fname, p->diags[i].msg);
	}
	if (err && p->errors > BOARD_MAX_ERRORS)
		fprintf(err, "%s: note: %d more errors not shown\n", p->fname,
			p->errors - BOARD_MAX_ERRORS);
	if (err && p->oom)
		fprintf(err, "%s: error: out of memory\n", p->fname);
	for (i = 0; i < p->nr_diags; i++)
		xfree(p->diags[i].msg);
	xfree(p->diags);
	p->diags = NULL;
	p->nr_diags = p->cap_diags = 0;
}

/* ---- numbers, sizes, names ---------------------------------------------- */

/* Decimal digits at @s; *end points past them. -1 if none or overflow. */
static int parse_decimal(const char *s, unsigned long long *v, const char **end)
{
	unsigned long long n = 0;
	const char *c = s;

	if (!isdigit((unsigned char)*c))
		return -1;
	for (; isdigit((unsigned char)*c); c++) {
		unsigned int d = *c - '0';

		if (n > (ULLONG_MAX - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	*v = n;
	*end = c;
	return 0;
}

static int parse_uint(const char *s, unsigned long long *v)
{
	const char *end;

	if (parse_decimal(s, v, &end) || *end)
		return -1;
	return 0;
}

static int mul_overflows(unsigned long long a, unsigned long long b,
			 unsigned long long *r)
{
	if (b && a > ULLONG_MAX / b)
		return 1;
	*r = a * b;
	return 0;
}

static unsigned long long add_sat(unsigned long long a, unsigned long long b)
{
	return a > ULLONG_MAX - b ? ULLONG_MAX : a + b;
}

int board_parse_size(const char *s, unsigned long long *size)
{
	static const struct { char suffix; unsigned long long mult; } units[] = {
		{ 'K', BOARD_SZ_1K }, { 'M', BOARD_SZ_1M },
		{ 'G', BOARD_SZ_1G }, { 'T', BOARD_SZ_1T },
	};
	unsigned long long v;
	const char *end;
	size_t i;

	if (!s || parse_decimal(s, &v, &end))
		return -1;
	if (!*end) {
		*size = v;
		return 0;
	}
	if (end[1])
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (*end == units[i].suffix)
			return mul_overflows(v, units[i].mult, size) ? -1 : 0;
	return -1;
}

int board_parse_address(const char *s, unsigned long long *addr)
{
	unsigned long long v = 0;
	const char *c;

	if (!s)
		return -1;
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return parse_uint(s, addr);
	c = s + 2;
	if (!*c)
		return -1;
	for (; *c; c++) {
		int d;

		if (*c >= '0' && *c <= '9')
			d = *c - '0';
		else if (*c >= 'a' && *c <= 'f')
			d = *c - 'a' + 10;
		else if (*c >= 'A' && *c <= 'F')
			d = *c - 'A' + 10;
		else
			return -1;
		if (v >> 60)
			return -1;
		v = v << 4 | d;
	}
	*addr = v;
	return 0;
}

char *board_format_size(unsigned long long size, char *buf, size_t len)
{
	static const struct { char suffix; unsigned long long mult; } units[] = {
		{ 'T', BOARD_SZ_1T }, { 'G', BOARD_SZ_1G },
		{ 'M', BOARD_SZ_1M }, { 'K', BOARD_SZ_1K },
	};
	size_t i;

	for (i = 0; size && i < ARRAY_SIZE(units); i++) {
		if (size % units[i].mult == 0) {
			snprintf(buf, len, "%llu%c", size / units[i].mult,
				 units[i].suffix);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", size);
	return buf;
}

/* A number followed by one of @units; returns the value times its factor. */
struct unit {
	const char *name;
	unsigned long long mult;
};

static int parse_with_unit(const char *s, const struct unit *units, size_t n,
			   unsigned long long *v)
{
	unsigned long long num;
	const char *end;
	size_t i;

	if (parse_decimal(s, &num, &end))
		return -1;
	for (i = 0; i < n; i++)
		if (!strcmp(end, units[i].name))
			return mul_overflows(num, units[i].mult, v) ? -1 : 0;
	return -1;
}

/* Non-empty and every character in [a-z0-9] or @extra (or A-Z if @upper). */
static bool valid_name(const char *s, const char *extra, bool upper)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char c = *s;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			continue;
		if (upper && c >= 'A' && c <= 'Z')
			continue;
		if (c && strchr(extra, c))
			continue;
		return false;
	}
	return true;
}

/* Optimal string alignment distance; large for long strings. */
static int edit_distance(const char *a, const char *b)
{
	int d[33][33];
	int la = strlen(a), lb = strlen(b);
	int i, j;

	if (la > 32 || lb > 32)
		return INT_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

static char *range_str(const struct board_range *r, char *buf, size_t len)
{
	char sz[BOARD_SIZE_BUF];

	snprintf(buf, len, "0x%llx+%s", r->base,
		 board_format_size(r->size, sz, sizeof(sz)));
	return buf;
}

#define RANGE_BUF	(2 + 16 + 1 + BOARD_SIZE_BUF)

/*
 * The fixed values of the keywords that take one of a set, and the enum
 * value each stands for: what the parser accepts and what the names say.
 */
struct kw_choice {
	const char *name;
	int value;
};

static const struct kw_choice arch_choices[] = {
	{ "x86_64", BOARD_ARCH_X86_64 }, { "arm64", BOARD_ARCH_ARM64 }, { NULL, 0 },
};
static const struct kw_choice machine_choices[] = {
	{ "q35", BOARD_MACHINE_Q35 }, { "virt", BOARD_MACHINE_VIRT }, { NULL, 0 },
};
static const struct kw_choice firmware_choices[] = {
	{ "ipmi", BOARD_FIRMWARE_IPMI }, { "acpi", BOARD_FIRMWARE_ACPI },
	{ "none", BOARD_FIRMWARE_NONE }, { NULL, 0 },
};
static const struct kw_choice balloon_choices[] = {
	{ "free-page-reporting", BOARD_BALLOON_FREE_PAGE_REPORTING },
	{ "plain", BOARD_BALLOON_PLAIN }, { NULL, 0 },
};

/* The name of @value in @choices, or "none". */
static const char *choice_name(const struct kw_choice *choices, int value)
{
	int i;

	for (i = 0; choices[i].name; i++)
		if (choices[i].value == value)
			return choices[i].name;
	return "none";
}

const char *board_arch_name(enum board_arch arch)
{
	return choice_name(arch_choices, arch);
}

const char *board_machine_name(enum board_machine machine)
{
	return choice_name(machine_choices, machine);
}

const char *board_firmware_name(enum board_firmware firmware)
{
	return choice_name(firmware_choices, firmware);
}

const char *board_balloon_name(enum board_balloon balloon)
{
	return choice_name(balloon_choices, balloon);
}

/* ---- model helpers ------------------------------------------------------ */

unsigned long long board_total_rank_memory(const struct board *b)
{
	unsigned long long total = 0;
	int i, j;

	for (i = 0; i < b->nr_ranks; i++)
		for (j = 0; j < b->ranks[i].nr_ranges; j++)
			total = add_sat(total, b->ranks[i].ranges[j].size);
	return total;
}

int board_nr_ranges(const struct board *b)
{
	int i, n = 0;

	for (i = 0; i < b->nr_ranks; i++)
		n += b->ranks[i].nr_ranges;
	return n;
}

unsigned long long board_total_vm_memory(const struct board *b)
{
	unsigned long long total = 0;
	int i;

	for (i = 0; i < b->nr_vm_memory; i++)
		total = add_sat(total, b->vm_memory[i].range.size);
	return total;
}

int board_nr_slots(const struct board *b)
{
	return board_nr_ranges(b) + b->nr_vm_memory;
}

unsigned long long board_hotplug_memory(const struct board *b)
{
	return add_sat(add_sat(board_total_rank_memory(b), board_total_vm_memory(b)),
		       b->virtio_mem.range.size);
}

int board_dimm_index(const struct board *b, int rank)
{
	bool seen[BOARD_MAX_DIMMS] = { false };
	int i, n = 0;

	for (i = 0; b->ranks[i].dimm != b->ranks[rank].dimm; i++) {
		if (!seen[b->ranks[i].dimm]) {
			seen[b->ranks[i].dimm] = true;
			n++;
		}
	}
	return n;
}

static unsigned long long round_up_1g(unsigned long long v)
{
	return add_sat(v, BOARD_SZ_1G - 1) & ~(BOARD_SZ_1G - 1);
}

unsigned long long board_device_memory_base(const struct board *b)
{
	unsigned long long lowmem, above4g;

	switch (b->machine) {
	case BOARD_MACHINE_Q35:
		/* QEMU 7.2 hw/i386/pc_q35.c and pc_memory_init() */
		lowmem = b->boot_memory >= 0xb0000000ULL ? 0x80000000ULL
							   : 0xb0000000ULL;
		above4g = b->boot_memory > lowmem ? b->boot_memory - lowmem : 0;
		return round_up_1g(add_sat(0x100000000ULL, above4g));
	case BOARD_MACHINE_VIRT:
		/* QEMU 7.2 hw/arm/virt.c: RAM at 1 GiB, device memory after */
		return round_up_1g(add_sat(0x40000000ULL, b->boot_memory));
	default:
		return 0;
	}
}

unsigned long long board_device_memory_size(const struct board *b)
{
	unsigned long long slack;

	if (mul_overflows(board_nr_slots(b), BOARD_SZ_1G, &slack))
		return ULLONG_MAX;
	return add_sat(board_hotplug_memory(b), slack);
}

void board_free(struct board *b)
{
	int i;

	if (!b)
		return;
	xfree(b->name);
	xfree(b->description);
	for (i = 0; i < b->nr_power_states; i++)
		xfree(b->power_states[i].name);
	xfree(b->power_states);
	for (i = 0; i < b->nr_dimms; i++)
		xfree(b->dimms[i].name);
	xfree(b->dimms);
	for (i = 0; i < b->nr_ranks; i++)
		xfree(b->ranks[i].ranges);
	xfree(b->ranks);
	xfree(b->vm_memory);
	memset(b, 0, sizeof(*b));
}

/* ---- statements --------------------------------------------------------- */

static char *xstrdup(struct parser *p, const char *s)
{
	char *d = strdup(s);

	if (!d)
		p->oom = true;
	return d;
}

/* Check the value count of a board-wide keyword; true if exactly one. */
static bool one_value(struct parser *p, enum kw kw, int argc)
{
	if (argc == 2)
		return true;
	if (argc < 2)
		error(p, "'%s' needs a value (expected '%s')", keywords[kw].name,
		      keywords[kw].syntax);
	else
		error(p, "'%s' takes one value, got %d (expected '%s')",
		      keywords[kw].name, argc - 1, keywords[kw].syntax);
	return false;
}

static bool kw_size(struct parser *p, enum kw kw, const char *s,
		    unsigned long long *v)
{
	if (!board_parse_size(s, v))
		return true;
	error(p, "%s: '%s' is not a size (expected a decimal number with an optional suffix K, M, G or T, e.g. 512M)",
	      keywords[kw].name, s);
	return false;
}

/*
 * Look @v up in @choices; on a miss, report "unknown KEYWORD 'V' (expected
 * A, B or C)".  Return: the value found, or -1.
 */
static int kw_choose(struct parser *p, enum kw kw, const char *v,
		     const struct kw_choice *choices)
{
	char expected[256] = "";
	size_t len = 0;
	int i;

	for (i = 0; choices[i].name; i++)
		if (!strcmp(v, choices[i].name))
			return choices[i].value;
	for (i = 0; choices[i].name; i++)
		len += snprintf(expected + len, sizeof(expected) - len, "%s%s",
				!i ? "" : choices[i + 1].name ? ", " : " or ",
				choices[i].name);
	error(p, "unknown %s '%s' (expected %s)", keywords[kw].name, v, expected);
	return -1;
}

static bool stmt_global(struct parser *p, enum kw kw, int argc, char **argv)
{
	struct board *b = p->b;
	const char *v = argv[1];
	unsigned long long n;
	int c;

	if (!one_value(p, kw, argc))
		return false;

	switch (kw) {
	case KW_BOARD:
		if (!valid_name(v, "_-", false)) {
			error(p, "board name '%s' is not valid (expected [a-z0-9_-]+)", v);
			return false;
		}
		b->name = xstrdup(p, v);
		return b->name != NULL;
	case KW_ARCH:
		c = kw_choose(p, kw, v, arch_choices);
		if (c >= 0)
			b->arch = c;
		return c >= 0;
	case KW_QEMU_MACHINE:
		c = kw_choose(p, kw, v, machine_choices);
		if (c >= 0)
			b->machine = c;
		return c >= 0;
	case KW_CPUS:
		if (parse_uint(v, &n) || n < 1 || n > BOARD_MAX_CPUS) {
			error(p, "cpus: '%s' is not a number in 1..%d", v, BOARD_MAX_CPUS);
			return false;
		}
		b->cpus = n;
		return true;
	case KW_BOOT_MEMORY:
		if (!kw_size(p, kw, v, &n))
			return false;
		if (!n) {
			error(p, "boot-memory must not be 0");
			return false;
		}
		b->boot_memory = n;
		return true;
	case KW_MEMORY_BLOCK:
		if (!kw_size(p, kw, v, &n))
			return false;
		if (n < BOARD_MIN_MEMORY_BLOCK || (n & (n - 1))) {
			error(p, "memory-block %s is not a power of two >= 2M", v);
			return false;
		}
		b->memory_block = n;
		return true;
	case KW_FIRMWARE:
		c = kw_choose(p, kw, v, firmware_choices);
		if (c >= 0)
			b->firmware = c;
		return c >= 0;
	case KW_INTERLEAVE:
		if (!strcmp(v, "none")) {
			b->interleave = 0;
			return true;
		}
		if (parse_uint(v, &n) || n < 2 || n > BOARD_MAX_INTERLEAVE) {
			error(p, "interleave '%s' is not valid (expected none or a number of ways in 2..%d)",
			      v, BOARD_MAX_INTERLEAVE);
			return false;
		}
		b->interleave = n;
		return true;
	case KW_BALLOON:
		c = kw_choose(p, kw, v, balloon_choices);
		if (c >= 0)
			b->balloon = c;
		return c >= 0;
	case KW_SCRATCH_DISK:
		if (!kw_size(p, kw, v, &n))
			return false;
		if (!n || n % BOARD_SZ_1M) {
			error(p, "scratch-disk %s is not a positive multiple of 1M", v);
			return false;
		}
		b->scratch_disk = n;
		return true;
	default:
		return false;
	}
}

static void stmt_power_state(struct parser *p, int argc, char **argv)
{
	static const struct unit power_units[] = { { "mW", 1 }, { "W", 1000 } };
	static const struct unit latency_units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	struct board *b = p->b;
	struct board_power_state ps = { .line = p->line };
	const char *name = argv[1];
	bool ok = true;
	int i;

	if (argc != 5) {
		error(p, "'power-state' takes 4 values, got %d (expected 'power-state NAME POWER LATENCY kept|lost', e.g. 'power-state off 0mW 20ms lost')",
		      argc - 1);
		return;
	}
	if (!valid_name(name, "-", false)) {
		error(p, "power-state name '%s' is not valid (expected [a-z0-9-]+)", name);
		return;
	}
	for (i = 0; i < b->nr_power_states; i++) {
		if (!strcmp(b->power_states[i].name, name)) {
			error(p, "duplicate power-state '%s' (first given on line %d)", name,
			      b->power_states[i].line);
			return;
		}
	}
	if (b->nr_power_states >= BOARD_MAX_POWER_STATES) {
		error(p, "power-state '%s': too many power states (at most %d)", name,
		      BOARD_MAX_POWER_STATES);
		return;
	}
	if (parse_with_unit(argv[2], power_units, ARRAY_SIZE(power_units),
			    &ps.power_mw)) {
		error(p, "power-state '%s': power '%s' is not a number with unit mW or W",
		      name, argv[2]);
		ok = false;
	}
	if (parse_with_unit(argv[3], latency_units, ARRAY_SIZE(latency_units),
			    &ps.latency_ns)) {
		error(p, "power-state '%s': latency '%s' is not a number with unit ns, us, ms or s",
		      name, argv[3]);
		ok = false;
	}
	if (!strcmp(argv[4], "kept")) {
		ps.contents_kept = true;
	} else if (!strcmp(argv[4], "lost")) {
		ps.contents_kept = false;
	} else {
		error(p, "power-state '%s': contents '%s' is not valid (expected kept or lost)",
		      name, argv[4]);
		ok = false;
	}
	if (ok && !strcmp(name, "on") && !ps.contents_kept)
		error(p, "power-state 'on' must keep the contents (expected 'kept')");
	if (ok && !strcmp(name, "off") && ps.contents_kept)
		error(p, "power-state 'off' must lose the contents (expected 'lost')");

	/* Record it even if a figure was bad: avoids a "missing 'on'" cascade. */
	if (!b->power_states) {
		b->power_states = calloc(BOARD_MAX_POWER_STATES, sizeof(ps));
		if (!b->power_states) {
			p->oom = true;
			return;
		}
	}
	ps.name = xstrdup(p, name);
	if (!ps.name)
		return;
	b->power_states[b->nr_power_states++] = ps;
}

static void stmt_dimm(struct parser *p, int argc, char **argv)
{
	struct board *b = p->b;
	struct board_dimm d = { .line = p->line };
	const char *name = argv[1];
	unsigned long long n;
	int i;

	if (argc != 3) {
		error(p, "'dimm' takes 2 values, got %d (expected 'dimm NAME RANKS', e.g. 'dimm DIMM0 2')",
		      argc - 1);
		return;
	}
	if (!valid_name(name, "_-", true)) {
		error(p, "dimm name '%s' is not valid (expected [A-Za-z0-9_-]+)", name);
		return;
	}
	for (i = 0; i < b->nr_dimms; i++) {
		if (!strcmp(b->dimms[i].name, name)) {
			error(p, "duplicate dimm '%s' (first declared on line %d)", name,
			      b->dimms[i].line);
			return;
		}
	}
	if (b->nr_dimms >= BOARD_MAX_DIMMS) {
		error(p, "dimm '%s': too many dimms (at most %d)", name, BOARD_MAX_DIMMS);
		return;
	}
	if (parse_uint(argv[2], &n) || n < 1 || n > BOARD_MAX_DIMM_RANKS) {
		error(p, "dimm '%s': ranks '%s' is not a number in 1..%d", name, argv[2],
		      BOARD_MAX_DIMM_RANKS);
		d.nr_ranks = -1;	/* unknown: skip the rank count check */
	} else {
		d.nr_ranks = n;
	}
	if (!b->dimms) {
		b->dimms = calloc(BOARD_MAX_DIMMS, sizeof(d));
		if (!b->dimms) {
			p->oom = true;
			return;
		}
	}
	d.name = xstrdup(p, name);
	if (!d.name)
		return;
	b->dimms[b->nr_dimms++] = d;
}

/*
 * Parse a range BASE+SIZE (@text is modified) of @owner ("rank 3",
 * "vm-memory"), the prefix of the messages. True if @rg was filled in.
 */
static bool parse_range(struct parser *p, const char *owner, char *text,
			struct board_range *rg)
{
	char *plus = strchr(text, '+');

	if (!plus) {
		error(p, "%s: range '%s' is not BASE+SIZE (e.g. 0x100000000+512M)",
		      owner, text);
		return false;
	}
	*plus = '\0';
	if (board_parse_address(text, &rg->base)) {
		error(p, "%s: range '%s+%s': base '%s' is not an address (expected 0x-prefixed hex or decimal)",
		      owner, text, plus + 1, text);
		return false;
	}
	if (board_parse_size(plus + 1, &rg->size)) {
		error(p, "%s: range '%s+%s': size '%s' is not a size (expected a decimal number with an optional suffix K, M, G or T, e.g. 512M)",
		      owner, text, plus + 1, plus + 1);
		return false;
	}
	if (!rg->size) {
		error(p, "%s: range '%s+%s': size must be greater than 0",
		      owner, text, plus + 1);
		return false;
	}
	if (rg->base > ULLONG_MAX - rg->size + 1) {
		error(p, "%s: range '%s+%s' wraps around the address space",
		      owner, text, plus + 1);
		return false;
	}
	return true;
}

static void stmt_rank(struct parser *p, int argc, char **argv)
{
	struct board *b = p->b;
	struct board_rank r = { .line = p->line, .dimm = -1 };
	struct rank_extra x;
	unsigned long long id;
	char owner[16];
	int i;

	if (argc < 4) {
		error(p, "'rank' takes at least 3 values, got %d (expected 'rank ID DIMM BASE+SIZE [BASE+SIZE...]', e.g. 'rank 0 DIMM0 0x100000000+512M')",
		      argc - 1);
		p->rank_dropped = true;
		return;
	}
	if (parse_uint(argv[1], &id) || id >= BOARD_MAX_RANKS) {
		error(p, "rank '%s': id is not a number in 0..%d", argv[1],
		      BOARD_MAX_RANKS - 1);
		p->rank_dropped = true;
		return;
	}
	r.id = id;
	for (i = 0; i < b->nr_ranks; i++) {
		if (b->ranks[i].id == r.id) {
			error(p, "duplicate rank %d (first declared on line %d)", r.id,
			      b->ranks[i].line);
			p->rank_dropped = true;
			return;
		}
	}
	if (b->nr_ranks >= BOARD_MAX_RANKS) {
		error(p, "rank %d: too many ranks (at most %d)", r.id, BOARD_MAX_RANKS);
		p->rank_dropped = true;
		return;
	}
	x.nr_given = argc - 3;
	if (x.nr_given > BOARD_MAX_RANK_RANGES) {
		error(p, "rank %d: %d ranges, at most %d per rank", r.id, x.nr_given,
		      BOARD_MAX_RANK_RANGES);
		p->rank_dropped = true;
		return;
	}

	r.ranges = calloc(x.nr_given, sizeof(*r.ranges));
	x.dimm_name = xstrdup(p, argv[2]);
	if (!r.ranges || !x.dimm_name) {
		p->oom = true;
		xfree(r.ranges);
		xfree(x.dimm_name);
		return;
	}
	snprintf(owner, sizeof(owner), "rank %d", r.id);
	for (i = 3; i < argc; i++)
		if (parse_range(p, owner, argv[i], &r.ranges[r.nr_ranges]))
			r.nr_ranges++;

	if (!b->ranks) {
		b->ranks = calloc(BOARD_MAX_RANKS, sizeof(r));
		p->rank_extra = calloc(BOARD_MAX_RANKS, sizeof(x));
		if (!b->ranks || !p->rank_extra) {
			p->oom = true;
			xfree(b->ranks);
			xfree(p->rank_extra);
			b->ranks = NULL;
			p->rank_extra = NULL;
			xfree(r.ranges);
			xfree(x.dimm_name);
			return;
		}
	}
	p->rank_extra[b->nr_ranks] = x;
	b->ranks[b->nr_ranks++] = r;
}

static void stmt_vm_memory(struct parser *p, int argc, char **argv)
{
	struct board *b = p->b;
	struct board_vm_memory m = { .line = p->line };

	if (argc != 2) {
		error(p, "'vm-memory' takes 1 value, got %d (expected 'vm-memory BASE+SIZE', e.g. 'vm-memory 0x100000000+1G')",
		      argc - 1);
		return;
	}
	if (b->nr_vm_memory >= BOARD_MAX_RANGES) {
		error(p, "vm-memory: too many ranges (at most %d)", BOARD_MAX_RANGES);
		return;
	}
	if (!parse_range(p, "vm-memory", argv[1], &m.range))
		return;
	if (!b->vm_memory) {
		b->vm_memory = calloc(BOARD_MAX_RANGES, sizeof(m));
		if (!b->vm_memory) {
			p->oom = true;
			return;
		}
	}
	b->vm_memory[b->nr_vm_memory++] = m;
}

/*
 * 'virtio-mem BASE+SIZE': a virtio-mem-pci device whose memory lies at
 * BASE (its memaddr), all SIZE of it plugged at boot. Where it may be (VM
 * boards on q35, in the device-memory area, aligned like the other ranges)
 * is checked with the whole board.
 */
static bool stmt_virtio_mem(struct parser *p, int argc, char **argv)
{
	struct board_virtio_mem m = { .line = p->line };

	if (argc != 2) {
		error(p, "'virtio-mem' takes 1 value, got %d (expected 'virtio-mem BASE+SIZE', e.g. 'virtio-mem 0x180000000+256M')",
		      argc - 1);
		return false;
	}
	if (!parse_range(p, "virtio-mem", argv[1], &m.range))
		return false;
	p->b->virtio_mem = m;
	return true;
}

/*
 * 'bmc-id MANUFACTURER PRODUCT': what the BMC's Get Device ID reports, an
 * IANA enterprise number (20 bits, 0xfffff reserved) and a product ID
 * (16 bits); decimal or 0x hex.
 */
static bool stmt_bmc_id(struct parser *p, int argc, char **argv)
{
	unsigned long long mfg, prod;

	if (argc != 3) {
		error(p, "'bmc-id' takes two values, got %d (expected '%s')", argc - 1,
		      keywords[KW_BMC_ID].syntax);
		return false;
	}
	if (board_parse_address(argv[1], &mfg) || mfg >= 0xfffff) {
		error(p, "bmc-id manufacturer '%s' is not valid (expected an IANA enterprise number, 0..1048574)",
		      argv[1]);
		return false;
	}
	if (board_parse_address(argv[2], &prod) || prod > 0xffff) {
		error(p, "bmc-id product '%s' is not valid (expected a product ID, 0..0xffff)",
		      argv[2]);
		return false;
	}
	p->b->bmc_manufacturer = mfg;
	p->b->bmc_product = prod;
	return true;
}

static int lookup_keyword(const char *word)
{
	int i;

	for (i = 0; i < KW_COUNT; i++)
		if (!strcmp(word, keywords[i].name))
			return i;
	return -1;
}

static void unknown_keyword(struct parser *p, const char *word)
{
	int i, best = -1, best_dist = 3;

	for (i = 0; i < KW_COUNT; i++) {
		int d = edit_distance(word, keywords[i].name);

		if (d < best_dist) {
			best_dist = d;
			best = i;
		}
	}
	/*
	 * Avoid follow-up errors: a mistyped rank line would make the rank
	 * counts and ids look wrong, a mistyped board-wide keyword missing.
	 */
	if (best == KW_RANK)
		p->rank_dropped = true;
	if (best >= 0)
		p->kw_suggested[best] = true;
	if (best >= 0)
		error(p, "unknown keyword '%s' (did you mean '%s'?)", word,
		      keywords[best].name);
	else
		error(p, "unknown keyword '%.40s%s' (expected one of board, arch, qemu-machine, cpus, boot-memory, memory-block, firmware, interleave, description, power-state, dimm, rank, vm-memory, balloon, scratch-disk, virtio-mem, bmc-id)",
		      word, strlen(word) > 40 ? "..." : "");
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Handle one line, comment already stripped. Modifies @line. */
static void parse_line(struct parser *p, char *line)
{
	/* A line of at most BOARD_MAX_LINE characters has at most this many. */
	char *argv[BOARD_MAX_LINE / 2 + 2];
	int argc = 0;
	char *s = line;
	int kw;

	while (*s) {
		while (is_blank(*s))
			*s++ = '\0';
		if (!*s)
			break;
		if (argc < (int)ARRAY_SIZE(argv))
			argv[argc++] = s;
		while (*s && !is_blank(*s))
			s++;
	}
	if (!argc)
		return;

	kw = lookup_keyword(argv[0]);
	if (kw < 0) {
		unknown_keyword(p, argv[0]);
		return;
	}
	if (keywords[kw].once && p->kw_line[kw]) {
		error(p, "duplicate '%s' (first given on line %d)", keywords[kw].name,
		      p->kw_line[kw]);
		return;
	}
	if (!p->first_line[kw])
		p->first_line[kw] = p->line;
	p->nr_lines[kw]++;
	switch (kw) {
	case KW_DESCRIPTION:
		/* handled by parse_description(), which sees the raw text */
		break;
	case KW_POWER_STATE:
		stmt_power_state(p, argc, argv);
		break;
	case KW_DIMM:
		stmt_dimm(p, argc, argv);
		break;
	case KW_RANK:
		stmt_rank(p, argc, argv);
		break;
	case KW_VM_MEMORY:
		stmt_vm_memory(p, argc, argv);
		break;
	case KW_VIRTIO_MEM:
		p->kw_line[kw] = p->line;
		p->kw_valid[kw] = stmt_virtio_mem(p, argc, argv);
		break;
	case KW_BMC_ID:
		p->kw_line[kw] = p->line;
		p->kw_valid[kw] = stmt_bmc_id(p, argc, argv);
		break;
	default:
		p->kw_line[kw] = p->line;
		p->kw_valid[kw] = stmt_global(p, kw, argc, argv);
		break;
	}
}

/* 'description' keeps the rest of the line verbatim (trimmed). */
static bool parse_description(struct parser *p, char *line)
{
	static const char kw[] = "description";
	char *s = line, *end;

	while (is_blank(*s))
		s++;
	if (strncmp(s, kw, sizeof(kw) - 1) ||
	    (s[sizeof(kw) - 1] && !is_blank(s[sizeof(kw) - 1])))
		return false;
	if (p->kw_line[KW_DESCRIPTION]) {
		error(p, "duplicate 'description' (first given on line %d)",
		      p->kw_line[KW_DESCRIPTION]);
		return true;
	}
	p->kw_line[KW_DESCRIPTION] = p->line;
	s += sizeof(kw) - 1;
	while (is_blank(*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_blank(end[-1]))
		*--end = '\0';
	if (!*s) {
		error(p, "'description' needs a text (expected 'description TEXT')");
		return true;
	}
	p->b->description = xstrdup(p, s);
	p->kw_valid[KW_DESCRIPTION] = p->b->description != NULL;
	return true;
}

/* ---- whole-board checks ------------------------------------------------- */

static int find_dimm(const struct board *b, const char *name)
{
	int i;

	for (i = 0; i < b->nr_dimms; i++)
		if (!strcmp(b->dimms[i].name, name))
			return i;
	return -1;
}

static const struct board_power_state *find_state(const struct board *b,
						   const char *name)
{
	int i;

	for (i = 0; i < b->nr_power_states; i++)
		if (!strcmp(b->power_states[i].name, name))
			return &b->power_states[i];
	return NULL;
}

/* [.../]boards/NAME/board.hw: the folder name must match 'board NAME'. */
static void check_folder_name(struct parser *p)
{
	static const char tail[] = "/board.hw";
	const char *f = p->fname, *end, *start;
	size_t len = strlen(f);

	if (!p->kw_valid[KW_BOARD] || len < sizeof(tail) ||
	    strcmp(f + len - (sizeof(tail) - 1), tail))
		return;
	end = f + len - (sizeof(tail) - 1);
	start = end;
	while (start > f && start[-1] != '/')
		start--;
	if (start == end || start - f < 7 || strncmp(start - 7, "boards/", 7) ||
	    (start - f > 7 && start[-8] != '/'))
		return;
	if ((size_t)(end - start) != strlen(p->b->name) ||
	    strncmp(start, p->b->name, end - start))
		error_line(p, p->kw_line[KW_BOARD],
			   "board name '%s' does not match its folder '%.*s' (expected 'board %.*s')",
			   p->b->name, (int)(end - start), start, (int)(end - start), start);
}

/* A range to check, with what declares it, for the messages. */
struct placed {
	const struct board_range *rg;
	int line;
	int owner;		/* ranges of one owner (rank, vm-memory line) */
	char name[16];		/* "rank 3", "vm-memory", "virtio-mem" */
	const char *kind;	/* "rank memory", "vm-memory", "virtio-mem" */
	const char *area;	/* what QEMU's device-memory area is sized for */
};

/*
 * The ranges of the board's hot-pluggable memory: the ranks' or, on a VM
 * board, the vm-memory lines and the virtio-mem device (the other kind is
 * an error of its own there).
 * Return: the number of entries of *@out, -1 if out of memory.
 */
static int collect_ranges(struct parser *p, bool ranks, bool vm, struct placed **out)
{
	struct board *b = p->b;
	int n = 0, i, j;

	*out = calloc(board_nr_ranges(b) + b->nr_vm_memory + 2, sizeof(**out));
	if (!*out) {
		p->oom = true;
		return -1;
	}
	for (i = 0; ranks && i < b->nr_ranks; i++) {
		const struct board_rank *r = &b->ranks[i];

		for (j = 0; j < r->nr_ranges; j++, n++) {
			(*out)[n] = (struct placed){ &r->ranges[j], r->line, i, "", "rank memory",
						     "rank memory plus 1G per range" };
			snprintf((*out)[n].name, sizeof((*out)[n].name), "rank %d", r->id);
		}
	}
	for (i = 0; vm && i < b->nr_vm_memory; i++, n++)
		(*out)[n] = (struct placed){ &b->vm_memory[i].range, b->vm_memory[i].line,
					     b->nr_ranks + i, "vm-memory", "vm-memory",
					     b->virtio_mem.range.size ?
					     "vm-memory and virtio-mem plus 1G per vm-memory range" :
					     "vm-memory plus 1G per range" };
	if (vm && b->virtio_mem.range.size)
		(*out)[n++] = (struct placed){ &b->virtio_mem.range, b->virtio_mem.line,
					       b->nr_ranks + b->nr_vm_memory, "virtio-mem",
					       "virtio-mem",
					       "vm-memory and virtio-mem plus 1G per vm-memory range" };
	return n;
}

/*
 * Alignment to memory-block, overlaps (reported on the later line) and
 * placement in QEMU's device-memory area of the ranges that get a pc-dimm.
 */
static void check_ranges(struct parser *p, bool ranks, bool vm)
{
	struct board *b = p->b;
	char s1[RANGE_BUF], s2[RANGE_BUF], sz[BOARD_SIZE_BUF];
	struct placed *pl;
	int n, i, k, slots;

	n = collect_ranges(p, ranks, vm, &pl);
	if (n < 0)
		return;
	/* the virtio-mem device has no pc-dimm slot */
	slots = n - (vm && b->virtio_mem.range.size ? 1 : 0);

	if (p->kw_valid[KW_MEMORY_BLOCK]) {
		board_format_size(b->memory_block, sz, sizeof(sz));
		for (i = 0; i < n; i++) {
			range_str(pl[i].rg, s1, sizeof(s1));
			if (pl[i].rg->base % b->memory_block)
				error_line(p, pl[i].line, "%s: range %s: base is not a multiple of memory-block (%s)",
					   pl[i].name, s1, sz);
			if (pl[i].rg->size % b->memory_block)
				error_line(p, pl[i].line, "%s: range %s: size is not a multiple of memory-block (%s)",
					   pl[i].name, s1, sz);
		}
	}

	for (i = 0; i < n; i++) {
		const struct board_range *a = pl[i].rg;

		for (k = 0; k < i; k++) {
			const struct board_range *o = pl[k].rg;

			if (a->base > o->base + (o->size - 1) ||
			    o->base > a->base + (a->size - 1))
				continue;
			range_str(a, s1, sizeof(s1));
			range_str(o, s2, sizeof(s2));
			if (pl[k].owner == pl[i].owner)
				error_line(p, pl[i].line, "%s: range %s overlaps its range %s",
					   pl[i].name, s1, s2);
			else
				error_line(p, pl[i].line, "%s: range %s overlaps range %s of %s (line %d)",
					   pl[i].name, s1, s2, pl[k].name, pl[k].line);
		}
	}

	if (p->kw_valid[KW_QEMU_MACHINE] && p->kw_valid[KW_BOOT_MEMORY] && n) {
		unsigned long long base = board_device_memory_base(b);
		unsigned long long end = add_sat(base, board_device_memory_size(b));
		char bm[BOARD_SIZE_BUF];

		board_format_size(b->boot_memory, bm, sizeof(bm));
		for (i = 0; i < n; i++) {
			const struct board_range *rg = pl[i].rg;

			range_str(rg, s1, sizeof(s1));
			if (rg->base < base)
				error_line(p, pl[i].line, "%s: range %s starts below the device-memory base 0x%llx (%s with boot-memory %s); %s must lie in 0x%llx..0x%llx",
					   pl[i].name, s1, base,
					   board_machine_name(b->machine), bm,
					   pl[i].kind, base, end);
			else if (add_sat(rg->base, rg->size - 1) >= end)
				error_line(p, pl[i].line, "%s: range %s ends beyond the device-memory area 0x%llx..0x%llx (%s)",
					   pl[i].name, s1, base, end, pl[i].area);
		}
	}

	if (slots > BOARD_MAX_RANGES)
		error_file(p, "%d ranges in total, at most %d (one QEMU pc-dimm slot each)",
			   slots, BOARD_MAX_RANGES);
	xfree(pl);
}

static void check_rank_ids(struct parser *p)
{
	struct board *b = p->b;
	bool seen[BOARD_MAX_RANKS] = { false };
	char missing[BOARD_MAX_RANKS * 4];
	size_t off = 0;
	int i;

	for (i = 0; i < b->nr_ranks; i++)
		seen[b->ranks[i].id] = true;
	missing[0] = '\0';
	for (i = 0; i < b->nr_ranks; i++)
		if (!seen[i])
			off += snprintf(missing + off, sizeof(missing) - off, "%s%d",
					off ? ", " : "", i);
	for (i = 0; i < b->nr_ranks; i++) {
		const struct board_rank *r = &b->ranks[i];

		if (r->id >= b->nr_ranks)
			error_line(p, r->line, "rank %d: rank ids must be 0..%d with no gaps (missing: %s)",
				   r->id, b->nr_ranks - 1, missing);
	}
}

/*
 * 'firmware none': a VM guest. It has no rank power control, so no power
 * states, DIMMs or ranks; its hot-pluggable memory is vm-memory instead.
 */
static void check_vm_board(struct parser *p)
{
	static const enum kw rank_kws[] = { KW_POWER_STATE, KW_DIMM, KW_RANK };
	struct board *b = p->b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rank_kws); i++) {
		enum kw kw = rank_kws[i];

		if (p->nr_lines[kw])
			error_line(p, p->first_line[kw], "'%s' with firmware none (line %d): a VM guest has no rank power control, so no power states, DIMMs or ranks; its hot-pluggable memory is 'vm-memory BASE+SIZE' (%d '%s' line%s)",
				   keywords[kw].name, p->kw_line[KW_FIRMWARE], p->nr_lines[kw],
				   keywords[kw].name, p->nr_lines[kw] == 1 ? "" : "s");
	}
	if (p->kw_valid[KW_INTERLEAVE] && b->interleave)
		error_line(p, p->kw_line[KW_INTERLEAVE], "interleave %d with firmware none (line %d): a VM guest has no ranks to interleave (expected 'interleave none', or no interleave line)",
			   b->interleave, p->kw_line[KW_FIRMWARE]);
	if (p->kw_line[KW_BMC_ID])
		error_line(p, p->kw_line[KW_BMC_ID], "'bmc-id' with firmware none (line %d): a VM guest has no BMC",
			   p->kw_line[KW_FIRMWARE]);
	if (!p->nr_lines[KW_VM_MEMORY] && !p->kw_suggested[KW_VM_MEMORY])
		error_file(p, "no 'vm-memory' lines (firmware none expects at least one 'vm-memory BASE+SIZE', the memory the guest may give back)");
	if (p->kw_valid[KW_VIRTIO_MEM] && p->kw_valid[KW_QEMU_MACHINE] &&
	    b->machine != BOARD_MACHINE_Q35)
		error_line(p, p->kw_line[KW_VIRTIO_MEM], "'virtio-mem' needs qemu-machine q35, but it is %s (line %d): QEMU 7.2 has no virtio-mem on %s",
			   board_machine_name(b->machine), p->kw_line[KW_QEMU_MACHINE],
			   board_machine_name(b->machine));
	check_ranges(p, false, true);
}

static void check_board(struct parser *p)
{
	struct board *b = p->b;
	const struct board_power_state *ps;
	char s1[BOARD_SIZE_BUF], s2[BOARD_SIZE_BUF];
	bool vm = p->kw_valid[KW_FIRMWARE] && b->firmware == BOARD_FIRMWARE_NONE;
	int i, j;

	for (i = 0; i < KW_COUNT; i++)
		if (keywords[i].required && !p->kw_line[i] && !p->kw_suggested[i] &&
		    !(vm && i == KW_INTERLEAVE))
			error_file(p, "missing '%s' (expected '%s')", keywords[i].name,
				   keywords[i].syntax);

	check_folder_name(p);

	if (p->kw_valid[KW_QEMU_MACHINE] && p->kw_valid[KW_ARCH]) {
		enum board_arch want = b->machine == BOARD_MACHINE_Q35 ?
				       BOARD_ARCH_X86_64 : BOARD_ARCH_ARM64;

		if (b->arch != want)
			error_line(p, p->kw_line[KW_QEMU_MACHINE],
				   "qemu-machine %s requires arch %s, but arch is %s (line %d)",
				   board_machine_name(b->machine), board_arch_name(want),
				   board_arch_name(b->arch), p->kw_line[KW_ARCH]);
	}

	if (p->kw_valid[KW_BOOT_MEMORY] && p->kw_valid[KW_MEMORY_BLOCK] &&
	    b->boot_memory % b->memory_block)
		error_line(p, p->kw_line[KW_BOOT_MEMORY],
			   "boot-memory %s is not a multiple of memory-block (%s)",
			   board_format_size(b->boot_memory, s1, sizeof(s1)),
			   board_format_size(b->memory_block, s2, sizeof(s2)));

	if (vm) {
		check_vm_board(p);
		return;
	}
	if (p->nr_lines[KW_VM_MEMORY] && p->kw_valid[KW_FIRMWARE])
		error_line(p, p->first_line[KW_VM_MEMORY], "'vm-memory' needs firmware none, but firmware is %s (line %d): a server's hot-pluggable memory is its ranks (%d 'vm-memory' line%s)",
			   board_firmware_name(b->firmware), p->kw_line[KW_FIRMWARE],
			   p->nr_lines[KW_VM_MEMORY], p->nr_lines[KW_VM_MEMORY] == 1 ? "" : "s");
	if (p->kw_line[KW_VIRTIO_MEM] && p->kw_valid[KW_FIRMWARE])
		error_line(p, p->kw_line[KW_VIRTIO_MEM], "'virtio-mem' needs firmware none, but firmware is %s (line %d): a server's hot-pluggable memory is its ranks",
			   board_firmware_name(b->firmware), p->kw_line[KW_FIRMWARE]);

	ps = find_state(b, "on");
	if (!ps)
		error_file(p, "missing power-state 'on' (every board needs 'power-state on POWER LATENCY kept')");
	ps = find_state(b, "off");
	if (!ps)
		error_file(p, "missing power-state 'off' (every board needs 'power-state off POWER LATENCY lost')");

	if (!b->nr_dimms)
		error_file(p, "no 'dimm' lines (expected at least one 'dimm NAME RANKS')");
	if (!b->nr_ranks && !p->rank_dropped)
		error_file(p, "no 'rank' lines (expected at least one 'rank ID DIMM BASE+SIZE')");

	/* ranks name declared dimms */
	for (i = 0; i < b->nr_ranks; i++) {
		struct board_rank *r = &b->ranks[i];

		r->dimm = find_dimm(b, p->rank_extra[i].dimm_name);
		if (r->dimm < 0)
			error_line(p, r->line, "rank %d: dimm '%s' is not declared (expected a 'dimm %s RANKS' line)",
				   r->id, p->rank_extra[i].dimm_name,
				   p->rank_extra[i].dimm_name);
	}

	/* each dimm gets the ranks it declares */
	for (i = 0; i < b->nr_dimms; i++) {
		const struct board_dimm *d = &b->dimms[i];
		int n = 0;

		if (d->nr_ranks < 0 || p->rank_dropped)
			continue;
		for (j = 0; j < b->nr_ranks; j++)
			n += b->ranks[j].dimm == i;
		if (n != d->nr_ranks)
			error_line(p, d->line, "dimm '%s' declares %d rank%s, but %d rank line%s name%s it",
				   d->name, d->nr_ranks, d->nr_ranks == 1 ? "" : "s", n,
				   n == 1 ? "" : "s", n == 1 ? "s" : "");
	}

	if (!p->rank_dropped)
		check_rank_ids(p);

	if (p->kw_valid[KW_INTERLEAVE] && b->interleave == 0) {
		for (i = 0; i < b->nr_ranks; i++)
			if (p->rank_extra[i].nr_given != 1)
				error_line(p, b->ranks[i].line, "rank %d: interleave none allows exactly one range per rank, got %d (use 'interleave N' for interleaved ranks)",
					   b->ranks[i].id, p->rank_extra[i].nr_given);
	}

	check_ranges(p, true, false);
}

static int rank_id_cmp(const void *a, const void *b)
{
	const struct board_rank *x = a, *y = b;

	return x->id - y->id;
}

int board_parse(FILE *f, const char *name, struct board *b, FILE *err)
{
	struct parser p = { .fname = name, .b = b };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int i, errors;

	memset(b, 0, sizeof(*b));
	b->bmc_manufacturer = BOARD_BMC_MANUFACTURER;
	b->bmc_product = BOARD_BMC_PRODUCT;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *hash;

		p.line++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > BOARD_MAX_LINE) {
			error(&p, "line is too long (%zd characters, at most %d)", len,
			      BOARD_MAX_LINE);
			continue;
		}
		if ((size_t)len != strlen(line)) {
			error(&p, "line contains a NUL character");
			continue;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (parse_description(&p, line))
			continue;
		parse_line(&p, line);
	}
	if (ferror(f))
		error_file(&p, "read error: %s", strerror(errno));
	free(line);

	if (!p.oom)
		check_board(&p);

	if (p.rank_extra)
		for (i = 0; i < b->nr_ranks; i++)
			xfree(p.rank_extra[i].dimm_name);
	xfree(p.rank_extra);

	if (p.oom)
		p.errors++;
	errors = p.errors;
	print_diags(&p, err);
	if (errors)
		board_free(b);
	else if (b->nr_ranks)
		qsort(b->ranks, b->nr_ranks, sizeof(*b->ranks), rank_id_cmp);
	return errors;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * mpst-dump - check and print the ACPI MPST (Memory Power State Table)
 *
 *   mpst-dump [FILE]        (default /sys/firmware/acpi/tables/MPST)
 *
 * Prints, all numbers decimal unless 0x-prefixed:
 *
 *   node ID 0xFLAGS 0xBASE SIZE VALUE:INDEX[,VALUE:INDEX...] COMPONENT[,COMPONENT...]
 *   char INDEX 0xSTRUCTURE-ID 0xFLAGS POWER-mW SAVING LATENCY-ns
 *   mpst CHANNEL NODES CHARACTERISTICS
 *
 * one "node" line per memory power node structure, in table order, one
 * "char" line per memory power state characteristics structure (ACPI 6.0
 * section 5.2.21), and a last "mpst" line once the whole table was read.
 * Signature, length and checksum are checked first; a structure whose length
 * does not fit its counts or the table stops the dump.
 *
 * Exit status: 0 printed, 1 unreadable or malformed table (reason on stderr),
 * 2 usage.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACPI_HEADER_SIZE	36
#define MPST_FIXED_SIZE		(ACPI_HEADER_SIZE + 8)	/* channel .. reserved */
#define MPST_NODE_SIZE		32
#define MPST_CHAR_HEADER_SIZE	4
#define MPST_CHAR_SIZE		28
#define MPST_MAX_SIZE		(1 << 20)

static const unsigned char *tbl;
static size_t tbl_len;

static unsigned long long get(size_t off, int bytes)
{
	unsigned long long v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | tbl[off + i];
	return v;
}

static int bad(const char *what, size_t off)
{
	fprintf(stderr, "mpst-dump: malformed MPST: %s (offset %zu, table %zu bytes)\n",
		what, off, tbl_len);
	return 1;
}

static int dump(void)
{
	unsigned int nodes, chars, i, j, n, m;
	unsigned char sum = 0;
	size_t off, k;

	if (tbl_len < MPST_FIXED_SIZE || memcmp(tbl, "MPST", 4))
		return bad("no MPST signature or too short", 0);
	if (get(4, 4) != tbl_len)
		return bad("header length differs from the table's size", 4);
	for (k = 0; k < tbl_len; k++)
		sum += tbl[k];
	if (sum)
		return bad("checksum does not add up to 0", 9);

	nodes = get(40, 2);
	off = MPST_FIXED_SIZE;
	for (i = 0; i < nodes; i++) {
		if (off + MPST_NODE_SIZE > tbl_len)
			return bad("node structure runs past the end", off);
		n = get(off + 24, 4);
		m = get(off + 28, 4);
		if (n > 255 || m > 255 ||
		    get(off + 4, 4) != MPST_NODE_SIZE + 2 * n + 2 * m)
			return bad("node structure length does not match its counts", off);
		if (off + get(off + 4, 4) > tbl_len)
			return bad("node structure runs past the end", off);
		printf("node %llu 0x%02llx 0x%llx %llu ", get(off + 2, 2), get(off, 1),
		       get(off + 8, 8), get(off + 16, 8));
		for (j = 0; j < n; j++)
			printf("%s%llu:%llu", j ? "," : "", get(off + 32 + 2 * j, 1),
			       get(off + 33 + 2 * j, 1));
		putchar(' ');
		for (j = 0; j < m; j++)
			printf("%s%llu", j ? "," : "", get(off + 32 + 2 * n + 2 * j, 2));
		putchar('\n');
		off += get(off + 4, 4);
	}

	if (off + MPST_CHAR_HEADER_SIZE > tbl_len)
		return bad("no power state characteristics count", off);
	chars = get(off, 2);
	off += MPST_CHAR_HEADER_SIZE;
	if (off + (size_t)chars * MPST_CHAR_SIZE != tbl_len)
		return bad("characteristics structures do not end the table", off);
	for (i = 0; i < chars; i++, off += MPST_CHAR_SIZE)
		printf("char %u 0x%02llx 0x%02llx %llu %llu %llu\n", i, get(off, 1),
		       get(off + 1, 1), get(off + 4, 4), get(off + 8, 4), get(off + 12, 8));
	printf("mpst %llu %u %u\n", get(36, 1), nodes, chars);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = "/sys/firmware/acpi/tables/MPST";
	static unsigned char buf[MPST_MAX_SIZE];
	FILE *f;

	if (argc > 2) {
		fprintf(stderr, "usage: mpst-dump [FILE]\n");
		return 2;
	}
	if (argc == 2)
		path = argv[1];
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "mpst-dump: %s: %s\n", path, strerror(errno));
		return 1;
	}
	tbl_len = fread(buf, 1, sizeof(buf), f);
	if (ferror(f)) {
		fprintf(stderr, "mpst-dump: %s: read error\n", path);
		fclose(f);
		return 1;
	}
	fclose(f);
	tbl = buf;
	return dump();
}

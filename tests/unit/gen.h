/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gen.h - what the tests of boardgen's generators share: a board parsed from
 * an inline string, a generator's output and messages caught in memory.
 * Included once by each test program, after board.h.
 */
#ifndef ACMA_TESTS_GEN_H
#define ACMA_TESTS_GEN_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

static const char *real_board_path = "boards/qemu-x86_64/board.hw";

/* A board's global lines, and the two power states every board has. */
#define BOARD_HEAD(arch, machine, firmware, interleave)		\
	"board test\n"						\
	"arch " arch "\n"					\
	"qemu-machine " machine "\n"				\
	"cpus 1\n"						\
	"boot-memory 1G\n"					\
	"memory-block 128M\n"					\
	"firmware " firmware "\n"				\
	"interleave " interleave "\n"

#define TWO_STATES						\
	"power-state on 1350mW 0us kept\n"			\
	"power-state off 0mW 20ms lost\n"

/* Parse @text as "test.hw"; errors go to stderr. True if it is a valid board. */
static bool parse(const char *text, struct board *b)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int errors;

	if (!in)
		abort();
	errors = board_parse(in, "test.hw", b, stderr);
	fclose(in);
	return errors == 0;
}

struct gen {
	int ret;
	char *out;
	char *err;
};

/* Run a generator on @b; free the result with gen_free(). */
static void gen(int (*fn)(const struct board *, const char *, FILE *, FILE *),
		const struct board *b, struct gen *g)
{
	size_t olen = 0, elen = 0;
	FILE *out = open_memstream(&g->out, &olen);
	FILE *err = open_memstream(&g->err, &elen);

	if (!out || !err)
		abort();
	g->ret = fn(b, "test.hw", out, err);
	fclose(out);
	fclose(err);
}

static void gen_free(struct gen *g)
{
	free(g->out);
	free(g->err);
}

/* How often @needle occurs in @haystack. */
static int count(const char *haystack, const char *needle)
{
	int n = 0;

	for (; (haystack = strstr(haystack, needle)); haystack++)
		n++;
	return n;
}

#endif /* ACMA_TESTS_GEN_H */

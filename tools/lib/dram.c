// SPDX-License-Identifier: GPL-2.0
/*
 * dram.c - the memory blocks grouped by DRAM rank, and the ranks' power
 *
 * Memory blocks are /sys/devices/system/memory/memoryN; a removed block
 * has no directory. The DRAM power driver has a directory per rank,
 * /sys/devices/system/dram_power/domainN, that names the blocks the rank
 * holds and says its power state and figures. A machine without that
 * driver (a VM guest) has blocks but no ranks.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram.h"
#include "idlist.h"

/* Longest path of a file of a domain or a memory block, with room to spare. */
#define DRAM_PATH_MAX	128

enum block_state {
	BLOCK_ABSENT,	/* no memoryN: removed, or never there */
	BLOCK_ONLINE,
	BLOCK_OFFLINE,	/* present, offline or going offline */
	BLOCK_UNKNOWN,	/* present, state unreadable */
};

/* The memory blocks present, by id. */
struct blocks {
	bool listed;		/* false: the memory directory is unreadable */
	unsigned char *state;	/* enum block_state */
	bool *claimed;		/* held by a rank */
	size_t nr;		/* highest id present + 1 */
	size_t nr_present;
};

/* The power states of the driver's contract, for checking what it says. */
static const char *const power_states[] = {
	"on", "powering-off", "off", "powering-on", "failed",
};

/* A domain's one-line files and where they go: text, or a number. */
static const struct {
	const char *file;
	size_t offset;
	bool text;
} rank_files[] = {
	{ "dimm", offsetof(struct dram_rank, dimm), true },
	{ "state", offsetof(struct dram_rank, state), true },
	{ "power_mw", offsetof(struct dram_rank, power_mw), false },
	{ "on_power_mw", offsetof(struct dram_rank, on_power_mw), false },
	{ "time_off_ms", offsetof(struct dram_rank, time_off_ms), false },
	{ "transitions", offsetof(struct dram_rank, transitions), false },
	{ "errors", offsetof(struct dram_rank, errors), false },
	{ "last_error", offsetof(struct dram_rank, last_error), true },
};

static enum block_state read_block_state(struct sysfs *fs, unsigned int id)
{
	enum block_state state = BLOCK_UNKNOWN;
	char path[DRAM_PATH_MAX], *line;

	snprintf(path, sizeof(path), MEMORY_DIR "/memory%u/state", id);
	if (sysfs_read_line(fs, path, &line))
		return BLOCK_UNKNOWN;
	if (!strcmp(line, "online"))
		state = BLOCK_ONLINE;
	else if (!strcmp(line, "offline") || !strcmp(line, "going-offline"))
		state = BLOCK_OFFLINE;
	else
		sysfs_failed(fs, path, "not a memory block state", line);
	free(line);
	return state;
}

static int read_blocks(struct sysfs *fs, struct blocks *b)
{
	unsigned int *ids;
	size_t nr, i;

	/* no memory directory: said, and no blocks */
	if (sysfs_list_ids(fs, MEMORY_DIR, "memory", &ids, &nr))
		return 0;
	b->nr = nr ? ids[nr - 1] + 1 : 0;
	b->state = calloc(b->nr + 1, sizeof(*b->state));
	b->claimed = calloc(b->nr + 1, sizeof(*b->claimed));
	if (!b->state || !b->claimed) {
		free(ids);
		return -1;
	}
	for (i = 0; i < nr; i++)
		b->state[ids[i]] = read_block_state(fs, ids[i]);
	free(ids);
	b->nr_present = nr;
	b->listed = true;
	return 0;
}

/* Count the states of a group's blocks; a rank claims them. */
static void count_blocks(struct dram_rank *r, struct blocks *b,
			 const unsigned int *ids, size_t nr, bool claim)
{
	unsigned long long n[BLOCK_UNKNOWN + 1] = { 0 };
	bool known;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (ids[i] >= b->nr) {
			n[BLOCK_ABSENT]++;
			continue;
		}
		n[b->state[ids[i]]]++;
		if (claim)
			b->claimed[ids[i]] = true;
	}
	known = b->listed && !n[BLOCK_UNKNOWN];
	r->online = (struct value){ known, n[BLOCK_ONLINE] };
	r->offline = (struct value){ known, n[BLOCK_OFFLINE] };
	r->removed = (struct value){ known && claim, n[BLOCK_ABSENT] };
}

/* ranges: one range a line, shown comma-separated. */
static int read_ranges(struct sysfs *fs, const char *path, struct dram_rank *r)
{
	char *text, *nl;
	size_t len;

	if (sysfs_read_text(fs, path, &text))
		return 0;
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	while ((nl = strchr(text, '\n')))
		*nl = ',';
	r->ranges = text;
	return 0;
}

static int read_rank_blocks(struct sysfs *fs, const char *path,
			    struct dram_rank *r, struct blocks *b)
{
	struct idlist list;
	char *line;

	if (sysfs_read_line(fs, path, &line))
		return 0;
	if (idlist_parse(line, &list)) {
		sysfs_failed(fs, path, "not a list of memory blocks", line);
		free(line);
		return 0;
	}
	free(line);
	count_blocks(r, b, list.ids, list.nr, true);
	r->blocks = idlist_format(list.ids, list.nr);
	idlist_free(&list);
	return r->blocks ? 0 : -1;
}

static bool known_state(const char *state)
{
	size_t i;

	for (i = 0; i < sizeof(power_states) / sizeof(*power_states); i++)
		if (!strcmp(state, power_states[i]))
			return true;
	return false;
}

/*
 * What being off saved: the time off at the on-state power less the
 * off-state power. That is known only while the rank is off (power_mw is
 * the power in the state it is in); otherwise it is taken as 0 mW, the
 * figure of DRAM that is powered off.
 */
static void rank_saved(struct dram_rank *r)
{
	unsigned long long off_mw = 0;

	if (!r->state || !r->time_off_ms.ok || !r->on_power_mw.ok)
		return;
	if (!strcmp(r->state, "off")) {
		if (!r->power_mw.ok)
			return;
		off_mw = r->power_mw.num;
	}
	r->saved_uj.ok = true;
	if (r->on_power_mw.num > off_mw)
		r->saved_uj.num = r->time_off_ms.num * (r->on_power_mw.num - off_mw);
}

static int read_rank(struct sysfs *fs, unsigned int id, struct dram_rank *r,
		     struct blocks *b)
{
	char path[DRAM_PATH_MAX], *file;
	size_t i;

	r->id = id;
	file = path + snprintf(path, sizeof(path), DRAM_POWER_DIR "/domain%u/", id);
	for (i = 0; i < sizeof(rank_files) / sizeof(*rank_files); i++) {
		void *to = (char *)r + rank_files[i].offset;

		strcpy(file, rank_files[i].file);
		if (rank_files[i].text)
			sysfs_read_line(fs, path, to);
		else
			sysfs_read_num(fs, path, to);
		if (to == &r->state && r->state && !known_state(r->state)) {
			sysfs_failed(fs, path, "not a power state", r->state);
			free(r->state);
			r->state = NULL;
		}
	}
	rank_saved(r);
	strcpy(file, "ranges");
	if (read_ranges(fs, path, r))
		return -1;
	strcpy(file, "blocks");
	return read_rank_blocks(fs, path, r, b);
}

/* Sum a figure over the ranks; unknown if it is unknown for one of them. */
static struct value sum_ranks(const struct dram *d, size_t offset)
{
	struct value sum = { d->has_power, 0 };
	size_t i;

	for (i = 0; i < d->nr_ranks; i++) {
		const struct value *v = (const void *)((const char *)&d->ranks[i] + offset);

		if (d->ranks[i].id == DRAM_NO_RANK)
			continue;
		sum.ok &= v->ok;
		sum.num += v->num;
	}
	return sum;
}

/* The group of the blocks present that no rank holds, first; none if empty. */
static int add_unclaimed(struct dram *d, struct blocks *b)
{
	unsigned int *ids = calloc(b->nr + 1, sizeof(*ids));
	struct dram_rank *r = &d->ranks[0];
	size_t i, nr = 0;

	if (!ids)
		return -1;
	for (i = 0; i < b->nr; i++)
		if (b->state[i] != BLOCK_ABSENT && !b->claimed[i])
			ids[nr++] = i;
	if (nr) {
		r->id = DRAM_NO_RANK;
		count_blocks(r, b, ids, nr, false);
		r->blocks = idlist_format(ids, nr);
	} else {
		memmove(d->ranks, d->ranks + 1, --d->nr_ranks * sizeof(*d->ranks));
	}
	free(ids);
	return nr && !r->blocks ? -1 : 0;
}

/**
 * dram_read() - read the memory blocks, the ranks and their power
 * @fs: the root; what cannot be read is said, counted and left unknown
 * @d: filled; dram_free() it, also after a failure
 *
 * A missing dram_power directory is no failure: the machine has no DRAM
 * power management (a VM guest), and every block is in the group of the
 * blocks no rank holds.
 *
 * Return: 0, or -1 when out of memory.
 */
int dram_read(struct sysfs *fs, struct dram *d)
{
	struct blocks b = { 0 };
	unsigned int *ids = NULL;
	size_t nr = 0, i;
	int ret = -1;

	memset(d, 0, sizeof(*d));
	sysfs_read_hex(fs, MEMORY_DIR "/block_size_bytes", &d->block_size);
	if (read_blocks(fs, &b))
		goto out;
	d->present_blocks = (struct value){ b.listed, b.nr_present };
	d->has_power = sysfs_exists(fs, DRAM_POWER_DIR);
	if (d->has_power) {
		sysfs_read_line(fs, DRAM_POWER_DIR "/backend", &d->backend);
		sysfs_list_ids(fs, DRAM_POWER_DIR, "domain", &ids, &nr);
	}
	/* slot 0 for the blocks no rank holds */
	d->ranks = calloc(nr + 1, sizeof(*d->ranks));
	if (!d->ranks)
		goto out;
	d->nr_ranks = nr + 1;
	for (i = 0; i < nr; i++)
		if (read_rank(fs, ids[i], &d->ranks[i + 1], &b))
			goto out;
	if (add_unclaimed(d, &b))
		goto out;
	d->power_mw = sum_ranks(d, offsetof(struct dram_rank, power_mw));
	d->all_on_mw = sum_ranks(d, offsetof(struct dram_rank, on_power_mw));
	d->saved_uj = sum_ranks(d, offsetof(struct dram_rank, saved_uj));
	ret = 0;
out:
	free(ids);
	free(b.state);
	free(b.claimed);
	return ret;
}

/**
 * dram_free() - free what dram_read() read
 * @d: the model
 */
void dram_free(struct dram *d)
{
	size_t i;

	for (i = 0; i < d->nr_ranks; i++) {
		free(d->ranks[i].dimm);
		free(d->ranks[i].ranges);
		free(d->ranks[i].blocks);
		free(d->ranks[i].state);
		free(d->ranks[i].last_error);
	}
	free(d->ranks);
	free(d->backend);
	memset(d, 0, sizeof(*d));
}

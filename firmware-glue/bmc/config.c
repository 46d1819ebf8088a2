// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - the board's BMC configuration and the persistent rank states
 *
 * Both files are line based; the formats are in firmware-glue/PROTOCOL.md.
 * Every error names FILE:LINE and makes the plugin's start-up fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acma-bmc.h"

#define MAX_LINE	4096
#define MAX_TOKENS	(2 + ACMA_MAX_STATES + ACMA_MAX_RANGES + 1)

struct reader {
	struct acma_bmc *bmc;
	const char *path;
	int line;
	int errors;
};

static void __attribute__((format(printf, 2, 3)))
error_at(struct reader *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	acma_log(r->bmc, SETUP_ERROR, "%s:%d: error: %s", r->path, r->line, msg);
	r->errors++;
}

/* Split @line at blanks into at most @max tokens; -1 if there are more. */
static int tokenize(char *line, char **tok, int max)
{
	char *save, *t;
	int n = 0;

	for (t = strtok_r(line, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (*t == '#')
			break;
		if (n == max)
			return -1;
		tok[n++] = t;
	}
	return n;
}

/* Parse an unsigned number (decimal, or hex with 0x) followed by @suffix. */
static int parse_u64(const char *s, const char *suffix, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || strcmp(end, suffix))
		return -1;
	return 0;
}

static int find_state(const struct acma_bmc *bmc, const char *name, size_t len)
{
	int i;

	for (i = 0; i < bmc->nr_states; i++)
		if (strlen(bmc->states[i].name) == len &&
		    !strncmp(bmc->states[i].name, name, len))
			return i;
	return -1;
}

static int find_dimm(struct acma_bmc *bmc, const char *name)
{
	int i;

	for (i = 0; i < bmc->nr_dimms; i++)
		if (!strcmp(bmc->dimms[i], name))
			return i;
	bmc->dimms[i] = strdup(name);
	if (!bmc->dimms[i])
		return -1;
	bmc->nr_dimms++;
	return i;
}

static void stmt_board(struct reader *r, int n, char **tok)
{
	struct acma_bmc *bmc = r->bmc;

	if (n != 2) {
		error_at(r, "'board' takes one value");
		return;
	}
	if (bmc->board) {
		error_at(r, "'board' given twice");
		return;
	}
	bmc->board = strdup(tok[1]);
	if (!bmc->board)
		error_at(r, "out of memory");
}

/* bmc-id MANUFACTURER PRODUCT: the IDs Get Device ID reports. */
static void stmt_bmc_id(struct reader *r, int n, char **tok)
{
	struct acma_bmc *bmc = r->bmc;
	uint64_t mfg, prod;

	if (n != 3 || parse_u64(tok[1], "", &mfg) || mfg >= 0xfffff ||
	    parse_u64(tok[2], "", &prod) || prod > 0xffff) {
		error_at(r, "expected 'bmc-id MANUFACTURER PRODUCT' (IANA enterprise number below 0xfffff, product ID up to 0xffff)");
		return;
	}
	if (bmc->have_ids) {
		error_at(r, "'bmc-id' given twice");
		return;
	}
	bmc->manufacturer = mfg;
	bmc->product = prod;
	bmc->have_ids = true;
}

static void stmt_state(struct reader *r, int n, char **tok)
{
	struct acma_bmc *bmc = r->bmc;
	struct acma_state *s;

	if (n != 3 || (strcmp(tok[2], "kept") && strcmp(tok[2], "lost"))) {
		error_at(r, "want 'state NAME kept|lost'");
		return;
	}
	if (bmc->nr_ranks) {
		error_at(r, "'state' lines must come before the ranks");
		return;
	}
	if (find_state(bmc, tok[1], strlen(tok[1])) >= 0) {
		error_at(r, "state '%s' given twice", tok[1]);
		return;
	}
	if (bmc->nr_states == ACMA_MAX_STATES) {
		error_at(r, "more than %d states", ACMA_MAX_STATES);
		return;
	}
	if (strlen(tok[1]) > ACMA_NAME_MAX) {
		error_at(r, "state name '%s' is longer than %d characters",
			 tok[1], ACMA_NAME_MAX);
		return;
	}
	s = &bmc->states[bmc->nr_states];
	s->name = strdup(tok[1]);
	if (!s->name) {
		error_at(r, "out of memory");
		return;
	}
	s->kept = !strcmp(tok[2], "kept");
	bmc->nr_states++;
}

/* file=PATH,0xBASE,SIZE */
static void rank_file(struct reader *r, struct acma_rank *rk, char *val)
{
	char *size = strrchr(val, ','), *base;
	struct acma_range *rg;

	if (!size || size == val) {
		error_at(r, "want 'file=PATH,BASE,SIZE'");
		return;
	}
	*size++ = '\0';
	base = strrchr(val, ',');
	if (!base || base == val) {
		error_at(r, "want 'file=PATH,BASE,SIZE'");
		return;
	}
	*base++ = '\0';
	if (rk->nr_ranges == ACMA_MAX_RANGES) {
		error_at(r, "more than %d files for one rank", ACMA_MAX_RANGES);
		return;
	}
	rg = &rk->ranges[rk->nr_ranges];
	if (parse_u64(base, "", &rg->base) || parse_u64(size, "", &rg->size) ||
	    !rg->size) {
		error_at(r, "bad range base '%s' or size '%s'", base, size);
		return;
	}
	rg->path = strdup(val);
	if (!rg->path) {
		error_at(r, "out of memory");
		return;
	}
	rk->nr_ranges++;
}

/* STATE=POWERmW,LATENCYns */
static void rank_power(struct reader *r, struct acma_rank *rk, char *key,
		       char *val, bool *seen)
{
	char *lat = strchr(val, ',');
	uint64_t mw, ns;
	int s;

	s = find_state(r->bmc, key, val - 1 - key);
	if (s < 0) {
		error_at(r, "unknown keyword or state '%.*s'",
			 (int)(val - 1 - key), key);
		return;
	}
	if (seen[s]) {
		error_at(r, "state '%s' given twice", r->bmc->states[s].name);
		return;
	}
	if (!lat) {
		error_at(r, "want '%s=POWERmW,LATENCYns'", r->bmc->states[s].name);
		return;
	}
	*lat++ = '\0';
	if (parse_u64(val, "mW", &mw) || mw > UINT32_MAX ||
	    parse_u64(lat, "ns", &ns)) {
		error_at(r, "bad power '%s' or latency '%s'", val, lat);
		return;
	}
	rk->power_mw[s] = mw;
	rk->latency_ns[s] = ns;
	seen[s] = true;
}

static void stmt_rank(struct reader *r, int n, char **tok)
{
	struct acma_bmc *bmc = r->bmc;
	bool seen[ACMA_MAX_STATES] = { false };
	struct acma_rank *rk;
	uint64_t id;
	int i;

	if (n < 4) {
		error_at(r, "want 'rank ID dimm=NAME STATE=POWER,LATENCY... file=PATH,BASE,SIZE...'");
		return;
	}
	if (parse_u64(tok[1], "", &id) || id != (uint64_t)bmc->nr_ranks) {
		error_at(r, "rank id '%s' out of order, want %d", tok[1],
			 bmc->nr_ranks);
		return;
	}
	if (bmc->nr_ranks == ACMA_MAX_RANKS) {
		error_at(r, "more than %d ranks", ACMA_MAX_RANKS);
		return;
	}
	if (bmc->on_state < 0) {
		error_at(r, "no 'state on kept' line before the ranks");
		return;
	}
	rk = &bmc->ranks[bmc->nr_ranks];
	rk->dimm = -1;
	for (i = 2; i < n; i++) {
		char *val = strchr(tok[i], '=');

		if (!val || val == tok[i]) {
			error_at(r, "want KEY=VALUE, got '%s'", tok[i]);
			continue;
		}
		*val++ = '\0';
		if (!strcmp(tok[i], "dimm")) {
			if (rk->dimm >= 0 || strlen(val) > ACMA_NAME_MAX) {
				error_at(r, "dimm given twice or longer than %d characters",
					 ACMA_NAME_MAX);
				continue;
			}
			rk->dimm = find_dimm(bmc, val);
			if (rk->dimm < 0)
				error_at(r, "out of memory");
		} else if (!strcmp(tok[i], "file")) {
			rank_file(r, rk, val);
		} else {
			val[-1] = '=';
			rank_power(r, rk, tok[i], val, seen);
		}
	}
	if (rk->dimm < 0)
		error_at(r, "rank %d has no dimm=", bmc->nr_ranks);
	if (!rk->nr_ranges)
		error_at(r, "rank %d has no file=", bmc->nr_ranks);
	for (i = 0; i < bmc->nr_states; i++)
		if (!seen[i])
			error_at(r, "rank %d has no figures for state '%s'",
				 bmc->nr_ranks, bmc->states[i].name);
	rk->state = bmc->on_state;
	bmc->nr_ranks++;
}

/**
 * acma_config_read() - read the board's BMC configuration
 * @bmc: the plugin; @bmc->config_path names the file
 *
 * Fills in the board name, the power states, the DIMMs and the ranks with
 * their per-state power, exit latency and backing files. Every rank starts
 * in the "on" state. Errors are logged as FILE:LINE: error: ...
 *
 * Return: 0 on success, EINVAL if the file is invalid, or an errno value
 * if it cannot be read.
 */
int acma_config_read(struct acma_bmc *bmc)
{
	struct reader r = { .bmc = bmc, .path = bmc->config_path };
	char buf[MAX_LINE], *tok[MAX_TOKENS];
	FILE *f;
	int n;

	f = fopen(bmc->config_path, "r");
	if (!f) {
		int err = errno;

		acma_log(bmc, SETUP_ERROR, "%s: %s", bmc->config_path,
			 strerror(err));
		return err;
	}
	bmc->on_state = -1;
	while (fgets(buf, sizeof(buf), f)) {
		r.line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			error_at(&r, "line longer than %d characters", MAX_LINE - 2);
			break;
		}
		n = tokenize(buf, tok, MAX_TOKENS);
		if (n < 0) {
			error_at(&r, "too many fields");
			continue;
		}
		if (!n)
			continue;
		if (!strcmp(tok[0], "board")) {
			stmt_board(&r, n, tok);
		} else if (!strcmp(tok[0], "bmc-id")) {
			stmt_bmc_id(&r, n, tok);
		} else if (!strcmp(tok[0], "state")) {
			stmt_state(&r, n, tok);
			if (bmc->nr_states &&
			    !strcmp(bmc->states[bmc->nr_states - 1].name, "on") &&
			    bmc->on_state < 0) {
				bmc->on_state = bmc->nr_states - 1;
				if (!bmc->states[bmc->on_state].kept)
					error_at(&r, "state 'on' must keep contents");
			}
		} else if (!strcmp(tok[0], "rank")) {
			stmt_rank(&r, n, tok);
		} else {
			error_at(&r, "unknown keyword '%s'", tok[0]);
		}
	}
	fclose(f);
	r.line = 0;
	if (!r.errors && !bmc->board)
		error_at(&r, "no 'board' line");
	if (!r.errors && !bmc->nr_ranks)
		error_at(&r, "no ranks");
	return r.errors ? EINVAL : 0;
}

/**
 * acma_state_read() - restore the ranks' states from the state file
 * @bmc: the plugin, configuration already read
 *
 * A missing state file is not an error: every rank stays "on" (the BMC's
 * first start). Otherwise the file must be what acma_state_write() writes:
 * lines 'rank ID STATE TRANSITIONS LAST-CHANGE', each ending in a newline,
 * every rank of the configuration exactly once, TRANSITIONS a 32-bit count,
 * LAST-CHANGE a 32-bit Unix time that is 0 exactly when TRANSITIONS is 0.
 * Anything else (a file cut short included) is an error that names the
 * file and the line.
 *
 * Return: 0 on success, EINVAL if the file is invalid, or an errno value
 * if it cannot be read.
 */
int acma_state_read(struct acma_bmc *bmc)
{
	struct reader r = { .bmc = bmc, .path = bmc->state_path };
	char buf[MAX_LINE], *tok[6];
	int seen[ACMA_MAX_RANKS] = { 0 };
	uint64_t id, count, when;
	FILE *f;
	int i, n, s;

	f = fopen(bmc->state_path, "r");
	if (!f) {
		int err = errno;

		if (err == ENOENT)
			return 0;
		acma_log(bmc, SETUP_ERROR, "%s: %s", bmc->state_path,
			 strerror(err));
		return err;
	}
	while (fgets(buf, sizeof(buf), f)) {
		r.line++;
		if (!strchr(buf, '\n')) {
			error_at(&r, "line not terminated (file cut short?) or longer than %d characters",
				 MAX_LINE - 2);
			break;
		}
		n = tokenize(buf, tok, 6);
		if (!n)
			continue;
		if (n != 5 || strcmp(tok[0], "rank")) {
			error_at(&r, "want 'rank ID STATE TRANSITIONS LAST-CHANGE'");
			continue;
		}
		if (parse_u64(tok[1], "", &id) || id >= (uint64_t)bmc->nr_ranks) {
			error_at(&r, "unknown rank '%s' (the board has ranks 0-%d)",
				 tok[1], bmc->nr_ranks - 1);
			continue;
		}
		if (seen[id]) {
			error_at(&r, "rank %d given twice (first on line %d)",
				 (int)id, seen[id]);
			continue;
		}
		seen[id] = r.line;
		s = find_state(bmc, tok[2], strlen(tok[2]));
		if (s < 0) {
			error_at(&r, "rank %d: unknown state '%s'", (int)id, tok[2]);
			continue;
		}
		if (parse_u64(tok[3], "", &count) || count > UINT32_MAX) {
			error_at(&r, "rank %d: TRANSITIONS '%s' is not a number below 2^32",
				 (int)id, tok[3]);
			continue;
		}
		if (parse_u64(tok[4], "", &when) || when > UINT32_MAX) {
			error_at(&r, "rank %d: LAST-CHANGE '%s' is not a Unix time below 2^32",
				 (int)id, tok[4]);
			continue;
		}
		if (!count != !when) {
			error_at(&r, "rank %d: %s transitions but LAST-CHANGE %s",
				 (int)id, tok[3], tok[4]);
			continue;
		}
		bmc->ranks[id].state = s;
		bmc->ranks[id].transitions = count;
		bmc->ranks[id].last_change = when;
	}
	if (ferror(f)) {
		int err = errno;

		fclose(f);
		acma_log(bmc, SETUP_ERROR, "%s: %s", bmc->state_path, strerror(err));
		return err ? err : EIO;
	}
	fclose(f);
	for (i = 0; i < bmc->nr_ranks && !r.errors; i++)
		if (!seen[i])
			error_at(&r, "rank %d missing: the file ends here (cut short?)", i);
	return r.errors ? EINVAL : 0;
}

/* fsync the folder that holds @path, so that a rename is durable. */
static int sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, ret = 0;

	if (!copy)
		return ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fsync(fd))
		ret = errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return ret;
}

/**
 * acma_state_write() - save the ranks' states, atomically
 * @bmc: the plugin
 *
 * Writes STATE-FILE.tmp, syncs it and renames it over the state file, so
 * a crash leaves either the old or the new file.
 *
 * Return: 0 on success, an errno value on failure (logged).
 */
int acma_state_write(struct acma_bmc *bmc)
{
	size_t len = strlen(bmc->state_path) + 5;
	char *tmp = malloc(len);
	int i, err = 0;
	FILE *f;

	if (!tmp)
		return ENOMEM;
	snprintf(tmp, len, "%s.tmp", bmc->state_path);
	f = fopen(tmp, "w");
	if (!f) {
		err = errno;
		goto out;
	}
	fprintf(f, "# acma BMC rank states: rank ID STATE TRANSITIONS LAST-CHANGE\n");
	for (i = 0; i < bmc->nr_ranks; i++)
		fprintf(f, "rank %d %s %u %lld\n", i,
			bmc->states[bmc->ranks[i].state].name,
			bmc->ranks[i].transitions,
			(long long)bmc->ranks[i].last_change);
	if (fflush(f) || fsync(fileno(f)))
		err = errno;
	if (fclose(f) && !err)
		err = errno;
	if (!err && rename(tmp, bmc->state_path))
		err = errno;
	if (!err)
		err = sync_dir(bmc->state_path);
	if (err)
		unlink(tmp);
out:
	if (err)
		acma_log(bmc, OS_ERROR, "acma: cannot write %s: %s",
			 bmc->state_path, strerror(err));
	free(tmp);
	return err;
}

/**
 * acma_free() - release everything the configuration allocated
 * @bmc: the plugin; freed too
 */
void acma_free(struct acma_bmc *bmc)
{
	int i, j;

	for (i = 0; i < bmc->nr_states; i++)
		free(bmc->states[i].name);
	for (i = 0; i < bmc->nr_dimms; i++)
		free(bmc->dimms[i]);
	for (i = 0; i < ACMA_MAX_RANKS; i++)
		for (j = 0; j < bmc->ranks[i].nr_ranges; j++)
			free(bmc->ranks[i].ranges[j].path);
	free(bmc->board);
	free(bmc->config_path);
	free(bmc->state_path);
	free(bmc->kcs_path);
	free(bmc->audit_path);
	free(bmc);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_bmc.c - in-process fuzz harness of the BMC plugin (firmware-glue/bmc)
 *
 * Usage: test-fuzz-bmc [--seed N | --random-seed] [--count N]
 *        (or FUZZ_SEED=N FUZZ_COUNT=N in the environment; make fuzz)
 *
 * Links the plugin's own sources with ipmi_sim_standin.c (what of ipmi_sim
 * the plugin calls) and Debian's libIPMIlanserv, built with ASan and UBSan.
 * A seeded PRNG (xoshiro256**; the seed is printed, --seed or FUZZ_SEED sets
 * it) drives structure-aware generators:
 *
 *  - configuration and state files, and loadlib arguments, for
 *    ipmi_sim_module_init(): valid files rendered in varied forms, files with
 *    one known fault, and randomly damaged ones;
 *  - requests to one plugin with a generated board: the OEM commands
 *    0x40-0x44, DCMI, Get Device ID and other NetFns, with valid and wrong
 *    lengths and boundary values (domains 0, last, N, 255, two-byte 256 and
 *    65535, states out of range), over the system interface, over LAN
 *    sessions with random users and privileges, and into the larger buffer
 *    of an encapsulated (Send Message) request;
 *  - RMCP+ Open Session requests and ticks against a random session table;
 *  - the environment: backing files missing, a symlink, of the wrong size
 *    or in a folder open to others, a state file that cannot be written, a
 *    full SEL, timers that cannot start, a faults file.
 *
 * After each request the answers are checked against a model of
 * firmware-glue/PROTOCOL.md: exactly one answer, with a completion code and
 * at most the 36 bytes ipmi_sim has, the expected completion code and data,
 * no rank changed by anything but an accepted Set Power State, contents
 * dropped when a rank loses them, sensors and SEL records as documented,
 * an "on" answered only once the rank is usable, the state file always one
 * the plugin reads back, a refused state or configuration file stopping the
 * start-up (no rank assumed "on").
 *
 * The fixed regression inputs (regress_*() below) run first, every time.
 * Prints TAP version 13, one line per category; the last line is
 * "N passed, N failed". A sanitizer report ends the run with a "not ok"
 * line for the category it happened in.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

#include <OpenIPMI/ipmi_auth.h>
#include <OpenIPMI/ipmi_err.h>
#include <OpenIPMI/ipmi_mc.h>
#include <OpenIPMI/ipmi_msgbits.h>
#include <OpenIPMI/extcmd.h>

#include "ipmi_sim_standin.h"
#include "../unit/tap.h"

/* main.c's entry points (ipmi_sim finds them with dlsym) */
int ipmi_sim_module_init(sys_data_t *sys, const char *initstr);
void ipmi_sim_module_post_init(sys_data_t *sys);

#define DEFAULT_SEED	0xac4a2026u
#define DEFAULT_COUNT	30000

/* ---- the PRNG: xoshiro256**, seeded with splitmix64 ---------------------- */

static uint64_t rs[4];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		rs[i] = splitmix(&seed);
}

static uint64_t rnd(void)
{
	uint64_t r = rs[1] * 5, t = rs[1] << 17;

	r = ((r << 7) | (r >> 57)) * 9;
	rs[2] ^= rs[0];
	rs[3] ^= rs[1];
	rs[1] ^= rs[2];
	rs[0] ^= rs[3];
	rs[2] ^= t;
	rs[3] = (rs[3] << 45) | (rs[3] >> 19);
	return r;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static bool one_in(unsigned int n)
{
	return below(n) == 0;
}

static uint64_t pick(const uint64_t *v, size_t n)
{
	return v[below(n)];
}

#define PICK(...) pick((const uint64_t[]){ __VA_ARGS__ }, \
		       sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))

/* ---- run-wide state ------------------------------------------------------ */

static uint64_t seed;
static unsigned long count = DEFAULT_COUNT;
static char top[256];		/* the private scratch folder */
static const char *current = "start-up";
static unsigned long iteration;

static struct {
	unsigned long configs, states, inits, oem_sysif, oem_lan, lan_denied, dcmi, other,
		ipmb, open_session, ticks, env, transitions, refused,
		drops_checked, statefile_checks;
} stats;

static void on_death(void)
{
	printf("not ok %d - %s # sanitizer report, seed %" PRIu64 ", iteration %lu\n",
	       test_no, current, seed, iteration);
	printf("# reproduce: FUZZ_SEED=%" PRIu64 " FUZZ_COUNT=%lu make fuzz\n", seed, count);
	fflush(stdout);
}

#define FAIL_IF(cond, ...)						\
	do {								\
		if (cond) {						\
			diag("line %d: seed %" PRIu64 ", iteration %lu (%s): %s: ", \
			     __LINE__, seed, iteration, current, #cond);	\
			diag(__VA_ARGS__);				\
			diag("\n");					\
			return false;					\
		}							\
	} while (0)

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", top, name);
}

static bool write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f)
		return false;
	ok = fwrite(text, 1, len, f) == len;
	return !fclose(f) && ok;
}

/* ---- a model board: what a configuration file says ---------------------- */

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+:"

struct mrank {
	int dimm;
	uint64_t mw[ACMA_MAX_STATES], ns[ACMA_MAX_STATES];
	int nranges;
	uint64_t base[ACMA_MAX_RANGES], size[ACMA_MAX_RANGES];
};

struct model {
	char board[40];
	bool ids;
	uint64_t mfg, prod;
	int nstates, on;
	char sname[ACMA_MAX_STATES][ACMA_NAME_MAX + 2];
	bool kept[ACMA_MAX_STATES];
	int ndimms;
	char dname[ACMA_MAX_RANKS][ACMA_NAME_MAX + 2];
	int nranks;
	struct mrank r[ACMA_MAX_RANKS];
	/* the state file */
	int state[ACMA_MAX_RANKS];
	uint64_t trans[ACMA_MAX_RANKS], when[ACMA_MAX_RANKS];
	char filedir[200];	/* backing files: FILEDIR/r<rank>-<range> */
};

static void rand_name(char *buf, int maxlen)
{
	int len = below(4) ? 1 + (int)below(8) : maxlen, i;

	for (i = 0; i < len; i++)
		buf[i] = NAME_CHARS[below(sizeof(NAME_CHARS) - 1)];
	buf[len] = '\0';
}

static uint64_t rand_u64(void)
{
	switch (below(6)) {
	case 0: return 0;
	case 1: return UINT64_MAX;
	case 2: return below(1000);
	case 3: return 1ULL << below(64);
	default: return rnd();
	}
}

/*
 * A random valid board. @fast: latencies small enough for the command
 * fuzzing (an "on" waits for them), ranges few and small.
 */
static void gen_model(struct model *m, bool fast, int max_ranks)
{
	int i, j, k;

	memset(m, 0, sizeof(*m));
	rand_name(m->board, 32);
	m->ids = below(4);
	m->mfg = PICK(0, 1, 32473, 0xffffe, below(0xfffff));
	m->prod = PICK(0, 0xac4a, 0xffff, below(0x10000));
	m->nstates = below(3) ? 2 : 1 + below(ACMA_MAX_STATES);
	m->on = below(m->nstates);
	for (i = 0; i < m->nstates; i++) {
		if (i == m->on) {
			strcpy(m->sname[i], "on");
			m->kept[i] = true;
			continue;
		}
		do {
			rand_name(m->sname[i], ACMA_NAME_MAX);
			for (j = 0; j < i; j++)
				if (!strcmp(m->sname[j], m->sname[i]))
					break;
		} while (j < i || !strcmp(m->sname[i], "on") ||
			 !strcmp(m->sname[i], "dimm") || !strcmp(m->sname[i], "file"));
		m->kept[i] = one_in(3);
	}
	switch (below(10)) {
	case 0: m->nranks = max_ranks; break;
	case 1: case 2: m->nranks = 1 + below(max_ranks); break;
	default: m->nranks = 1 + below(max_ranks < 8 ? max_ranks : 8); break;
	}
	m->ndimms = 0;
	for (i = 0; i < m->nranks; i++) {
		struct mrank *r = &m->r[i];

		if (!m->ndimms || one_in(2)) {
			do {
				rand_name(m->dname[m->ndimms], ACMA_NAME_MAX);
				for (j = 0; j < m->ndimms; j++)
					if (!strcmp(m->dname[j], m->dname[m->ndimms]))
						break;
			} while (j < m->ndimms);
			r->dimm = m->ndimms++;
		} else {
			r->dimm = below(m->ndimms);
		}
		for (j = 0; j < m->nstates; j++) {
			r->mw[j] = one_in(8) ? UINT32_MAX : below(4) ? below(20000) : rnd() >> 32;
			if (fast)
				r->ns[j] = below(2) ? 0 : below(100000);
			else
				r->ns[j] = below(2) ? 0 : rand_u64();
		}
		r->nranges = one_in(16) ? ACMA_MAX_RANGES : 1 + below(3);
		if (fast && r->nranges > 4 && !one_in(4))
			r->nranges = 4;
		for (k = 0; k < r->nranges; k++) {
			r->base[k] = fast ? 0x100000000ULL + i * 0x1000000ULL + k * 0x10000 :
					    rand_u64();
			r->size[k] = fast ? 4096 * (1 + below(4)) : rand_u64() | 1;
		}
	}
	for (i = 0; i < m->nranks; i++) {
		m->state[i] = m->on;
		m->trans[i] = 0;
		m->when[i] = 0;
	}
}

/* Random rank states, with counts at the boundaries of the file format. */
static void gen_states(struct model *m)
{
	int i;

	for (i = 0; i < m->nranks; i++) {
		m->state[i] = below(m->nstates);
		m->trans[i] = PICK(0, 1, 2, 1000, UINT32_MAX - 1, UINT32_MAX, below(UINT32_MAX));
		m->when[i] = m->trans[i] ? PICK(1, time(NULL) - below(100000), UINT32_MAX,
						1 + below(UINT32_MAX)) : 0;
	}
}

struct text {
	char *buf;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3))) tprintf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if ((size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + n + 64;
		t->buf = realloc(t->buf, t->cap);
		if (!t->buf)
			abort();
	}
	t->len += n;
}

/* A number as the files may give it: decimal or hex (0x, 0X). */
static void tnum(struct text *t, uint64_t v, const char *suffix)
{
	switch (below(6)) {
	case 0: tprintf(t, "0x%" PRIx64 "%s", v, suffix); break;
	case 1: tprintf(t, "0X%" PRIX64 "%s", v, suffix); break;
	default: tprintf(t, "%" PRIu64 "%s", v, suffix); break;
	}
}

static const char *blank(void)
{
	return below(4) ? " " : PICK(0, 1, 2, 3) == 0 ? "\t" : below(2) ? "  " : " \t ";
}

static const char *eol(void)
{
	switch (below(12)) {
	case 0: return "\r\n";
	case 1: return "   # a comment\n";
	case 2: return "\t\n";
	default: return "\n";
	}
}

/* Render @m's configuration in a random valid form; @paths_dir for files. */
static void render_config(const struct model *m, struct text *t)
{
	int i, j, k, id_at = below(m->nranks + 1);

	if (one_in(4))
		tprintf(t, "# generated by fuzz_bmc\n");
	tprintf(t, "board%s%s%s", blank(), m->board, eol());
	if (m->ids && id_at == 0) {
		tprintf(t, "bmc-id ");
		tnum(t, m->mfg, "");
		tprintf(t, " ");
		tnum(t, m->prod, "");
		tprintf(t, "%s", eol());
	}
	for (i = 0; i < m->nstates; i++)
		tprintf(t, "state%s%s%s%s%s", blank(), m->sname[i], blank(),
			m->kept[i] ? "kept" : "lost", eol());
	if (one_in(8))
		tprintf(t, "\n");
	for (i = 0; i < m->nranks; i++) {
		const struct mrank *r = &m->r[i];
		int order[1 + ACMA_MAX_STATES + ACMA_MAX_RANGES], n = 0;

		/* keys in any order: 0 dimm, 1.. states, 100.. files */
		order[n++] = 0;
		for (j = 0; j < m->nstates; j++)
			order[n++] = 1 + j;
		for (k = 0; k < r->nranges; k++)
			order[n++] = 100 + k;
		if (one_in(3)) {
			for (j = n - 1; j > 0; j--) {
				int x = below(j + 1), tmp = order[j];

				order[j] = order[x];
				order[x] = tmp;
			}
			/* the files stay in range order: that is their index */
			for (j = 0, k = 0; j < n; j++)
				if (order[j] >= 100)
					order[j] = 100 + k++;
		}
		tprintf(t, "rank%s", blank());
		tnum(t, i, "");
		for (j = 0; j < n; j++) {
			tprintf(t, "%s", blank());
			if (order[j] == 0) {
				tprintf(t, "dimm=%s", m->dname[r->dimm]);
			} else if (order[j] < 100) {
				int s = order[j] - 1;

				tprintf(t, "%s=", m->sname[s]);
				tnum(t, r->mw[s], "mW,");
				tnum(t, r->ns[s], "ns");
			} else {
				k = order[j] - 100;
				tprintf(t, "file=%s/r%d-%d,", m->filedir, i, k);
				tnum(t, r->base[k], ",");
				tnum(t, r->size[k], "");
			}
		}
		tprintf(t, "%s", eol());
		if (m->ids && id_at == i + 1) {
			tprintf(t, "bmc-id%s", blank());
			tnum(t, m->mfg, "");
			tprintf(t, "%s", blank());
			tnum(t, m->prod, "");
			tprintf(t, "%s", eol());
		}
	}
}

static void render_state(const struct model *m, struct text *t)
{
	int order[ACMA_MAX_RANKS], i, j;

	for (i = 0; i < m->nranks; i++)
		order[i] = i;
	if (one_in(3))
		for (i = m->nranks - 1; i > 0; i--) {
			int x = below(i + 1), tmp = order[i];

			order[i] = order[x];
			order[x] = tmp;
		}
	if (!one_in(4))
		tprintf(t, "# acma BMC rank states: rank ID STATE TRANSITIONS LAST-CHANGE\n");
	for (j = 0; j < m->nranks; j++) {
		i = order[j];
		tprintf(t, "rank%s", blank());
		tnum(t, i, "");
		tprintf(t, "%s%s%s", blank(), m->sname[m->state[i]], blank());
		tnum(t, m->trans[i], "");
		tprintf(t, "%s", blank());
		tnum(t, m->when[i], "");
		tprintf(t, "%s", eol());
		if (one_in(10))
			tprintf(t, "%s", one_in(2) ? "\n" : "# note\n");
	}
}

/* Insert @line (with its newline) before line @at (0-based) of @t. */
static void insert_line(struct text *t, int at, const char *line)
{
	size_t pos = 0, add = strlen(line);
	int l = 0;

	while (l < at && pos < t->len) {
		if (t->buf[pos++] == '\n')
			l++;
	}
	tprintf(t, "%*s", (int)add, "");
	memmove(t->buf + pos + add, t->buf + pos, t->len - add - pos);
	memcpy(t->buf + pos, line, add);
}

static int count_lines(const struct text *t)
{
	int n = 0;
	size_t i;

	for (i = 0; i < t->len; i++)
		n += t->buf[i] == '\n';
	return n;
}

/* Remove line @at (0-based) of @t. */
static void remove_line(struct text *t, int at)
{
	size_t pos = 0, end;
	int l = 0;

	while (l < at && pos < t->len)
		if (t->buf[pos++] == '\n')
			l++;
	end = pos;
	while (end < t->len && t->buf[end] != '\n')
		end++;
	if (end < t->len)
		end++;
	memmove(t->buf + pos, t->buf + end, t->len - end);
	t->len -= end - pos;
	t->buf[t->len] = '\0';
}

/* Random damage: bytes changed, inserted, removed, lines swapped. */
static void havoc(struct text *t)
{
	int n = 1 + below(8), i;

	for (i = 0; i < n && t->len; i++) {
		size_t at = below(t->len);

		switch (below(5)) {
		case 0:
			t->buf[at] = below(256);
			break;
		case 1:
			t->buf[at] = "0123456789x=,# \t\nmWns-+"[below(23)];
			break;
		case 2:
			memmove(t->buf + at, t->buf + at + 1, t->len - at - 1);
			t->len--;
			break;
		case 3:
			tprintf(t, " ");
			memmove(t->buf + at + 1, t->buf + at, t->len - at - 1);
			t->buf[at] = "0=,\n \t9"[below(7)];
			break;
		default:
			remove_line(t, below(count_lines(t) + 1));
			break;
		}
	}
}

/* ---- checks on a plugin against a model --------------------------------- */

static struct acma_bmc *bmc;	/* the plugin under test */

static bool same_board(const struct acma_bmc *b, const struct model *m)
{
	int i, j;

	FAIL_IF(strcmp(b->board, m->board), "board '%s', want '%s'", b->board, m->board);
	FAIL_IF(b->have_ids != m->ids, "bmc-id");
	FAIL_IF(m->ids && (b->manufacturer != m->mfg || b->product != m->prod),
		"bmc-id %u %u", b->manufacturer, b->product);
	FAIL_IF(b->nr_states != m->nstates || b->on_state != m->on, "states %d on %d",
		b->nr_states, b->on_state);
	for (i = 0; i < m->nstates; i++)
		FAIL_IF(strcmp(b->states[i].name, m->sname[i]) || b->states[i].kept != m->kept[i],
			"state %d '%s'", i, b->states[i].name);
	FAIL_IF(b->nr_ranks != m->nranks || b->nr_dimms != m->ndimms, "%d ranks %d dimms",
		b->nr_ranks, b->nr_dimms);
	for (i = 0; i < m->nranks; i++) {
		const struct acma_rank *rk = &b->ranks[i];
		const struct mrank *r = &m->r[i];

		FAIL_IF(strcmp(b->dimms[rk->dimm], m->dname[r->dimm]), "rank %d dimm", i);
		FAIL_IF(rk->nr_ranges != r->nranges, "rank %d: %d ranges", i, rk->nr_ranges);
		for (j = 0; j < m->nstates; j++)
			FAIL_IF(rk->power_mw[j] != r->mw[j] || rk->latency_ns[j] != r->ns[j],
				"rank %d state %d: %u mW %" PRIu64 " ns, want %" PRIu64 " %" PRIu64,
				i, j, rk->power_mw[j], rk->latency_ns[j], r->mw[j], r->ns[j]);
		for (j = 0; j < r->nranges; j++)
			FAIL_IF(rk->ranges[j].base != r->base[j] || rk->ranges[j].size != r->size[j],
				"rank %d range %d: 0x%" PRIx64 "+0x%" PRIx64 ", want 0x%" PRIx64 "+0x%" PRIx64,
				i, j, rk->ranges[j].base, rk->ranges[j].size, r->base[j], r->size[j]);
		FAIL_IF(rk->state != m->state[i] || rk->transitions != m->trans[i] ||
			(uint64_t)rk->last_change != m->when[i],
			"rank %d: state %d %u %lld, want %d %" PRIu64 " %" PRIu64, i, rk->state,
			rk->transitions, (long long)rk->last_change, m->state[i], m->trans[i],
			m->when[i]);
	}
	return true;
}

/* What any accepted board must be, whatever the file looked like. */
static bool sane_board(const struct acma_bmc *b)
{
	int i, j;

	FAIL_IF(!b->board, "no board");
	FAIL_IF(b->nr_states < 1 || b->nr_states > ACMA_MAX_STATES, "%d states", b->nr_states);
	FAIL_IF(b->on_state < 0 || b->on_state >= b->nr_states ||
		strcmp(b->states[b->on_state].name, "on") || !b->states[b->on_state].kept,
		"on state %d", b->on_state);
	FAIL_IF(b->nr_ranks < 1 || b->nr_ranks > ACMA_MAX_RANKS, "%d ranks", b->nr_ranks);
	FAIL_IF(b->have_ids && b->manufacturer >= 0xfffff, "manufacturer %u", b->manufacturer);
	for (i = 0; i < b->nr_states; i++)
		FAIL_IF(strlen(b->states[i].name) > ACMA_NAME_MAX, "state name");
	for (i = 0; i < b->nr_ranks; i++) {
		const struct acma_rank *rk = &b->ranks[i];

		FAIL_IF(rk->dimm < 0 || rk->dimm >= b->nr_dimms, "rank %d dimm %d", i, rk->dimm);
		FAIL_IF(strlen(b->dimms[rk->dimm]) > ACMA_NAME_MAX, "dimm name");
		FAIL_IF(rk->nr_ranges < 1 || rk->nr_ranges > ACMA_MAX_RANGES, "ranges");
		for (j = 0; j < rk->nr_ranges; j++)
			FAIL_IF(!rk->ranges[j].size || !rk->ranges[j].path, "range %d.%d", i, j);
		FAIL_IF(rk->state < 0 || rk->state >= b->nr_states, "rank %d state %d", i, rk->state);
		FAIL_IF(!rk->transitions != !rk->last_change, "rank %d: %u transitions, last %lld",
			i, rk->transitions, (long long)rk->last_change);
		FAIL_IF(rk->last_change < 0 || (uint64_t)rk->last_change > UINT32_MAX,
			"rank %d last change %lld", i, (long long)rk->last_change);
	}
	return true;
}

/*
 * The state file on disk, read back by the plugin's own reader, is what
 * the plugin has in memory: every transition it wrote can be restarted from.
 */
static bool state_file_reads_back(struct acma_bmc *b)
{
	struct acma_bmc *copy = malloc(sizeof(*copy));
	int i, err;

	stats.statefile_checks++;
	if (access(b->state_path, F_OK) && errno == ENOENT) {
		/* none written yet: every rank is still "on", never changed */
		for (i = 0; i < b->nr_ranks; i++)
			if (b->ranks[i].state != b->on_state || b->ranks[i].transitions)
				break;
		free(copy);
		FAIL_IF(i < b->nr_ranks, "no state file, but rank %d changed", i);
		return true;
	}
	memcpy(copy, b, sizeof(*copy));
	for (i = 0; i < copy->nr_ranks; i++) {
		copy->ranks[i].state = -1;
		copy->ranks[i].transitions = 12345;
		copy->ranks[i].last_change = 12345;
	}
	err = acma_state_read(copy);
	for (i = 0; !err && i < b->nr_ranks; i++)
		if (copy->ranks[i].state != b->ranks[i].state ||
		    copy->ranks[i].transitions != b->ranks[i].transitions ||
		    copy->ranks[i].last_change != b->ranks[i].last_change)
			break;
	free(copy);
	FAIL_IF(err, "the plugin refuses its own state file %s: %s", b->state_path,
		strerror(err));
	FAIL_IF(i < b->nr_ranks, "the state file says otherwise than the plugin of rank %d: %d %u %lld",
		i, b->ranks[i].state, b->ranks[i].transitions, (long long)b->ranks[i].last_change);
	return true;
}

/* ---- requests and their answers ---------------------------------------- */

static uint32_t next_tag = 1;
static struct sim_answer ans[64];

/* One answer with tag @tag, and no other: into *@a. */
static bool one_answer(uint32_t tag, unsigned char netfn, unsigned char cmd,
		       struct sim_answer *a, unsigned int buf)
{
	unsigned int n, i, mine = 0;

	sim_run_timers(2000000);
	n = sim_take_answers(ans, 64);
	for (i = 0; i < n; i++) {
		FAIL_IF(ans[i].tag != tag, "an answer to request %u, expected only %u",
			ans[i].tag, tag);
		mine++;
		*a = ans[i];
	}
	FAIL_IF(mine != 1, "%u answers to request %u (NetFn 0x%02x cmd 0x%02x)", mine, tag,
		netfn, cmd);
	FAIL_IF(a->len < 1, "an answer without a completion code");
	FAIL_IF(a->len > buf, "an answer of %u bytes, ipmi_sim has %u", a->len, buf);
	FAIL_IF(a->netfn != (netfn | 1) || a->cmd != cmd, "answer NetFn 0x%02x cmd 0x%02x",
		a->netfn, a->cmd);
	return true;
}

/* ---- the model of the running plugin ------------------------------------ */

enum filehealth { F_GOOD, F_MISSING, F_SIZE, F_SYMLINK, F_DIR, F_OPENDIR };

static struct model M;			/* the board and the ranks' states */
static bool failed_m[ACMA_MAX_RANKS];	/* Configuration Error expected */
static uint64_t usable_at[ACMA_MAX_RANKS];
static enum filehealth health[ACMA_MAX_RANKS][ACMA_MAX_RANGES];
static uint64_t pmin, pmax;		/* power seen, mW */
static bool state_unwritable, sensors_ok, posted;
static char state_path[300], audit_path[300], faults_path[300], opendir_path[300];

static uint64_t power_now(void)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < M.nranks; i++)
		sum += M.r[i].mw[M.state[i]];
	return sum > UINT32_MAX ? UINT32_MAX : sum;
}

static unsigned int watts(uint64_t mw)
{
	uint64_t w = (mw + 500) / 1000;

	return w > 0xffff ? 0xffff : w;
}

static void range_path(char *buf, size_t len, int rank, int k)
{
	snprintf(buf, len, "%s/r%d-%d", health[rank][k] == F_OPENDIR ? opendir_path : M.filedir,
		 rank, k);
}

/* Make backing file (@rank, @k) as @h says, in both folders. */
static void set_health(int rank, int k, enum filehealth h)
{
	char good[400], shared[400];
	int fd;

	snprintf(good, sizeof(good), "%s/r%d-%d", M.filedir, rank, k);
	snprintf(shared, sizeof(shared), "%s/r%d-%d", opendir_path, rank, k);
	unlink(shared);
	if (!rmdir(good) || errno != ENOENT)
		unlink(good);
	health[rank][k] = h;
	switch (h) {
	case F_MISSING:
		return;
	case F_SYMLINK:
		if (symlink(shared, good))
			abort();
		break;
	case F_DIR:
		if (mkdir(good, 0700))
			abort();
		return;
	default:
		break;
	}
	fd = open(h == F_SYMLINK || h == F_OPENDIR ? shared : good, O_CREAT | O_RDWR, 0600);
	if (fd < 0 || ftruncate(fd, M.r[rank].size[k] + (h == F_SIZE ? 1 : 0)))
		abort();
	close(fd);
}

static bool rank_droppable(int rank)
{
	int k;

	for (k = 0; k < M.r[rank].nranges; k++)
		if (health[rank][k] != F_GOOD)
			return false;
	return true;
}

/* Write a marker into each good file of @rank: a drop must clear it. */
static void mark_contents(int rank)
{
	char path[400];
	int k, fd;

	for (k = 0; k < M.r[rank].nranges; k++) {
		if (health[rank][k] != F_GOOD)
			continue;
		range_path(path, sizeof(path), rank, k);
		fd = open(path, O_WRONLY);
		if (fd < 0 || pwrite(fd, "acma", 4, M.r[rank].size[k] - 4) != 4)
			abort();
		close(fd);
	}
}

static bool contents_dropped(int rank)
{
	char path[400], buf[4];
	int k, fd;

	stats.drops_checked++;
	for (k = 0; k < M.r[rank].nranges; k++) {
		range_path(path, sizeof(path), rank, k);
		fd = open(path, O_RDONLY);
		FAIL_IF(fd < 0, "%s: %s", path, strerror(errno));
		FAIL_IF(pread(fd, buf, 4, M.r[rank].size[k] - 4) != 4, "read %s", path);
		close(fd);
		FAIL_IF(memcmp(buf, "\0\0\0\0", 4), "rank %d in state %s but %s kept its contents",
			rank, M.sname[M.state[rank]], path);
	}
	return true;
}

/* The plugin's ranks, sensors and power are the model's. */
static bool plugin_is_model(void)
{
	int i;

	for (i = 0; i < M.nranks; i++) {
		const struct acma_rank *rk = &bmc->ranks[i];
		uint16_t bits;

		FAIL_IF(rk->state != M.state[i], "rank %d in state %d, want %d", i, rk->state,
			M.state[i]);
		FAIL_IF(rk->transitions != M.trans[i], "rank %d: %u transitions, want %" PRIu64,
			i, rk->transitions, M.trans[i]);
		FAIL_IF(rk->failed != failed_m[i], "rank %d failed %d", i, rk->failed);
		if (!sensors_ok)
			continue;
		FAIL_IF(!sim_sensor(ACMA_SENSOR_BASE + i, &bits), "rank %d has no sensor", i);
		FAIL_IF(!(bits & (1 << ACMA_MEM_PRESENT)), "rank %d: presence not asserted", i);
		FAIL_IF(!!(bits & (1 << ACMA_MEM_SPARE)) != (M.state[i] != M.on),
			"rank %d in state %d: Spare %d", i, M.state[i],
			!!(bits & (1 << ACMA_MEM_SPARE)));
		FAIL_IF(!!(bits & (1 << ACMA_MEM_CONFIG_ERROR)) != failed_m[i],
			"rank %d: Configuration Error %d, want %d", i,
			!!(bits & (1 << ACMA_MEM_CONFIG_ERROR)), failed_m[i]);
		FAIL_IF(bits & (1 << ACMA_MEM_DISABLED), "rank %d: Memory Device Disabled", i);
	}
	return true;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

/* The last line of the transition log: only printable characters. */
static bool audit_tail_clean(void)
{
	static char text[4097];
	off_t size = file_size(audit_path), from = size > 4096 ? size - 4096 : 0;
	char *last, *p;
	ssize_t n;
	int fd = open(audit_path, O_RDONLY);

	FAIL_IF(fd < 0, "no transition log %s", audit_path);
	n = pread(fd, text, 4096, from);
	close(fd);
	FAIL_IF(n <= 0, "cannot read the transition log");
	text[n] = '\0';
	last = strrchr(text, '\n');
	FAIL_IF(!last || last[1], "the transition log does not end in a newline");
	*last = '\0';
	last = strrchr(text, '\n');
	last = last ? last + 1 : text;
	for (p = last; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			break;
	FAIL_IF(*p, "a control or non-ASCII byte 0x%02x in the log: %.200s",
		(unsigned char)*p, last);
	return true;
}

/* ---- OEM requests ------------------------------------------------------- */

struct req {
	unsigned char netfn, cmd, data[40];
	unsigned int len;
};

/* A domain byte: boundaries first. */
static unsigned int rand_domain(void)
{
	if (below(3))
		return below(M.nranks);
	return PICK(0, M.nranks - 1, M.nranks, M.nranks + 1, 63, 64, 127, 128, 255, below(256));
}

static unsigned int rand_state(void)
{
	if (below(3))
		return below(M.nstates);
	return PICK(0, M.on, M.nstates - 1, M.nstates, 8, 255, below(256));
}

/* A request of acma's OEM set: valid NetFn and command, lengths and values
 * at the boundaries, sometimes a two-byte (256, 65535) domain. */
static void gen_oem(struct req *r, bool set_ok)
{
	static const unsigned int want_len[] = { 0, 2, 2, 1, 2 };
	unsigned int i;

	r->netfn = ACMA_NETFN_OEM;
	r->cmd = ACMA_CMD_GET_COUNT + below(set_ok ? 5 : 4);
	if (set_ok && below(3) == 0)
		r->cmd = ACMA_CMD_SET_POWER;
	if (one_in(40))
		r->cmd = PICK(0x00, 0x01, 0x04, 0x3f, 0x45, 0xff, below(256));
	r->len = r->cmd >= 0x40 && r->cmd <= 0x44 ? want_len[r->cmd - 0x40] : 0;
	if (one_in(12))
		r->len = PICK(0, 1, 2, 3, 4, 35, 36, 40, below(40));
	for (i = 0; i < sizeof(r->data); i++)
		r->data[i] = below(256);
	if (r->len >= 1)
		r->data[0] = rand_domain();
	if (r->len >= 2)
		r->data[1] = r->cmd == ACMA_CMD_GET_DOMAIN ?
			PICK(0, 1, 31, 32, 255, below(4)) : rand_state();
	if (one_in(30)) {	/* a 16-bit domain: 256 or 65535 */
		uint16_t d = PICK(0, 255, 256, 65535);

		r->data[0] = d & 0xff;
		r->data[1] = d >> 8;
		r->data[2] = rand_state();
		r->len = r->cmd == ACMA_CMD_GET_POWER ? 2 : 3;
	}
}

/* The expected answer of an OEM request that reaches the plugin. */
static bool check_oem(const struct req *r, const struct sim_answer *a, unsigned int room,
		      int old_state, uint64_t old_trans, bool *changed)
{
	static const unsigned int want_len[] = { 0, 2, 2, 1, 2 };
	unsigned int d = r->data[0], x = r->data[1], L, nl;
	const unsigned char *p = a->data;
	const char *name;

	*changed = false;
	if (r->cmd < 0x40 || r->cmd > 0x44) {
		FAIL_IF(p[0] != IPMI_INVALID_CMD_CC || a->len != 1, "cmd 0x%02x: cc 0x%02x",
			r->cmd, p[0]);
		return true;
	}
	if (r->len != want_len[r->cmd - 0x40]) {
		FAIL_IF(p[0] != IPMI_REQUEST_DATA_LENGTH_INVALID_CC || a->len != 1,
			"cmd 0x%02x length %u: cc 0x%02x len %u", r->cmd, r->len, p[0], a->len);
		return true;
	}
	switch (r->cmd) {
	case ACMA_CMD_GET_COUNT:
		FAIL_IF(a->len != 5 || p[0] || p[1] != M.nranks || p[2] != M.nstates ||
			p[3] != M.on || p[4] != 1, "Get Domain Count");
		return true;
	case ACMA_CMD_GET_DOMAIN:
		if (d >= (unsigned int)M.nranks || x >= (unsigned int)M.r[d].nranges) {
			FAIL_IF(p[0] != IPMI_PARAMETER_OUT_OF_RANGE_CC || a->len != 1,
				"Get Domain Info %u %u: cc 0x%02x", d, x, p[0]);
			return true;
		}
		name = M.dname[M.r[d].dimm];
		nl = strlen(name);
		L = nl < room - 22 ? nl : room - 22;
		FAIL_IF(p[0] || p[1] != d || p[2] != M.r[d].dimm || p[3] != M.r[d].nranges ||
			p[4] != x, "Get Domain Info %u %u: header", d, x);
		FAIL_IF(ipmi_get_uint32((uint8_t *)p + 5) != (uint32_t)M.r[d].base[x] ||
			ipmi_get_uint32((uint8_t *)p + 9) != M.r[d].base[x] >> 32 ||
			ipmi_get_uint32((uint8_t *)p + 13) != (uint32_t)M.r[d].size[x] ||
			ipmi_get_uint32((uint8_t *)p + 17) != M.r[d].size[x] >> 32,
			"Get Domain Info %u %u: range", d, x);
		FAIL_IF(p[21] != L || a->len != 22 + L || memcmp(p + 22, name, L),
			"Get Domain Info %u: name length %u, answer %u bytes (room %u)", d, p[21],
			a->len, room);
		return true;
	case ACMA_CMD_GET_STATE_INFO:
		if (d >= (unsigned int)M.nranks || x >= (unsigned int)M.nstates) {
			FAIL_IF(p[0] != IPMI_PARAMETER_OUT_OF_RANGE_CC || a->len != 1,
				"Get Power-State Info %u %u: cc 0x%02x", d, x, p[0]);
			return true;
		}
		name = M.sname[x];
		L = strlen(name);
		FAIL_IF(p[0] || p[1] != d || p[2] != x ||
			p[3] != ((M.kept[x] ? 1 : 0) | (x == (unsigned int)M.on ? 2 : 0)),
			"Get Power-State Info %u %u: flags 0x%02x", d, x, p[3]);
		FAIL_IF(ipmi_get_uint32((uint8_t *)p + 4) != M.r[d].mw[x] ||
			ipmi_get_uint32((uint8_t *)p + 8) != (uint32_t)M.r[d].ns[x] ||
			ipmi_get_uint32((uint8_t *)p + 12) != M.r[d].ns[x] >> 32,
			"Get Power-State Info %u %u: figures", d, x);
		FAIL_IF(p[16] != L || a->len != 17 + L || memcmp(p + 17, name, L),
			"Get Power-State Info %u %u: name", d, x);
		return true;
	case ACMA_CMD_GET_POWER: {
		uint32_t age;

		if (d >= (unsigned int)M.nranks) {
			FAIL_IF(p[0] != IPMI_PARAMETER_OUT_OF_RANGE_CC || a->len != 1,
				"Get Domain Power State %u: cc 0x%02x", d, p[0]);
			return true;
		}
		age = ipmi_get_uint32((uint8_t *)p + 7);
		FAIL_IF(a->len != 11 || p[0] || p[1] != d || p[2] != M.state[d] ||
			ipmi_get_uint32((uint8_t *)p + 3) != M.trans[d],
			"Get Domain Power State %u: state %u transitions %u, want %d %" PRIu64,
			d, p[2], ipmi_get_uint32((uint8_t *)p + 3), M.state[d], M.trans[d]);
		if (!M.when[d]) {
			FAIL_IF(age != UINT32_MAX, "never changed, age %u", age);
		} else {
			uint64_t now = time(NULL), want = now > M.when[d] ? now - M.when[d] : 0;

			if (want >= UINT32_MAX)
				want = UINT32_MAX - 1;
			FAIL_IF(age == UINT32_MAX || age > want + 1 || age + 2 < want,
				"rank %u: age %u, want %" PRIu64, d, age, want);
		}
		return true;
	}
	default:
		break;
	}
	/* Set Domain Power State */
	if (d >= (unsigned int)M.nranks || x >= (unsigned int)M.nstates) {
		FAIL_IF(p[0] != IPMI_PARAMETER_OUT_OF_RANGE_CC || a->len != 1,
			"Set Domain Power State %u %u: cc 0x%02x", d, x, p[0]);
		return true;
	}
	if ((int)x == old_state) {
		FAIL_IF(a->len != 4 || p[0] || p[1] != d || p[2] != x || p[3] != x,
			"Set %u to its own state %u: cc 0x%02x", d, x, p[0]);
		return true;
	}
	if (M.kept[old_state] && !M.kept[x] && !rank_droppable(d)) {
		FAIL_IF(p[0] != IPMI_UNKNOWN_ERR_CC || a->len != 1,
			"rank %u with a bad backing file: %s -> %s answered 0x%02x", d,
			M.sname[old_state], M.sname[x], p[0]);
		failed_m[d] = true;
		stats.refused++;
		return true;
	}
	if (state_unwritable) {
		FAIL_IF(p[0] != IPMI_UNKNOWN_ERR_CC || a->len != 1,
			"rank %u: state not saved, answered 0x%02x", d, p[0]);
		stats.refused++;
		return true;
	}
	FAIL_IF(a->len != 4 || p[0] || p[1] != d || p[2] != x || p[3] != old_state,
		"Set %u %u: cc 0x%02x len %u old %u", d, x, p[0], a->len, p[3]);
	M.state[d] = x;
	if (power_now() < pmin)
		pmin = power_now();
	if (power_now() > pmax)
		pmax = power_now();
	M.trans[d] = old_trans < UINT32_MAX ? old_trans + 1 : UINT32_MAX;
	M.when[d] = time(NULL);
	failed_m[d] = false;
	if (x == (unsigned int)M.on) {
		uint64_t ns = M.r[d].ns[old_state];

		usable_at[d] = bmc->ranks[d].usable_at;
		FAIL_IF(ns <= ACMA_MAX_EXIT_WAIT_NS && usable_at[d] > sim_mono_ns() + ns,
			"rank %u usable too late", d);
	}
	*changed = true;
	stats.transitions++;
	return true;
}

/* Everything after a request to the plugin: the answer and the state. */
static bool after_oem(const struct req *r, const struct sim_answer *a, unsigned int room,
		      bool reached, off_t audit_before, unsigned int sel_before)
{
	int d = r->data[0], old = d < M.nranks ? M.state[d] : -1;
	uint64_t old_trans = d < M.nranks ? M.trans[d] : 0;
	bool changed = false, was_failed = d < M.nranks && failed_m[d];
	unsigned int sel_now;

	if (reached && r->netfn == ACMA_NETFN_OEM &&
	    !check_oem(r, a, room, old, old_trans, &changed))
		return false;
	if (!plugin_is_model())
		return false;
	sel_now = sim_sel_count();
	if (reached && r->netfn == ACMA_NETFN_OEM && r->cmd == ACMA_CMD_SET_POWER &&
	    r->len == 2 && d < M.nranks && r->data[1] == M.on && !a->data[0] &&
	    !sim_knobs.fail_start_timer)
		FAIL_IF(a->at_ns < usable_at[d],
			"rank %d answered \"on\" %" PRIu64 " ns before it is usable", d,
			usable_at[d] - a->at_ns);
	if (changed) {
		if (M.kept[old] && !M.kept[M.state[d]] && !contents_dropped(d))
			return false;
		if (sensors_ok && sel_before < sim_knobs.sel_max) {
			const unsigned char *e = sim_sel_record(sel_now - 1);

			FAIL_IF(sel_now != sel_before + 1, "%u SEL records added", sel_now - sel_before);
			FAIL_IF(e[2] != 0x02 || e[7] != 0x20 || e[8] || e[9] != 0x04 ||
				e[10] != ACMA_SENSOR_TYPE_MEMORY || e[11] != ACMA_SENSOR_BASE + d ||
				e[12] != (M.state[d] == M.on ? 0xef : 0x6f) || e[13] != 0xa4 ||
				e[14] != M.state[d] || e[15] != old,
				"SEL record of rank %d %d -> %d", d, old, M.state[d]);
		} else {
			FAIL_IF(sel_now != sel_before, "a SEL record added to a full SEL");
			FAIL_IF(sensors_ok && !sim_sel_overflow(), "a full SEL without overflow flag");
		}
		FAIL_IF(file_size(audit_path) <= audit_before, "no line in the transition log");
		if (!audit_tail_clean())
			return false;
		if (!state_file_reads_back(bmc))
			return false;
	} else {
		FAIL_IF(sel_now != sel_before, "a SEL record without a transition");
		if (reached && r->netfn == ACMA_NETFN_OEM && r->cmd == ACMA_CMD_SET_POWER &&
		    a->data[0] == IPMI_UNKNOWN_ERR_CC && failed_m[d] && !was_failed)
			FAIL_IF(file_size(audit_path) <= audit_before,
				"a refused transition not in the transition log");
		else if (a->data[0] != IPMI_UNKNOWN_ERR_CC)
			FAIL_IF(file_size(audit_path) != audit_before,
				"the transition log grew without a transition");
	}
	return true;
}

static bool send_sysif(const struct req *r)
{
	struct sim_answer a;
	uint32_t tag = next_tag++;
	off_t audit_before = file_size(audit_path);
	unsigned int sel_before = sim_sel_count();

	sim_sysif_request(r->netfn, r->cmd, r->data, r->len, tag);
	if (!one_answer(tag, r->netfn, r->cmd, &a, SIM_ANSWER_BUF))
		return false;
	return after_oem(r, &a, SIM_ANSWER_BUF, true, audit_before, sel_before);
}

/* Directly into the larger buffer of an encapsulated request (IPMB). */
static bool send_ipmb(const struct req *r)
{
	unsigned int room = SIM_IPMB_ANSWER_BUF, len = room;
	unsigned char *rdata = malloc(room);
	unsigned char data[40];
	struct sim_answer a;
	off_t audit_before = file_size(audit_path);
	unsigned int sel_before = sim_sel_count();
	msg_t msg;
	bool ok;

	memset(&msg, 0, sizeof(msg));
	memcpy(data, r->data, sizeof(data));
	msg.netfn = r->netfn;
	msg.cmd = r->cmd;
	msg.data = data;
	msg.len = r->len;
	msg.channel = 0;
	sim_dispatch(&msg, rdata, &len);
	FAIL_IF(len < 1 || len > room, "answer of %u bytes into %u", len, room);
	a.len = len;
	memcpy(a.data, rdata, len);
	a.at_ns = sim_mono_ns();
	free(rdata);
	ok = after_oem(r, &a, room, true, audit_before, sel_before);
	FAIL_IF(sim_take_answers(ans, 64), "an answer sent for a direct request");
	return ok;
}

/* ---- DCMI and other NetFns ---------------------------------------------- */

static bool check_dcmi(const struct req *r, const struct sim_answer *a)
{
	const unsigned char *p = a->data;
	unsigned int cur, mn, mx, avg;

	if (!r->len) {
		FAIL_IF(p[0] != IPMI_REQUEST_DATA_LENGTH_INVALID_CC, "DCMI without group");
		return true;
	}
	if (r->data[0] != ACMA_DCMI_GROUP || r->cmd != ACMA_DCMI_GET_POWER) {
		FAIL_IF(p[0] != IPMI_INVALID_CMD_CC || a->len != 1,
			"DCMI group 0x%02x cmd 0x%02x: cc 0x%02x", r->data[0], r->cmd, p[0]);
		return true;
	}
	if (r->len != 4) {
		FAIL_IF(p[0] != IPMI_REQUEST_DATA_LENGTH_INVALID_CC || a->len != 1,
			"DCMI Get Power Reading length %u", r->len);
		return true;
	}
	if (r->data[1] != 1 || r->data[2] || r->data[3]) {
		FAIL_IF(p[0] != IPMI_INVALID_DATA_FIELD_CC || a->len != 1,
			"DCMI mode %02x %02x %02x: cc 0x%02x", r->data[1], r->data[2], r->data[3],
			p[0]);
		return true;
	}
	cur = ipmi_get_uint16((uint8_t *)p + 2);
	mn = ipmi_get_uint16((uint8_t *)p + 4);
	mx = ipmi_get_uint16((uint8_t *)p + 6);
	avg = ipmi_get_uint16((uint8_t *)p + 8);
	FAIL_IF(a->len != 19 || p[0] || p[1] != ACMA_DCMI_GROUP || p[18] != 0x40,
		"DCMI reading layout");
	FAIL_IF(cur != watts(power_now()), "DCMI now %u W, want %u", cur, watts(power_now()));
	FAIL_IF(mn != watts(pmin) || mx != watts(pmax), "DCMI min %u max %u, want %u %u", mn, mx,
		watts(pmin), watts(pmax));
	FAIL_IF(avg < mn || avg > mx, "DCMI average %u outside [%u, %u]", avg, mn, mx);
	return true;
}

static void gen_other(struct req *r)
{
	unsigned int i;

	for (i = 0; i < sizeof(r->data); i++)
		r->data[i] = below(256);
	switch (below(4)) {
	case 0:
		r->netfn = ACMA_NETFN_DCMI;
		r->cmd = below(4) ? ACMA_DCMI_GET_POWER : PICK(0x01, 0x03, 0xff, below(256));
		r->len = below(4) ? 4 : PICK(0, 1, 3, 5, 36, below(40));
		if (r->len)
			r->data[0] = below(8) ? ACMA_DCMI_GROUP : below(256);
		if (below(3)) {
			r->data[1] = 1;
			r->data[2] = r->data[3] = 0;
		}
		break;
	case 1:
		r->netfn = IPMI_APP_NETFN;
		r->cmd = IPMI_GET_DEVICE_ID_CMD;
		r->len = below(4) ? 0 : below(8);
		break;
	default:
		r->netfn = below(32) << 1;
		r->cmd = below(256);
		r->len = below(41);
		if (r->netfn == IPMI_STORAGE_NETFN && r->cmd == IPMI_SET_SEL_TIME_CMD)
			r->cmd++;
		if (r->netfn == ACMA_NETFN_OEM && r->cmd >= 0x40 && r->cmd <= 0x44)
			r->cmd = 0x45;
		break;
	}
}

static bool check_other(const struct req *r, const struct sim_answer *a)
{
	if (r->netfn == ACMA_NETFN_DCMI)
		return check_dcmi(r, a);
	if (r->netfn == IPMI_APP_NETFN && r->cmd == IPMI_GET_DEVICE_ID_CMD) {
		const unsigned char *p = a->data;

		FAIL_IF(a->len != 16 || p[0], "Get Device ID");
		if (M.ids && posted)
			FAIL_IF((uint64_t)(p[7] | p[8] << 8 | p[9] << 16) != M.mfg ||
				(uint64_t)(p[10] | p[11] << 8) != M.prod,
				"Get Device ID: manufacturer %06x product %04x", p[7] | p[8] << 8 |
				p[9] << 16, p[10] | p[11] << 8);
		else
			FAIL_IF((p[7] | p[8] | p[9]) || p[10] != 0x4a || p[11] != 0xac,
				"Get Device ID without bmc-id");
		return true;
	}
	if (r->netfn == ACMA_NETFN_OEM)
		FAIL_IF(a->data[0] != IPMI_INVALID_CMD_CC, "OEM 0x%02x answered", r->cmd);
	return true;
}

static bool send_other_sysif(const struct req *r)
{
	struct sim_answer a;
	uint32_t tag = next_tag++;
	off_t audit_before = file_size(audit_path);
	unsigned int sel_before = sim_sel_count();

	sim_sysif_request(r->netfn, r->cmd, r->data, r->len, tag);
	if (!one_answer(tag, r->netfn, r->cmd, &a, SIM_ANSWER_BUF) || !check_other(r, &a))
		return false;
	return after_oem(r, &a, SIM_ANSWER_BUF, false, audit_before, sel_before);
}

/* ---- LAN sessions -------------------------------------------------------- */

static uint32_t sid_seq = 1;
static unsigned int age_m[MAX_SESSIONS + 1];	/* seconds half-open, as the plugin counts */

static uint32_t new_sid(int slot)
{
	return (sid_seq++ << 7) | (slot << 1);
}

/* A random session in @slot: half-open or established, any user and rights. */
static void rand_session(int slot, bool half_open_ok)
{
	session_t *s = &sim_lan()->sessions[slot];

	if (!s->active)
		sim_lan()->channel.active_sessions++;
	memset(s, 0, sizeof(*s));
	s->handle = slot;
	s->active = 1;
	s->sid = new_sid(slot);
	s->in_startup = half_open_ok && one_in(3);
	s->rmcpplus = !one_in(6);
	s->auth = PICK(0, 1, 2, 3, 1, 2);
	s->integ = PICK(0, 1, 2, 3, 4, 1);
	s->userid = PICK(0, 1, 2, 3, 4, 5, 62, 63, 64, 255, below(64));
	s->priv = PICK(0, 1, 2, 3, 4, 5, 15, 2, 4);
	s->max_priv = PICK(0, 1, 2, 3, 4, 5, 15, 4, 4);
	s->time_left = 1 + below(30);
	age_m[slot] = 0;
	if (!half_open_ok && below(2)) {	/* a proper one: password, integrity */
		s->rmcpplus = 1;
		s->auth = 1 + below(3);
		s->integ = 1 + below(4);
		s->userid = 2 + below(3);
		s->priv = s->max_priv = PICK(2, 3, 4, 4);
		sim_lan()->users[s->userid].valid = 1;
		sim_lan()->users[s->userid].privilege = PICK(2, 3, 4, 4, s->priv);
	}
}

static void rand_user(int id)
{
	user_t *u = &sim_lan()->users[id];
	int i;

	u->valid = !one_in(5);
	u->privilege = PICK(0, 1, 2, 3, 4, 5, 6, 15, 2, 4);
	for (i = 0; i < 16; i++)
		u->username[i] = one_in(8) ? (unsigned char)below(256) :
				 (unsigned char)"admin'x\n\x7f\x01 o"[below(13)];
	if (one_in(3))
		memcpy(u->username, "admin\0\0\0\0\0\0\0\0\0\0\0", 16);
}

static unsigned char acma_need(unsigned char netfn, unsigned char cmd)
{
	if (netfn == ACMA_NETFN_OEM && cmd >= 0x40 && cmd <= 0x43)
		return IPMI_PRIVILEGE_USER;
	if (netfn == ACMA_NETFN_OEM && cmd == 0x44)
		return IPMI_PRIVILEGE_ADMIN;
	if (netfn == ACMA_NETFN_DCMI && cmd == ACMA_DCMI_GET_POWER)
		return IPMI_PRIVILEGE_USER;
	return 0;
}

/*
 * A request of session @slot (or of a stale SID). The model of PROTOCOL.md's
 * Security section decides whether lanserv answers it, the plugin's hook
 * refuses it (0xd4) or the BMC handles it.
 */
static bool send_lan(int slot, bool stale, const struct req *r0)
{
	lanserv_data_t *lan = sim_lan();
	session_t *s = &lan->sessions[slot];
	struct req r = *r0;
	const user_t *u = s->userid >= 1 && s->userid <= MAX_USERS ?
			  &lan->users[s->userid] : NULL;
	unsigned int limit = 0, maxp, prv, need, n;
	uint32_t tag = next_tag++, sid = stale ? s->sid ^ 0x80 : s->sid;
	off_t audit_before = file_size(audit_path);
	unsigned int sel_before = sim_sel_count();
	int expect;	/* -1 the BMC answers, else this completion code */
	bool closes;
	struct sim_answer a;

	if (u && u->valid && u->privilege && u->privilege <= IPMI_PRIVILEGE_OEM)
		limit = u->privilege < lan->channel.privilege_limit ? u->privilege :
			lan->channel.privilege_limit;
	maxp = s->max_priv < limit ? s->max_priv : limit;
	prv = s->priv < maxp ? s->priv : maxp;
	if (one_in(30)) {	/* its own Close Session */
		r.netfn = IPMI_APP_NETFN;
		r.cmd = IPMI_CLOSE_SESSION_CMD;
		r.len = 4 + below(2);
		ipmi_set_uint32(r.data, one_in(4) ? sid + 2 : sid);
	}
	closes = r.netfn == IPMI_APP_NETFN && r.cmd == IPMI_CLOSE_SESSION_CMD && r.len >= 4 &&
		 ipmi_get_uint32(r.data) == sid;
	need = acma_need(r.netfn, r.cmd);
	if (!closes && ((s->rmcpplus && (!s->auth || !s->integ)) || !limit)) {
		expect = IPMI_INSUFFICIENT_PRIVILEGE_CC;
	} else if (need) {
		expect = prv >= need ? -1 : IPMI_INSUFFICIENT_PRIVILEGE_CC;
	} else {
		switch (ipmi_cmd_permitted(prv, r.netfn, r.cmd)) {
		case IPMI_PRIV_PERMITTED: expect = -1; break;
		case IPMI_PRIV_INVALID: expect = IPMI_UNKNOWN_ERR_CC; break;
		default: expect = IPMI_INSUFFICIENT_PRIVILEGE_CC; break;
		}
		if (expect == -1 && r.netfn == IPMI_APP_NETFN && r.cmd != IPMI_GET_DEVICE_ID_CMD)
			expect = 0;	/* lanserv's own */
	}

	sim_lan_request(sid, r.netfn, r.cmd, r.data, r.len, tag);
	if (stale) {
		sim_run_timers(2000000);
		n = sim_take_answers(ans, 64);
		FAIL_IF(n, "an answer to a message of no session");
		FAIL_IF(!plugin_is_model(), "a stale session changed a rank");
		return true;
	}
	FAIL_IF(s->max_priv > limit, "session of user %u keeps maximum privilege %u above %u",
		s->userid, s->max_priv, limit);
	FAIL_IF(s->priv > s->max_priv, "session privilege %u above its maximum %u", s->priv,
		s->max_priv);
	if (!one_answer(tag, r.netfn, r.cmd, &a, SIM_ANSWER_BUF))
		return false;
	if (expect >= 0) {
		FAIL_IF(a.data[0] != expect || a.len != 1,
			"LAN NetFn 0x%02x cmd 0x%02x, user %u (priv %u valid %u), session priv %u/%u rmcp+ %u auth %u integ %u, channel limit %u: cc 0x%02x, want 0x%02x",
			r.netfn, r.cmd, s->userid, u ? u->privilege : 0, u ? u->valid : 0, s->priv,
			s->max_priv, s->rmcpplus, s->auth, s->integ, lan->channel.privilege_limit,
			a.data[0], expect);
		stats.lan_denied += expect == IPMI_INSUFFICIENT_PRIVILEGE_CC;
		return after_oem(&r, &a, SIM_ANSWER_BUF, false, audit_before, sel_before);
	}
	if (r.netfn != ACMA_NETFN_OEM && !check_other(&r, &a))
		return false;
	return after_oem(&r, &a, SIM_ANSWER_BUF, true, audit_before, sel_before);
}

/* ---- Open Session and the tick ------------------------------------------ */

static bool fuzz_open_session(void)
{
	lanserv_data_t *lan = sim_lan();
	unsigned char data[40], sent1;
	unsigned int calls = sim_open_session_calls(), i, free_slots = 0;
	bool active_before[MAX_SESSIONS + 1], startup_before[MAX_SESSIONS + 1];
	int victim = -1, closed = 0;
	unsigned char limit = lan->channel.privilege_limit & 0xf;
	msg_t msg;

	for (i = 1; i <= MAX_SESSIONS; i++) {
		session_t *s = &lan->sessions[i];

		active_before[i] = s->active;
		startup_before[i] = s->in_startup;
		free_slots += !s->active;
	}
	memset(&msg, 0, sizeof(msg));
	for (i = 0; i < sizeof(data); i++)
		data[i] = below(256);
	if (below(2))
		data[1] &= 0xf0;
	msg.data = data;
	msg.len = PICK(0, 1, 2, 32, 32, 32, below(40));
	msg.sid = one_in(8) ? new_sid(below(64)) : 0;
	sent1 = data[1];
	if (!free_slots && msg.sid == 0) {
		for (i = 1; i <= MAX_SESSIONS; i++) {
			session_t *s = &lan->sessions[i], *v;

			if (!s->in_startup)
				continue;
			v = victim > 0 ? &lan->sessions[victim] : NULL;
			if (!v || (!s->userid && v->userid) ||
			    (!s->userid == !v->userid && s->time_left < v->time_left))
				victim = i;
		}
	}
	sim_open_session(&msg);
	stats.open_session++;
	FAIL_IF(sim_open_session_calls() != calls + 1, "lanserv's Open Session not called once");
	if (msg.sid == 0 && msg.len >= 2 && !(sent1 & 0xf) && limit)
		FAIL_IF(sim_open_session_priv() != ((sent1 & 0xf0) | (limit > 4 ? 4 : limit)),
			"Open Session for privilege 0 passed on 0x%02x, channel limit %u",
			sim_open_session_priv(), limit);
	else if (msg.len >= 2)
		FAIL_IF(sim_open_session_priv() != sent1, "Open Session privilege changed");
	for (i = 1; i <= MAX_SESSIONS; i++) {
		if (!active_before[i] || lan->sessions[i].active)
			continue;
		closed++;
		FAIL_IF(!startup_before[i], "established session %u closed to make room", i);
		FAIL_IF((int)i != victim, "session %u closed, expected %d", i, victim);
	}
	FAIL_IF(victim > 0 && closed != 1, "%d sessions closed for room", closed);
	FAIL_IF(victim <= 0 && closed, "%d sessions closed with room left", closed);
	return true;
}

static bool fuzz_tick(void)
{
	lanserv_data_t *lan = sim_lan();
	unsigned int seconds = PICK(0, 1, 1, 2, 3, 5), i;
	bool expect_open[MAX_SESSIONS + 1];
	unsigned int left[MAX_SESSIONS + 1];

	for (i = 1; i <= MAX_SESSIONS; i++) {
		session_t *s = &lan->sessions[i];

		expect_open[i] = s->active;
		left[i] = s->time_left;
		if (!s->active)
			continue;
		if (s->in_startup && age_m[i] + seconds >= 3)
			expect_open[i] = false;
		else if (s->time_left <= seconds)
			expect_open[i] = false;
		if (s->in_startup)
			age_m[i] += seconds;
	}
	sim_tick(seconds);
	stats.ticks++;
	for (i = 1; i <= MAX_SESSIONS; i++) {
		session_t *s = &lan->sessions[i];

		FAIL_IF(s->active != expect_open[i],
			"tick %u s: session %u (%s, age %u, %u s left) %s", seconds, i,
			s->in_startup ? "half-open" : "established", age_m[i], left[i],
			s->active ? "still open" : "closed");
	}
	return true;
}

/* ---- the environment ----------------------------------------------------- */

static bool fuzz_env(void)
{
	int d = below(M.nranks), k = below(M.r[d].nranges);
	char tmp[400];

	stats.env++;
	switch (below(9)) {
	case 0: case 1:
		set_health(d, k, below(3) ? F_GOOD : PICK(F_MISSING, F_SIZE, F_SYMLINK, F_DIR,
							 F_OPENDIR));
		break;
	case 2:
		snprintf(tmp, sizeof(tmp), "%s.tmp", state_path);
		state_unwritable = !state_unwritable && one_in(3);
		if (state_unwritable) {
			if (mkdir(tmp, 0700))
				abort();
		} else {
			rmdir(tmp);
		}
		break;
	case 3:
		sim_knobs.fail_start_timer = one_in(4);
		break;
	case 4:
		sim_knobs.sel_max = PICK(SIM_SEL_MAX, SIM_SEL_MAX, 0, 1, sim_sel_count(),
					 sim_sel_count() + 1);
		if (one_in(3))
			sim_sel_clear();
		break;
	case 5: {	/* a faults file: the next set answers late (at most 1 ms here) */
		const char *f = PICK(0, 1, 2, 3) == 0 ? "late-ms 1\n" :
				below(2) ? "late-ms 0\nbogus 5\n" : "garbage\x01\n";

		if (!write_file(faults_path, f, strlen(f)))
			abort();
		break;
	}
	case 6: {	/* the drop timer: ranks that lose contents are dropped again */
		int i;

		for (i = 0; i < M.nranks; i++)
			if (!M.kept[M.state[i]] && rank_droppable(i))
				mark_contents(i);
		if (!sim_expire_timers())
			break;	/* the drop timer did not restart (start_timer failed) */
		for (i = 0; i < M.nranks; i++)
			if (!M.kept[M.state[i]] && rank_droppable(i) && !contents_dropped(i))
				return false;
		break;
	}
	case 7:
		if (file_size(audit_path) > (1 << 20))
			unlink(audit_path);
		sim_lan()->channel.privilege_limit = PICK(0, 1, 2, 3, 4, 5, 15, 4, 4);
		break;
	default:
		rand_user(PICK(1, 2, 3, 63, below(64)));
		break;
	}
	return plugin_is_model();
}

/* ---- phase 1: configuration, state file and loadlib arguments ------------ */

/* One known fault in a rendered configuration. */
static void config_fault(struct model *m, struct text *t)
{
	char line[5000];
	int n = count_lines(t), i;

	switch (below(24)) {
	case 0:	/* no board line */
		for (i = 0; i < n; i++) {
			size_t pos = 0;
			int l = 0;

			while (l < i && pos < t->len)
				if (t->buf[pos++] == '\n')
					l++;
			if (!strncmp(t->buf + pos, "board", 5)) {
				remove_line(t, i);
				break;
			}
		}
		break;
	case 1: insert_line(t, below(n + 1), "board again\n"); break;
	case 2: insert_line(t, below(n + 1), "frobnicate 1\n"); break;
	case 3: insert_line(t, n, "state late kept\n"); break;
	case 4: for (i = m->nstates; i <= ACMA_MAX_STATES; i++) {
			snprintf(line, sizeof(line), "state extra%d lost\n", i);
			insert_line(t, 1, line);
		}
		break;
	case 5: insert_line(t, 1, "state abcdefghijklmnopq lost\n"); break;
	case 6: snprintf(line, sizeof(line), "state %s lost\n", m->sname[below(m->nstates)]);
		insert_line(t, 1 + m->nstates, line);
		break;
	case 7: insert_line(t, n, "rank 99 dimm=D on=1mW,0ns file=/x,0,1\n"); break;
	case 8: snprintf(line, sizeof(line), "rank %d dimm=D file=/x,0,1\n", m->nranks);
		insert_line(t, n, line);	/* no figures */
		break;
	case 9: for (i = m->nranks; i <= ACMA_MAX_RANKS; i++) {
			int j, len;

			len = snprintf(line, sizeof(line), "rank %d dimm=D file=/x,0,1", i);
			for (j = 0; j < m->nstates; j++)
				len += snprintf(line + len, sizeof(line) - len, " %s=0mW,0ns",
						m->sname[j]);
			snprintf(line + len, sizeof(line) - len, "\n");
			insert_line(t, count_lines(t), line);
		}
		break;
	case 10: insert_line(t, below(n + 1), "bmc-id 0xfffff 1\n"); break;
	case 11: insert_line(t, below(n + 1), "bmc-id 1 0x10000\n"); break;
	case 12: insert_line(t, below(n + 1), "bmc-id 1 2\nbmc-id 1 2\n"); break;
	case 13: memset(line, 'x', 4100);
		 line[4100] = '\n';
		 line[4101] = '\0';
		 insert_line(t, below(n + 1), line);
		 break;
	case 14: {
		int len = 0;

		for (i = 0; i < 44; i++)
			len += snprintf(line + len, sizeof(line) - len, "board ");
		snprintf(line + len, sizeof(line) - len, "\n");
		insert_line(t, below(n + 1), line);
		break;
	}
	case 15: t->len = 0; t->buf[0] = '\0'; break;		/* empty: no board */
	default: {	/* a damaged rank line */
		static const char *const bad[] = {
			"on=4294967296mW,0ns", "on=1mw,0ns", "on=1mW,18446744073709551616ns",
			"on=-1mW,0ns", "on=1mW", "file=/x,0,0", "file=/x,1", "dimm=abcdefghijklmnopq",
			"zzzzzzzzzzzzzzzzz=1mW,0ns", "noequals", "=1", "on=1mW,0ns,", "file=/x,0x,1",
		};
		const char *b = bad[below(sizeof(bad) / sizeof(bad[0]))];
		int len, j;

		len = snprintf(line, sizeof(line), "rank %d dimm=D file=/x,0,1", m->nranks);
		for (j = 0; j < m->nstates; j++)
			if (strcmp(m->sname[j], "on") || strncmp(b, "on=", 3))
				len += snprintf(line + len, sizeof(line) - len, " %s=0mW,0ns",
						m->sname[j]);
		snprintf(line + len, sizeof(line) - len, " %s\n", b);
		insert_line(t, count_lines(t), line);
		break;
	}
	}
}

/* One known fault in a rendered state file. */
static void state_fault(struct model *m, struct text *t)
{
	char line[5000];
	int r = below(m->nranks);

	switch (below(13)) {
	case 0: {	/* a rank's line missing */
		char *p;

		snprintf(line, sizeof(line), "rank %d ", r);
		t->len = 0;
		t->buf[0] = '\0';
		render_state(m, t);
		p = strstr(t->buf, line);
		if (p && (p == t->buf || p[-1] == '\n')) {
			char *e = strchr(p, '\n');

			memmove(p, e + 1, strlen(e + 1) + 1);
			t->len = strlen(t->buf);
		} else {
			t->len = 0;
			t->buf[0] = '\0';
		}
		/* tnum may have written the id in hex: then the file is empty */
		if (strstr(t->buf, "0x") || strstr(t->buf, "0X")) {
			t->len = 0;
			t->buf[0] = '\0';
		}
		break;
	}
	case 1: snprintf(line, sizeof(line), "rank %d %s 0 0\n", r, m->sname[0]);
		insert_line(t, count_lines(t), line);
		break;
	case 2: snprintf(line, sizeof(line), "rank %" PRIu64 " %s 0 0\n",
			 PICK(m->nranks, 64, 255, 256, 65535, UINT64_MAX), m->sname[0]);
		insert_line(t, count_lines(t), line);
		break;
	case 3: insert_line(t, count_lines(t), "rank 0 nosuchstatename 0 0\n"); break;
	case 4: insert_line(t, count_lines(t), "rank 0 on 4294967296 1\n"); break;
	case 5: insert_line(t, count_lines(t), "rank 0 on 1 4294967296\n"); break;
	case 6: insert_line(t, count_lines(t), "rank 0 on 0 5\n"); break;
	case 7: insert_line(t, count_lines(t), "rank 0 on 5 0\n"); break;
	case 8: while (t->len && t->buf[t->len - 1] == '\n')	/* cut short */
			t->buf[--t->len] = '\0';
		if (!t->len)
			tprintf(t, "rank");
		break;
	case 9: insert_line(t, 0, "rank 0 on 1\n"); break;
	case 10: insert_line(t, 0, "rank 0 on 1 1 1\n"); break;
	case 11: insert_line(t, 0, "domain 0 on 1 1\n"); break;
	default: t->len = 0; t->buf[0] = '\0'; break;	/* empty: every rank missing */
	}
}

/*
 * Point the model at plugin @b and board @m for requests without the
 * post-init (phase 1 and the regression inputs): no sensors, no LAN, the
 * backing files absent.
 */
static void model_of(struct acma_bmc *b, const struct model *m)
{
	int i, k;

	bmc = b;
	M = *m;
	memset(failed_m, 0, sizeof(failed_m));
	memset(usable_at, 0, sizeof(usable_at));
	for (i = 0; i < M.nranks; i++)
		for (k = 0; k < M.r[i].nranges; k++)
			health[i][k] = F_MISSING;
	sensors_ok = false;
	state_unwritable = false;
	snprintf(audit_path, sizeof(audit_path), "%s", b->audit_path);
	pmin = pmax = power_now();
}

/* A request phase 1 may send: no "on" that would wait for a long exit latency. */
static void gen_quick_request(struct req *r)
{
	if (below(5)) {
		gen_oem(r, true);
		if (r->cmd == ACMA_CMD_SET_POWER && r->len == 2 && r->data[0] < M.nranks &&
		    r->data[1] == M.on && M.r[r->data[0]].ns[M.state[r->data[0]]])
			r->data[1] = M.nstates;		/* out of range instead */
	} else {
		gen_other(r);
	}
}

/*
 * ipmi_sim_module_init() with configuration @conf, state file @state (NULL:
 * none) and loadlib arguments @args ("%1$s" the configuration's path,
 * "%2$s" the state file's). @want: 1 it must start and be @m, 0 it must
 * refuse, -1 either (then an accepted board must be sane). Started, it
 * answers @nreq requests (@reqs, or random ones) and is freed.
 */
static struct acma_bmc *live;

static bool init_case(const struct model *m, const char *conf, size_t conf_len,
		      const char *state, size_t state_len, const char *args, int want,
		      const struct req *reqs, int nreq)
{
	char cpath[300], spath[300], init[1000];
	sys_data_t *sys;
	struct acma_bmc *b;
	int err, i;

	path_in(cpath, sizeof(cpath), "p1/ranks.conf");
	path_in(spath, sizeof(spath), "p1/state/ranks.state");
	if (!write_file(cpath, conf, conf_len))
		abort();
	unlink(spath);
	if (state && !write_file(spath, state, state_len))
		abort();
	snprintf(init, sizeof(init), args, cpath, spath);
	unlink(audit_path);
	stats.inits++;
	if (live)
		acma_free(live);
	live = bmc = NULL;
	sys = sim_init(false);
	err = ipmi_sim_module_init(sys, init);
	if (err) {
		FAIL_IF(want == 1, "a valid board refused (%s): args '%s', configuration:\n%.*s\nstate:\n%.*s",
			strerror(err), init, (int)conf_len, conf, (int)state_len, state ? state : "");
		return true;
	}
	b = sim_oem_cb_data(ACMA_CMD_GET_COUNT);
	live = b;	/* reachable until freed, whatever fails */
	FAIL_IF(!b, "started without registering its commands");
	FAIL_IF(want == 0, "a bad board or state file accepted: args '%s', configuration:\n%.*s\nstate:\n%.*s",
		init, (int)conf_len, conf, (int)state_len, state ? state : "");
	if (!sane_board(b))
		return false;
	if (want == 1 && !same_board(b, m))
		return false;
	if (want == 1) {
		model_of(b, m);
		for (i = 0; i < nreq; i++) {
			struct req r;

			if (reqs)
				r = reqs[i];
			else
				gen_quick_request(&r);
			stats.oem_sysif++;
			if (r.netfn == ACMA_NETFN_OEM ? !send_sysif(&r) : !send_other_sysif(&r))
				return false;
		}
		if (!state_file_reads_back(b))
			return false;
	}
	acma_free(b);
	live = bmc = NULL;
	return true;
}

static const char *rand_args(int *bad)
{
	*bad = 0;
	switch (below(16)) {
	case 0: return "state=%2$s\tconfig=%1$s";
	case 1: return "config=%1$s state=%2$s kcs=/nonexistent/k.sock";
	case 2: *bad = 1; return "config=%1$s";
	case 3: *bad = 1; return "config=%1$s state=%2$s config=%1$s";
	case 4: *bad = 1; return "config= state=%2$s%1$.0s";
	case 5: *bad = 1; return "config=%1$s state=%2$s bogus=1";
	case 6: *bad = 1; return "";
	case 7: *bad = 1; return "config state=%2$s%1$.0s";
	default: return "config=%1$s state=%2$s";
	}
}

static bool fuzz_parsers(void)
{
	static struct model m;
	unsigned long i, n = count / 20 + 50;

	for (i = 0; i < n; i++, iteration++) {
		static struct text ct, st;
		int want = 1, abad;
		const char *args = rand_args(&abad);
		bool missing = one_in(8);
		unsigned int kind = below(8);

		gen_model(&m, false, ACMA_MAX_RANKS);
		path_in(m.filedir, sizeof(m.filedir), "p1/files");
		if (!missing)
			gen_states(&m);
		ct.len = st.len = 0;
		tprintf(&st, "%s", "");
		render_config(&m, &ct);
		if (!missing)
			render_state(&m, &st);
		stats.configs++;
		stats.states += !missing;
		switch (kind) {
		case 0: config_fault(&m, &ct); want = 0; break;
		case 1: havoc(&ct); want = -1; break;
		case 2: case 3:
			if (!missing) {
				state_fault(&m, &st);
				want = 0;
			}
			break;
		case 4:
			if (!missing) {
				havoc(&st);
				want = -1;
			}
			break;
		default: break;
		}
		if (abad)
			want = 0;
		if (!init_case(&m, ct.buf, ct.len, missing ? NULL : st.buf, st.len, args, want,
			       NULL, want == 1 ? below(4) : 0))
			return false;
	}
	printf("# %lu configurations, %lu state files, %lu plugin start-ups\n", stats.configs,
	       stats.states, stats.inits);
	return true;
}

/* ---- regression inputs: fixed, run every time ---------------------------- */

/*
 * A rank whose transition count is at 2^32 - 1 (the state file's largest)
 * changes state once more: the count used to wrap to 0 while LAST-CHANGE
 * stayed set, and the plugin then refused its own state file at the next
 * start ("0 transitions but LAST-CHANGE ..."). Found with seed 1, phase 1.
 */
static bool regress_transitions_at_max(void)
{
	static struct model m;
	static const char conf[] =
		"board regress\n"
		"state on kept\n"
		"state off lost\n"
		"state sr kept\n"
		"rank 0 dimm=DIMM0 on=1350mW,0ns off=0mW,0ns sr=100mW,0ns file=/nonexistent/r0,0x100000000,4096\n";
	static const char state[] =
		"rank 0 off 4294967295 1700000000\n";
	static const struct req reqs[] = {
		{ ACMA_NETFN_OEM, ACMA_CMD_SET_POWER, { 0, 0 }, 2 },	/* off -> on */
		{ ACMA_NETFN_OEM, ACMA_CMD_GET_POWER, { 0 }, 1 },
		{ ACMA_NETFN_OEM, ACMA_CMD_SET_POWER, { 0, 2 }, 2 },	/* on -> sr */
		{ ACMA_NETFN_OEM, ACMA_CMD_GET_POWER, { 0 }, 1 },
	};

	memset(&m, 0, sizeof(m));
	strcpy(m.board, "regress");
	m.nstates = 3;
	m.on = 0;
	strcpy(m.sname[0], "on");
	strcpy(m.sname[1], "off");
	strcpy(m.sname[2], "sr");
	m.kept[0] = m.kept[2] = true;
	m.ndimms = 1;
	strcpy(m.dname[0], "DIMM0");
	m.nranks = 1;
	m.r[0].mw[0] = 1350;
	m.r[0].mw[2] = 100;
	m.r[0].nranges = 1;
	m.r[0].base[0] = 0x100000000ULL;
	m.r[0].size[0] = 4096;
	m.state[0] = 1;
	m.trans[0] = UINT32_MAX;
	m.when[0] = 1700000000;
	return init_case(&m, conf, strlen(conf), state, strlen(state), "config=%1$s state=%2$s",
			 1, reqs, 4);
}

/*
 * DCMI Get Power Reading many times a millisecond, the power steady: each
 * update of the statistics dropped the part of a millisecond since the
 * last one, so the energy stayed 0 and the average (energy / period) fell
 * to 0 W, below the minimum. Found with seed 2890539046 (the default),
 * iteration 142 of the requests.
 */
static bool regress_dcmi_average(void)
{
	static struct model m;
	static struct req reqs[400];
	static const char conf[] =
		"board regress\n"
		"state on kept\n"
		"state off lost\n"
		"rank 0 dimm=DIMM0 on=30000mW,0ns off=0mW,0ns file=/nonexistent/r0,0x100000000,4096\n";
	unsigned int i;

	memset(&m, 0, sizeof(m));
	strcpy(m.board, "regress");
	m.nstates = 2;
	strcpy(m.sname[0], "on");
	strcpy(m.sname[1], "off");
	m.kept[0] = true;
	m.ndimms = 1;
	strcpy(m.dname[0], "DIMM0");
	m.nranks = 1;
	m.r[0].mw[0] = 30000;
	m.r[0].nranges = 1;
	m.r[0].base[0] = 0x100000000ULL;
	m.r[0].size[0] = 4096;
	for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++)
		reqs[i] = (struct req){ ACMA_NETFN_DCMI, ACMA_DCMI_GET_POWER,
					{ ACMA_DCMI_GROUP, 1, 0, 0 }, 4 };
	return init_case(&m, conf, strlen(conf), NULL, 0, "config=%1$s state=%2$s", 1, reqs,
			 sizeof(reqs) / sizeof(reqs[0]));
}

/* ---- phase 2: one plugin with a LAN channel, fuzzed request by request --- */

static bool setup_main(void)
{
	char conf[300], init[800];
	struct text ct = { 0 }, st = { 0 };
	sys_data_t *sys;
	int i, k, err;

	gen_model(&M, true, ACMA_MAX_RANKS);
	path_in(M.filedir, sizeof(M.filedir), "files");
	path_in(opendir_path, sizeof(opendir_path), "open");
	path_in(conf, sizeof(conf), "ranks.conf");
	path_in(state_path, sizeof(state_path), "state/ranks.state");
	path_in(audit_path, sizeof(audit_path), "state/transitions.log");
	path_in(faults_path, sizeof(faults_path), "state/faults");
	if (mkdir(M.filedir, 0700) || mkdir(opendir_path, 0755) || chmod(opendir_path, 0755))
		abort();
	for (i = 0; i < M.nranks; i++)
		for (k = 0; k < M.r[i].nranges; k++)
			set_health(i, k, one_in(10) ? PICK(F_MISSING, F_SIZE, F_SYMLINK, F_DIR,
							   F_OPENDIR) : F_GOOD);
	if (!one_in(4)) {
		for (i = 0; i < M.nranks; i++) {
			M.state[i] = below(M.nstates);
			M.trans[i] = PICK(0, 1, 7, UINT32_MAX - 1, UINT32_MAX);
			M.when[i] = M.trans[i] ? time(NULL) - below(1000) : 0;
		}
		render_state(&M, &st);
		if (!write_file(state_path, st.buf, st.len))
			abort();
	}
	render_config(&M, &ct);
	if (!write_file(conf, ct.buf, ct.len))
		abort();
	free(ct.buf);
	free(st.buf);
	snprintf(init, sizeof(init), "config=%s state=%s", conf, state_path);
	sys = sim_init(true);
	err = ipmi_sim_module_init(sys, init);
	FAIL_IF(err, "the generated board is refused: %s", strerror(err));
	bmc = sim_oem_cb_data(ACMA_CMD_GET_COUNT);
	if (!same_board(bmc, &M))
		return false;
	sim_enable();
	ipmi_sim_module_post_init(sys);
	sensors_ok = posted = true;
	memset(failed_m, 0, sizeof(failed_m));
	pmin = pmax = power_now();
	for (i = 1; i <= MAX_USERS; i++)
		rand_user(i);
	for (i = 1; i <= MAX_SESSIONS; i++)
		if (!one_in(3))
			rand_session(i, true);
	/* the SDRs: one compact record per rank, named "Rank<N> <DIMM>" cut to 16 */
	FAIL_IF(sim_sdr_count() != (unsigned int)M.nranks, "%u SDRs for %d ranks",
		sim_sdr_count(), M.nranks);
	for (i = 0; i < M.nranks; i++) {
		char name[64];
		unsigned int len, nl;
		const unsigned char *sdr = sim_sdr(i, &len);

		nl = snprintf(name, sizeof(name), "Rank%d %s", i, M.dname[M.r[i].dimm]);
		if (nl > 16)
			nl = 16;
		FAIL_IF(sdr[3] != 0x02 || sdr[7] != ACMA_SENSOR_BASE + i || sdr[9] != i ||
			sdr[12] != ACMA_SENSOR_TYPE_MEMORY || sdr[13] != ACMA_READING_SPECIFIC ||
			(sdr[31] & 0x1f) != nl || len != 32 + nl || memcmp(sdr + 32, name, nl),
			"SDR of rank %d", i);
	}
	printf("# board: %d ranks, %d states, %d DIMMs\n", M.nranks, M.nstates, M.ndimms);
	return plugin_is_model();
}

static bool fuzz_commands(void)
{
	unsigned long i;

	if (!setup_main())
		return false;
	for (i = 0; i < count; i++, iteration++) {
		struct req r;
		unsigned int c = below(100);
		int slot = 1 + below(MAX_SESSIONS);

		if (c < 40) {
			current = "OEM commands over the system interface";
			gen_oem(&r, true);
			if (r.cmd == ACMA_CMD_SET_POWER && r.len == 2 && r.data[0] < M.nranks &&
			    M.kept[M.state[r.data[0]]])
				mark_contents(r.data[0]);
			stats.oem_sysif++;
			if (!send_sysif(&r))
				return false;
		} else if (c < 65) {
			session_t *s = &sim_lan()->sessions[slot];

			current = "LAN sessions and privileges";
			if (!s->active || one_in(10))
				rand_session(slot, false);
			if (s->in_startup)
				s->in_startup = 0;	/* lanserv only passes on established ones */
			if (one_in(4))
				rand_user(s->userid <= MAX_USERS && s->userid ? s->userid : 1);
			if (below(3))
				gen_oem(&r, true);
			else
				gen_other(&r);
			if (r.cmd == ACMA_CMD_SET_POWER && r.netfn == ACMA_NETFN_OEM && r.len == 2 &&
			    r.data[0] < M.nranks && M.kept[M.state[r.data[0]]])
				mark_contents(r.data[0]);
			stats.oem_lan++;
			if (!send_lan(slot, one_in(40), &r))
				return false;
		} else if (c < 75) {
			current = "DCMI, Get Device ID and other NetFns";
			gen_other(&r);
			stats.dcmi += r.netfn == ACMA_NETFN_DCMI;
			stats.other += r.netfn != ACMA_NETFN_DCMI;
			if (!send_other_sysif(&r))
				return false;
		} else if (c < 80) {
			current = "OEM commands into an encapsulated (IPMB) answer buffer";
			gen_oem(&r, true);
			if (r.cmd == ACMA_CMD_SET_POWER && r.len == 2 && r.data[0] < M.nranks &&
			    M.kept[M.state[r.data[0]]])
				mark_contents(r.data[0]);
			stats.ipmb++;
			if (!send_ipmb(&r))
				return false;
		} else if (c < 90) {
			unsigned int j;

			current = "RMCP+ Open Session and the session tick";
			for (j = below(4); j; j--) {
				int sl = 1 + below(MAX_SESSIONS);

				if (one_in(4) && sim_lan()->sessions[sl].active) {
					sim_lan()->sessions[sl].active = 0;
					sim_lan()->channel.active_sessions--;
				} else {
					rand_session(sl, true);
				}
			}
			if (one_in(3))	/* every slot taken */
				for (j = 1; j <= MAX_SESSIONS; j++)
					if (!sim_lan()->sessions[j].active)
						rand_session(j, true);
			if (below(2) ? !fuzz_open_session() : !fuzz_tick())
				return false;
		} else {
			current = "the environment: backing files, state file, SEL, timers, faults";
			if (!fuzz_env())
				return false;
		}
		if (!(i % 256) && !state_file_reads_back(bmc))
			return false;
		if (!(i % 4096) && file_size(audit_path) > (4 << 20))
			unlink(audit_path);	/* the plugin starts a new one */
	}
	printf("# requests: %lu OEM over the system interface, %lu over LAN (%lu refused for privilege), %lu DCMI, %lu other NetFns, %lu into an IPMB buffer\n",
	     stats.oem_sysif, stats.oem_lan, stats.lan_denied, stats.dcmi, stats.other, stats.ipmb);
	printf("# %lu Open Session requests, %lu ticks, %lu environment changes\n",
	     stats.open_session, stats.ticks, stats.env);
	printf("# %lu transitions (%lu refused), %lu drops checked, %lu state file read-backs\n",
	     stats.transitions, stats.refused, stats.drops_checked, stats.statefile_checks);
	return true;
}

/* ---- main ---------------------------------------------------------------- */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static bool run_regressions(void)
{
	current = "regression inputs";
	return regress_transitions_at_max() && regress_dcmi_average();
}

static bool run_parsers(void)
{
	current = "configuration, state file and loadlib arguments";
	return fuzz_parsers();
}

static bool run_commands(void)
{
	current = "requests to one plugin";
	return fuzz_commands();
}

int main(int argc, char **argv)
{
	static const struct tap_test tests[] = {
		{ "regression inputs", run_regressions },
		{ "configuration, state files, loadlib arguments", run_parsers },
		{ "requests: OEM, LAN privileges, DCMI, sessions, environment", run_commands },
	};
	const char *env = getenv("FUZZ_SEED"), *base = getenv("TMPDIR");
	char p1[400];
	int i, rc, devnull, out;
	struct stat st;

	seed = env && *env ? strtoull(env, NULL, 0) : DEFAULT_SEED;
	if ((env = getenv("FUZZ_COUNT")) && *env)
		count = strtoul(env, NULL, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--count") && i + 1 < argc)
			count = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--random-seed"))
			seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		else {
			fprintf(stderr, "usage: %s [--seed N | --random-seed] [--count N]\n",
				argv[0]);
			return 2;
		}
	}
	rng_seed(seed);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!base || !*base)
		base = !stat("/dev/shm", &st) && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
	snprintf(top, sizeof(top), "%s/acma-fuzz-bmc.XXXXXX", base);
	if (!mkdtemp(top)) {
		perror(top);
		return 1;
	}
	path_in(p1, sizeof(p1), "p1");
	mkdir(p1, 0700);
	path_in(p1, sizeof(p1), "p1/state");
	mkdir(p1, 0700);
	path_in(p1, sizeof(p1), "state");
	mkdir(p1, 0700);

	/* The plugin logs every line on stderr too: keep that out of the TAP
	 * stream, and sanitizer reports in it. */
	out = dup(2);
	devnull = open("/dev/null", O_WRONLY);
	if (out < 0 || devnull < 0 || dup2(devnull, 2) < 0)
		return 1;
	close(devnull);
	__sanitizer_set_report_fd((void *)(long)out);
	__sanitizer_set_death_callback(on_death);
	printf("# seed %" PRIu64 " (FUZZ_SEED=%" PRIu64 " reproduces), %lu requests, in %s\n",
	       seed, seed, count, top);
	fflush(stdout);
	rc = tap_run_all(tests, sizeof(tests) / sizeof(tests[0]));
	if (!rc)
		nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	else
		printf("# scratch folder kept: %s\n", top);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - acma-ranks: the DRAM ranks of an acma board as its BMC sees them
 *
 * The operator's view of issue #7: which rank is on or off, since when,
 * what it draws, and what the DRAM draws now, from any host that reaches
 * the BMC. Everything comes from one session of the real ipmitool (ipmi.c),
 * or in-band on the board itself from the kernel's IPMI device (devipmi.c),
 * through the BMC's documented commands (bmc.c) into one table model
 * (table.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc.h"
#include "ipmi.h"
#include "table.h"
#include "version.h"

/* Exit codes, documented in --help and README.md. */
enum {
	EXIT_ALL_GOOD = 0,
	EXIT_PARTIAL = 1,	/* some rank or the DCMI reading unread */
	EXIT_USAGE = 2,
	EXIT_UNREACHABLE = 3,	/* no answer, or an unknown address */
	EXIT_LOGIN = 4,		/* wrong user or password, too little privilege */
	EXIT_IPMITOOL = 5,	/* ipmitool missing or failing unexpectedly */
};

/* The whole session: long enough over a slow link, short of hanging. */
#define IPMITOOL_DEADLINE_S	60

enum { COL_RANK, COL_DIMM, COL_RANGES, COL_STATE, COL_SINCE, COL_POWER, NR_COLS };

static const struct column rank_cols[NR_COLS] = {
	[COL_RANK] = { "RANK", "rank", CELL_NUMBER,
		"the rank: the BMC's power domain number" },
	[COL_DIMM] = { "DIMM", "dimm", CELL_TEXT,
		"the DIMM that holds the rank" },
	[COL_RANGES] = { "RANGES", "ranges", CELL_TEXT,
		"its guest-physical memory, first-last (as lsmem), comma-separated" },
	[COL_STATE] = { "STATE", "state", CELL_TEXT,
		"its power state, as the board names it" },
	[COL_SINCE] = { "SINCE", "since", CELL_TIME,
		"when it entered that state (UTC; BMC's 0x43); - if never" },
	[COL_POWER] = { "POWER", "power_mw", CELL_MW,
		"what it draws in that state, board figure (W; mW in JSON)" },
};

enum { SUM_DRAM_NOW, SUM_ALL_ON, SUM_SAVING, SUM_ERROR, NR_SUMS };

static const struct column sum_cols[NR_SUMS] = {
	[SUM_DRAM_NOW] = { "DRAM power now (DCMI)", "dram_power_mw", CELL_MW,
		"the BMC's DCMI power reading, whole W (mW in JSON)" },
	[SUM_ALL_ON] = { "All ranks on", "all_on_mw", CELL_MW,
		"the sum of the ranks' power when on (W; mW in JSON)" },
	[SUM_SAVING] = { "Saving vs all ranks on", "saving_mw", CELL_MW,
		"All ranks on minus the sum of POWER (W; mW in JSON)" },
	[SUM_ERROR] = { "Error", "error", CELL_LIST,
		"JSON only: why the BMC was not read at all (exit, message), or null",
		.json_only = true },
};

static void usage(FILE *f)
{
	fputs("Usage: acma-ranks -H HOST [-p PORT] [-C SUITE] -U USER\n"
	      "                  (-P PASSWORD | -f FILE | -E) [--json] [-o COLUMNS]\n"
	      "                  [--ipmitool PATH]\n"
	      "       acma-ranks -I open [-d N] [--json] [-o COLUMNS]\n"
	      "\n"
	      "Shows the DRAM ranks of an acma board as its BMC sees them: DIMM, memory,\n"
	      "power state, since when, power; then the DRAM power now and the saving\n"
	      "against all ranks on. It runs ipmitool (lanplus, user privilege: any BMC\n"
	      "account may read) from any host that reaches the BMC; or, with -I open,\n"
	      "on the machine itself, it asks its BMC in-band through the kernel's IPMI\n"
	      "device (/dev/ipmiN: ipmi_si and ipmi_devintf; root), without ipmitool.\n"
	      "\n"
	      "Options:\n"
	      "  -I INTERFACE     lanplus (default): over the network, with -H and -U;\n"
	      "                   open: in-band, through /dev/ipmiN, as ipmitool -I open\n"
	      "  -d N             with -I open: the device /dev/ipmiN (default 0)\n"
	      "  -H HOST          the BMC's address\n"
	      "  -p PORT          its RMCP+ UDP port (default 623)\n"
	      "  -C SUITE         the RMCP+ cipher suite, 0 to 17, as ipmitool -C (default 3)\n"
	      "  -U USER          a BMC account\n"
	      "  -P PASSWORD      its password: visible in the process list, prefer -f or -E\n"
	      "  -f FILE          read the password from the first line of FILE (ipmitool -f)\n"
	      "  -E               take the password from the environment, IPMI_PASSWORD\n"
	      "                   (ipmitool -E)\n"
	      "                   (whichever way, ipmitool gets it through IPMI_PASSWORD)\n"
	      "  --json           print the same table as JSON; - is null there\n"
	      "  -o, --output COLUMNS\n"
	      "                   the columns, text and JSON, in that order: comma-separated\n"
	      "                   names as in the header or JSON, any case (RANK,STATE,POWER);\n"
	      "                   +COLUMNS adds to the default ones\n"
	      "  --list-columns   print the names -o takes, comma-separated, and exit\n"
	      "  --ipmitool PATH  the ipmitool to run (default: ipmitool in PATH)\n"
	      "  -h, --help       this help\n"
	      "  -V, --version    the version, \"acma-ranks (acma) 0~gitDATE.HASH\"\n"
	      "\n"
	      "Testing aids:\n"
	      "  --record DIR     also write ipmitool's session (every answer, its time) to\n"
	      "                   DIR/ipmitool.rec\n"
	      "  --replay DIR     run no ipmitool; take its answers from DIR/ipmitool.rec\n"
	      "\n"
	      "Columns, JSON members:\n", f);
	table_print_help(rank_cols, NR_COLS, f);
	fputs("\nUnder the table (- or null when not read):\n", f);
	table_print_help(sum_cols, NR_SUMS, f);
	fputs("\n"
	      "Exit status:\n"
	      "  0  all good\n"
	      "  1  partial: a rank or the DCMI reading could not be read; the\n"
	      "     table shows - for what is missing, stderr says why\n"
	      "  2  usage error\n"
	      "  3  BMC unreachable: no answer (2 tries of 1 s), or an unknown address\n"
	      "     (-I open: no /dev/ipmiN, or no answer on the system interface)\n"
	      "  4  login refused: wrong user name or password, or too little privilege\n"
	      "     (-I open: no permission to open /dev/ipmiN)\n"
	      "  5  ipmitool missing, or ipmitool or the BMC failed unexpectedly\n", f);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "acma-ranks: %s (see acma-ranks --help)\n", msg);
	return EXIT_USAGE;
}

/* The password's first line from FILE, as ipmitool -f reads it; NULL on failure. */
static char *read_password(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "acma-ranks: cannot read the password file %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	n = getline(&line, &cap, f);
	fclose(f);
	if (n < 0) {
		fprintf(stderr, "acma-ranks: the password file %s is empty\n", path);
		free(line);
		return NULL;
	}
	line[strcspn(line, "\r\n")] = '\0';
	return line;
}

/* A range as lsmem and the kernel's ranges files give it: first-last, inclusive. */
static int append_range(char **s, size_t *len, const struct bmc_range *r,
			bool first)
{
	size_t n;
	char buf[64], *p;

	n = snprintf(buf, sizeof(buf), "%s0x%" PRIx64 "-0x%" PRIx64,
		     first ? "" : ",", r->base, r->base + r->size - (r->size ? 1 : 0));
	p = realloc(*s, *len + n + 1);
	if (!p)
		return -1;
	memcpy(p + *len, buf, n + 1);
	*len += n;
	*s = p;
	return 0;
}

static int fill_row(struct table *t, size_t row, const struct bmc_rank *rank)
{
	char *ranges = NULL;
	size_t len = 0;
	unsigned int k;
	int ret = 0;

	cell_set_num(table_cell(t, row, COL_RANK), rank->id);
	if (rank->have_info) {
		for (k = 0; k < rank->nr_ranges && !ret; k++)
			ret = append_range(&ranges, &len, &rank->ranges[k], !k);
		if (ret || cell_set_text(table_cell(t, row, COL_DIMM), rank->dimm) ||
		    cell_set_text(table_cell(t, row, COL_RANGES), ranges))
			ret = -1;
		free(ranges);
	}
	if (rank->have_power) {
		if (cell_set_text(table_cell(t, row, COL_STATE), rank->state_name))
			ret = -1;
		cell_set_num(table_cell(t, row, COL_POWER), rank->power_mw);
	}
	if (rank->have_since)
		cell_set_num(table_cell(t, row, COL_SINCE), rank->since);
	return ret;
}

/* The table model: one row per rank, then the DRAM power and the saving. */
static struct table *build_table(const struct bmc_rank *ranks,
				 unsigned int nr_ranks, bool have_dram,
				 unsigned int dram_w)
{
	struct table *t = table_new("ranks", rank_cols, NR_COLS, nr_ranks,
				    sum_cols, NR_SUMS);
	unsigned long long all_on = 0, now = 0;
	bool complete = true;
	unsigned int i;

	if (!t)
		return NULL;
	for (i = 0; i < nr_ranks; i++) {
		if (fill_row(t, i, &ranks[i])) {
			table_free(t);
			return NULL;
		}
		complete &= ranks[i].have_power && ranks[i].have_on_power;
		all_on += ranks[i].on_mw;
		now += ranks[i].power_mw;
	}
	if (have_dram)
		cell_set_num(table_sum(t, SUM_DRAM_NOW), dram_w * 1000ULL);
	/* A sum over some of the ranks would look right and be wrong. */
	if (complete) {
		cell_set_num(table_sum(t, SUM_ALL_ON), all_on);
		if (now <= all_on)
			cell_set_num(table_sum(t, SUM_SAVING), all_on - now);
	}
	return t;
}

/* The session did not open: its failure, said as the first command's. */
static void set_session_err(struct bmc_err *err, const struct ipmi_answer *fail)
{
	err->fault = fail->fault;
	snprintf(err->what, sizeof(err->what), "ipmitool");
	snprintf(err->why, sizeof(err->why), "%s", fail->why);
}

/*
 * The one-line error when the session or its first command fails, on stderr;
 * with --json also the JSON, every value null and the error said. The exit code.
 */
static int probe_failed(const struct ipmi_conn *conn, const struct bmc_err *err,
			bool json)
{
	char msg[384], obj[512], *quoted;
	struct table *t;
	int code;

	switch (err->fault) {
	case IPMI_UNREACHABLE:
		if (conn->device)
			snprintf(msg, sizeof(msg), "cannot reach the BMC through %s: %s",
				 conn->device, err->why);
		else
			snprintf(msg, sizeof(msg), "cannot reach the BMC at %s port %s: %s",
				 conn->host, conn->port, err->why);
		code = EXIT_UNREACHABLE;
		break;
	case IPMI_BAD_LOGIN:
	case IPMI_NO_PRIVILEGE:
		if (conn->device)
			snprintf(msg, sizeof(msg), "the BMC through %s refused: %s",
				 conn->device, err->why);
		else
			snprintf(msg, sizeof(msg),
				 "the BMC at %s port %s refused the login of '%s': %s",
				 conn->host, conn->port, conn->user, err->why);
		code = EXIT_LOGIN;
		break;
	default:
		snprintf(msg, sizeof(msg), "%s: %s", err->what, err->why);
		code = EXIT_IPMITOOL;
		break;
	}
	fprintf(stderr, "acma-ranks: %s\n", msg);
	if (!json)
		return code;
	t = table_new("ranks", rank_cols, NR_COLS, 0, sum_cols, NR_SUMS);
	quoted = json_quote(msg);
	if (t && quoted) {
		t->rows_unknown = true;
		snprintf(obj, sizeof(obj), "{\"exit\": %d, \"message\": %s}", code, quoted);
		if (!cell_set_list(table_sum(t, SUM_ERROR), 1, msg, obj))
			table_print_json(t, stdout);
	}
	free(quoted);
	table_free(t);
	return code;
}

static int print_table(struct table *t, bool json, const struct colsel *sel)
{
	if (sel)
		t->sel = *sel;
	if (!json)
		return table_print_text(t, stdout);
	table_print_json(t, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_IPMITOOL, OPT_RECORD, OPT_REPLAY, OPT_LIST_COLUMNS };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "ipmitool", required_argument, NULL, OPT_IPMITOOL },
		{ "record", required_argument, NULL, OPT_RECORD },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "output", required_argument, NULL, 'o' },
		{ "list-columns", no_argument, NULL, OPT_LIST_COLUMNS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ipmi_conn conn = {
		.ipmitool = "ipmitool",
		.port = "623",
		.cipher = "3",
		.deadline_s = IPMITOOL_DEADLINE_S,
	};
	struct ipmi_session *session;
	struct ipmi_answer fail;
	struct bmc_rank *ranks;
	struct bmc_count count;
	struct bmc_dram dram;
	struct bmc_err err;
	unsigned int i;
	bool json = false, partial = false, in_band = false, remote = false;
	const char *password_file = NULL, *device_nr = NULL;
	char device[32];
	int passwords = 0, opt;
	char *end, *from_file = NULL, why[96];
	struct colsel sel = { .nr = 0 };
	bool selected = false;
	struct table *t;

	/* One line of our own instead of getopt's. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "I:d:H:p:C:U:P:f:EhVo:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'I':
			if (!strcmp(optarg, "open"))
				in_band = true;
			else if (!strcmp(optarg, "lanplus"))
				in_band = false;
			else
				return usage_error("-I wants lanplus or open");
			break;
		case 'd':
			if (strtoul(optarg, &end, 10) > 255 || *end || !*optarg ||
			    *optarg == '-')
				return usage_error("-d wants a device number, 0 to 255");
			device_nr = optarg;
			break;
		case 'H':
			conn.host = optarg;
			remote = true;
			break;
		case 'p':
			if (strtoul(optarg, &end, 10) - 1 > 65534 || *end || !*optarg)
				return usage_error("-p wants a port number, 1 to 65535");
			conn.port = optarg;
			remote = true;
			break;
		case 'C':
			if (strtoul(optarg, &end, 10) > 17 || *end || !*optarg || *optarg == '-')
				return usage_error("-C wants a cipher suite, 0 to 17");
			conn.cipher = optarg;
			remote = true;
			break;
		case 'U':
			conn.user = optarg;
			remote = true;
			break;
		case 'P':
			conn.password = optarg;
			passwords++;
			break;
		case 'f':
			password_file = optarg;
			passwords++;
			break;
		case 'E':
			conn.password = getenv("IPMI_PASSWORD");
			if (!conn.password)
				return usage_error("-E: IPMI_PASSWORD is not set");
			passwords++;
			break;
		case 'o':
			if (colsel_parse(rank_cols, NR_COLS, optarg, &sel, why, sizeof(why))) {
				fprintf(stderr, "acma-ranks: -o: %s (see acma-ranks --help)\n", why);
				return EXIT_USAGE;
			}
			selected = true;
			break;
		case OPT_LIST_COLUMNS:
			colsel_print_names(rank_cols, NR_COLS, stdout);
			return EXIT_ALL_GOOD;
		case OPT_JSON:
			json = true;
			break;
		case OPT_IPMITOOL:
			conn.ipmitool = optarg;
			remote = true;
			break;
		case OPT_RECORD:
			conn.record_dir = optarg;
			remote = true;
			break;
		case OPT_REPLAY:
			conn.replay_dir = optarg;
			remote = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_ALL_GOOD;
		case 'V':
			return print_version("acma-ranks");
		default:
			fprintf(stderr, "acma-ranks: %s: unknown option or missing value (see acma-ranks --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument");
	if (in_band) {
		if (remote || passwords)
			return usage_error("-I open asks this machine's BMC: -H, -p, -C, -U, "
					   "a password, --ipmitool, --record and --replay "
					   "do not go with it");
		snprintf(device, sizeof(device), "/dev/ipmi%s", device_nr ? device_nr : "0");
		conn.device = device;
	} else {
		if (device_nr)
			return usage_error("-d goes with -I open");
		if (passwords > 1)
			return usage_error("give the password one way: -P, -f or -E");
		if (!conn.host || !conn.user || !passwords)
			return usage_error("-H HOST, -U USER and a password (-P, -f or -E) are needed");
		if (conn.record_dir && conn.replay_dir)
			return usage_error("--record and --replay exclude each other");
	}

	if (password_file) {
		from_file = read_password(password_file);
		if (!from_file)
			return EXIT_USAGE;
		conn.password = from_file;
	}

	/* One ipmitool run, one session: everything is asked in it (or in-band). */
	session = ipmi_open(&conn, &fail);
	if (!session) {
		free(from_file);
		set_session_err(&err, &fail);
		return probe_failed(&conn, &err, json);
	}
	if (bmc_probe(session, &count, &err)) {
		ipmi_close(session);
		free(from_file);
		return probe_failed(&conn, &err, json);
	}

	ranks = calloc(count.ranks + 1, sizeof(*ranks));
	if (!ranks) {
		ipmi_close(session);
		free(from_file);
		fprintf(stderr, "acma-ranks: out of memory\n");
		return EXIT_IPMITOOL;
	}
	for (i = 0; i < count.ranks; i++)
		ranks[i].id = i;
	partial = bmc_read(session, &count, ranks, &dram) != 0;
	ipmi_close(session);
	for (i = 0; i < count.ranks; i++)
		if (ranks[i].failed)
			fprintf(stderr, "acma-ranks: rank %u: %s: %s\n", i, ranks[i].err.what,
				ranks[i].err.why);
	if (!dram.have)
		fprintf(stderr, "acma-ranks: DRAM power: %s: %s\n", dram.err.what,
			dram.err.why);

	t = build_table(ranks, count.ranks, dram.have, dram.watts);
	free(ranks);
	free(from_file);
	if (!t || print_table(t, json, selected ? &sel : NULL)) {
		table_free(t);
		fprintf(stderr, "acma-ranks: out of memory\n");
		return EXIT_IPMITOOL;
	}
	table_free(t);
	return partial ? EXIT_PARTIAL : EXIT_ALL_GOOD;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the DRAM power domains: the MPST and devicetree parsers
 * with good and broken descriptions (the devicetree node as software nodes,
 * read through the same fwnode API), and the domain state machine with a
 * firmware back end that fails on demand.  The domains tested have their
 * ranges far above any memory, so they hold no memory blocks.
 */

#include <kunit/test.h>
#include <linux/acpi.h>
#include <linux/property.h>
#include <linux/string.h>

#include "dram-power.h"

#define HIGH	0x700000000000ULL	/* far above any memory */
#define SZ	0x20000000ULL

/*
 * What both parsers make of the good description: two ranks on DIMM 0 at
 * HIGH and HIGH + SZ, "on" 1350 mW kept, "off" 0 mW lost after 20 ms.
 */
static void expect_good_map(struct kunit *test,
		const struct dram_power_map *map)
{
	KUNIT_EXPECT_EQ(test, map->nr_domains, 2);
	KUNIT_EXPECT_EQ(test, map->domains[1].id, 1);
	KUNIT_EXPECT_EQ(test, map->domains[1].component, 0);
	KUNIT_EXPECT_EQ(test, map->domains[1].nr_ranges, 1);
	KUNIT_EXPECT_EQ(test, map->domains[1].ranges[0].start, HIGH + SZ);
	KUNIT_EXPECT_EQ(test, map->domains[1].ranges[0].size, SZ);
	KUNIT_EXPECT_EQ(test, map->nr_states, 2);
	KUNIT_EXPECT_EQ(test, map->states[0].power_mw, 1350);
	KUNIT_EXPECT_TRUE(test, map->states[0].kept);
	KUNIT_EXPECT_FALSE(test, map->states[1].kept);
	KUNIT_EXPECT_EQ(test, map->states[1].exit_latency_ns, 20000000ULL);
	KUNIT_EXPECT_EQ(test, dram_power_off_value(map), 1);
}

#ifdef CONFIG_ACPI

/* A table under construction. */
struct mpst_buf {
	u8 b[1024];
	size_t len;
	size_t nodes_at;
};

static void put(struct mpst_buf *t, u64 v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		t->b[t->len++] = v >> (8 * i);
}

static void mpst_start(struct mpst_buf *t, u16 nodes)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->b, ACPI_SIG_MPST, 4);
	t->len = sizeof(struct acpi_table_header);
	put(t, 0, 4);		/* channel id, reserved */
	t->nodes_at = t->len;
	put(t, nodes, 2);
	put(t, 0, 2);
}

/* A node with states 0..n-1, characteristics index = value, one DIMM. */
static void mpst_node(struct mpst_buf *t, u16 id, u64 base, u64 size, int n)
{
	int i;

	put(t, ACPI_MPST_ENABLED | ACPI_MPST_POWER_MANAGED, 1);
	put(t, 0, 1);
	put(t, id, 2);
	put(t, sizeof(struct acpi_mpst_power_node) + 2 * n + 2, 4);
	put(t, base, 8);
	put(t, size, 8);
	put(t, n, 4);
	put(t, 1, 4);
	for (i = 0; i < n; i++) {
		put(t, i, 1);
		put(t, i, 1);
	}
	put(t, id / 2, 2);
}

/* "on" 1350 mW kept, "off" 0 mW, 20 ms exit latency, lost. */
static void mpst_end(struct mpst_buf *t)
{
	put(t, 2, 2);
	put(t, 0, 2);
	put(t, 1, 1); put(t, ACPI_MPST_PRESERVE, 1); put(t, 0, 2);
	put(t, 1350, 4); put(t, 0, 4); put(t, 0, 8); put(t, 0, 8);
	put(t, 1, 1); put(t, 0, 1); put(t, 0, 2);
	put(t, 0, 4); put(t, 100, 4); put(t, 20000000, 8); put(t, 0, 8);
	t->b[4] = t->len;
	t->b[5] = t->len >> 8;
}

static struct mpst_buf *mpst_new(struct kunit *test)
{
	struct mpst_buf *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

static void mpst_good(struct mpst_buf *t)
{
	mpst_start(t, 2);
	mpst_node(t, 0, HIGH, SZ, 2);
	mpst_node(t, 1, HIGH + SZ, SZ, 2);
	mpst_end(t);
}

static int parse(struct kunit *test, struct mpst_buf *t,
		struct dram_power_map *map, char *why)
{
	int err = dram_power_parse_mpst(t->b, t->len, map, why, 160);

	if (err)
		kunit_info(test, "refused: %s", why);
	return err;
}

static void mpst_test_good(struct kunit *test)
{
	struct dram_power_map map;
	struct mpst_buf *t = mpst_new(test);
	char why[160];

	mpst_good(t);
	KUNIT_ASSERT_EQ(test, parse(test, t, &map, why), 0);
	expect_good_map(test, &map);
	dram_power_free_map(&map);
}

/* Nodes with one id are one interleaved domain with several ranges. */
static void mpst_test_interleaved(struct kunit *test)
{
	struct dram_power_map map;
	struct mpst_buf *t = mpst_new(test);
	char why[160];

	mpst_start(t, 4);
	mpst_node(t, 0, HIGH, SZ / 4, 2);
	mpst_node(t, 1, HIGH + SZ / 4, SZ / 4, 2);
	mpst_node(t, 0, HIGH + SZ / 2, SZ / 4, 2);
	mpst_node(t, 1, HIGH + 3 * SZ / 4, SZ / 4, 2);
	mpst_end(t);
	KUNIT_ASSERT_EQ(test, parse(test, t, &map, why), 0);
	KUNIT_EXPECT_EQ(test, map.nr_domains, 2);
	KUNIT_EXPECT_EQ(test, map.domains[0].nr_ranges, 2);
	KUNIT_EXPECT_EQ(test, map.domains[0].ranges[1].start, HIGH + SZ / 2);
	dram_power_free_map(&map);
}

static void expect_refused(struct kunit *test, struct mpst_buf *t,
		const char *reason)
{
	struct dram_power_map map;
	char why[160] = "";

	KUNIT_EXPECT_EQ(test, parse(test, t, &map, why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, reason),
				  "reason \"%s\", want \"%s\"", why, reason);
	KUNIT_EXPECT_NULL(test, map.domains);
}

static void mpst_test_short(struct kunit *test)
{
	struct mpst_buf *t = mpst_new(test);

	mpst_good(t);
	t->len = 20;
	expect_refused(test, t, "too short");
	mpst_good(t);
	t->len -= 4;
	expect_refused(test, t, "header length");
	/* the header agrees, but the last node is cut */
	mpst_start(t, 2);
	mpst_node(t, 0, HIGH, SZ, 2);
	t->b[4] = t->len + 10;
	t->len += 10;
	expect_refused(test, t, "runs past the end");
}

static void mpst_test_zero_length(struct kunit *test)
{
	struct mpst_buf *t = mpst_new(test);

	mpst_start(t, 1);
	mpst_node(t, 0, HIGH, 0, 2);
	mpst_end(t);
	expect_refused(test, t, "empty");
}

static void mpst_test_overlap(struct kunit *test)
{
	struct mpst_buf *t = mpst_new(test);

	mpst_start(t, 2);
	mpst_node(t, 0, HIGH, SZ, 2);
	mpst_node(t, 1, HIGH + SZ / 2, SZ, 2);
	mpst_end(t);
	expect_refused(test, t, "overlap");
}

/* Node flags: a node not enabled is skipped, one not power managed refused. */
static void mpst_test_flags(struct kunit *test)
{
	struct dram_power_map map;
	struct mpst_buf *t = mpst_new(test);
	char why[160];

	mpst_start(t, 3);
	mpst_node(t, 0, HIGH, SZ, 2);
	mpst_node(t, 2, HIGH + 2 * SZ, SZ, 2);
	mpst_node(t, 1, HIGH + SZ, SZ, 2);
	mpst_end(t);
	t->b[sizeof(struct acpi_table_mpst) + 38] &= ~ACPI_MPST_ENABLED;
	KUNIT_ASSERT_EQ(test, parse(test, t, &map, why), 0);
	expect_good_map(test, &map);
	dram_power_free_map(&map);

	mpst_good(t);
	t->b[sizeof(struct acpi_table_mpst) + 38] &= ~ACPI_MPST_POWER_MANAGED;
	expect_refused(test, t, "node 1 (domain 1) is not power managed");
}

static void mpst_test_bad_counts(struct kunit *test)
{
	struct mpst_buf *t = mpst_new(test);

	/* more nodes counted than there are */
	mpst_start(t, 3);
	mpst_node(t, 0, HIGH, SZ, 2);
	mpst_node(t, 1, HIGH + SZ, SZ, 2);
	mpst_end(t);
	expect_refused(test, t, "node 2");
	/* a node length that does not match its counts */
	mpst_good(t);
	t->b[sizeof(struct acpi_table_mpst) + 4] += 2;
	expect_refused(test, t, "does not match");
	/* 300 power states */
	mpst_good(t);
	t->b[sizeof(struct acpi_table_mpst) + 24] = 300 & 0xff;
	t->b[sizeof(struct acpi_table_mpst) + 25] = 300 >> 8;
	expect_refused(test, t, "300 power states");
	/* a characteristics index past the characteristics */
	mpst_good(t);
	t->b[sizeof(struct acpi_table_mpst) + 32 + 3] = 5;
	t->b[sizeof(struct acpi_table_mpst) + 38 + 32 + 3] = 5;
	expect_refused(test, t, "characteristics 5 of 2");
	/* no node at all */
	mpst_start(t, 0);
	mpst_end(t);
	expect_refused(test, t, "no memory power node");
}

#endif /* CONFIG_ACPI */

/*
 * The devicetree node, as software nodes: the parent with the power states,
 * one child a rank.  reg cells of HIGH + n * SZ, size SZ: { 0x7000, n * SZ,
 * 0, SZ }.
 */

struct of_states {
	const char * const *names;
	const u32 *uw, *us, *kept;
	int n, n_uw;
};

struct of_rank {
	const u32 *reg;
	int n_reg;
	int id;		/* -1: no acma,domain */
};

static const char * const of_on_off[] = { "on", "off" };
static const u32 of_uw[] = { 1350000, 0 }, of_us[] = { 0, 20000 };
static const u32 of_kept[] = { 1, 0 };
static const struct of_states of_good = {
	of_on_off, of_uw, of_us, of_kept, 2, 2
};

static const u32 of_reg0[] = { 0x7000, 0, 0, SZ };
static const u32 of_reg1[] = { 0x7000, SZ, 0, SZ };
static const struct of_rank of_two_ranks[] = {
	{ of_reg0, 4, 0 }, { of_reg1, 4, 1 }, { }
};

/* Parse a node with these power states and ranks (ending with no reg). */
static int of_parse(struct kunit *test, const struct of_states *st,
		const struct of_rank *ranks, struct dram_power_map *map,
		char *why)
{
	struct property_entry p[7] = {}, rp[4] = {};
	struct fwnode_handle *parent, *child[4];
	int i, n, err;

	p[0] = PROPERTY_ENTRY_U32("#address-cells", 2);
	p[1] = PROPERTY_ENTRY_U32("#size-cells", 2);
	p[2] = PROPERTY_ENTRY_STRING_ARRAY_LEN("acma,state-names", st->names,
					       st->n);
	p[3] = PROPERTY_ENTRY_U32_ARRAY_LEN("acma,state-power-microwatt",
					    st->uw, st->n_uw);
	p[4] = PROPERTY_ENTRY_U32_ARRAY_LEN("acma,state-exit-latency-us",
					    st->us, st->n);
	p[5] = PROPERTY_ENTRY_U32_ARRAY_LEN("acma,state-retains-contents",
					    st->kept, st->n);
	parent = fwnode_create_software_node(p, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(parent));
	for (n = 0; ranks[n].reg; n++) {
		rp[0] = PROPERTY_ENTRY_U32_ARRAY_LEN("reg", ranks[n].reg,
						     ranks[n].n_reg);
		rp[1] = PROPERTY_ENTRY_U32("acma,dimm", 0);
		rp[2] = PROPERTY_ENTRY_U32("acma,domain", ranks[n].id);
		if (ranks[n].id < 0)
			memset(&rp[2], 0, sizeof(rp[2]));
		child[n] = fwnode_create_software_node(rp, parent);
		KUNIT_ASSERT_FALSE(test, IS_ERR(child[n]));
	}
	err = dram_power_parse_fwnode(parent, map, why, 160);
	if (err)
		kunit_info(test, "refused: %s", why);
	for (i = n - 1; i >= 0; i--)
		fwnode_remove_software_node(child[i]);
	fwnode_remove_software_node(parent);
	return err;
}

static void of_test_good(struct kunit *test)
{
	struct dram_power_map map;
	char why[160];

	KUNIT_ASSERT_EQ(test, of_parse(test, &of_good, of_two_ranks, &map,
				       why), 0);
	expect_good_map(test, &map);
	dram_power_free_map(&map);
}

/* "on" is firmware value 0 wherever it is listed; several ranges a rank. */
static void of_test_order_and_ranges(struct kunit *test)
{
	static const char * const names[] = { "off", "on" };
	static const u32 uw[] = { 0, 1350000 }, us[] = { 20000, 0 };
	static const u32 kept[] = { 0, 1 };
	static const struct of_states off_first = {
		names, uw, us, kept, 2, 2
	};
	static const u32 reg_two[] = { 0x7000, SZ, 0, SZ / 2,
				       0x7000, 2 * SZ, 0, SZ / 2 };
	static const struct of_rank ranks[] = {
		{ of_reg0, 4, 0 }, { reg_two, 8, 1 }, { }
	};
	struct dram_power_map map;
	char why[160];

	KUNIT_ASSERT_EQ(test, of_parse(test, &off_first, of_two_ranks, &map,
				       why), 0);
	KUNIT_EXPECT_EQ(test, map.states[0].power_mw, 1350);
	KUNIT_EXPECT_TRUE(test, map.states[0].kept);
	KUNIT_EXPECT_EQ(test, map.states[1].exit_latency_ns, 20000000ULL);
	dram_power_free_map(&map);

	KUNIT_ASSERT_EQ(test, of_parse(test, &of_good, ranks, &map, why), 0);
	KUNIT_EXPECT_EQ(test, map.domains[1].nr_ranges, 2);
	KUNIT_EXPECT_EQ(test, map.domains[1].ranges[1].start, HIGH + 2 * SZ);
	KUNIT_EXPECT_EQ(test, map.domains[1].ranges[1].size, SZ / 2);
	dram_power_free_map(&map);
}

static void of_expect_refused(struct kunit *test, const struct of_states *st,
		const struct of_rank *ranks, const char *reason)
{
	struct dram_power_map map;
	char why[160];

	KUNIT_EXPECT_EQ(test, of_parse(test, st, ranks, &map, why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, reason),
				  "refused for \"%s\", not for \"%s\"", why,
				  reason);
	KUNIT_EXPECT_NULL(test, map.domains);
}

static void of_test_broken(struct kunit *test)
{
	static const char * const up_off[] = { "up", "off" };
	static const u32 three[] = { 1350000, 0, 0 };
	static const struct of_states no_on = {
		up_off, of_uw, of_us, of_kept, 2, 2
	};
	static const struct of_states short_array = {
		of_on_off, three, of_us, of_kept, 2, 3
	};
	static const u32 reg_short[] = { 0x7000, SZ, 0, SZ, 1 };
	static const u32 reg_overlap[] = { 0x7000, SZ / 2, 0, SZ };
	static const struct of_rank odd_reg[] = {
		{ of_reg0, 4, 0 }, { reg_short, 5, 1 }, { }
	};
	static const struct of_rank same_id[] = {
		{ of_reg0, 4, 0 }, { of_reg1, 4, 0 }, { }
	};
	static const struct of_rank no_id[] = {
		{ of_reg0, 4, 0 }, { of_reg1, 4, -1 }, { }
	};
	static const struct of_rank overlap[] = {
		{ of_reg0, 4, 0 }, { reg_overlap, 4, 1 }, { }
	};
	static const struct of_rank none[] = { { } };

	of_expect_refused(test, &no_on, of_two_ranks, "no power state \"on\"");
	of_expect_refused(test, &short_array, of_two_ranks,
			  "acma,state-power-microwatt has 3 values");
	of_expect_refused(test, &of_good, odd_reg, "reg has 5 cells");
	of_expect_refused(test, &of_good, same_id, "acma,domain 0 is taken");
	of_expect_refused(test, &of_good, no_id, "no acma,domain");
	of_expect_refused(test, &of_good, overlap, "overlap");
	of_expect_refused(test, &of_good, none, "no domain");
}

/*
 * "acma,bmc-id" names the BMC that speaks the protocol: two values, a
 * manufacturer ID of 20 bits (0xfffff reserved) and a product ID of 16;
 * without it no BMC is named, which is not an error of the description.
 */
static int of_parse_bmc_id(const u32 *id, int n, struct dram_power_map *map,
		char *why)
{
	struct property_entry p[2] = {};
	struct fwnode_handle *node;
	int err;

	if (n)
		p[0] = PROPERTY_ENTRY_U32_ARRAY_LEN("acma,bmc-id", id, n);
	node = fwnode_create_software_node(p, NULL);
	if (IS_ERR(node))
		return PTR_ERR(node);
	err = dram_power_parse_bmc_id(node, map, why, 160);
	fwnode_remove_software_node(node);
	return err;
}

static void of_test_bmc_id(struct kunit *test)
{
	static const u32 good[] = { 32473, 0xac4a };
	static const u32 reserved[] = { 0xfffff, 1 }, wide[] = { 1, 0x10000 };
	struct dram_power_map map = {};
	char why[160];

	KUNIT_EXPECT_EQ(test, of_parse_bmc_id(good, 2, &map, why), 0);
	KUNIT_EXPECT_TRUE(test, map.bmc_named);
	KUNIT_EXPECT_EQ(test, map.bmc_manufacturer, 32473);
	KUNIT_EXPECT_EQ(test, map.bmc_product, 0xac4a);
	KUNIT_EXPECT_EQ(test, of_parse_bmc_id(good, 0, &map, why), 0);
	KUNIT_EXPECT_FALSE(test, map.bmc_named);
	KUNIT_EXPECT_EQ(test, of_parse_bmc_id(good, 1, &map, why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "has 1 values, not 2"));
	KUNIT_EXPECT_EQ(test, of_parse_bmc_id(reserved, 2, &map, why),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "manufacturer up to"));
	KUNIT_EXPECT_EQ(test, of_parse_bmc_id(wide, 2, &map, why), -EINVAL);
	KUNIT_EXPECT_FALSE(test, map.bmc_named);
	KUNIT_EXPECT_EQ(test, dram_power_parse_bmc_id(NULL, &map, why, 160),
			0);
	KUNIT_EXPECT_FALSE(test, map.bmc_named);
}

/* The state machine, with a back end that fails on demand. */

static int fake_fail_set, fake_fail_get, fake_late_set;
static u8 fake_state[2];

static int fake_get(u16 id, u8 *value)
{
	if (fake_fail_get)
		return -ETIMEDOUT;
	*value = fake_state[id];
	return 0;
}

static int fake_set(u16 id, u8 value)
{
	if (fake_fail_set)
		return -EIO;
	fake_state[id] = value;
	/* carried out, answered after the requester gave up */
	return fake_late_set ? -ETIMEDOUT : 0;
}

static void fake_retry(struct work_struct *work)
{
}

static const struct dram_power_backend fake_backend = {
	.name = "fake",
	.get = fake_get,
	.set = fake_set,
};

static void dram_power_test_state_machine(struct kunit *test)
{
	struct dram_power *dp = kunit_kzalloc(test, sizeof(*dp), GFP_KERNEL);
	struct dram_power_domain *d;
	char why[160];

	KUNIT_ASSERT_NOT_NULL(test, dp);
	mutex_init(&dp->lock);
	KUNIT_ASSERT_EQ(test, of_parse(test, &of_good, of_two_ranks, &dp->map,
				       why), 0);
	dp->domains = kunit_kcalloc(test, 2, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dp->domains);
	dp->backend = &fake_backend;
	dp->off_value = dram_power_off_value(&dp->map);
	d = &dp->domains[1];
	d->desc = dp->map.domains[1];
	INIT_DELAYED_WORK(&d->retry, fake_retry);
	dram_power_set_state(d, DRAM_POWER_ON);
	fake_state[1] = 0;
	fake_fail_set = fake_fail_get = 0;

	KUNIT_EXPECT_TRUE(test, dram_power_domain_touches(d, HIGH + SZ, 4096));
	KUNIT_EXPECT_FALSE(test, dram_power_domain_touches(d, HIGH, SZ));

	mutex_lock(&dp->lock);
	/* no memory present: goes off, confirmed */
	KUNIT_EXPECT_EQ(test, dram_power_domain_off(dp, d), 0);
	KUNIT_EXPECT_EQ(test, d->state, DRAM_POWER_OFF);
	KUNIT_EXPECT_EQ(test, fake_state[1], 1);
	KUNIT_EXPECT_EQ(test, d->transitions, 1ULL);

	/* firmware does not answer: the power-on fails, no memory may come */
	fake_fail_set = 1;
	KUNIT_EXPECT_EQ(test, dram_power_domain_on(dp, d), -EIO);
	KUNIT_EXPECT_EQ(test, d->state, DRAM_POWER_FAILED);
	KUNIT_EXPECT_EQ(test, d->errors, 1ULL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(d->last_error, "power-on"));

	/* it answers again: on, after the exit latency */
	fake_fail_set = 0;
	KUNIT_EXPECT_EQ(test, dram_power_domain_on(dp, d), 0);
	KUNIT_EXPECT_EQ(test, d->state, DRAM_POWER_ON);
	KUNIT_EXPECT_EQ(test, fake_state[1], 0);
	KUNIT_EXPECT_EQ(test, d->transitions, 2ULL);

	/*
	 * A power-off firmware does not confirm leaves the domain unknown
	 * ("failed": firmware may have acted), retried later with back-off.
	 */
	fake_fail_set = 1;
	KUNIT_EXPECT_EQ(test, dram_power_domain_off(dp, d), -EIO);
	KUNIT_EXPECT_EQ(test, d->state, DRAM_POWER_FAILED);
	KUNIT_EXPECT_EQ(test, d->errors, 2ULL);
	KUNIT_EXPECT_EQ(test, d->backoff_ms, 1000U);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&d->retry));
	cancel_delayed_work(&d->retry);
	KUNIT_EXPECT_EQ(test, dram_power_domain_off(dp, d), -EIO);
	KUNIT_EXPECT_EQ(test, d->backoff_ms, 2000U);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&d->retry));

	/*
	 * Firmware switched the domain off and answered too late: a power-on
	 * wanted now (the retry still pending) must not take the domain for
	 * on without asking firmware, and cancels the retry.
	 */
	fake_fail_set = 0;
	fake_late_set = 1;
	KUNIT_EXPECT_EQ(test, dram_power_domain_off(dp, d), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, fake_state[1], 1);
	KUNIT_EXPECT_EQ(test, d->state, DRAM_POWER_FAILED);
	fake_late_set = 0;
	KUNIT_EXPECT_EQ(test, dram_power_domain_on(dp, d), 0);
	KUNIT_EXPECT_EQ(test, fake_state[1], 0);
	KUNIT_EXPECT_EQ(test, d->state, DRAM_POWER_ON);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&d->retry));

	/* every state was counted */
	KUNIT_EXPECT_EQ(test, d->entries[DRAM_POWER_POWERING_OFF], 4ULL);
	KUNIT_EXPECT_EQ(test, d->entries[DRAM_POWER_POWERING_ON], 3ULL);
	KUNIT_EXPECT_EQ(test, d->entries[DRAM_POWER_FAILED], 4ULL);
	mutex_unlock(&dp->lock);
	dram_power_free_map(&dp->map);
}

/*
 * The BMC protocol numbers domains in one byte: a map with a domain id
 * above 255 is refused for the BMC, rather than domain 256 switching
 * domain 0 once truncated.
 */
static void ipmi_test_domain_ids(struct kunit *test)
{
#ifdef CONFIG_DRAM_POWER_IPMI
	struct dram_power_desc domains[2] = { { .id = 0 }, { .id = 255 } };
	struct dram_power_map map = { .nr_domains = 2, .domains = domains };

	KUNIT_EXPECT_TRUE(test, dram_power_ipmi_ids_fit(&map));
	domains[1].id = 256;
	KUNIT_EXPECT_FALSE(test, dram_power_ipmi_ids_fit(&map));
	KUNIT_EXPECT_NULL(test, dram_power_ipmi_backend(&map));
#else
	kunit_skip(test, "no CONFIG_DRAM_POWER_IPMI");
#endif
}

static struct kunit_case dram_power_test_cases[] = {
#ifdef CONFIG_ACPI
	KUNIT_CASE(mpst_test_good),
	KUNIT_CASE(mpst_test_interleaved),
	KUNIT_CASE(mpst_test_short),
	KUNIT_CASE(mpst_test_zero_length),
	KUNIT_CASE(mpst_test_overlap),
	KUNIT_CASE(mpst_test_bad_counts),
	KUNIT_CASE(mpst_test_flags),
#endif
	KUNIT_CASE(of_test_good),
	KUNIT_CASE(of_test_order_and_ranges),
	KUNIT_CASE(of_test_broken),
	KUNIT_CASE(of_test_bmc_id),
	KUNIT_CASE(ipmi_test_domain_ids),
	KUNIT_CASE(dram_power_test_state_machine),
	{},
};

static struct kunit_suite dram_power_test_suite = {
	.name = "dram-power",
	.test_cases = dram_power_test_cases,
};
kunit_test_suite(dram_power_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the DRAM power domains");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * The DRAM power domains of a devicetree machine, from its "acma,dram-power"
 * node (Documentation/devicetree/bindings/memory-controllers/
 * acma,dram-power.yaml): the power states in arrays of the node, one child
 * node per domain (rank) with its physical range(s) in "reg".
 *
 * The memory of these domains is not boot memory (arm64, for one, never
 * offlines boot memory): the driver adds it itself, domain by domain, once
 * firmware confirmed the domain on.
 *
 * The parser reads the node through the fwnode property API, so that KUnit
 * can feed it broken descriptions as software nodes; every refusal names the
 * node and what is wrong.
 */

#define pr_fmt(fmt) "dram-power: " fmt

#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dram-power.h"

/* A domain's "reg": at most this many (address, size) pairs of two cells. */
#define DP_OF_MAX_CELLS	(DRAM_POWER_MAX_RANGES * 4)

/* A refusal: the node's path, then what is wrong there. */
#define dp_of_bad(why, why_len, node, fmt, ...) \
	dram_power_refuse(why, why_len, "%pfw: " fmt, node, ##__VA_ARGS__)

/* An array property of exactly @n u32s. */
static int dp_of_read_u32s(const struct fwnode_handle *node, const char *name,
		u32 *val, int n, char *why, size_t why_len)
{
	int count = fwnode_property_count_u32(node, name);

	if (count < 0)
		return dp_of_bad(why, why_len, node, "no %s", name);
	if (count != n)
		return dp_of_bad(why, why_len, node,
				 "%s has %d values, acma,state-names %d",
				 name, count, n);
	return fwnode_property_read_u32_array(node, name, val, n);
}

/*
 * The power states, "on" first: it is firmware value 0 for the state
 * machine.  The others keep their order.
 */
static int dp_of_parse_states(const struct fwnode_handle *node,
		struct dram_power_map *map, char *why, size_t why_len)
{
	const char *names[DRAM_POWER_MAX_STATES];
	u32 uw[DRAM_POWER_MAX_STATES], us[DRAM_POWER_MAX_STATES];
	u32 kept[DRAM_POWER_MAX_STATES];
	int n, i, on = -1, v = 1, err;

	n = fwnode_property_string_array_count(node, "acma,state-names");
	if (n <= 0)
		return dp_of_bad(why, why_len, node, "no acma,state-names");
	if (n > DRAM_POWER_MAX_STATES)
		return dp_of_bad(why, why_len, node,
				 "%d power states, at most %d", n,
				 DRAM_POWER_MAX_STATES);
	fwnode_property_read_string_array(node, "acma,state-names", names, n);
	err = dp_of_read_u32s(node, "acma,state-power-microwatt", uw, n, why,
			      why_len);
	if (!err)
		err = dp_of_read_u32s(node, "acma,state-exit-latency-us", us, n,
				      why, why_len);
	if (!err)
		err = dp_of_read_u32s(node, "acma,state-retains-contents", kept,
				      n, why, why_len);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], "on"))
			on = i;
	if (on < 0)
		return dp_of_bad(why, why_len, node, "no power state \"on\"");
	if (!kept[on])
		return dp_of_bad(why, why_len, node,
				 "power state \"on\" does not retain contents");
	for (i = 0; i < n; i++) {
		struct dram_power_fw_state *s = &map->states[i == on ? 0 : v++];

		s->power_mw = uw[i] / 1000;
		s->exit_latency_ns = (u64)us[i] * NSEC_PER_USEC;
		s->kept = kept[i];
	}
	map->nr_states = n;
	return 0;
}

static int dp_of_parse_domain(const struct fwnode_handle *node, int na,
		int ns, struct dram_power_desc *d, char *why, size_t why_len)
{
	u32 cells[DP_OF_MAX_CELLS], id, dimm;
	int n, i;

	n = fwnode_property_count_u32(node, "reg");
	if (n <= 0)
		return dp_of_bad(why, why_len, node, "no reg");
	if (n % (na + ns) || n / (na + ns) > DRAM_POWER_MAX_RANGES)
		return dp_of_bad(why, why_len, node,
				 "reg has %d cells: not 1 to %d ranges of %d + %d",
				 n, DRAM_POWER_MAX_RANGES, na, ns);
	fwnode_property_read_u32_array(node, "reg", cells, n);
	if (fwnode_property_read_u32(node, "acma,domain", &id) || id > U16_MAX)
		return dp_of_bad(why, why_len, node,
				 "no acma,domain from 0 to %u", U16_MAX);
	if (fwnode_property_read_u32(node, "acma,dimm", &dimm) ||
	    dimm > U16_MAX)
		return dp_of_bad(why, why_len, node,
				 "no acma,dimm from 0 to %u", U16_MAX);
	d->id = id;
	d->component = dimm;
	d->nr_ranges = n / (na + ns);
	for (i = 0; i < d->nr_ranges; i++) {
		const u32 *c = &cells[i * (na + ns)];
		struct dram_power_range *r = &d->ranges[i];

		r->start = na == 2 ? (u64)c[0] << 32 | c[1] : c[0];
		r->size = ns == 2 ? (u64)c[na] << 32 | c[na + 1] : c[na];
		if (!r->size)
			return dp_of_bad(why, why_len, node,
					 "range %d is empty", i);
		if (r->start + r->size < r->start)
			return dp_of_bad(why, why_len, node,
					 "range %d wraps around", i);
	}
	return 0;
}

/**
 * dram_power_parse_fwnode() - Learn the power domains from a firmware node.
 * @node:	The "acma,dram-power" node.
 * @map:	Filled on success; free with dram_power_free_map().
 * @why:	Filled with the reason on failure, the node's path first.
 * @why_len:	Size of @why.
 *
 * Every state array must have as many values as acma,state-names, which must
 * name "on" (retaining contents); every available child is a domain with a
 * unique acma,domain, its DIMM and 1 to DRAM_POWER_MAX_RANGES non-empty
 * ranges that overlap no other.
 *
 * Return: 0, -EINVAL for a malformed node (@why says why), or -ENOMEM.
 */
int dram_power_parse_fwnode(const struct fwnode_handle *node,
		struct dram_power_map *map, char *why, size_t why_len)
{
	struct fwnode_handle *child;
	u32 na = 2, ns = 2;
	int n, i, err;

	memset(map, 0, sizeof(*map));
	fwnode_property_read_u32(node, "#address-cells", &na);
	fwnode_property_read_u32(node, "#size-cells", &ns);
	if (na < 1 || na > 2 || ns < 1 || ns > 2)
		return dp_of_bad(why, why_len, node,
				 "#address-cells %u, #size-cells %u: 1 or 2 each",
				 na, ns);
	err = dp_of_parse_states(node, map, why, why_len);
	if (!err)
		err = dram_power_parse_bmc_id(node, map, why, why_len);
	if (err)
		return err;
	n = 0;
	fwnode_for_each_available_child_node(node, child)
		n++;
	if (!n)
		return dp_of_bad(why, why_len, node, "no domain");
	if (n > DRAM_POWER_MAX_DOMAINS)
		return dp_of_bad(why, why_len, node, "%d domains, at most %d",
				 n, DRAM_POWER_MAX_DOMAINS);
	map->domains = kcalloc(n, sizeof(*map->domains), GFP_KERNEL);
	if (!map->domains)
		return -ENOMEM;
	fwnode_for_each_available_child_node(node, child) {
		struct dram_power_desc *d = &map->domains[map->nr_domains];

		err = dp_of_parse_domain(child, na, ns, d, why, why_len);
		for (i = 0; !err && i < map->nr_domains; i++)
			if (map->domains[i].id == d->id)
				err = dp_of_bad(why, why_len, child,
						"acma,domain %u is taken",
						d->id);
		if (err) {
			fwnode_handle_put(child);
			goto fail;
		}
		map->nr_domains++;
	}
	err = dram_power_check_overlap(map, why, why_len);
	if (err)
		goto fail;
	return 0;
fail:
	dram_power_free_map(map);
	return err;
}

static int dram_power_of_probe(struct platform_device *pdev)
{
	struct dram_power_map map;
	char why[160];
	int err;

	err = dram_power_parse_fwnode(dev_fwnode(&pdev->dev), &map, why,
				      sizeof(why));
	if (err == -EINVAL)
		return dev_err_probe(&pdev->dev, err, "refused: %s\n", why);
	if (err)
		return err;
	/* the domains' memory is not boot memory: it is ours to add */
	return dram_power_register(&map, true);
}

static const struct of_device_id dram_power_of_match[] = {
	{ .compatible = "acma,dram-power" },
	{ }
};

static struct platform_driver dram_power_of_driver = {
	.probe = dram_power_of_probe,
	.driver = {
		.name = "dram-power",
		.of_match_table = dram_power_of_match,
		.suppress_bind_attrs = true,
	},
};
builtin_platform_driver(dram_power_of_driver);

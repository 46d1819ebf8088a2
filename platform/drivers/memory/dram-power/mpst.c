// SPDX-License-Identifier: GPL-2.0
/*
 * The DRAM power domains of an ACPI machine, from its MPST (Memory Power
 * State Table, ACPI 6.0 section 5.2.21): one memory power node structure per
 * physical range, the node id naming the domain (several nodes with one id
 * make an interleaved domain), and the power state characteristics.
 *
 * The parser only reads the buffer it is given, so that KUnit can feed it
 * broken tables; every refusal says what is wrong and where.
 */

#include <linux/acpi.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dram-power.h"

#define MPST_FIXED_SIZE	sizeof(struct acpi_table_mpst)
#define MPST_NODE_SIZE	sizeof(struct acpi_mpst_power_node)

/* A refusal: the offset in the table, then what is wrong there. */
#define mpst_bad(why, why_len, off, fmt, ...) \
	dram_power_refuse(why, why_len, "offset %zu: " fmt, (size_t)(off), \
			  ##__VA_ARGS__)

static struct dram_power_desc *mpst_find(struct dram_power_map *map, u16 id)
{
	int i;

	for (i = 0; i < map->nr_domains; i++)
		if (map->domains[i].id == id)
			return &map->domains[i];
	return NULL;
}

/**
 * dram_power_parse_mpst() - Learn the power domains from an MPST.
 * @table:	The whole table, ACPI header included.
 * @len:	Its size in bytes.
 * @map:	Filled on success; free with dram_power_free_map().
 * @why:	Filled with the reason on failure.
 * @why_len:	Size of @why.
 *
 * Power state values must be 0 (on) to the number of states minus one, the
 * same in every node, each with its characteristics structure; ranges must
 * be non-empty and must not overlap; counts and lengths must agree with the
 * table's size.
 *
 * Return: 0, -EINVAL for a malformed table (@why says why), or -ENOMEM.
 */
int dram_power_parse_mpst(const void *table, size_t len,
		struct dram_power_map *map, char *why, size_t why_len)
{
	const struct acpi_table_mpst *mpst = table;
	const u8 *base = table;
	u8 info[DRAM_POWER_MAX_STATES] = {};
	int nr_states = -1;
	const struct acpi_mpst_data_hdr *hdr;
	unsigned int nodes, chars, i, j;
	size_t off;
	int err;

	memset(map, 0, sizeof(*map));
	if (len < MPST_FIXED_SIZE)
		return mpst_bad(why, why_len, 0, "table of %zu bytes is too short",
				len);
	if (mpst->header.length != len)
		return mpst_bad(why, why_len, 4,
				"header length %u, table is %zu bytes",
				mpst->header.length, len);
	nodes = mpst->power_node_count;
	if (!nodes)
		return mpst_bad(why, why_len, 40, "no memory power node");
	map->domains = kcalloc(min(nodes, DRAM_POWER_MAX_DOMAINS),
			sizeof(*map->domains), GFP_KERNEL);
	if (!map->domains)
		return -ENOMEM;

	off = MPST_FIXED_SIZE;
	for (i = 0; i < nodes; i++) {
		const struct acpi_mpst_power_node *node;
		const struct acpi_mpst_power_state *ps;
		const struct acpi_mpst_component *comp;
		struct dram_power_desc *d;
		unsigned int n, m;

		if (off + MPST_NODE_SIZE > len) {
			err = mpst_bad(why, why_len, off,
				       "node %u of %u runs past the end", i, nodes);
			goto fail;
		}
		node = (const void *)(base + off);
		n = node->num_power_states;
		m = node->num_physical_components;
		if (!n || n > DRAM_POWER_MAX_STATES || !m || m > 16) {
			err = mpst_bad(why, why_len, off,
				       "node %u: %u power states, %u components",
				       i, n, m);
			goto fail;
		}
		if (node->length != MPST_NODE_SIZE + n * sizeof(*ps) +
				m * sizeof(*comp)) {
			err = mpst_bad(why, why_len, off,
				       "node %u: length %u does not match %u states and %u components",
				       i, node->length, n, m);
			goto fail;
		}
		if (off + node->length > len) {
			err = mpst_bad(why, why_len, off,
				       "node %u of %u runs past the end", i, nodes);
			goto fail;
		}
		if (!node->range_length ||
		    node->range_address + node->range_length < node->range_address) {
			err = mpst_bad(why, why_len, off,
				       "node %u: range 0x%llx+0x%llx is empty or wraps",
				       i, node->range_address, node->range_length);
			goto fail;
		}
		ps = (const void *)(node + 1);
		comp = (const void *)(ps + n);
		if (nr_states < 0)
			nr_states = n;
		if (n != nr_states) {
			err = mpst_bad(why, why_len, off,
				       "node %u: %u power states, node 0 has %d",
				       i, n, nr_states);
			goto fail;
		}
		for (j = 0; j < n; j++) {
			if (ps[j].power_state != j) {
				err = mpst_bad(why, why_len, off,
					       "node %u: power state %u has value %u, want %u",
					       i, j, ps[j].power_state, j);
				goto fail;
			}
			if (i == 0)
				info[j] = ps[j].info_index;
			else if (info[j] != ps[j].info_index) {
				err = mpst_bad(why, why_len, off,
					       "node %u: power state %u has characteristics %u, node 0 %u",
					       i, j, ps[j].info_index, info[j]);
				goto fail;
			}
		}

		/* a node that is not enabled is not there */
		if (!(node->flags & ACPI_MPST_ENABLED)) {
			off += node->length;
			continue;
		}
		if (!(node->flags & ACPI_MPST_POWER_MANAGED)) {
			err = mpst_bad(why, why_len, off,
				       "node %u (domain %u) is not power managed",
				       i, node->node_id);
			goto fail;
		}
		d = mpst_find(map, node->node_id);
		if (!d) {
			if (map->nr_domains == DRAM_POWER_MAX_DOMAINS) {
				err = mpst_bad(why, why_len, off,
					       "more than %d domains",
					       DRAM_POWER_MAX_DOMAINS);
				goto fail;
			}
			d = &map->domains[map->nr_domains++];
			d->id = node->node_id;
			d->component = comp[0].component_id;
		}
		if (d->nr_ranges == DRAM_POWER_MAX_RANGES) {
			err = mpst_bad(why, why_len, off,
				       "node %u: domain %u has more than %d ranges",
				       i, d->id, DRAM_POWER_MAX_RANGES);
			goto fail;
		}
		d->ranges[d->nr_ranges].start = node->range_address;
		d->ranges[d->nr_ranges].size = node->range_length;
		d->nr_ranges++;
		off += node->length;
	}

	if (off + sizeof(*hdr) > len) {
		err = mpst_bad(why, why_len, off,
			       "no power state characteristics count");
		goto fail;
	}
	hdr = (const void *)(base + off);
	chars = hdr->characteristics_count;
	off += sizeof(*hdr);
	if (off + chars * sizeof(struct acpi_mpst_power_data) != len) {
		err = mpst_bad(why, why_len, off,
			       "%u characteristics structures do not end the table",
			       chars);
		goto fail;
	}
	for (j = 0; j < nr_states; j++) {
		const struct acpi_mpst_power_data *pd;

		if (info[j] >= chars) {
			err = mpst_bad(why, why_len, off,
				       "power state %u: characteristics %u of %u",
				       j, info[j], chars);
			goto fail;
		}
		pd = (const void *)(base + off) + info[j] * sizeof(*pd);
		map->states[j].power_mw = pd->average_power;
		map->states[j].exit_latency_ns = pd->exit_latency;
		map->states[j].kept = pd->flags & ACPI_MPST_PRESERVE;
	}
	map->nr_states = nr_states;
	if (!map->states[0].kept) {
		err = mpst_bad(why, why_len, off,
			       "power state 0 (on) does not keep memory");
		goto fail;
	}
	err = dram_power_check_overlap(map, why, why_len);
	if (err)
		goto fail;
	return 0;
fail:
	dram_power_free_map(map);
	return err;
}

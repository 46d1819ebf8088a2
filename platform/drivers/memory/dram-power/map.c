// SPDX-License-Identifier: GPL-2.0
/*
 * The map of DRAM power domains, whichever firmware described it (the ACPI
 * MPST, a devicetree node): the checks and helpers its parsers share.
 */

#include <linux/kernel.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "dram-power.h"

/**
 * dram_power_refuse() - Say why firmware's description is refused.
 * @why:	Filled with the message.
 * @why_len:	Size of @why.
 * @fmt:	printf format of the message: where, then what is wrong.
 *
 * Return: -EINVAL, for the parser to return.
 */
int dram_power_refuse(char *why, size_t why_len, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(why, why_len, fmt, args);
	va_end(args);
	return -EINVAL;
}

/* Get Device ID's manufacturer ID: 20 bits, 0xfffff reserved. */
#define DP_BMC_MANUFACTURER_MAX	0xffffe

/**
 * dram_power_parse_bmc_id() - Learn which BMC speaks acma's protocol.
 * @node:	The devicetree node, or the ACPI device with the property in
 *		its _DSD; NULL when firmware has neither.
 * @map:	Filled in: @bmc_named and the IDs, when @node has the property.
 * @why:	Filled with the reason for a refusal.
 * @why_len:	Size of @why.
 *
 * "acma,bmc-id" is <MANUFACTURER PRODUCT>, as the BMC's Get Device ID
 * reports them.  Without it no BMC is named, and the IPMI back end sends no
 * OEM command to any.
 *
 * Return: 0, or -EINVAL when the property is there but malformed.
 */
int dram_power_parse_bmc_id(const struct fwnode_handle *node,
		struct dram_power_map *map, char *why, size_t why_len)
{
	u32 id[2];
	int n;

	map->bmc_named = false;
	if (!node || !fwnode_property_present(node, "acma,bmc-id"))
		return 0;
	n = fwnode_property_count_u32(node, "acma,bmc-id");
	if (n != 2)
		return dram_power_refuse(why, why_len,
				"%pfw: acma,bmc-id has %d values, not 2 (manufacturer, product)",
				node, n);
	if (fwnode_property_read_u32_array(node, "acma,bmc-id", id, 2))
		return dram_power_refuse(why, why_len,
				"%pfw: acma,bmc-id cannot be read", node);
	if (id[0] > DP_BMC_MANUFACTURER_MAX || id[1] > U16_MAX)
		return dram_power_refuse(why, why_len,
				"%pfw: acma,bmc-id <%u 0x%x>: manufacturer up to 0x%x, product up to 0xffff",
				node, id[0], id[1], DP_BMC_MANUFACTURER_MAX);
	map->bmc_manufacturer = id[0];
	map->bmc_product = id[1];
	map->bmc_named = true;
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct dram_power_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/**
 * dram_power_check_overlap() - Check that no two ranges of a map overlap.
 * @map:	The domains.
 * @why:	Filled with the two ranges on failure.
 * @why_len:	Size of @why.
 *
 * Return: 0, -EINVAL when two ranges overlap, or -ENOMEM.
 */
int dram_power_check_overlap(const struct dram_power_map *map, char *why,
		size_t why_len)
{
	struct dram_power_range *all;
	int i, j, n = 0, err = 0;

	for (i = 0; i < map->nr_domains; i++)
		n += map->domains[i].nr_ranges;
	all = kcalloc(n, sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	n = 0;
	for (i = 0; i < map->nr_domains; i++)
		for (j = 0; j < map->domains[i].nr_ranges; j++)
			all[n++] = map->domains[i].ranges[j];
	sort(all, n, sizeof(*all), range_cmp, NULL);
	for (i = 1; i < n; i++) {
		if (all[i].start < all[i - 1].start + all[i - 1].size) {
			err = dram_power_refuse(why, why_len,
				"ranges 0x%llx+0x%llx and 0x%llx+0x%llx overlap",
				all[i - 1].start, all[i - 1].size,
				all[i].start, all[i].size);
			break;
		}
	}
	kfree(all);
	return err;
}

void dram_power_free_map(struct dram_power_map *map)
{
	kfree(map->domains);
	map->domains = NULL;
	map->nr_domains = 0;
}

/**
 * dram_power_off_value() - The firmware state used for "off".
 * @map:	The domains.
 *
 * Return: the deepest state, preferring one that loses contents (it saves
 * the most), or -ENOENT when there is only "on".
 */
int dram_power_off_value(const struct dram_power_map *map)
{
	int v;

	for (v = map->nr_states - 1; v > 0; v--)
		if (!map->states[v].kept)
			return v;
	return map->nr_states > 1 ? map->nr_states - 1 : -ENOENT;
}

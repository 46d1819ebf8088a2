// SPDX-License-Identifier: GPL-2.0
/*
 * The map of DRAM power domains, whichever firmware described it (the ACPI
 * MPST, a devicetree node): the checks and helpers its parsers share.
 */

#include <linux/kernel.h>
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

// SPDX-License-Identifier: GPL-2.0
/*
 * dt.c - the board's /dram-power devicetree node: one model, two printers
 *
 * dram_power_node() builds the node from the board once, as a small tree of
 * nodes and properties; dts_node() prints it as devicetree source and
 * uboot_node() as U-Boot `fdt mknode` / `fdt set` commands. The node, which
 * the platform driver parses (binding: platform/Documentation/devicetree/
 * bindings/memory-controllers/acma,dram-power.yaml):
 *
 *   dram-power {
 *       compatible = "acma,dram-power";
 *       acma,firmware = "ipmi";                  the board's firmware keyword
 *       #address-cells = <2>;                    reg: 64-bit addresses, sizes
 *       #size-cells = <2>;
 *       acma,state-names = "on", "off";          the power states, board order
 *       acma,state-power-microwatt = <...>;      per state: one rank's power
 *       acma,state-exit-latency-us = <...>;      per state: back to on, rounded up
 *       acma,state-retains-contents = <...>;     per state: 1 kept, 0 lost
 *       acma,bmc-id = <MANUFACTURER PRODUCT>;    the BMC that speaks the OEM
 *                                                commands (Get Device ID)
 *       rank@BASE {                              per rank, by id; BASE: its first
 *           reg = <hi lo hi lo ...>;             range's address; (address, size)
 *           acma,domain = <ID>;                  per range; the rank id = the
 *           acma,dimm = <N>;                     firmware's domain; N: its DIMM as
 *       };                                       the BMC numbers it
 *   };
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dt.h"

#define DT_NAME_MAX	24	/* "rank@" + 16 hex digits + NUL */
#define DT_MAX_PROPS	10
#define DT_MAX_CELLS	(4 * BOARD_MAX_RANK_RANGES)

/* A property: a string list, or cells printed in hex (addresses) or decimal. */
struct dt_prop {
	const char *name;
	const char *strings[BOARD_MAX_POWER_STATES];
	uint32_t cells[DT_MAX_CELLS];
	int nr;			/* entries of @strings or, if !@is_string, @cells */
	bool is_string;
	bool hex;
};

/* A node of the model, its properties and children in devicetree order. */
struct dt_node {
	char name[DT_NAME_MAX];
	struct dt_prop props[DT_MAX_PROPS];
	int nr_props;
	struct dt_node *children;
	int nr_children;
};

/* ---- the model ---------------------------------------------------------- */

static struct dt_prop *add_prop(struct dt_node *n, const char *name)
{
	struct dt_prop *p = &n->props[n->nr_props++];

	p->name = name;
	return p;
}

static void add_string(struct dt_node *n, const char *name, const char *s)
{
	struct dt_prop *p = add_prop(n, name);

	p->strings[0] = s;
	p->nr = 1;
	p->is_string = true;
}

static void add_cell(struct dt_node *n, const char *name, uint32_t v)
{
	struct dt_prop *p = add_prop(n, name);

	p->cells[0] = v;
	p->nr = 1;
}

/*
 * The node exists for U-Boot boards with ranks (virt, not firmware none);
 * every figure must fit a 32-bit cell.
 */
static int check_board(const struct board *b, const char *what, FILE *err)
{
	int i;

	if (b->machine != BOARD_MACHINE_VIRT) {
		fprintf(err, "boardgen: %s: board %s is a %s machine; the devicetree node is generated for virt boards (booted through U-Boot) only\n",
			what, b->name, board_machine_name(b->machine));
		return -1;
	}
	if (b->firmware == BOARD_FIRMWARE_NONE) {
		fprintf(err, "boardgen: %s: board %s has firmware none (a VM guest): no ranks, no DRAM power node (see 'boardgen needs')\n",
			what, b->name);
		return -1;
	}
	for (i = 0; i < b->nr_power_states; i++) {
		const struct board_power_state *ps = &b->power_states[i];

		if (ps->power_mw > UINT32_MAX / 1000 ||
		    ps->latency_ns > UINT32_MAX * 1000ULL) {
			fprintf(err, "boardgen: %s: power-state '%s': %llu mW or %llu ns does not fit a 32-bit cell in microwatts or microseconds\n",
				what, ps->name, ps->power_mw, ps->latency_ns);
			return -1;
		}
	}
	return 0;
}

/*
 * dram_power_node() - the /dram-power node of @b into @n
 *
 * Return: 0 on success, -1 if the board cannot be described or memory ran
 * out (message on @err). dram_power_free() releases @n either way.
 */
static int dram_power_node(const struct board *b, const char *what, struct dt_node *n,
			   FILE *err)
{
	struct dt_prop *names, *power, *latency, *kept;
	int i, j;

	memset(n, 0, sizeof(*n));
	if (check_board(b, what, err))
		return -1;
	n->children = calloc(b->nr_ranks, sizeof(*n->children));
	if (!n->children) {
		fprintf(err, "boardgen: %s: out of memory\n", what);
		return -1;
	}

	snprintf(n->name, sizeof(n->name), "dram-power");
	add_string(n, "compatible", "acma,dram-power");
	add_string(n, "acma,firmware", board_firmware_name(b->firmware));
	add_cell(n, "#address-cells", 2);
	add_cell(n, "#size-cells", 2);
	names = add_prop(n, "acma,state-names");
	power = add_prop(n, "acma,state-power-microwatt");
	latency = add_prop(n, "acma,state-exit-latency-us");
	kept = add_prop(n, "acma,state-retains-contents");
	names->is_string = true;
	for (i = 0; i < b->nr_power_states; i++) {
		const struct board_power_state *ps = &b->power_states[i];

		names->strings[i] = ps->name;
		power->cells[i] = ps->power_mw * 1000;
		/* rounded up: an exit latency is never understated */
		latency->cells[i] = (ps->latency_ns + 999) / 1000;
		kept->cells[i] = ps->contents_kept;
	}
	names->nr = power->nr = latency->nr = kept->nr = b->nr_power_states;
	if (b->firmware == BOARD_FIRMWARE_IPMI) {
		struct dt_prop *id = add_prop(n, "acma,bmc-id");

		id->cells[0] = b->bmc_manufacturer;
		id->cells[1] = b->bmc_product;
		id->nr = 2;
	}

	for (i = 0; i < b->nr_ranks; i++) {
		const struct board_rank *r = &b->ranks[i];
		struct dt_node *c = &n->children[n->nr_children++];
		struct dt_prop *reg;

		snprintf(c->name, sizeof(c->name), "rank@%llx", r->ranges[0].base);
		reg = add_prop(c, "reg");
		reg->hex = true;
		for (j = 0; j < r->nr_ranges; j++) {
			reg->cells[reg->nr++] = r->ranges[j].base >> 32;
			reg->cells[reg->nr++] = (uint32_t)r->ranges[j].base;
			reg->cells[reg->nr++] = r->ranges[j].size >> 32;
			reg->cells[reg->nr++] = (uint32_t)r->ranges[j].size;
		}
		add_cell(c, "acma,domain", r->id);
		add_cell(c, "acma,dimm", board_dimm_index(b, i));
	}
	return 0;
}

static void dram_power_free(struct dt_node *n)
{
	free(n->children);
	n->children = NULL;
}

/* The values of @p, as dts and U-Boot write them: "a", "b" or <1 0x2>. */
static void print_values(FILE *out, const struct dt_prop *p, const char *sep)
{
	int i;

	if (p->is_string) {
		for (i = 0; i < p->nr; i++)
			fprintf(out, "%s\"%s\"", i ? sep : "", p->strings[i]);
		return;
	}
	fputc('<', out);
	for (i = 0; i < p->nr; i++)
		fprintf(out, p->hex ? "%s0x%" PRIx32 : "%s%" PRIu32, i ? " " : "", p->cells[i]);
	fputc('>', out);
}

/* ---- devicetree source -------------------------------------------------- */

static void dts_indent(FILE *out, int depth)
{
	while (depth--)
		fputc('\t', out);
}

static void dts_prop(FILE *out, int depth, const struct dt_prop *p)
{
	dts_indent(out, depth);
	fprintf(out, "%s = ", p->name);
	print_values(out, p, ", ");
	fprintf(out, ";\n");
}

static void dts_node(FILE *out, int depth, const struct dt_node *n)
{
	int i;

	fputc('\n', out);
	dts_indent(out, depth);
	fprintf(out, "%s {\n", n->name);
	for (i = 0; i < n->nr_props; i++)
		dts_prop(out, depth + 1, &n->props[i]);
	for (i = 0; i < n->nr_children; i++)
		dts_node(out, depth + 1, &n->children[i]);
	dts_indent(out, depth);
	fprintf(out, "};\n");
}

int dt_write_dts(const struct board *b, const char *source, FILE *out, FILE *err)
{
	struct dt_node n, root = { .name = "/" };

	if (dram_power_node(b, "dts", &n, err)) {
		dram_power_free(&n);
		return -1;
	}
	/* the root of QEMU's virt machine around it */
	add_string(&root, "model", "linux,dummy-virt");
	add_string(&root, "compatible", "linux,dummy-virt");
	add_cell(&root, "#address-cells", 2);
	add_cell(&root, "#size-cells", 2);
	root.children = &n;
	root.nr_children = 1;

	fprintf(out, "/*\n");
	fprintf(out, " * The DRAM power domains of board %s, generated by\n", b->name);
	fprintf(out, " * `boardgen dts %s`.\n", source);
	fprintf(out, " * Do not edit: change the board file. U-Boot adds the same node to the\n");
	fprintf(out, " * devicetree of QEMU's virt machine (boardgen uboot-env); this file is\n");
	fprintf(out, " * for dtc and dt-validate.\n");
	fprintf(out, " */\n");
	fprintf(out, "/dts-v1/;\n");
	dts_node(out, 0, &root);
	dram_power_free(&n);
	return 0;
}

/* ---- U-Boot commands ---------------------------------------------------- */

/*
 * The node as one && chain of fdt commands below @parent ("" = the root).
 * libfdt puts a new property or subnode before its siblings, so each comes
 * in reverse order to end up in the model's. A word hush would take for
 * something else is quoted: a property name starting with '#' (a comment),
 * string values, and a cell list (one argument: no argument limit hit).
 */
static void uboot_node(FILE *out, const char *parent, const struct dt_node *n, bool first)
{
	char path[2 * DT_NAME_MAX];
	int i;

	snprintf(path, sizeof(path), "%s/%s", parent, n->name);
	fprintf(out, "%sfdt mknode %s %s", first ? "" : " && ", parent[0] ? parent : "/",
		n->name);
	for (i = n->nr_props - 1; i >= 0; i--) {
		const struct dt_prop *p = &n->props[i];

		fprintf(out, p->name[0] == '#' ? " && fdt set %s \"%s\" " : " && fdt set %s %s ",
			path, p->name);
		if (!p->is_string)
			fputc('"', out);
		print_values(out, p, " ");
		if (!p->is_string)
			fputc('"', out);
	}
	for (i = n->nr_children - 1; i >= 0; i--)
		uboot_node(out, path, &n->children[i], false);
}

/*
 * The environment, one name=value a line ('#' lines are comments mkenvimage
 * drops):
 *
 *   bootdelay          0: boot at once
 *   kernel_addr_r      where qfw load puts QEMU's -kernel, and booti takes it
 *   ramdisk_addr_r     where qfw load puts QEMU's -initrd
 *   fdt_addr_r         where the devicetree is edited and booti takes it
 *   fdt_high           all ones: booti leaves the devicetree and the initrd
 *   initrd_high        where they are instead of copying them
 *   bootargs           the board's fixed kernel arguments
 *   acma_load          qfw load, then the initrd's size (filesize) kept in
 *                      acma_initrd_size before another command changes it
 *   acma_fdt           U-Boot's own devicetree (fdtcontroladdr, QEMU's) moved
 *                      to fdt_addr_r with DT_UBOOT_FDT_SIZE of room
 *   acma_dt            the /dram-power node added: fdt mknode and fdt set
 *   bootcmd            runs them, says what it added, appends acma_args to
 *                      bootargs and boots; on any failure it says so and
 *                      resets (QEMU, run with -no-reboot, exits)
 *   acma_args          the run's kernel arguments (acma.mode=..., kunit...):
 *                      not printed here, the runner appends the line
 */
int dt_write_uboot_env(const struct board *b, const char *source, FILE *out, FILE *err)
{
	struct dt_node n;

	if (dram_power_node(b, "uboot-env", &n, err)) {
		dram_power_free(&n);
		return -1;
	}
	fprintf(out, "# U-Boot environment of board %s, generated by `boardgen uboot-env %s`.\n",
		b->name, source);
	fprintf(out, "# Do not edit: change the board file. mkenvimage makes it the image of virt's\n");
	fprintf(out, "# second flash, which replaces U-Boot's default environment. Variables:\n");
	fprintf(out, "# scripts/boardgen/dt.c. The runner appends acma_args=<the run's arguments>.\n");
	fprintf(out, "bootdelay=0\n");
	fprintf(out, "kernel_addr_r=0x%llx\n", DT_UBOOT_KERNEL_ADDR);
	fprintf(out, "ramdisk_addr_r=0x%llx\n", DT_UBOOT_RAMDISK_ADDR);
	fprintf(out, "fdt_addr_r=0x%llx\n", DT_UBOOT_FDT_ADDR);
	fprintf(out, "fdt_high=0xffffffffffffffff\n");
	fprintf(out, "initrd_high=0xffffffffffffffff\n");
	fprintf(out, "bootargs=console=ttyAMA0 nokaslr panic=-1\n");
	fprintf(out, "acma_load=qfw load ${kernel_addr_r} ${ramdisk_addr_r} && setenv acma_initrd_size ${filesize}\n");
	fprintf(out, "acma_fdt=fdt addr ${fdtcontroladdr} && fdt move ${fdtcontroladdr} ${fdt_addr_r} 0x%llx && fdt addr ${fdt_addr_r}\n",
		DT_UBOOT_FDT_SIZE);
	fprintf(out, "acma_dt=");
	uboot_node(out, "", &n, true);
	fputc('\n', out);
	fprintf(out, "bootcmd=run acma_load acma_fdt acma_dt && echo \"acma: board %s: %d DRAM power domains in the devicetree\" && setenv bootargs \"${bootargs} ${acma_args}\" && booti ${kernel_addr_r} ${ramdisk_addr_r}:${acma_initrd_size} ${fdt_addr_r}; echo \"acma: U-Boot could not boot board %s\"; reset\n",
		b->name, b->nr_ranks, b->name);
	dram_power_free(&n);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dt.h - the board's DRAM power domains as a devicetree node
 *
 * Boards booted through U-Boot (arm64, QEMU virt) describe their ranks to
 * Linux with one node, /dram-power (compatible "acma,dram-power"), that the
 * platform driver reads: the power states a rank can be in and one rank@
 * child per rank with its ranges, power-domain number and DIMM. The binding
 * is platform/Documentation/devicetree/bindings/memory-controllers/
 * acma,dram-power.yaml.
 *
 * One walk of the board produces the node; it is printed either as a
 * standalone devicetree source (for dtc and dt-validate) or as U-Boot
 * commands that add the node to the devicetree U-Boot hands to Linux.
 */
#ifndef ACMA_BOARDGEN_DT_H
#define ACMA_BOARDGEN_DT_H

#include <stdio.h>

#include "board.h"

/* Where booti finds what U-Boot loads, inside virt's RAM (LAB.md). */
#define DT_UBOOT_KERNEL_ADDR	0x40400000ULL
#define DT_UBOOT_RAMDISK_ADDR	0x44000000ULL
#define DT_UBOOT_FDT_ADDR	0x48000000ULL
/* Room of the devicetree U-Boot edits at DT_UBOOT_FDT_ADDR. */
#define DT_UBOOT_FDT_SIZE	0x100000ULL

/**
 * dt_write_dts() - print the board's /dram-power node as devicetree source
 * @b: the board; machine virt (arm64) with firmware ipmi or acpi
 * @source: the board file's name, for the header comment
 * @out: where to print the source
 * @err: where to print why it cannot be generated
 *
 * A whole devicetree: the root of QEMU's virt machine (its model and
 * compatible, 2 address and size cells) holding only the node, so that dtc
 * compiles it and dt-validate checks it against the binding.
 *
 * Return: 0 on success, -1 if the board cannot be described (message on @err).
 */
int dt_write_dts(const struct board *b, const char *source, FILE *out, FILE *err);

/**
 * dt_write_uboot_env() - print U-Boot's environment for booting the board
 * @b: the board; machine virt (arm64) with firmware ipmi or acpi
 * @source: the board file's name, for the header comment
 * @out: where to print the environment, one name=value a line (mkenvimage)
 * @err: where to print why it cannot be generated
 *
 * The environment replaces U-Boot's default one. Its bootcmd loads QEMU's
 * -kernel and -initrd, moves U-Boot's devicetree where booti takes it, adds
 * the /dram-power node, appends the run's kernel arguments and boots; the
 * variables are described in dt.c. The runner appends one more line,
 * acma_args=..., for the run's kernel arguments.
 *
 * Return: 0 on success, -1 if the board cannot be described (message on @err).
 */
int dt_write_uboot_env(const struct board *b, const char *source, FILE *out, FILE *err);

#endif /* ACMA_BOARDGEN_DT_H */

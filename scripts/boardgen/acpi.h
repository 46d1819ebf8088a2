/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acpi.h - ACPI tables generated from a board description
 *
 * The MPST (Memory Power State Table, ACPI 5.0+ section 5.2.21) describes the
 * board's ranks as memory power nodes; the SSDT adds the device the platform
 * driver binds to ("ACMA0001") and, on boards with 'firmware acpi', the
 * methods that switch a rank through the BMC. Both are printed as iasl
 * source; firmware-glue/acpi/README.md documents the mapping.
 */
#ifndef ACMA_BOARDGEN_ACPI_H
#define ACMA_BOARDGEN_ACPI_H

#include <stdio.h>

#include "board.h"

/* Errors RGET and RSET return; successful results are below 0x100. */
#define ACPI_ACMA_ERR_CC	0x100	/* | IPMI completion code */
#define ACPI_ACMA_ERR_STATUS	0x200	/* | IPMI buffer status byte */
#define ACPI_ACMA_ERR_ARG	0x300	/* rank or state out of range */
#define ACPI_ACMA_ERR_REPLY	0x301	/* the BMC's answer is malformed */
#define ACPI_ACMA_ERR_BMC	0x302	/* not the BMC "acma,bmc-id" names */

/* The BMC's OEM commands the SSDT sends (firmware-glue/PROTOCOL.md). */
#define ACPI_ACMA_NETFN		0x30
#define ACPI_ACMA_CMD_GET	0x43
#define ACPI_ACMA_CMD_SET	0x44
/* Get Device ID (IPMI 2.0, 20.1): which BMC answers, checked before each of them. */
#define ACPI_IPMI_NETFN_APP	0x06
#define ACPI_IPMI_GET_DEVICE_ID	0x01

/**
 * acpi_mpst_states() - order of the board's power states in the MPST
 * @b: the board
 * @order: filled in with board power-state indexes: @order[v] is the state
 *         whose MPST power state value is v
 *
 * Value 0 is the "on" state (MPS0, active). The other states follow by
 * increasing exit latency, then decreasing power, then board-file order,
 * so that a higher value is a deeper state as ACPI requires.
 *
 * Return: the number of states (b->nr_power_states).
 */
int acpi_mpst_states(const struct board *b, int order[BOARD_MAX_POWER_STATES]);

/**
 * acpi_power_saving() - relative power saving of a state, as the MPST gives it
 * @b: the board
 * @state: index into &board.power_states
 *
 * Return: the power the state saves against "on", in percent of the "on"
 * power, rounded to the nearest integer; 0 if "on" draws no power or the
 * state draws as much or more.
 */
unsigned int acpi_power_saving(const struct board *b, int state);

/**
 * acpi_write_mpst() - print the board's MPST as iasl data-table source
 * @b: the board; its arch must be x86_64 and its firmware ipmi or acpi
 * @source: the board file's name, for the header comment
 * @out: where to print the table
 * @err: where to print why it cannot be generated
 *
 * One memory power node structure per rank range, the node id being the
 * rank id (several structures share an id on interleaved boards), then one
 * power state characteristics structure per power state.
 *
 * Return: 0 on success, -1 if the board cannot be described (message on @err).
 */
int acpi_write_mpst(const struct board *b, const char *source, FILE *out, FILE *err);

/**
 * acpi_write_ssdt() - print the board's SSDT as ASL
 * @b: the board; its arch must be x86_64 and its firmware ipmi or acpi
 * @source: the board file's name, for the header comment
 * @out: where to print the table
 * @err: where to print why it cannot be generated
 *
 * Device \_SB.ACMA (_HID "ACMA0001"); with 'firmware acpi' also its methods
 * RGET and RSET and the IPMI operation regions they use in the scope of
 * QEMU's IPMI device \_SB.PCI0.SF8.MI1.
 *
 * Return: 0 on success, -1 if the board cannot be described (message on @err).
 */
int acpi_write_ssdt(const struct board *b, const char *source, FILE *out, FILE *err);

#endif /* ACMA_BOARDGEN_ACPI_H */

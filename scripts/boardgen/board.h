/* SPDX-License-Identifier: GPL-2.0 */
/*
 * board.h - model and parser of a board description (boards/<name>/board.hw)
 *
 * A board file describes a server's memory hardware: the boot memory that
 * is never powered off, the DIMMs, their ranks (the power domains of the
 * firmware), the guest-physical ranges each rank backs and the power states
 * a rank can be put in. A VM board ('firmware none') has no ranks instead:
 * its hot-pluggable memory is plain guest memory ('vm-memory'), and it may
 * have a virtio-balloon, a scratch disk and a virtio-mem device (memory a
 * second driver, virtio-mem, adds and owns). The format is documented in
 * boards/README.md.
 *
 * Only libc is used: this is a host build tool (C11, gnu11).
 */
#ifndef ACMA_BOARDGEN_BOARD_H
#define ACMA_BOARDGEN_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define BOARD_MAX_LINE		4095	/* characters per line, newline excluded */
#define BOARD_MAX_ERRORS	20	/* errors printed by board_parse() */
#define BOARD_MAX_CPUS		64
#define BOARD_MAX_POWER_STATES	8
#define BOARD_MAX_DIMM_RANKS	8
#define BOARD_MAX_RANKS		64
#define BOARD_MAX_DIMMS		BOARD_MAX_RANKS
#define BOARD_MAX_RANK_RANGES	32
#define BOARD_MAX_RANGES	256	/* QEMU pc-dimm slots, rank and vm-memory ranges */
#define BOARD_MIN_MEMORY_BLOCK	(2ULL << 20)
#define BOARD_MAX_INTERLEAVE	8

/* Big enough for any board_format_size() result: 20 digits, suffix, NUL. */
#define BOARD_SIZE_BUF		24

#define BOARD_SZ_1K	(1ULL << 10)
#define BOARD_SZ_1M	(1ULL << 20)
#define BOARD_SZ_1G	(1ULL << 30)
#define BOARD_SZ_1T	(1ULL << 40)

enum board_arch {
	BOARD_ARCH_NONE = 0,
	BOARD_ARCH_X86_64,
	BOARD_ARCH_ARM64,
};

enum board_machine {
	BOARD_MACHINE_NONE = 0,
	BOARD_MACHINE_Q35,
	BOARD_MACHINE_VIRT,
};

/* After a successful parse BOARD_FIRMWARE_NONE means 'firmware none': a VM guest. */
enum board_firmware {
	BOARD_FIRMWARE_NONE = 0,
	BOARD_FIRMWARE_IPMI,
	BOARD_FIRMWARE_ACPI,
};

enum board_balloon {
	BOARD_BALLOON_NONE = 0,
	BOARD_BALLOON_PLAIN,
	BOARD_BALLOON_FREE_PAGE_REPORTING,
};

/**
 * struct board_power_state - a power state of one rank
 * @name: state name, [a-z0-9-]+ ("on" and "off" always exist)
 * @power_mw: power drawn by one rank in this state, in milliwatts
 * @latency_ns: exit latency back to "on", in nanoseconds
 * @contents_kept: true if the rank keeps its contents in this state
 * @line: line of the board file that declares the state
 */
struct board_power_state {
	char *name;
	unsigned long long power_mw;
	unsigned long long latency_ns;
	bool contents_kept;
	int line;
};

/**
 * struct board_dimm - a DIMM
 * @name: DIMM name, [A-Za-z0-9_-]+ (e.g. the silk-screen label "DIMM0")
 * @nr_ranks: number of ranks the DIMM has (1..8)
 * @line: line of the board file that declares the DIMM
 */
struct board_dimm {
	char *name;
	int nr_ranks;
	int line;
};

/**
 * struct board_range - a guest-physical address range
 * @base: first byte
 * @size: size in bytes (> 0)
 */
struct board_range {
	unsigned long long base;
	unsigned long long size;
};

/**
 * struct board_rank - a rank: the unit the firmware powers on and off
 * @id: power-domain number, 0..nr_ranks-1
 * @dimm: index into &board.dimms of the DIMM the rank is on
 * @ranges: the guest-physical ranges the rank backs (several if interleaved)
 * @nr_ranges: number of entries of @ranges
 * @line: line of the board file that declares the rank
 */
struct board_rank {
	int id;
	int dimm;
	struct board_range *ranges;
	int nr_ranges;
	int line;
};

/**
 * struct board_vm_memory - a range of a VM guest's hot-pluggable memory
 * @range: the guest-physical range; one QEMU pc-dimm backed by host RAM
 * @line: line of the board file that declares it
 */
struct board_vm_memory {
	struct board_range range;
	int line;
};

/**
 * struct board_virtio_mem - a VM guest's virtio-mem device
 * @range: the guest-physical range of its memory (its memaddr and size); all
 *         of it is plugged at boot (requested-size = size). 0 size: none
 * @line: line of the board file that declares it, 0 if there is none
 *
 * Its memory is not a pc-dimm (no slot) and not DAMON_ACMA's: the guest's
 * virtio-mem driver adds and onlines it in a dynamic memory group.
 */
struct board_virtio_mem {
	struct board_range range;
	int line;
};

/**
 * struct board - a parsed and validated board description
 * @name: board name (also the name of its folder under boards/)
 * @description: free text, or NULL
 * @arch: CPU architecture
 * @machine: QEMU machine type
 * @cpus: number of CPUs
 * @boot_memory: bytes of memory that are never powered off
 * @memory_block: Linux memory block size in bytes
 * @firmware: firmware interface used to power ranks on and off;
 *            %BOARD_FIRMWARE_NONE for a VM guest, which has no ranks
 * @interleave: interleave ways, 0 for none
 * @power_states: the power states of a rank
 * @nr_power_states: number of entries of @power_states
 * @dimms: the DIMMs, in file order
 * @nr_dimms: number of entries of @dimms
 * @ranks: the ranks; after a successful parse sorted so that ranks[i].id == i
 * @nr_ranks: number of entries of @ranks
 * @vm_memory: a VM guest's hot-pluggable memory ranges, in file order
 *             (firmware none only)
 * @nr_vm_memory: number of entries of @vm_memory
 * @balloon: the virtio-balloon device, %BOARD_BALLOON_NONE if there is none
 * @scratch_disk: size in bytes of the scratch virtio disk, 0 if there is none
 * @virtio_mem: the virtio-mem device (firmware none, q35 only); its
 *              range.size is 0 if there is none
 * @bmc_manufacturer: the BMC's manufacturer ID in Get Device ID (an IANA
 *                    enterprise number), %BOARD_BMC_MANUFACTURER by default
 * @bmc_product: the BMC's product ID in Get Device ID,
 *               %BOARD_BMC_PRODUCT by default
 */
struct board {
	char *name;
	char *description;
	enum board_arch arch;
	enum board_machine machine;
	int cpus;
	unsigned long long boot_memory;
	unsigned long long memory_block;
	enum board_firmware firmware;
	int interleave;
	struct board_power_state *power_states;
	int nr_power_states;
	struct board_dimm *dimms;
	int nr_dimms;
	struct board_rank *ranks;
	int nr_ranks;
	struct board_vm_memory *vm_memory;
	int nr_vm_memory;
	enum board_balloon balloon;
	unsigned long long scratch_disk;
	struct board_virtio_mem virtio_mem;
	unsigned int bmc_manufacturer;
	unsigned int bmc_product;
};

/*
 * The BMC's IDs when the board has no bmc-id line: IANA enterprise number
 * 32473, reserved for documentation and examples (RFC 5612), and acma's
 * product ID 0xac4a ("acma BMC").
 */
#define BOARD_BMC_MANUFACTURER	32473
#define BOARD_BMC_PRODUCT	0xac4a

/**
 * board_parse() - read, parse and validate a board file
 * @f: stream to read the board file from
 * @name: name of the file for messages (the path as given by the user); if
 *        it has the form [.../]boards/NAME/board.hw, the 'board' keyword
 *        must be NAME
 * @b: board to fill in
 * @err: stream for error messages ("FILE:LINE: error: ..."), or NULL
 *
 * All errors found are counted; the first %BOARD_MAX_ERRORS of them are
 * printed in line order. On failure @b is released and left zeroed, so
 * calling board_free() afterwards is harmless either way.
 *
 * Return: the number of errors, 0 if @b is a valid board.
 */
int board_parse(FILE *f, const char *name, struct board *b, FILE *err);

/**
 * board_free() - release everything a board owns and zero it
 * @b: board filled in by board_parse(); may be zeroed already
 */
void board_free(struct board *b);

/**
 * board_total_rank_memory() - total size of all ranges of all ranks
 * @b: the board
 *
 * Return: the size in bytes.
 */
unsigned long long board_total_rank_memory(const struct board *b);

/**
 * board_nr_ranges() - number of ranges over all ranks
 * @b: the board
 *
 * This is the number of QEMU pc-dimm slots the board needs.
 *
 * Return: the number of ranges.
 */
int board_nr_ranges(const struct board *b);

/**
 * board_total_vm_memory() - total size of the vm-memory ranges
 * @b: the board
 *
 * Return: the size in bytes.
 */
unsigned long long board_total_vm_memory(const struct board *b);

/**
 * board_nr_slots() - number of QEMU pc-dimm slots the board needs
 * @b: the board
 *
 * One per rank range and one per vm-memory range.
 *
 * Return: the number of slots.
 */
int board_nr_slots(const struct board *b);

/**
 * board_hotplug_memory() - total size of the board's memory devices
 * @b: the board
 *
 * The rank memory plus the vm-memory (the pc-dimms) plus the virtio-mem
 * device's memory: QEMU's maxmem is the boot memory plus this.
 *
 * Return: the size in bytes.
 */
unsigned long long board_hotplug_memory(const struct board *b);

/**
 * board_dimm_index() - a rank's DIMM number as the BMC gives it
 * @b: the board
 * @rank: index into &board.ranks
 *
 * DIMMs are numbered in order of first use by the ranks (rank 0's DIMM is
 * 0), like byte 2 of the BMC's Get Domain Info answer; the MPST and the
 * devicetree number them the same way.
 *
 * Return: the DIMM number.
 */
int board_dimm_index(const struct board *b, int rank);

/**
 * board_device_memory_base() - start of the hot-pluggable memory area
 * @b: the board (machine and boot_memory must be set)
 *
 * Follows QEMU 7.2: for q35 the area starts at the first 1 GiB boundary
 * after the RAM above 4 GiB; for virt at the first 1 GiB boundary after the
 * RAM, which starts at 1 GiB.
 *
 * Return: the guest-physical base address, 0 if the machine is not known.
 */
unsigned long long board_device_memory_base(const struct board *b);

/**
 * board_device_memory_size() - size of the hot-pluggable memory area
 * @b: the board
 *
 * QEMU reserves the hot-pluggable memory (maxmem - boot memory) plus 1 GiB
 * of alignment slack per pc-dimm slot (a virtio-mem device has none).
 *
 * Return: the size in bytes.
 */
unsigned long long board_device_memory_size(const struct board *b);

/**
 * board_parse_size() - parse a size: decimal with optional K, M, G or T
 * @s: the text, e.g. "512M"; must contain nothing else
 * @size: where to store the size in bytes
 *
 * Return: 0 on success, -1 if @s is not a size or overflows.
 */
int board_parse_size(const char *s, unsigned long long *size);

/**
 * board_parse_address() - parse an address: 0x-prefixed hex, or decimal
 * @s: the text, e.g. "0x100000000"; must contain nothing else
 * @addr: where to store the address
 *
 * Return: 0 on success, -1 if @s is not an address or overflows.
 */
int board_parse_address(const char *s, unsigned long long *addr);

/**
 * board_format_size() - format a size the way board files write it
 * @size: size in bytes
 * @buf: output buffer, at least %BOARD_SIZE_BUF bytes
 * @len: size of @buf
 *
 * Uses the largest of T, G, M, K that divides @size exactly ("512M", "1G"),
 * else plain bytes ("1000"). board_parse_size() reads the result back.
 *
 * Return: @buf.
 */
char *board_format_size(unsigned long long size, char *buf, size_t len);

/**
 * board_arch_name() - keyword of an architecture
 * @arch: the architecture
 *
 * Return: "x86_64", "arm64" or "none".
 */
const char *board_arch_name(enum board_arch arch);

/**
 * board_machine_name() - keyword of a QEMU machine type
 * @machine: the machine
 *
 * Return: "q35", "virt" or "none".
 */
const char *board_machine_name(enum board_machine machine);

/**
 * board_firmware_name() - keyword of a firmware interface
 * @firmware: the firmware interface
 *
 * Return: "ipmi", "acpi" or "none".
 */
const char *board_firmware_name(enum board_firmware firmware);

/**
 * board_balloon_name() - keyword of a balloon device
 * @balloon: the balloon
 *
 * Return: "plain", "free-page-reporting" or "none".
 */
const char *board_balloon_name(enum board_balloon balloon);

#endif /* ACMA_BOARDGEN_BOARD_H */

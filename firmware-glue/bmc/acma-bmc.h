/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acma-bmc.h - acma's DRAM power-domain plugin for OpenIPMI's ipmi_sim
 *
 * The plugin owns the board's ranks (power domains): their power state,
 * the backing files whose contents are dropped when a rank loses power, a
 * memory sensor with an SDR per rank, SEL records of every transition and
 * the DCMI power reading. The wire protocol is in firmware-glue/PROTOCOL.md.
 */
#ifndef ACMA_BMC_H
#define ACMA_BMC_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <OpenIPMI/serv.h>
#include <OpenIPMI/mcserv.h>

#define ACMA_BMC_VERSION	"1.0"

#define ACMA_MAX_STATES		8
#define ACMA_MAX_RANKS		64
#define ACMA_MAX_RANGES		32
#define ACMA_NAME_MAX		16	/* bytes of a name sent over IPMI */

#define ACMA_NETFN_OEM		0x30
#define ACMA_CMD_GET_COUNT	0x40
#define ACMA_CMD_GET_DOMAIN	0x41
#define ACMA_CMD_GET_STATE_INFO	0x42
#define ACMA_CMD_GET_POWER	0x43
#define ACMA_CMD_SET_POWER	0x44

#define ACMA_NETFN_DCMI		0x2c
#define ACMA_DCMI_GROUP		0xdc
#define ACMA_DCMI_GET_POWER	0x02

#define ACMA_SENSOR_BASE	0x80	/* sensor number = base + rank id */
#define ACMA_SENSOR_TYPE_MEMORY	0x0c
#define ACMA_READING_SPECIFIC	0x6f
#define ACMA_MEM_DISABLED	4	/* memory sensor offset */
#define ACMA_MEM_PRESENT	6
#define ACMA_MEM_CONFIG_ERROR	7	/* the rank failed: contents not dropped */
#define ACMA_MEM_SPARE		8	/* present, powered off on purpose */

/* Longest wait the BMC simulates for a rank to leave a low-power state. */
#define ACMA_MAX_EXIT_WAIT_NS	1000000000ULL

/**
 * struct acma_state - a power state a rank can be put in
 * @name: state name from the board file ("on", "off", ...)
 * @kept: true if a rank keeps its contents in this state
 */
struct acma_state {
	char *name;
	bool kept;
};

/**
 * struct acma_range - one backing file of a rank
 * @path: file that backs the range (need not exist)
 * @base: guest-physical base address
 * @size: size in bytes; the file is dropped over [0, @size)
 */
struct acma_range {
	char *path;
	uint64_t base;
	uint64_t size;
};

/**
 * struct acma_rank - a rank: one power domain
 * @dimm: index into &acma_bmc.dimms
 * @power_mw: power drawn in each state, in milliwatts
 * @latency_ns: exit latency from each state back to "on", in nanoseconds
 * @ranges: backing files, in board order
 * @nr_ranges: number of entries of @ranges
 * @state: current state, index into &acma_bmc.states
 * @transitions: number of state changes since the state file was created
 * @last_change: wall-clock time of the last change, 0 if never changed
 * @usable_at: CLOCK_MONOTONIC ns when the rank's last power-on completes
 * @failed: its last power-off failed: contents not dropped
 * @accessed_off: memory of the rank was accessed while it was off, since
 *	it last went off (reported once per time off)
 */
struct acma_rank {
	int dimm;
	uint32_t power_mw[ACMA_MAX_STATES];
	uint64_t latency_ns[ACMA_MAX_STATES];
	struct acma_range ranges[ACMA_MAX_RANGES];
	int nr_ranges;
	int state;
	uint32_t transitions;
	time_t last_change;
	uint64_t usable_at;
	bool failed;
	bool accessed_off;
};

/**
 * struct acma_power_stats - DRAM power statistics for DCMI
 * @start: monotonic time the statistics started
 * @last: monotonic time up to which @energy is counted: @start plus whole
 *	milliseconds, at most 1 ms before the last update
 * @energy: energy since @start, in milliwatt-milliseconds
 * @min_mw: lowest power seen since @start
 * @max_mw: highest power seen since @start
 */
struct acma_power_stats {
	struct timespec start;
	struct timespec last;
	uint64_t energy;
	uint32_t min_mw;
	uint32_t max_mw;
};

/**
 * struct acma_bmc - the plugin
 * @sys: ipmi_sim's system data
 * @config_path: the board's BMC configuration (boardgen bmc)
 * @state_path: the persistent rank state file
 * @kcs_path: UNIX socket for the system interface (kcs=), or NULL
 * @audit_path: the durable transition log, transitions.log beside the state file
 * @board: board name
 * @states: the power states, in board order
 * @nr_states: number of entries of @states
 * @on_state: index of the "on" state
 * @dimms: DIMM names, in order of first use
 * @nr_dimms: number of entries of @dimms
 * @ranks: the ranks; ranks[i] is power domain i
 * @nr_ranks: number of entries of @ranks
 * @mc: the BMC's management controller (set in post-init)
 * @stats: power statistics for DCMI
 * @drop_timer: drops the contents of ranks that are off, again and again
 */
struct acma_bmc {
	sys_data_t *sys;
	char *config_path;
	char *state_path;
	char *kcs_path;
	char *audit_path;
	char *board;
	bool have_ids;			/* bmc-id given: manufacturer, product */
	uint32_t manufacturer;
	uint16_t product;
	struct acma_state states[ACMA_MAX_STATES];
	int nr_states;
	int on_state;
	char *dimms[ACMA_MAX_RANKS];
	int nr_dimms;
	struct acma_rank ranks[ACMA_MAX_RANKS];
	int nr_ranks;
	lmc_data_t *mc;
	struct acma_power_stats stats;
	ipmi_timer_t *drop_timer;
};

/*
 * Functions exported by the ipmi_sim 2.0.33 executable whose declarations
 * live in headers OpenIPMI does not install (lanserv/emu.h, lanserv/bmc.h).
 */
int ipmi_mc_add_sensor(lmc_data_t *mc, unsigned char lun,
		       unsigned char sens_num, unsigned char type,
		       unsigned char event_reading_code, int event_only);
int ipmi_mc_add_main_sdr(lmc_data_t *mc, unsigned char *data,
			 unsigned int data_len);
int ipmi_mc_add_to_sel(lmc_data_t *mc, unsigned char record_type,
		       unsigned char event[13], unsigned int *recid);
extern cmd_handler_f storage_netfn_handlers[256];
extern cmd_handler_f app_netfn_handlers[256];

/* config.c */
int acma_config_read(struct acma_bmc *bmc);
int acma_state_read(struct acma_bmc *bmc);
int acma_state_write(struct acma_bmc *bmc);
void acma_free(struct acma_bmc *bmc);

/* domain.c */
void acma_log(struct acma_bmc *bmc, int type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
uint32_t acma_power_now(const struct acma_bmc *bmc);
uint64_t acma_usable_in(const struct acma_bmc *bmc, int rank);
void acma_stats_update(struct acma_bmc *bmc);
int acma_set_state(struct acma_bmc *bmc, int rank, int state, const char *who);
void acma_audit(struct acma_bmc *bmc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int acma_private_dir(struct acma_bmc *bmc, const char *path, const char *what);
/* why contents are dropped: a power-off, or again while the rank is off */
enum acma_drop {
	ACMA_DROP_POWER_OFF,
	ACMA_DROP_AGAIN,
};

int acma_drop_contents(struct acma_bmc *bmc, int rank, enum acma_drop why);

/* fault.c */
/**
 * struct acma_fault - how the next power change goes wrong (fault.c)
 * @late_ms: answer this late, the change carried out at once
 * @cc: answer this completion code, the change not carried out
 * @short_answer: answer too few bytes, the change carried out
 * @bad_echo: echo another domain, the change carried out
 */
struct acma_fault {
	unsigned int late_ms;
	unsigned char cc;
	bool short_answer;
	bool bad_echo;
};

void acma_fault_take(struct acma_bmc *bmc, struct acma_fault *fault);
int acma_fault_init(struct acma_bmc *bmc);

/* sensors.c */
void acma_sensors_init(struct acma_bmc *bmc);
void acma_sensor_update(struct acma_bmc *bmc, int rank);
int acma_sel_transition(struct acma_bmc *bmc, int rank, int old_state);

/* commands.c */
int acma_commands_register(struct acma_bmc *bmc);
int acma_defer_init(struct acma_bmc *bmc);
int acma_device_id_init(struct acma_bmc *bmc);

/* sessions.c */
int acma_sessions_init(struct acma_bmc *bmc);

/* sysif.c */
int acma_sysif_unix(struct acma_bmc *bmc);

/* dcmi.c */
void acma_dcmi_register(struct acma_bmc *bmc);

#endif /* ACMA_BMC_H */

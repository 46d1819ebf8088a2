// SPDX-License-Identifier: GPL-2.0
/*
 * sensors.c - a memory sensor per rank, its SDR, and SEL records
 *
 * Rank r has sensor ACMA_SENSOR_BASE + r on the BMC (LUN 0): sensor type
 * Memory (0x0c), sensor-specific reading (0x6f), offset 6 "Presence
 * detected" always asserted, offset 8 "Spare" asserted while the rank is
 * in any state but "on" (off on purpose: present, not in use), offset 7
 * "Configuration Error" while its last power-off failed because its
 * contents could not be dropped. Monitoring (FreeIPMI, and so the IPMI
 * exporter) reads Presence detected and Spare as Nominal and Configuration
 * Error as Critical; offset 4 "Memory Device Disabled", Critical too, is
 * not shown by the sensor: a rank acma powered off is not a failure. The
 * SEL records of transitions keep offset 4 (see acma_sel_transition()).
 * Its compact SDR (type 0x02) is
 * added to the main SDR repository at every start-up, named from the board
 * ("Rank0 DIMM0"). A transition is logged as a system event record of that
 * sensor. Layouts: firmware-glue/PROTOCOL.md.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include <OpenIPMI/ipmi_msgbits.h>

#include "acma-bmc.h"

#define SDR_COMPACT		0x02
#define SDR_VERSION		0x51
#define SDR_HEADER		5
#define SDR_COMPACT_FIXED	32	/* bytes before the ID string */
#define ENTITY_MEMORY_DEVICE	0x20
#define EVT_MSG_REV		0x04
#define EVT_SYSTEM_RECORD	0x02
#define EVT_DEASSERT		0x80
#define EVT_DATA23_OEM		0xa0	/* event data 2 and 3 are OEM codes */
#define MEM_EVENT_MASK		((1 << ACMA_MEM_DISABLED) | (1 << ACMA_MEM_PRESENT))
#define MEM_READ_MASK		((1 << ACMA_MEM_PRESENT) | (1 << ACMA_MEM_CONFIG_ERROR) | \
				 (1 << ACMA_MEM_SPARE))

static unsigned char sensor_num(int rank)
{
	return ACMA_SENSOR_BASE + rank;
}

/* Build the compact sensor SDR of @rank into @sdr; return its length. */
static unsigned int build_sdr(const struct acma_bmc *bmc, int rank,
			      unsigned char *sdr)
{
	char name[ACMA_NAME_MAX + 1];
	int len;

	len = snprintf(name, sizeof(name), "Rank%d %s", rank,
		       bmc->dimms[bmc->ranks[rank].dimm]);
	if (len > ACMA_NAME_MAX)
		len = ACMA_NAME_MAX;

	memset(sdr, 0, SDR_COMPACT_FIXED + ACMA_NAME_MAX);
	sdr[2] = SDR_VERSION;
	sdr[3] = SDR_COMPACT;
	sdr[4] = SDR_COMPACT_FIXED + len - SDR_HEADER;
	sdr[5] = bmc->sys->bmc_ipmb;		/* owner: the BMC */
	sdr[6] = 0;				/* LUN 0 */
	sdr[7] = sensor_num(rank);
	sdr[8] = ENTITY_MEMORY_DEVICE;
	sdr[9] = rank;				/* entity instance */
	sdr[10] = 0x67;		/* init scanning, events, type; both enabled */
	sdr[11] = 0x40;		/* auto re-arm, per-state event enables */
	sdr[12] = ACMA_SENSOR_TYPE_MEMORY;
	sdr[13] = ACMA_READING_SPECIFIC;
	sdr[14] = MEM_EVENT_MASK;		/* assertion events */
	sdr[16] = MEM_EVENT_MASK;		/* deassertion events */
	sdr[18] = MEM_READ_MASK & 0xff;		/* readable offsets */
	sdr[19] = MEM_READ_MASK >> 8;
	sdr[20] = 0xc0;				/* no analog reading */
	sdr[31] = 0xc0 | len;			/* 8-bit ASCII + Latin 1 */
	memcpy(sdr + SDR_COMPACT_FIXED, name, len);
	return SDR_COMPACT_FIXED + len;
}

/* Set the SEL clock to wall-clock time, as a BMC does from its RTC. */
static void sync_sel_time(struct acma_bmc *bmc)
{
	unsigned char data[4], rdata[IPMI_SIM_MAX_MSG_LENGTH];
	unsigned int rdata_len = sizeof(rdata);
	cmd_handler_f set_time = storage_netfn_handlers[IPMI_SET_SEL_TIME_CMD];
	msg_t msg;

	if (!set_time) {
		acma_log(bmc, SETUP_ERROR, "acma: ipmi_sim has no Set SEL Time");
		return;
	}
	memset(&msg, 0, sizeof(msg));
	msg.netfn = IPMI_STORAGE_NETFN;
	msg.cmd = IPMI_SET_SEL_TIME_CMD;
	msg.data = data;
	msg.len = sizeof(data);
	ipmi_set_uint32(data, time(NULL));
	set_time(bmc->mc, &msg, rdata, &rdata_len, NULL);
	if (rdata[0])
		acma_log(bmc, SETUP_ERROR, "acma: Set SEL Time failed: 0x%02x",
			 rdata[0]);
}

/**
 * acma_sensors_init() - add the ranks' SDRs and sensors to the BMC
 * @bmc: the plugin; @bmc->mc must be the configured BMC
 *
 * Also sets the SEL clock and shows each rank's restored state. Failures
 * are logged; the power commands keep working without sensors.
 */
void acma_sensors_init(struct acma_bmc *bmc)
{
	unsigned char sdr[SDR_COMPACT_FIXED + ACMA_NAME_MAX];
	unsigned int len;
	int i, err;

	sync_sel_time(bmc);
	for (i = 0; i < bmc->nr_ranks; i++) {
		len = build_sdr(bmc, i, sdr);
		err = ipmi_mc_add_main_sdr(bmc->mc, sdr, len);
		if (!err)
			err = ipmi_mc_add_sensor(bmc->mc, 0, sensor_num(i),
						 ACMA_SENSOR_TYPE_MEMORY,
						 ACMA_READING_SPECIFIC, 0);
		if (err) {
			acma_log(bmc, SETUP_ERROR,
				 "acma: rank %d: cannot add sensor 0x%02x: %s", i,
				 sensor_num(i), strerror(err));
			continue;
		}
		ipmi_mc_sensor_set_bit(bmc->mc, 0, sensor_num(i),
				       ACMA_MEM_PRESENT, 1, 0);
		acma_sensor_update(bmc, i);
	}
}

/**
 * acma_sensor_update() - show a rank's state in its memory sensor
 * @bmc: the plugin
 * @rank: rank id
 *
 * Sets offset 8 (Spare) unless the rank is on, and offset 7 (Configuration
 * Error) while its last power-off failed. No event is generated here;
 * acma_sel_transition() logs the transition.
 */
void acma_sensor_update(struct acma_bmc *bmc, int rank)
{
	const struct acma_rank *rk = &bmc->ranks[rank];

	if (!bmc->mc)
		return;
	ipmi_mc_sensor_set_bit(bmc->mc, 0, sensor_num(rank), ACMA_MEM_SPARE,
			       rk->state != bmc->on_state, 0);
	ipmi_mc_sensor_set_bit(bmc->mc, 0, sensor_num(rank), ACMA_MEM_CONFIG_ERROR,
			       rk->failed, 0);
}

/**
 * acma_sel_transition() - log a rank's transition in the SEL
 * @bmc: the plugin
 * @rank: rank id, already in its new state
 * @old_state: the state it left
 *
 * Adds a system event record from the rank's memory sensor: offset 4
 * asserted when the new state is not "on", deasserted when it is; event
 * data 2 is the new state, event data 3 the old one.
 *
 * Return: 0, or the errno value of ipmi_mc_add_to_sel(): EAGAIN when the
 * SEL is full (ipmi_sim then sets the SEL's overflow flag, as IPMI
 * specifies: Get SEL Info, operation support bit 7).
 */
int acma_sel_transition(struct acma_bmc *bmc, int rank, int old_state)
{
	unsigned char ev[13] = { 0 };
	int state = bmc->ranks[rank].state;
	unsigned int recid;
	int err;

	if (!bmc->mc)
		return ENODEV;
	ev[4] = bmc->sys->bmc_ipmb;		/* generator: the BMC */
	ev[5] = 0;				/* channel 0, LUN 0 */
	ev[6] = EVT_MSG_REV;
	ev[7] = ACMA_SENSOR_TYPE_MEMORY;
	ev[8] = sensor_num(rank);
	ev[9] = ACMA_READING_SPECIFIC;
	if (state == bmc->on_state)
		ev[9] |= EVT_DEASSERT;
	ev[10] = EVT_DATA23_OEM | ACMA_MEM_DISABLED;
	ev[11] = state;
	ev[12] = old_state;
	err = ipmi_mc_add_to_sel(bmc->mc, EVT_SYSTEM_RECORD, ev, &recid);
	if (err)
		acma_log(bmc, OS_ERROR, "acma: rank %d: SEL record not added: %s",
			 rank, err == EAGAIN ? "the SEL is full" : strerror(err));
	return err;
}

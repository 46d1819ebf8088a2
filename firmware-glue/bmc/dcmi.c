// SPDX-License-Identifier: GPL-2.0
/*
 * dcmi.c - DCMI Get Power Reading (NetFn 0x2c, command 0x02, group 0xdc)
 *
 * The reading is the DRAM power: the sum over the ranks of the board's
 * power figure for each rank's current state, in whole watts (rounded).
 * Minimum, maximum and average cover the time since the BMC started.
 * Other DCMI commands are answered with "invalid command" (0xc1).
 */
#include <string.h>
#include <time.h>

#include <OpenIPMI/ipmi_err.h>

#include "acma-bmc.h"

#define DCMI_MODE_SYSTEM_POWER	0x01
#define DCMI_READING_ACTIVE	0x40

static unsigned int watts(uint64_t mw)
{
	uint64_t w = (mw + 500) / 1000;

	return w > 0xffff ? 0xffff : w;
}

static void dcmi_get_power(struct acma_bmc *bmc, msg_t *msg,
			   unsigned char *rdata, unsigned int *rdata_len)
{
	const struct acma_power_stats *st = &bmc->stats;
	uint64_t period, avg;

	if (msg->len != 4) {
		rdata[0] = IPMI_REQUEST_DATA_LENGTH_INVALID_CC;
		*rdata_len = 1;
		return;
	}
	if (msg->data[1] != DCMI_MODE_SYSTEM_POWER || msg->data[2] ||
	    msg->data[3]) {
		rdata[0] = IPMI_INVALID_DATA_FIELD_CC;
		*rdata_len = 1;
		return;
	}
	acma_stats_update(bmc);
	period = (st->last.tv_sec - st->start.tv_sec) * 1000ULL +
		 (st->last.tv_nsec - st->start.tv_nsec) / 1000000LL;
	avg = period ? st->energy / period : acma_power_now(bmc);
	rdata[0] = 0;
	rdata[1] = ACMA_DCMI_GROUP;
	ipmi_set_uint16(rdata + 2, watts(acma_power_now(bmc)));
	ipmi_set_uint16(rdata + 4, watts(st->min_mw));
	ipmi_set_uint16(rdata + 6, watts(st->max_mw));
	ipmi_set_uint16(rdata + 8, watts(avg));
	ipmi_set_uint32(rdata + 10, time(NULL));
	ipmi_set_uint32(rdata + 14, period > UINT32_MAX ? UINT32_MAX : period);
	rdata[18] = DCMI_READING_ACTIVE;
	*rdata_len = 19;
}

static void dcmi_handler(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
			 unsigned int *rdata_len, void *cb_data)
{
	if (msg->cmd == ACMA_DCMI_GET_POWER)
		dcmi_get_power(cb_data, msg, rdata, rdata_len);
	else
		handle_invalid_cmd(mc, rdata, rdata_len);
}

/**
 * acma_dcmi_register() - answer DCMI (group extension 0xdc) requests
 * @bmc: the plugin
 *
 * Also starts the power statistics.
 */
void acma_dcmi_register(struct acma_bmc *bmc)
{
	acma_stats_update(bmc);
	ipmi_emu_register_group_extension_handler(ACMA_DCMI_GROUP, dcmi_handler,
						  bmc);
}

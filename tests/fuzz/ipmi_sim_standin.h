/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ipmi_sim_standin.h - the part of ipmi_sim that the BMC plugin's fuzz
 * harness replaces (ipmi_sim_standin.c says why and what)
 */
#ifndef ACMA_FUZZ_STANDIN_H
#define ACMA_FUZZ_STANDIN_H

#include <stdbool.h>
#include <stdint.h>

#include "acma-bmc.h"

#define SIM_LAN_CHANNEL		1
#define SIM_SYSIF_CHANNEL	15
#define SIM_ANSWER_BUF		36	/* ipmi_sim.c: unsigned char msgd[36] */
#define SIM_IPMB_ANSWER_BUF	(IPMI_SIM_MAX_MSG_LENGTH - 7)	/* Send Message */
#define SIM_SEL_MAX		1000	/* acma-bmc.emu: sel_enable 0x20 1000 */

/* An answer a channel sent (return_rsp), in the order sent. */
struct sim_answer {
	unsigned int channel;
	uint32_t tag;			/* the request's msg->seq */
	unsigned char netfn, cmd;
	unsigned char data[IPMI_SIM_MAX_MSG_LENGTH];
	unsigned int len;
	uint64_t at_ns;			/* CLOCK_MONOTONIC when it was sent */
};

/* What the harness may make fail or change. */
struct sim_knobs {
	bool fail_start_timer;		/* sys->start_timer() returns EAGAIN */
	bool fail_add_sensor;		/* ipmi_mc_add_sensor() returns ENOMEM */
	unsigned int sel_max;		/* SEL capacity, SIM_SEL_MAX by default */
};

extern struct sim_knobs sim_knobs;

/* Set up ipmi_sim as it is when it loads the plugin: a BMC at 0x20 with a
 * LAN channel (1) if @with_lan, and the system interface (15). */
sys_data_t *sim_init(bool with_lan);
/* What ipmi_sim does between the plugin's init and post-init: mc_enable
 * (the LAN channel's lanserv init, the system interface's chan_init). */
void sim_enable(void);
lanserv_data_t *sim_lan(void);
channel_t *sim_channel(unsigned int n);

/* A request over the system interface (channel 15), as the KCS codec
 * passes it on: channel_smi_send(). */
void sim_sysif_request(unsigned char netfn, unsigned char cmd,
		       const unsigned char *data, unsigned int len, uint32_t tag);
/* A request of an established session, as lanserv's handle_normal_session()
 * treats it: the OEM hook, the permission check, then the BMC. */
void sim_lan_request(uint32_t sid, unsigned char netfn, unsigned char cmd,
		     const unsigned char *data, unsigned int len, uint32_t tag);
/* ipmi_sim's ipmi_emu_handle_msg() for a message to the BMC itself:
 * dispatch by NetFn and command into @rdata (*rdata_len bytes on entry). */
void sim_dispatch(msg_t *msg, unsigned char *rdata, unsigned int *rdata_len);

/* The answers sent since the last call; returns how many (at most @max). */
unsigned int sim_take_answers(struct sim_answer *out, unsigned int max);
/* Run the timers due within @horizon_ns from now, in order, waiting for
 * each one's time; returns how many ran. */
unsigned int sim_run_timers(uint64_t horizon_ns);
/* Run every started timer now, as if its time had come (once each). */
unsigned int sim_expire_timers(void);
unsigned int sim_timers_pending(void);
/* The event loop's once-a-second tick, @seconds later. */
void sim_tick(unsigned int seconds);
/* lanserv's payload handler for RMCP+ Open Session requests, as the plugin
 * left it (wrapped). */
void sim_open_session(msg_t *msg);
/* What reached "lanserv's own" Open Session handler: number of calls, and
 * the last request's privilege byte. */
unsigned int sim_open_session_calls(void);
unsigned char sim_open_session_priv(void);

/* The BMC's sensors, SDRs and SEL as the plugin left them. */
bool sim_sensor(unsigned char num, uint16_t *bits);
unsigned int sim_sdr_count(void);
const unsigned char *sim_sdr(unsigned int i, unsigned int *len);
unsigned int sim_sel_count(void);
const unsigned char *sim_sel_record(unsigned int i);	/* 16 bytes */
bool sim_sel_overflow(void);
void sim_sel_clear(void);

/* The handlers the plugin registered: NetFn 0x30 @cmd's, and the group
 * extension's; their cb_data is the plugin. */
void *sim_oem_cb_data(unsigned char cmd);
/* Save and restore every handler table (a second plugin init overwrites). */
void sim_handlers_save(void);
void sim_handlers_restore(void);

/* Log messages the plugin sent through sys->log, by type. */
unsigned long sim_log_count(int type);

uint64_t sim_mono_ns(void);

#endif /* ACMA_FUZZ_STANDIN_H */

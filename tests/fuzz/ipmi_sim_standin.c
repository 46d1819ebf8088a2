// SPDX-License-Identifier: GPL-2.0
/*
 * ipmi_sim_standin.c - STAND-INS FOR OpenIPMI's ipmi_sim, for the BMC
 * plugin's in-process fuzz harness (fuzz_bmc.c)
 *
 * The plugin (firmware-glue/bmc) runs inside ipmi_sim: the functions it
 * calls on the management controller (sensors, SDRs, SEL, the NetFn
 * command tables, ipmi_emu_handle_msg's dispatch) are compiled into the
 * ipmi_sim executable, not into a library, and ipmi_sim's event loop
 * (timers, the once-a-second tick, sockets) cannot run inside a harness
 * that must send a request and look at the answer and the state at once.
 * So this file stands in for those parts of ipmi_sim 2.0.33, as thinly as
 * the plugin needs, following its sources (lanserv/bmc.c, bmc_app.c,
 * bmc_storage.c, bmc_sensor.c, ipmi_sim.c, lanserv_ipmi.c's
 * handle_normal_session(), ipmi_lan_tick() and close_session()).
 *
 * Everything that Debian's libopenipmi-dev ships as a library is the real
 * thing, linked from libIPMIlanserv: channel_smi_send(), ipmi_handle_smi_rsp()
 * (which calls the plugin's response hook), chan_init(), ipmi_cmd_permitted()
 * (lanserv's permission table), payload_handlers[] and the byte helpers.
 *
 * Timers are kept in a list and run when the harness says so (waiting for
 * their time when asked, so a held-back answer really comes late); the
 * tick runs when the harness calls sim_tick().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <OpenIPMI/ipmi_auth.h>
#include <OpenIPMI/ipmi_err.h>
#include <OpenIPMI/ipmi_mc.h>
#include <OpenIPMI/ipmi_msgbits.h>
#include <OpenIPMI/extcmd.h>

#include "ipmi_sim_standin.h"

#define OPEN_SESSION_PAYLOAD	0x10

/* libIPMIlanserv's payload table: exported, not declared in its headers */
extern ipmi_payload_handler_cb payload_handlers[64];
#define MAX_SDRS		256
#define MAX_TIMERS		64
#define MAX_TICKS		8
#define MAX_ANSWERS		64

struct sim_knobs sim_knobs = { .sel_max = SIM_SEL_MAX };

/* The management controller: what the plugin touches of bmc.h's lmc_data_s. */
struct lmc_data_s {
	channel_t *channels[IPMI_MAX_CHANNELS];
	struct {
		bool present;
		uint16_t bits;
	} sensors[256];			/* LUN 0 only: the plugin uses no other */
	unsigned char sdrs[MAX_SDRS][64];
	unsigned int sdr_len[MAX_SDRS];
	unsigned int nr_sdrs;
	unsigned char sel[SIM_SEL_MAX][16];
	unsigned int sel_count;
	uint16_t sel_next_id;
	bool sel_overflow;
	int32_t sel_time_offset;
	unsigned char mfg_id[3], product_id[2];
};

struct ipmi_timer_s {
	void (*cb)(void *cb_data);
	void *cb_data;
	bool running;
	uint64_t due_ns;
};

static struct {
	sys_data_t sys;
	struct lmc_data_s mc;
	lanserv_data_t lan;
	user_t users[MAX_USERS + 1];
	channel_t sysif;
	struct ipmi_timer_s timers[MAX_TIMERS];
	unsigned int nr_timers;
	ipmi_tick_handler_t *ticks[MAX_TICKS];
	unsigned int nr_ticks;
	struct sim_answer answers[MAX_ANSWERS];
	unsigned int nr_answers;
	unsigned long logs[SETUP_ERROR + 2];
	ipmi_payload_handler_cb lanserv_open_session;
	unsigned int open_calls;
	unsigned char open_priv;
} sim;

uint64_t sim_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---- ipmi_sim's NetFn tables and dispatch (lanserv/bmc.c) ---------------- */

cmd_handler_f app_netfn_handlers[256];
cmd_handler_f storage_netfn_handlers[256];
static cmd_handler_f oem0_netfn_handlers[256];

static struct {
	cmd_handler_f handler;
	void *cb_data;
} group_extension_handlers[256];

typedef struct {
	cmd_handler_f *handlers;
	void *cb_data[256];
	cmd_handler_f main_handler;
} netfn_handler_t;

static cmd_handler_f extra_handlers[32][256];
static netfn_handler_t netfn_handlers[32];

static struct {
	cmd_handler_f app[256], storage[256], oem0[256];
	netfn_handler_t netfn[32];
	cmd_handler_f extra[32][256];
	typeof(group_extension_handlers) group;
} saved;

void handle_invalid_cmd(lmc_data_t *mc, unsigned char *rdata,
			unsigned int *rdata_len)
{
	(void)mc;
	rdata[0] = IPMI_INVALID_CMD_CC;
	*rdata_len = 1;
}

int check_msg_length(msg_t *msg, unsigned int len, unsigned char *rdata,
		     unsigned int *rdata_len)
{
	if (msg->len < len) {
		rdata[0] = IPMI_REQUEST_DATA_LENGTH_INVALID_CC;
		*rdata_len = 1;
		return 1;
	}
	return 0;
}

static void handle_group_extension_netfn(lmc_data_t *mc, msg_t *msg,
					 unsigned char *rdata,
					 unsigned int *rdata_len, void *cb_data)
{
	unsigned char ge;

	(void)cb_data;
	if (check_msg_length(msg, 1, rdata, rdata_len))
		return;
	ge = msg->data[0];
	if (group_extension_handlers[ge].handler)
		group_extension_handlers[ge].handler(mc, msg, rdata, rdata_len,
						     group_extension_handlers[ge].cb_data);
	else
		handle_invalid_cmd(mc, rdata, rdata_len);
}

/* bmc_app.c's Get Device ID, from the .emu's mc_add. */
static void handle_get_device_id(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
				 unsigned int *rdata_len, void *cb_data)
{
	(void)msg;
	(void)cb_data;
	memset(rdata, 0, 16);
	rdata[1] = 0x20;		/* device ID */
	rdata[2] = 0x01;		/* no device SDRs, revision 1 */
	rdata[3] = 1;
	rdata[4] = 0;
	rdata[5] = 0x02;
	rdata[6] = 0x9f;
	memcpy(rdata + 7, mc->mfg_id, 3);
	memcpy(rdata + 10, mc->product_id, 2);
	*rdata_len = 16;
}

/* bmc_storage.c's Set SEL Time. */
static void handle_set_sel_time(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
				unsigned int *rdata_len, void *cb_data)
{
	(void)cb_data;
	if (check_msg_length(msg, 4, rdata, rdata_len))
		return;
	mc->sel_time_offset = (int32_t)(ipmi_get_uint32(msg->data) -
					(uint32_t)(sim_mono_ns() / 1000000000ULL));
	rdata[0] = 0;
	*rdata_len = 1;
}

int ipmi_emu_register_cmd_handler(unsigned char netfn, unsigned char cmd,
				  cmd_handler_f handler, void *cb_data)
{
	unsigned int ni = netfn >> 1;

	if (ni >= 32)
		return EINVAL;
	netfn_handlers[ni].cb_data[cmd] = cb_data;
	netfn_handlers[ni].handlers[cmd] = handler;
	return 0;
}

void ipmi_emu_register_group_extension_handler(uint8_t group_extension,
					       cmd_handler_f handler, void *cb_data)
{
	group_extension_handlers[group_extension].handler = handler;
	group_extension_handlers[group_extension].cb_data = cb_data;
}

void sim_dispatch(msg_t *msg, unsigned char *rdata, unsigned int *rdata_len)
{
	netfn_handler_t *h = &netfn_handlers[(msg->netfn >> 1) & 31];

	if (msg->netfn >= 64)
		handle_invalid_cmd(&sim.mc, rdata, rdata_len);
	else if (h->main_handler)
		h->main_handler(&sim.mc, msg, rdata, rdata_len, NULL);
	else if (h->handlers[msg->cmd])
		h->handlers[msg->cmd](&sim.mc, msg, rdata, rdata_len,
				      h->cb_data[msg->cmd]);
	else
		handle_invalid_cmd(&sim.mc, rdata, rdata_len);
}

void *sim_oem_cb_data(unsigned char cmd)
{
	return netfn_handlers[ACMA_NETFN_OEM >> 1].cb_data[cmd];
}

void sim_handlers_save(void)
{
	memcpy(saved.app, app_netfn_handlers, sizeof(saved.app));
	memcpy(saved.storage, storage_netfn_handlers, sizeof(saved.storage));
	memcpy(saved.oem0, oem0_netfn_handlers, sizeof(saved.oem0));
	memcpy(saved.netfn, netfn_handlers, sizeof(saved.netfn));
	memcpy(saved.extra, extra_handlers, sizeof(saved.extra));
	memcpy(saved.group, group_extension_handlers, sizeof(saved.group));
}

void sim_handlers_restore(void)
{
	memcpy(app_netfn_handlers, saved.app, sizeof(saved.app));
	memcpy(storage_netfn_handlers, saved.storage, sizeof(saved.storage));
	memcpy(oem0_netfn_handlers, saved.oem0, sizeof(saved.oem0));
	memcpy(netfn_handlers, saved.netfn, sizeof(saved.netfn));
	memcpy(extra_handlers, saved.extra, sizeof(saved.extra));
	memcpy(group_extension_handlers, saved.group, sizeof(saved.group));
}

/* ---- the MC's sensors, SDRs and SEL (bmc_sensor.c, bmc_storage.c) ------- */

int ipmi_mc_add_sensor(lmc_data_t *mc, unsigned char lun, unsigned char sens_num,
		       unsigned char type, unsigned char event_reading_code,
		       int event_only)
{
	(void)type;
	(void)event_reading_code;
	(void)event_only;
	if (lun || sens_num >= 255 || mc->sensors[sens_num].present)
		return EINVAL;
	if (sim_knobs.fail_add_sensor)
		return ENOMEM;
	mc->sensors[sens_num].present = true;
	mc->sensors[sens_num].bits = 0;
	return 0;
}

int ipmi_mc_sensor_set_bit(lmc_data_t *mc, unsigned char lun, unsigned char sens_num,
			   unsigned char bit, unsigned char value, int gen_event)
{
	(void)gen_event;
	if (lun >= 4 || sens_num >= 255 || lun || !mc->sensors[sens_num].present)
		return EINVAL;
	if (bit >= 15)
		return EINVAL;
	if (value)
		mc->sensors[sens_num].bits |= 1u << bit;
	else
		mc->sensors[sens_num].bits &= ~(1u << bit);
	return 0;
}

int ipmi_mc_add_main_sdr(lmc_data_t *mc, unsigned char *data, unsigned int data_len)
{
	if (data_len < 5 || data_len > sizeof(mc->sdrs[0]) || data_len != data[4] + 5u)
		return EINVAL;
	if (mc->nr_sdrs == MAX_SDRS)
		return EAGAIN;
	memcpy(mc->sdrs[mc->nr_sdrs], data, data_len);
	mc->sdr_len[mc->nr_sdrs++] = data_len;
	return 0;
}

int ipmi_mc_add_to_sel(lmc_data_t *mc, unsigned char record_type,
		       unsigned char event[13], unsigned int *recid)
{
	unsigned char *e;
	uint32_t now;

	if (mc->sel_count >= sim_knobs.sel_max || mc->sel_count >= SIM_SEL_MAX) {
		mc->sel_overflow = true;
		return EAGAIN;
	}
	e = mc->sel[mc->sel_count++];
	if (!mc->sel_next_id)
		mc->sel_next_id = 1;
	*recid = mc->sel_next_id++;
	ipmi_set_uint16(e, *recid);
	e[2] = record_type;
	now = sim_mono_ns() / 1000000000ULL;
	if (record_type < 0xe0) {
		ipmi_set_uint32(e + 3, now + mc->sel_time_offset);
		memcpy(e + 7, event + 4, 9);
	} else {
		memcpy(e + 3, event, 13);
	}
	return 0;
}

bool sim_sensor(unsigned char num, uint16_t *bits)
{
	*bits = sim.mc.sensors[num].bits;
	return sim.mc.sensors[num].present;
}

unsigned int sim_sdr_count(void)
{
	return sim.mc.nr_sdrs;
}

const unsigned char *sim_sdr(unsigned int i, unsigned int *len)
{
	*len = sim.mc.sdr_len[i];
	return sim.mc.sdrs[i];
}

unsigned int sim_sel_count(void)
{
	return sim.mc.sel_count;
}

const unsigned char *sim_sel_record(unsigned int i)
{
	return sim.mc.sel[i];
}

bool sim_sel_overflow(void)
{
	return sim.mc.sel_overflow;
}

void sim_sel_clear(void)
{
	sim.mc.sel_count = 0;
	sim.mc.sel_overflow = false;
}

/* ---- sys_data_t: log, timers, tick, channels (ipmi_sim.c) --------------- */

static void sys_log(sys_data_t *sys, int type, msg_t *msg, const char *format, ...)
{
	(void)sys;
	(void)msg;
	(void)format;
	if (type < 0 || type > SETUP_ERROR)
		type = SETUP_ERROR + 1;
	sim.logs[type]++;
}

unsigned long sim_log_count(int type)
{
	return type >= 0 && type <= SETUP_ERROR ? sim.logs[type] : 0;
}

static void chan_log(channel_t *chan, int type, msg_t *msg, const char *format, ...)
{
	(void)chan;
	sys_log(&sim.sys, type, msg, "%s", format);
}

static int alloc_timer(sys_data_t *sys, void (*cb)(void *cb_data), void *cb_data,
		       ipmi_timer_t **timer)
{
	(void)sys;
	if (sim.nr_timers == MAX_TIMERS)
		return ENOMEM;
	sim.timers[sim.nr_timers].cb = cb;
	sim.timers[sim.nr_timers].cb_data = cb_data;
	*timer = &sim.timers[sim.nr_timers++];
	return 0;
}

static int start_timer(ipmi_timer_t *timer, struct timeval *timeout)
{
	if (sim_knobs.fail_start_timer)
		return EAGAIN;
	timer->running = true;
	timer->due_ns = sim_mono_ns() + timeout->tv_sec * 1000000000ULL +
			timeout->tv_usec * 1000ULL;
	return 0;
}

static int stop_timer(ipmi_timer_t *timer)
{
	timer->running = false;
	return 0;
}

unsigned int sim_timers_pending(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < sim.nr_timers; i++)
		n += sim.timers[i].running;
	return n;
}

unsigned int sim_run_timers(uint64_t horizon_ns)
{
	uint64_t until = sim_mono_ns() + horizon_ns;
	unsigned int ran = 0;

	for (;;) {
		struct ipmi_timer_s *next = NULL;
		uint64_t now = sim_mono_ns();
		unsigned int i;

		for (i = 0; i < sim.nr_timers; i++)
			if (sim.timers[i].running &&
			    (!next || sim.timers[i].due_ns < next->due_ns))
				next = &sim.timers[i];
		if (!next || next->due_ns > until)
			return ran;
		if (next->due_ns > now) {
			struct timespec ts = {
				(next->due_ns - now) / 1000000000ULL,
				(next->due_ns - now) % 1000000000ULL,
			};

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
		next->running = false;
		next->cb(next->cb_data);
		ran++;
	}
}

unsigned int sim_expire_timers(void)
{
	unsigned int i, ran = 0, n = sim.nr_timers;
	bool was[MAX_TIMERS];

	for (i = 0; i < n; i++)
		was[i] = sim.timers[i].running;
	for (i = 0; i < n; i++) {
		if (!was[i])
			continue;
		sim.timers[i].running = false;
		sim.timers[i].cb(sim.timers[i].cb_data);
		ran++;
	}
	return ran;
}

static void register_tick_handler(ipmi_tick_handler_t *handler)
{
	if (sim.nr_ticks < MAX_TICKS)
		sim.ticks[sim.nr_ticks++] = handler;
}

void sim_tick(unsigned int seconds)
{
	unsigned int i;

	for (i = 0; i < sim.nr_ticks; i++)
		sim.ticks[i]->handler(sim.ticks[i]->info, seconds);
}

static channel_t **mc_get_channelset(lmc_data_t *mc)
{
	return mc->channels;
}

static int add_io_hnd(sys_data_t *sys, int fd, void (*read_hnd)(int fd, void *cb_data),
		      void *cb_data, ipmi_io_t **io)
{
	(void)sys;
	(void)fd;
	(void)read_hnd;
	(void)cb_data;
	(void)io;
	return ENOSYS;		/* no kcs= in the harness */
}

static void *chan_alloc(channel_t *chan, int size)
{
	(void)chan;
	return malloc(size);
}

static void chan_free(channel_t *chan, void *data)
{
	(void)chan;
	free(data);
}

static void return_rsp(channel_t *chan, msg_t *msg, rsp_msg_t *rsp)
{
	struct sim_answer *a;

	if (sim.nr_answers == MAX_ANSWERS) {
		fprintf(stderr, "ipmi_sim stand-in: more than %d answers pending\n",
			MAX_ANSWERS);
		abort();
	}
	a = &sim.answers[sim.nr_answers++];
	a->channel = chan->channel_num;
	a->tag = msg->seq;
	a->netfn = rsp->netfn;
	a->cmd = rsp->cmd;
	a->len = rsp->data_len;
	if (a->len > sizeof(a->data)) {
		fprintf(stderr, "ipmi_sim stand-in: an answer of %u bytes\n", a->len);
		abort();
	}
	memcpy(a->data, rsp->data, a->len);
	a->at_ns = sim_mono_ns();
}

unsigned int sim_take_answers(struct sim_answer *out, unsigned int max)
{
	unsigned int n = sim.nr_answers < max ? sim.nr_answers : max;

	memcpy(out, sim.answers, n * sizeof(*out));
	memmove(sim.answers, sim.answers + n, (sim.nr_answers - n) * sizeof(*out));
	sim.nr_answers -= n;
	return n;
}

/*
 * ipmi_sim.c's smi_send(): the BMC handles the message into a 36-byte
 * answer, which goes back through ipmi_handle_smi_rsp() (the real one: it
 * calls the channel's OEM response hook, then return_rsp and free).
 */
static int smi_send(channel_t *chan, msg_t *msg)
{
	unsigned char *msgd = malloc(SIM_ANSWER_BUF);	/* exact size: ASan sees overruns */
	unsigned int msgd_len = SIM_ANSWER_BUF;

	if (!msgd)
		abort();
	sim_dispatch(msg, msgd, &msgd_len);
	if (msgd_len > SIM_ANSWER_BUF) {
		fprintf(stderr, "ipmi_sim stand-in: handler answered %u bytes into %d\n",
			msgd_len, SIM_ANSWER_BUF);
		abort();
	}
	ipmi_handle_smi_rsp(chan, msg, msgd, msgd_len);
	free(msgd);
	return 0;
}

/* ---- lanserv's session handling, what the plugin's hooks sit in ---------- */

static void close_session(lanserv_data_t *lan, session_t *session)
{
	session->active = 0;
	lan->channel.active_sessions--;
}

/* lanserv_ipmi.c's ipmi_lan_tick(). */
static void lan_tick(void *info, unsigned int seconds)
{
	lanserv_data_t *lan = info;
	int i;

	for (i = 1; i <= MAX_SESSIONS; i++) {
		if (!lan->sessions[i].active)
			continue;
		if (lan->sessions[i].time_left <= seconds)
			close_session(lan, &lan->sessions[i]);
		else
			lan->sessions[i].time_left -= seconds;
	}
}

/* "lanserv's own" Open Session handler: the harness only counts what reaches it. */
static void lanserv_open_session(lanserv_data_t *lan, msg_t *msg)
{
	(void)lan;
	sim.open_calls++;
	sim.open_priv = msg->len >= 2 ? msg->data[1] : 0xff;
}

void sim_open_session(msg_t *msg)
{
	payload_handlers[OPEN_SESSION_PAYLOAD](&sim.lan, msg);
}

unsigned int sim_open_session_calls(void)
{
	return sim.open_calls;
}

unsigned char sim_open_session_priv(void)
{
	return sim.open_priv;
}

static session_t *sid_to_session(lanserv_data_t *lan, uint32_t sid)
{
	session_t *session;

	if (sid & 1)
		return NULL;
	session = &lan->sessions[(sid >> 1) & SESSION_MASK];
	if (!session->active || session->sid != sid)
		return NULL;
	return session;
}

static void return_err(lanserv_data_t *lan, msg_t *msg, unsigned char cc)
{
	rsp_msg_t rsp = { .netfn = msg->netfn | 1, .cmd = msg->cmd, .data = &cc,
			  .data_len = 1 };

	lan->channel.return_rsp(&lan->channel, msg, &rsp);
}

/* lanserv_ipmi.c's handle_normal_session(), for commands it passes on. */
void sim_lan_request(uint32_t sid, unsigned char netfn, unsigned char cmd,
		     const unsigned char *data, unsigned int len, uint32_t tag)
{
	lanserv_data_t *lan = &sim.lan;
	unsigned char buf[IPMI_SIM_MAX_MSG_LENGTH];
	session_t *session = sid_to_session(lan, sid);
	msg_t msg;
	int rv;

	if (!session)
		return;		/* lanserv drops it: "Invalid SID" */
	memset(&msg, 0, sizeof(msg));
	memcpy(buf, data, len);
	msg.sid = sid;
	msg.seq = tag;
	msg.netfn = netfn;
	msg.cmd = cmd;
	msg.data = buf;
	msg.len = len;
	msg.channel = lan->channel.channel_num;
	msg.orig_channel = &lan->channel;
	session->time_left = lan->default_session_timeout;

	if (lan->channel.oem.oem_handle_msg &&
	    lan->channel.oem.oem_handle_msg(&lan->channel, &msg))
		return;
	rv = IPMI_PRIV_INVALID;
	if (lan->channel.oem.oem_check_permitted)
		rv = lan->channel.oem.oem_check_permitted(session->priv, msg.netfn,
							  msg.cmd);
	if (rv == IPMI_PRIV_INVALID)
		rv = ipmi_cmd_permitted(session->priv, msg.netfn, msg.cmd);
	switch (rv) {
	case IPMI_PRIV_PERMITTED:
		break;
	case IPMI_PRIV_SEND:
	case IPMI_PRIV_DENIED:
	case IPMI_PRIV_BOOT:
		return_err(lan, &msg, IPMI_INSUFFICIENT_PRIVILEGE_CC);
		return;
	default:
		return_err(lan, &msg, IPMI_UNKNOWN_ERR_CC);
		return;
	}
	if (msg.netfn == IPMI_APP_NETFN && cmd != IPMI_GET_DEVICE_ID_CMD) {
		/* lanserv's own App commands (sessions, GUID, ...): not the plugin's */
		return_err(lan, &msg, 0);
		return;
	}
	rv = channel_smi_send(&lan->channel, &msg);
	if (rv)
		return_err(lan, &msg, IPMI_UNKNOWN_ERR_CC);
}

void sim_sysif_request(unsigned char netfn, unsigned char cmd,
		       const unsigned char *data, unsigned int len, uint32_t tag)
{
	unsigned char buf[IPMI_SIM_MAX_MSG_LENGTH];
	msg_t msg;

	memset(&msg, 0, sizeof(msg));
	memcpy(buf, data, len);
	msg.seq = tag;
	msg.netfn = netfn;
	msg.cmd = cmd;
	msg.data = buf;
	msg.len = len;
	msg.orig_channel = &sim.sysif;
	if (channel_smi_send(&sim.sysif, &msg))
		abort();
}

/* ---- set-up ------------------------------------------------------------- */

static void channel_setup(channel_t *chan, unsigned int num, unsigned char medium)
{
	chan->channel_num = num;
	chan->medium_type = medium;
	chan->mc = &sim.mc;
	chan->log = chan_log;
	chan->smi_send = smi_send;
	chan->alloc = chan_alloc;
	chan->free = chan_free;
	chan->return_rsp = return_rsp;
	chan->privilege_limit = IPMI_PRIVILEGE_ADMIN;
}

sys_data_t *sim_init(bool with_lan)
{
	unsigned int i;

	memset(&sim, 0, sizeof(sim));
	memset(netfn_handlers, 0, sizeof(netfn_handlers));
	memset(extra_handlers, 0, sizeof(extra_handlers));
	memset(group_extension_handlers, 0, sizeof(group_extension_handlers));
	memset(app_netfn_handlers, 0, sizeof(app_netfn_handlers));
	memset(storage_netfn_handlers, 0, sizeof(storage_netfn_handlers));
	memset(oem0_netfn_handlers, 0, sizeof(oem0_netfn_handlers));
	for (i = 0; i < 32; i++)
		netfn_handlers[i].handlers = extra_handlers[i];
	netfn_handlers[IPMI_APP_NETFN >> 1].handlers = app_netfn_handlers;
	netfn_handlers[IPMI_STORAGE_NETFN >> 1].handlers = storage_netfn_handlers;
	netfn_handlers[ACMA_NETFN_OEM >> 1].handlers = oem0_netfn_handlers;
	netfn_handlers[IPMI_GROUP_EXTENSION_NETFN >> 1].main_handler =
		handle_group_extension_netfn;
	app_netfn_handlers[IPMI_GET_DEVICE_ID_CMD] = handle_get_device_id;
	storage_netfn_handlers[IPMI_SET_SEL_TIME_CMD] = handle_set_sel_time;
	sim.mc.product_id[0] = 0x4a;	/* acma-bmc.emu: mc_add ... 0x000000 0xac4a */
	sim.mc.product_id[1] = 0xac;

	sim.sys.name = "fuzz";
	sim.sys.log = sys_log;
	sim.sys.bmc_ipmb = 0x20;
	sim.sys.ipmb_addrs[0x20] = &sim.mc;
	sim.sys.mc = &sim.mc;
	sim.sys.chan_set = sim.mc.channels;
	sim.sys.alloc_timer = alloc_timer;
	sim.sys.start_timer = start_timer;
	sim.sys.stop_timer = stop_timer;
	sim.sys.add_io_hnd = add_io_hnd;
	sim.sys.register_tick_handler = register_tick_handler;
	sim.sys.mc_get_channelset = mc_get_channelset;

	channel_setup(&sim.sysif, SIM_SYSIF_CHANNEL, IPMI_CHANNEL_MEDIUM_RS232);
	sim.mc.channels[SIM_SYSIF_CHANNEL] = &sim.sysif;
	if (with_lan) {
		channel_setup(&sim.lan.channel, SIM_LAN_CHANNEL,
			      IPMI_CHANNEL_MEDIUM_8023_LAN);
		sim.lan.channel.chan_info = &sim.lan;
		sim.lan.sysinfo = &sim.sys;
		sim.lan.users = sim.users;
		sim.lan.default_session_timeout = 30;
		for (i = 0; i <= MAX_SESSIONS; i++)
			sim.lan.sessions[i].handle = i;
		sim.mc.channels[SIM_LAN_CHANNEL] = &sim.lan.channel;
	}
	/* lanserv's handler stays in the library's table; the plugin wraps this one */
	sim.lanserv_open_session = lanserv_open_session;
	payload_handlers[OPEN_SESSION_PAYLOAD] = sim.lanserv_open_session;
	return &sim.sys;
}

void sim_enable(void)
{
	if (sim.lan.channel.chan_info) {
		sim.lan.tick_handler.handler = lan_tick;
		sim.lan.tick_handler.info = &sim.lan;
		register_tick_handler(&sim.lan.tick_handler);
	}
	/* the real chan_init(): the system interface asks for the device ID */
	chan_init(&sim.sysif);
	sim.nr_answers = 0;
}

lanserv_data_t *sim_lan(void)
{
	return &sim.lan;
}

channel_t *sim_channel(unsigned int n)
{
	return n < IPMI_MAX_CHANNELS ? sim.mc.channels[n] : NULL;
}

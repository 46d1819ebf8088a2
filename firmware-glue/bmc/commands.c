// SPDX-License-Identifier: GPL-2.0
/*
 * commands.c - acma's OEM commands (NetFn 0x30, 0x40..0x44) and who may
 * send them
 *
 * ipmi_sim's own permission table lets only administrators send commands
 * of NetFns above Transport (OEM 0x30, DCMI 0x2c) over LAN. The plugin
 * hooks the LAN channels so that the read commands need user privilege
 * and the set command administrator. Before any command of a LAN session
 * is checked, the session is held to its user's own privilege (ipmi_sim
 * 2.0.33 grants an RMCP+ session whatever role the client asked for);
 * sessions that were not authenticated with a password (RMCP+
 * authentication "none", cipher suite 0) or carry no integrity check are
 * refused altogether. The system interface (the guest's KCS) has no
 * sessions and may send everything.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <OpenIPMI/ipmi_auth.h>
#include <OpenIPMI/ipmi_err.h>
#include <OpenIPMI/ipmi_mc.h>
#include <OpenIPMI/ipmi_msgbits.h>

#include "acma-bmc.h"

#define PROTOCOL_VERSION	1

static void reply_cc(unsigned char *rdata, unsigned int *rdata_len,
		     unsigned char cc)
{
	rdata[0] = cc;
	*rdata_len = 1;
}

/* Check the request length; answer 0xc7 and return false if it is wrong. */
static bool want_len(msg_t *msg, unsigned int len, unsigned char *rdata,
		     unsigned int *rdata_len)
{
	if (msg->len == len)
		return true;
	reply_cc(rdata, rdata_len, IPMI_REQUEST_DATA_LENGTH_INVALID_CC);
	return false;
}

static void put_u64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = v >> (8 * i);
}

/*
 * Put @name as a length byte and its bytes at @p, at most @room bytes in
 * all: ipmi_sim's answer buffer (*rdata_len on entry) is 36 bytes.
 */
static unsigned int put_name(unsigned char *p, const char *name, unsigned int room)
{
	size_t len = strnlen(name, ACMA_NAME_MAX);

	if (!room)
		return 0;
	if (len > room - 1)
		len = room - 1;

	p[0] = len;
	memcpy(p + 1, name, len);
	return len + 1;
}

static void cmd_get_count(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
			  unsigned int *rdata_len, void *cb_data)
{
	struct acma_bmc *bmc = cb_data;

	(void)mc;
	if (!want_len(msg, 0, rdata, rdata_len))
		return;
	rdata[0] = 0;
	rdata[1] = bmc->nr_ranks;
	rdata[2] = bmc->nr_states;
	rdata[3] = bmc->on_state;
	rdata[4] = PROTOCOL_VERSION;
	*rdata_len = 5;
}

static void cmd_get_domain(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
			   unsigned int *rdata_len, void *cb_data)
{
	struct acma_bmc *bmc = cb_data;
	unsigned int room = *rdata_len;
	const struct acma_rank *rk;
	unsigned int d, k;

	(void)mc;
	if (!want_len(msg, 2, rdata, rdata_len))
		return;
	d = msg->data[0];
	k = msg->data[1];
	if (d >= (unsigned int)bmc->nr_ranks ||
	    k >= (unsigned int)bmc->ranks[d].nr_ranges) {
		reply_cc(rdata, rdata_len, IPMI_PARAMETER_OUT_OF_RANGE_CC);
		return;
	}
	rk = &bmc->ranks[d];
	rdata[0] = 0;
	rdata[1] = d;
	rdata[2] = rk->dimm;
	rdata[3] = rk->nr_ranges;
	rdata[4] = k;
	put_u64(rdata + 5, rk->ranges[k].base);
	put_u64(rdata + 13, rk->ranges[k].size);
	*rdata_len = 21 + put_name(rdata + 21, bmc->dimms[rk->dimm],
				     room > 21 ? room - 21 : 0);
}

static void cmd_get_state_info(lmc_data_t *mc, msg_t *msg,
			       unsigned char *rdata, unsigned int *rdata_len,
			       void *cb_data)
{
	struct acma_bmc *bmc = cb_data;
	unsigned int room = *rdata_len;
	const struct acma_rank *rk;
	unsigned int d, s;

	(void)mc;
	if (!want_len(msg, 2, rdata, rdata_len))
		return;
	d = msg->data[0];
	s = msg->data[1];
	if (d >= (unsigned int)bmc->nr_ranks ||
	    s >= (unsigned int)bmc->nr_states) {
		reply_cc(rdata, rdata_len, IPMI_PARAMETER_OUT_OF_RANGE_CC);
		return;
	}
	rk = &bmc->ranks[d];
	rdata[0] = 0;
	rdata[1] = d;
	rdata[2] = s;
	rdata[3] = (bmc->states[s].kept ? 0x01 : 0) |
		   (s == (unsigned int)bmc->on_state ? 0x02 : 0);
	ipmi_set_uint32(rdata + 4, rk->power_mw[s]);
	put_u64(rdata + 8, rk->latency_ns[s]);
	*rdata_len = 16 + put_name(rdata + 16, bmc->states[s].name,
				     room > 16 ? room - 16 : 0);
}

static void cmd_get_power(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
			  unsigned int *rdata_len, void *cb_data)
{
	struct acma_bmc *bmc = cb_data;
	const struct acma_rank *rk;
	uint32_t age = UINT32_MAX;
	uint64_t diff;
	unsigned int d;
	time_t now;

	(void)mc;
	if (!want_len(msg, 1, rdata, rdata_len))
		return;
	d = msg->data[0];
	if (d >= (unsigned int)bmc->nr_ranks) {
		reply_cc(rdata, rdata_len, IPMI_PARAMETER_OUT_OF_RANGE_CC);
		return;
	}
	rk = &bmc->ranks[d];
	now = time(NULL);
	/* last_change is a 32-bit Unix time (acma_state_read() checks it) */
	if (rk->last_change) {
		diff = now > rk->last_change ? (uint64_t)now - (uint64_t)rk->last_change : 0;
		age = diff < UINT32_MAX ? diff : UINT32_MAX - 1;
	}
	rdata[0] = 0;
	rdata[1] = d;
	rdata[2] = rk->state;
	ipmi_set_uint32(rdata + 3, rk->transitions);
	ipmi_set_uint32(rdata + 7, age);
	*rdata_len = 11;
}

static session_t *lan_session(lanserv_data_t *lan, uint32_t sid);

/*
 * Answers held back until a rank that was powered on is usable.
 *
 * ipmi_sim has one event loop, so the exit latency must not be slept in a
 * command handler. A handler cannot answer later either, but the channel
 * hook oem_handle_rsp is called with the response right after the handler
 * returned (ipmi_handle_smi_rsp()), and a non-zero return hands the
 * message, a heap copy made by channel_smi_send(), to the hook. So
 * cmd_set_power() notes how long its answer must wait (defer.wait_ns),
 * the hook takes the response that follows, and a timer sends it with the
 * channel's return_rsp() and frees the message. Sessions closed meanwhile
 * are handled by lanserv (the answer is dropped). When no slot is free or
 * the message came in on a channel without the hook, the handler sleeps
 * as before.
 */
#define DEFER_SLOTS	16
#define DEFER_MAX_RSP	64

struct deferred {
	struct acma_bmc *bmc;
	ipmi_timer_t *timer;
	channel_t *chan;
	msg_t *msg;
	unsigned char netfn, cmd;
	unsigned char data[DEFER_MAX_RSP];
	unsigned int len;
	bool busy;
};

static struct {
	struct deferred slot[DEFER_SLOTS];
	int (*prev_rsp[IPMI_MAX_CHANNELS])(channel_t *, msg_t *, rsp_msg_t *);
	uint64_t wait_ns;	/* set by a handler for the response that follows */
	bool ready;
} defer;

static struct deferred *free_slot(void)
{
	int i;

	for (i = 0; defer.ready && i < DEFER_SLOTS; i++)
		if (!defer.slot[i].busy)
			return &defer.slot[i];
	return NULL;
}

static void deferred_send(void *cb_data)
{
	struct deferred *d = cb_data;
	rsp_msg_t rsp = {
		.netfn = d->netfn, .cmd = d->cmd, .data = d->data, .data_len = d->len,
	};

	d->chan->return_rsp(d->chan, d->msg, &rsp);
	d->chan->free(d->chan, d->msg);
	d->msg = NULL;
	d->busy = false;
}

static int defer_rsp(channel_t *chan, msg_t *msg, rsp_msg_t *rsp)
{
	int (*prev)(channel_t *, msg_t *, rsp_msg_t *) = defer.prev_rsp[chan->channel_num];
	struct deferred *d;
	struct timeval tv;
	uint64_t ns = defer.wait_ns;

	defer.wait_ns = 0;
	d = ns ? free_slot() : NULL;
	if (!d || rsp->data_len > DEFER_MAX_RSP)
		return prev ? prev(chan, msg, rsp) : 0;
	d->chan = chan;
	d->msg = msg;
	d->netfn = rsp->netfn;
	d->cmd = rsp->cmd;
	memcpy(d->data, rsp->data, rsp->data_len);
	d->len = rsp->data_len;
	/* rounded up: a timer a fraction of a microsecond short answers early */
	ns += 999;
	tv.tv_sec = ns / 1000000000ULL;
	tv.tv_usec = (ns % 1000000000ULL) / 1000;
	if (d->bmc->sys->start_timer(d->timer, &tv)) {
		/* cannot wait: answer now rather than never */
		d->msg = NULL;
		return prev ? prev(chan, msg, rsp) : 0;
	}
	d->busy = true;
	return 1;
}

/* Does @msg's response go through defer_rsp(), with a slot free for it? */
static bool can_defer(struct acma_bmc *bmc, const msg_t *msg)
{
	channel_t *chan = msg->orig_channel;

	if (!chan && msg->channel < IPMI_MAX_CHANNELS)
		chan = bmc->sys->mc_get_channelset(bmc->mc)[msg->channel];
	return chan && chan->oem.oem_handle_rsp == defer_rsp && free_slot();
}

/* The answer to @msg must wait @ns: hold it back, or sleep if that cannot be. */
static void answer_after(struct acma_bmc *bmc, const msg_t *msg, uint64_t ns)
{
	struct timespec ts;

	if (!ns)
		return;
	if (can_defer(bmc, msg)) {
		defer.wait_ns = ns;
		return;
	}
	ts.tv_sec = ns / 1000000000ULL;
	ts.tv_nsec = ns % 1000000000ULL;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/**
 * acma_defer_init() - hook the LAN and system-interface channels' responses
 * @bmc: the plugin; @bmc->mc configured
 *
 * Called in post-init, once ipmi_sim's chan_init() has run (it uses the
 * system interface's hook to learn the BMC's IDs); a hook found there is
 * chained.
 *
 * Return: 0, or an errno value (logged); without it the exit latency is
 * slept in the handler as a fallback.
 */
int acma_defer_init(struct acma_bmc *bmc)
{
	channel_t **chans = bmc->sys->mc_get_channelset(bmc->mc);
	int i, err;

	for (i = 0; i < DEFER_SLOTS; i++) {
		defer.slot[i].bmc = bmc;
		err = bmc->sys->alloc_timer(bmc->sys, deferred_send, &defer.slot[i],
					    &defer.slot[i].timer);
		if (err) {
			acma_log(bmc, SETUP_ERROR, "acma: cannot allocate a timer: %s",
				 strerror(err));
			return err;
		}
	}
	for (i = 0; i < IPMI_MAX_CHANNELS; i++) {
		channel_t *chan = chans[i];

		if (!chan || (chan->medium_type != IPMI_CHANNEL_MEDIUM_8023_LAN &&
			      chan->medium_type != IPMI_CHANNEL_MEDIUM_RS232))
			continue;
		defer.prev_rsp[i] = chan->oem.oem_handle_rsp;
		chan->oem.oem_handle_rsp = defer_rsp;
	}
	defer.ready = true;
	return 0;
}

/* Who sent @msg: the LAN session's user, or the system interface. */
static void requester(struct acma_bmc *bmc, const msg_t *msg, char *buf, size_t len)
{
	channel_t **chans = bmc->mc ? bmc->sys->mc_get_channelset(bmc->mc) : bmc->sys->chan_set;
	channel_t *chan = msg->channel < IPMI_MAX_CHANNELS ? chans[msg->channel] : NULL;
	const session_t *session;
	lanserv_data_t *lan;
	char name[17];
	int i;

	if (!chan || chan->medium_type != IPMI_CHANNEL_MEDIUM_8023_LAN) {
		if (msg->channel == 15)
			snprintf(buf, len, "the system interface (channel 15)");
		else
			snprintf(buf, len, "channel %u", msg->channel);
		return;
	}
	lan = chan->chan_info;
	session = lan_session(lan, msg->sid);
	if (!session || !session->userid || session->userid > MAX_USERS) {
		snprintf(buf, len, "an unknown session over LAN channel %u", msg->channel);
		return;
	}
	memcpy(name, lan->users[session->userid].username, 16);
	name[16] = '\0';
	for (i = 0; name[i]; i++)
		if (name[i] < 0x20 || name[i] > 0x7e || name[i] == '\'')
			name[i] = '?';
	snprintf(buf, len, "user '%s' (id %u) over LAN channel %u, session 0x%08x",
		 name, session->userid, msg->channel, msg->sid);
}

static void cmd_set_power(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
			  unsigned int *rdata_len, void *cb_data)
{
	struct acma_bmc *bmc = cb_data;
	struct acma_fault fault;
	unsigned int d, s;
	char who[128];
	int old;

	(void)mc;
	if (!want_len(msg, 2, rdata, rdata_len))
		return;
	d = msg->data[0];
	s = msg->data[1];
	if (d >= (unsigned int)bmc->nr_ranks ||
	    s >= (unsigned int)bmc->nr_states) {
		reply_cc(rdata, rdata_len, IPMI_PARAMETER_OUT_OF_RANGE_CC);
		return;
	}
	old = bmc->ranks[d].state;
	requester(bmc, msg, who, sizeof(who));
	/* a BMC that misbehaves on purpose (fault.c) */
	acma_fault_take(bmc, &fault);
	if (fault.cc) {
		reply_cc(rdata, rdata_len, fault.cc);
		return;
	}
	if (acma_set_state(bmc, d, s, who)) {
		reply_cc(rdata, rdata_len, IPMI_UNKNOWN_ERR_CC);
		return;
	}
	/*
	 * A BMC that hangs in the middle of a command: it answers nothing,
	 * retries of this request included, until it comes back.
	 */
	if (fault.late_ms) {
		struct timespec ts = { fault.late_ms / 1000,
				       fault.late_ms % 1000 * 1000000L };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	/* a completed "on" means usable: answer once the exit latency passed */
	if (s == (unsigned int)bmc->on_state)
		answer_after(bmc, msg, acma_usable_in(bmc, d));
	rdata[0] = 0;
	rdata[1] = fault.bad_echo ? (d + 1) % 256 : d;
	rdata[2] = s;
	rdata[3] = old;
	*rdata_len = fault.short_answer ? 2 : 4;
}

/* Privilege acma's commands need over LAN, 0 for other commands. */
static unsigned char needed_priv(unsigned char netfn, unsigned char cmd)
{
	if (netfn == ACMA_NETFN_OEM && cmd >= ACMA_CMD_GET_COUNT &&
	    cmd <= ACMA_CMD_GET_POWER)
		return IPMI_PRIVILEGE_USER;
	if (netfn == ACMA_NETFN_OEM && cmd == ACMA_CMD_SET_POWER)
		return IPMI_PRIVILEGE_ADMIN;
	if (netfn == ACMA_NETFN_DCMI && cmd == ACMA_DCMI_GET_POWER)
		return IPMI_PRIVILEGE_USER;
	return 0;
}

/* Replaces ipmi_sim's admin-only default for acma's commands. */
static int lan_check_permitted(unsigned char priv, unsigned char netfn,
			       unsigned char cmd)
{
	unsigned char need = needed_priv(netfn, cmd);

	if (!need)
		return IPMI_PRIV_INVALID;	/* ipmi_sim's table decides */
	return priv >= need ? IPMI_PRIV_PERMITTED : IPMI_PRIV_DENIED;
}

/* The session a LAN message belongs to, as lanserv numbers them. */
static session_t *lan_session(lanserv_data_t *lan, uint32_t sid)
{
	session_t *session;

	if (sid & 1)
		return NULL;
	session = &lan->sessions[(sid >> 1) & SESSION_MASK];
	if (!session->active || session->sid != sid)
		return NULL;
	return session;
}

/*
 * The highest privilege the session's user may have on this channel: the
 * user's own privilege limit from the user table (lan.conf, or Set User
 * Access) and the channel's limit; 0 when the user is unknown, disabled or
 * has no access (0xf).
 */
static unsigned char user_limit(lanserv_data_t *lan, const session_t *session)
{
	const user_t *user;
	unsigned char limit;

	if (!session->userid || session->userid > MAX_USERS)
		return 0;
	user = &lan->users[session->userid];
	if (!user->valid || !user->privilege || user->privilege > IPMI_PRIVILEGE_OEM)
		return 0;
	limit = user->privilege;
	if (limit > lan->channel.privilege_limit)
		limit = lan->channel.privilege_limit;
	return limit;
}

/* A Close Session of the sender's own session: always let through. */
static bool closes_itself(const msg_t *msg)
{
	return msg->netfn == IPMI_APP_NETFN && msg->cmd == IPMI_CLOSE_SESSION_CMD &&
	       msg->len >= 4 && ipmi_get_uint32(msg->data) == msg->sid;
}

/*
 * Called for every message of an established LAN session, before
 * lanserv's own handling and permission check.
 *
 * ipmi_sim 2.0.33 sets an RMCP+ session's maximum privilege to the role
 * the client asked for in RAKP message 1 when the user is looked up by
 * name only, whatever the user's own privilege (ipmitool -L ADMINISTRATOR
 * with a user account), and starts every session at user level, even one
 * opened for the callback role. So before anything else, the session's
 * maximum privilege is lowered to its user's own limit and its current
 * privilege to that maximum: Set Session Privilege Level above it then
 * fails (0x81) and every command, lanserv's and acma's, is checked
 * against a privilege the account really has.
 *
 * Sessions without password authentication or without integrity (RMCP+
 * cipher suites 0, 1 and 6) and sessions whose user is gone get 0xd4 for
 * everything but closing themselves.
 */
static int lan_handle_msg(channel_t *chan, msg_t *msg)
{
	lanserv_data_t *lan = chan->chan_info;
	session_t *session = lan_session(lan, msg->sid);
	unsigned char cc = IPMI_INSUFFICIENT_PRIVILEGE_CC;
	unsigned char limit;
	rsp_msg_t rsp;

	if (!session)
		return 0;
	limit = user_limit(lan, session);
	if (session->max_priv > limit) {
		lan->sysinfo->log(lan->sysinfo, AUTH_FAILED, msg,
				  "acma: session of user %u asked for privilege %u, the account has %u: limited to %u",
				  session->userid, session->max_priv, limit, limit);
		session->max_priv = limit;
	}
	if (session->priv > session->max_priv)
		session->priv = session->max_priv;
	if (closes_itself(msg))
		return 0;
	if (session->rmcpplus && (!session->auth || !session->integ)) {
		lan->sysinfo->log(lan->sysinfo, AUTH_FAILED, msg,
				  "acma: refused a session with RMCP+ authentication %u, integrity %u",
				  session->auth, session->integ);
	} else if (!limit) {
		lan->sysinfo->log(lan->sysinfo, AUTH_FAILED, msg,
				  "acma: refused a session of user %u, who has no access",
				  session->userid);
	} else {
		return 0;
	}
	rsp.netfn = msg->netfn | 1;
	rsp.cmd = msg->cmd;
	rsp.data = &cc;
	rsp.data_len = 1;
	chan->return_rsp(chan, msg, &rsp);
	return 1;
}

/*
 * Get Device ID with the board's IDs (bmc-id in the configuration):
 * ipmi_sim's own answer, from the .emu's mc_add, with the manufacturer ID
 * (bytes 7-9) and product ID (bytes 10-11) replaced. It answers the LAN
 * and the system interface alike.
 */
static struct {
	struct acma_bmc *bmc;
	cmd_handler_f get_device_id;
} devid;

static void cmd_get_device_id(lmc_data_t *mc, msg_t *msg, unsigned char *rdata,
			      unsigned int *rdata_len, void *cb_data)
{
	devid.get_device_id(mc, msg, rdata, rdata_len, cb_data);
	if (rdata[0] || *rdata_len < 12)
		return;
	rdata[7] = devid.bmc->manufacturer & 0xff;
	rdata[8] = (devid.bmc->manufacturer >> 8) & 0xff;
	rdata[9] = (devid.bmc->manufacturer >> 16) & 0x0f;
	ipmi_set_uint16(rdata + 10, devid.bmc->product);
}

/**
 * acma_device_id_init() - make Get Device ID report the board's IDs
 * @bmc: the plugin, its configuration read
 *
 * Return: 0, or ENOENT (logged) if ipmi_sim has no Get Device ID handler;
 * nothing is changed without a bmc-id line.
 */
int acma_device_id_init(struct acma_bmc *bmc)
{
	cmd_handler_f *h = &app_netfn_handlers[IPMI_GET_DEVICE_ID_CMD];

	if (!bmc->have_ids || *h == cmd_get_device_id)
		return 0;
	if (!*h) {
		acma_log(bmc, SETUP_ERROR, "acma: ipmi_sim has no Get Device ID");
		return ENOENT;
	}
	devid.bmc = bmc;
	devid.get_device_id = *h;
	*h = cmd_get_device_id;
	return 0;
}

static const struct {
	unsigned char cmd;
	cmd_handler_f handler;
} oem_cmds[] = {
	{ ACMA_CMD_GET_COUNT, cmd_get_count },
	{ ACMA_CMD_GET_DOMAIN, cmd_get_domain },
	{ ACMA_CMD_GET_STATE_INFO, cmd_get_state_info },
	{ ACMA_CMD_GET_POWER, cmd_get_power },
	{ ACMA_CMD_SET_POWER, cmd_set_power },
};

/**
 * acma_commands_register() - register the OEM commands and the LAN checks
 * @bmc: the plugin, passed to the handlers
 *
 * Return: 0 on success, or an errno value (logged): the handler table is
 * full, or another plugin hooks the LAN channel already.
 */
int acma_commands_register(struct acma_bmc *bmc)
{
	channel_t *chan;
	size_t i;
	int err;

	for (i = 0; i < sizeof(oem_cmds) / sizeof(oem_cmds[0]); i++) {
		err = ipmi_emu_register_cmd_handler(ACMA_NETFN_OEM,
						    oem_cmds[i].cmd,
						    oem_cmds[i].handler, bmc);
		if (err) {
			acma_log(bmc, SETUP_ERROR,
				 "acma: cannot register NetFn 0x%02x command 0x%02x: %s",
				 ACMA_NETFN_OEM, oem_cmds[i].cmd, strerror(err));
			return err;
		}
	}
	for (i = 0; i < IPMI_MAX_CHANNELS; i++) {
		chan = bmc->sys->chan_set[i];
		if (!chan || chan->medium_type != IPMI_CHANNEL_MEDIUM_8023_LAN)
			continue;
		if (chan->oem.oem_check_permitted || chan->oem.oem_handle_msg) {
			acma_log(bmc, SETUP_ERROR,
				 "acma: LAN channel %zu has OEM hooks already", i);
			return EBUSY;
		}
		chan->oem.oem_check_permitted = lan_check_permitted;
		chan->oem.oem_handle_msg = lan_handle_msg;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sessions.c - half-open RMCP+ sessions cannot lock the administrator out
 *
 * ipmi_sim 2.0.33 gives every RMCP+ Open Session request one of its 63
 * session slots, before any authentication, and keeps it for the session
 * timeout (30 s) when the client never goes on with RAKP (a flood, or
 * ipmitool giving up on a wrong password). 63 unauthenticated packets thus
 * lock everybody out for about half a minute.
 *
 * Two limits, both closing sessions through lanserv's own timeout path
 * (the session's time_left set to 0, then lanserv's tick handler called
 * with no time passed), so its bookkeeping stays right:
 *
 * - a session still in its start-up (no successful RAKP 3) after
 *   STARTUP_LIMIT_S seconds is closed; ipmitool finishes RAKP within
 *   milliseconds;
 * - an Open Session request that finds every slot taken first closes the
 *   half-open session that is furthest from being authenticated: one that
 *   has not sent RAKP 1 before one that has, the oldest first. Established
 *   sessions are never closed to make room.
 *
 * The Open Session payload handler is wrapped through lanserv's payload
 * table (payload_handlers, exported by libIPMIlanserv but not declared in
 * its headers); the wrapper calls lanserv's own handler.
 *
 * The wrapper also answers a request for privilege 0 ("the highest level
 * matching the proposed algorithms", what FreeIPMI sends) as IPMI 2.0
 * section 13.18 asks: with the highest level a session may reach on the
 * channel. ipmi_sim 2.0.33 echoes the requested byte, 0, in the Open
 * Session Response's maximum privilege level, and FreeIPMI then gives up
 * ("privilege level cannot be obtained for this user") unless told to
 * work around it. No user is named before RAKP message 1, so the level is
 * the channel's limit (lan.conf priv_limit); the session itself is still
 * held to its user's own privilege (commands.c, lan_handle_msg()).
 */
#include <errno.h>
#include <string.h>

#include <OpenIPMI/ipmi_mc.h>

#include "acma-bmc.h"

#define OPEN_SESSION_PAYLOAD	0x10
#define STARTUP_LIMIT_S		3

extern ipmi_payload_handler_cb payload_handlers[64];

static struct {
	struct acma_bmc *bmc;
	ipmi_payload_handler_cb open_session;
	ipmi_tick_handler_t tick;
	lanserv_data_t *lans[IPMI_MAX_CHANNELS];
	int nr_lans;
	uint32_t sid[MAX_SESSIONS + 1];
	unsigned int age[MAX_SESSIONS + 1];
	unsigned int evicted, expired;
} hs;

/* Close @session now, the way lanserv closes a timed-out session. */
static void close_now(lanserv_data_t *lan, session_t *session)
{
	session->time_left = 0;
	lan->tick_handler.handler(lan->tick_handler.info, 0);
}

/* Make room for a new session if every slot is taken: close a half-open one. */
static void make_room(lanserv_data_t *lan)
{
	session_t *victim = NULL, *s;
	int i;

	for (i = 1; i <= MAX_SESSIONS; i++) {
		s = &lan->sessions[i];
		if (!s->active)
			return;			/* a slot is free */
		if (!s->in_startup)
			continue;
		if (!victim || (!s->userid && victim->userid) ||
		    (!s->userid == !victim->userid && s->time_left < victim->time_left))
			victim = s;
	}
	if (victim) {
		close_now(lan, victim);
		hs.evicted++;
	}
}

/*
 * A request for the highest level (0) becomes a request for the channel's
 * limit, which lanserv then checks and answers like any explicit level.
 */
static void highest_level(lanserv_data_t *lan, msg_t *msg)
{
	unsigned char limit = lan->channel.privilege_limit & 0xf;

	if (msg->len < 2 || (msg->data[1] & 0xf) || !limit)
		return;
	if (limit > IPMI_PRIVILEGE_ADMIN)	/* lanserv takes 1..4 */
		limit = IPMI_PRIVILEGE_ADMIN;
	msg->data[1] = (msg->data[1] & 0xf0) | limit;
}

static void open_session(lanserv_data_t *lan, msg_t *msg)
{
	if (msg->sid == 0 && lan->tick_handler.handler)
		make_room(lan);
	if (msg->sid == 0)
		highest_level(lan, msg);
	hs.open_session(lan, msg);
}

static void tick(void *info, unsigned int seconds)
{
	session_t *s;
	int l, i;

	(void)info;
	for (l = 0; l < hs.nr_lans; l++) {
		lanserv_data_t *lan = hs.lans[l];

		for (i = 1; i <= MAX_SESSIONS; i++) {
			s = &lan->sessions[i];
			if (!s->active || !s->in_startup) {
				hs.sid[i] = 0;
				continue;
			}
			if (hs.sid[i] != s->sid) {
				hs.sid[i] = s->sid;
				hs.age[i] = 0;
			}
			hs.age[i] += seconds;
			if (hs.age[i] >= STARTUP_LIMIT_S) {
				hs.sid[i] = 0;
				close_now(lan, s);
				hs.expired++;
			}
		}
	}
	if (hs.evicted || hs.expired)
		acma_log(hs.bmc, INFO,
			 "acma: closed %u half-open RMCP+ sessions to make room, %u after %d s without authentication",
			 hs.evicted, hs.expired, STARTUP_LIMIT_S);
	hs.evicted = hs.expired = 0;
}

/**
 * acma_sessions_init() - limit half-open RMCP+ sessions on the LAN channels
 * @bmc: the plugin
 *
 * Return: 0, or an errno value (logged) if lanserv's Open Session handler
 * is not where it is expected.
 */
int acma_sessions_init(struct acma_bmc *bmc)
{
	int i;

	hs.bmc = bmc;
	for (i = 0; i < IPMI_MAX_CHANNELS; i++) {
		channel_t *chan = bmc->sys->chan_set[i];

		if (chan && chan->medium_type == IPMI_CHANNEL_MEDIUM_8023_LAN)
			hs.lans[hs.nr_lans++] = chan->chan_info;
	}
	if (!hs.nr_lans)
		return 0;
	if (!payload_handlers[OPEN_SESSION_PAYLOAD] ||
	    payload_handlers[OPEN_SESSION_PAYLOAD] == open_session) {
		acma_log(bmc, SETUP_ERROR, "acma: no RMCP+ Open Session handler to wrap");
		return ENOENT;
	}
	hs.open_session = payload_handlers[OPEN_SESSION_PAYLOAD];
	payload_handlers[OPEN_SESSION_PAYLOAD] = open_session;
	hs.tick.handler = tick;
	hs.tick.info = NULL;
	bmc->sys->register_tick_handler(&hs.tick);
	return 0;
}

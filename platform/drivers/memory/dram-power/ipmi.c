// SPDX-License-Identifier: GPL-2.0
/*
 * DRAM power domains switched by the BMC: acma's OEM commands (NetFn 0x30,
 * commands 0x40-0x44, see firmware-glue/PROTOCOL.md) sent over the system
 * interface with the kernel's IPMI message handler.
 *
 * The commands are OEM ones: they mean something else, or nothing, to a BMC
 * that does not implement acma's protocol.  They go only to the BMC
 * firmware names ("acma,bmc-id": manufacturer and product ID), once Get
 * Device ID said it is that BMC, checked again before every power change.
 *
 * The BMC numbers its power states in its own order; they are matched to
 * the MPST's by their figures (power, exit latency, contents kept) once the
 * BMC answers.
 */

#define pr_fmt(fmt) "dram-power: ipmi: " fmt

#include <kunit/visibility.h>
#include <linux/completion.h>
#include <linux/ipmi.h>
#include <linux/ipmi_msgdefs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/unaligned.h>

#include "dram-power.h"

#define ACMA_NETFN		0x30
#define ACMA_GET_COUNT		0x40
#define ACMA_GET_DOMAIN		0x41
#define ACMA_GET_STATE_INFO	0x42
#define ACMA_GET_STATE		0x43
#define ACMA_SET_STATE		0x44

/* The message handler retries; answering "on" may take an exit latency. */
#define DP_IPMI_RETRIES		1
#define DP_IPMI_RETRY_MS	2500
#define DP_IPMI_WAIT_MS		10000

static struct dram_power_ipmi {
	const struct dram_power_map *map;
	struct ipmi_user *user;
	int if_num;
	struct mutex xfer;		/* one request at a time; user, map */
	spinlock_t lock;		/* msgid, resp, resp_len */
	long msgid;
	u8 resp[IPMI_MAX_MSG_LENGTH];
	unsigned int resp_len;
	struct completion done;
	bool mapped;
	u64 seen_id;			/* manufacturer << 16 | product, refused */
	u8 to_bmc[DRAM_POWER_MAX_STATES];	/* MPST value -> BMC state */
	int from_bmc[256];			/* BMC state -> MPST value */
} dp_ipmi = {
	.xfer = __MUTEX_INITIALIZER(dp_ipmi.xfer),
	.lock = __SPIN_LOCK_UNLOCKED(dp_ipmi.lock),
	.if_num = -1,
};

static void dp_ipmi_recv(struct ipmi_recv_msg *msg, void *data)
{
	unsigned long flags;

	spin_lock_irqsave(&dp_ipmi.lock, flags);
	if (msg->recv_type == IPMI_RESPONSE_RECV_TYPE &&
	    msg->msgid == dp_ipmi.msgid) {
		dp_ipmi.resp_len = min_t(unsigned int, msg->msg.data_len,
					 sizeof(dp_ipmi.resp));
		memcpy(dp_ipmi.resp, msg->msg.data, dp_ipmi.resp_len);
		dp_ipmi.msgid = 0;
		complete(&dp_ipmi.done);
	}
	spin_unlock_irqrestore(&dp_ipmi.lock, flags);
	ipmi_free_recv_msg(msg);
}

static const struct ipmi_user_hndl dp_ipmi_hndl = {
	.ipmi_recv_hndl = dp_ipmi_recv,
};

static void dp_ipmi_new_smi(int if_num, struct device *dev)
{
	int err;

	mutex_lock(&dp_ipmi.xfer);
	if (!dp_ipmi.user) {
		err = ipmi_create_user(if_num, &dp_ipmi_hndl, NULL,
				       &dp_ipmi.user);
		if (err)
			pr_warn("interface %d: no user: %d\n", if_num, err);
		else
			dp_ipmi.if_num = if_num;
	}
	mutex_unlock(&dp_ipmi.xfer);
}

static void dp_ipmi_smi_gone(int if_num)
{
	mutex_lock(&dp_ipmi.xfer);
	if (dp_ipmi.user && dp_ipmi.if_num == if_num) {
		ipmi_destroy_user(dp_ipmi.user);
		dp_ipmi.user = NULL;
		dp_ipmi.if_num = -1;
	}
	mutex_unlock(&dp_ipmi.xfer);
}

static struct ipmi_smi_watcher dp_ipmi_watcher = {
	.owner = THIS_MODULE,
	.new_smi = dp_ipmi_new_smi,
	.smi_gone = dp_ipmi_smi_gone,
};

/*
 * Send one command, wait for its answer: 0 and the answer after the
 * completion code when the BMC said 0x00 and gave at least @len bytes.
 * Needs dp_ipmi.xfer.
 */
static int dp_ipmi_xfer(u8 netfn, u8 cmd, u8 *req, int req_len, u8 *resp,
		int len)
{
	struct ipmi_system_interface_addr addr = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE,
		.channel = IPMI_BMC_CHANNEL,
	};
	struct kernel_ipmi_msg msg = {
		.netfn = netfn,
		.cmd = cmd,
		.data = req,
		.data_len = req_len,
	};
	static long seq;
	long id;
	int err;

	if (!dp_ipmi.user)
		return -ENODEV;
	reinit_completion(&dp_ipmi.done);
	spin_lock_irq(&dp_ipmi.lock);
	id = ++seq ? seq : ++seq;
	dp_ipmi.msgid = id;
	dp_ipmi.resp_len = 0;
	spin_unlock_irq(&dp_ipmi.lock);
	err = ipmi_request_settime(dp_ipmi.user, (struct ipmi_addr *)&addr, id,
				   &msg, NULL, 0, DP_IPMI_RETRIES,
				   DP_IPMI_RETRY_MS);
	if (!err && !wait_for_completion_timeout(&dp_ipmi.done,
			msecs_to_jiffies(DP_IPMI_WAIT_MS)))
		err = -ETIMEDOUT;
	spin_lock_irq(&dp_ipmi.lock);
	dp_ipmi.msgid = 0;
	if (!err && (dp_ipmi.resp_len < 1 || dp_ipmi.resp[0])) {
		/* the handler answers 0xc3 itself when the BMC stays silent */
		err = dp_ipmi.resp_len && dp_ipmi.resp[0] == IPMI_TIMEOUT_ERR ?
			-ETIMEDOUT : -EIO;
		pr_debug("command 0x%02x: completion code 0x%02x\n", cmd,
			 dp_ipmi.resp_len ? dp_ipmi.resp[0] : 0xff);
	} else if (!err && dp_ipmi.resp_len < len + 1) {
		err = -EPROTO;
	} else if (!err) {
		memcpy(resp, dp_ipmi.resp + 1, len);
	}
	spin_unlock_irq(&dp_ipmi.lock);
	return err;
}

/* One of acma's OEM commands.  Needs dp_ipmi.xfer. */
static int dp_ipmi_cmd(u8 cmd, u8 *req, int req_len, u8 *resp, int len)
{
	return dp_ipmi_xfer(ACMA_NETFN, cmd, req, req_len, resp, len);
}

/*
 * Is the BMC the one firmware names?  Get Device ID's manufacturer ID
 * (bytes 6-8 of the answer, 20 bits) and product ID (bytes 9-10) must be
 * firmware's "acma,bmc-id"; a refusal is logged once for each BMC seen.
 * Needs dp_ipmi.xfer.
 */
static int dp_ipmi_check_id(void)
{
	const struct dram_power_map *map = dp_ipmi.map;
	u8 id[11];
	u32 mfg;
	u16 product;
	u64 seen;
	int err;

	if (!map->bmc_named) {
		pr_err_once("firmware names no BMC (acma,bmc-id): no OEM command is sent\n");
		return -EPROTO;
	}
	err = dp_ipmi_xfer(IPMI_NETFN_APP_REQUEST, IPMI_GET_DEVICE_ID_CMD,
			   NULL, 0, id, sizeof(id));
	if (err)
		return err;
	mfg = id[6] | id[7] << 8 | (id[8] & 0x0f) << 16;
	product = get_unaligned_le16(&id[9]);
	if (mfg == map->bmc_manufacturer && product == map->bmc_product) {
		dp_ipmi.seen_id = 0;
		return 0;
	}
	seen = (u64)mfg << 16 | product;
	if (dp_ipmi.seen_id != seen)
		pr_err("the BMC is manufacturer %u product 0x%04x, firmware names %u 0x%04x: no OEM command is sent to it\n",
		       mfg, product, map->bmc_manufacturer, map->bmc_product);
	dp_ipmi.seen_id = seen;
	return -EPROTO;
}

/*
 * The BMC must switch the domains firmware described, range for range:
 * domain N of the BMC is domain N of the MPST or devicetree, or a power
 * change would switch some other rank.  Needs dp_ipmi.xfer.
 */
static int dp_ipmi_check_domains(u8 nr_domains)
{
	const struct dram_power_map *map = dp_ipmi.map;
	u8 req[2], info[20];
	int i, k, r, err;

	for (i = 0; i < map->nr_domains; i++) {
		const struct dram_power_desc *d = &map->domains[i];

		if (d->id >= nr_domains) {
			pr_err("domain %u: the BMC has %u domains\n", d->id,
			       nr_domains);
			return -EPROTO;
		}
		for (k = 0; k < d->nr_ranges; k++) {
			u64 base, size;

			req[0] = d->id;
			req[1] = k;
			err = dp_ipmi_cmd(ACMA_GET_DOMAIN, req, 2, info,
					  sizeof(info));
			if (err)
				return err;
			base = get_unaligned_le64(&info[4]);
			size = get_unaligned_le64(&info[12]);
			for (r = 0; r < d->nr_ranges; r++)
				if (d->ranges[r].start == base &&
				    d->ranges[r].size == size)
					break;
			if (info[0] != d->id || info[2] != d->nr_ranges ||
			    r == d->nr_ranges) {
				pr_err("domain %u: the BMC's domain %u has %u ranges, range %d 0x%llx+0x%llx: not what firmware describes\n",
				       d->id, info[0], info[2], k, base, size);
				return -EPROTO;
			}
		}
	}
	return 0;
}

/*
 * Match the BMC's power states to the MPST's, once the BMC is known to
 * switch the domains firmware described.  Needs dp_ipmi.xfer.
 */
static int dp_ipmi_map_states(void)
{
	const struct dram_power_map *map = dp_ipmi.map;
	u8 count[4], info[15], req[2];
	int s, v, err;

	if (dp_ipmi.mapped)
		return 0;
	err = dp_ipmi_check_id();
	if (!err)
		err = dp_ipmi_cmd(ACMA_GET_COUNT, NULL, 0, count,
				  sizeof(count));
	if (!err)
		err = dp_ipmi_check_domains(count[0]);
	if (err)
		return err;
	for (s = 0; s < ARRAY_SIZE(dp_ipmi.from_bmc); s++)
		dp_ipmi.from_bmc[s] = -1;
	for (v = 0; v < map->nr_states; v++)
		dp_ipmi.to_bmc[v] = 0xff;
	for (s = 0; s < count[1]; s++) {
		req[0] = map->domains[0].id;
		req[1] = s;
		err = dp_ipmi_cmd(ACMA_GET_STATE_INFO, req, 2, info,
				  sizeof(info));
		if (err)
			return err;
		for (v = 0; v < map->nr_states; v++) {
			const struct dram_power_fw_state *st = &map->states[v];

			if (dp_ipmi.to_bmc[v] == 0xff &&
			    st->kept == !!(info[2] & 1) &&
			    st->power_mw == get_unaligned_le32(&info[3]) &&
			    st->exit_latency_ns == get_unaligned_le64(&info[7])) {
				dp_ipmi.to_bmc[v] = s;
				dp_ipmi.from_bmc[s] = v;
				break;
			}
		}
	}
	for (v = 0; v < map->nr_states; v++) {
		if (dp_ipmi.to_bmc[v] == 0xff) {
			pr_err("the BMC has no state like MPST state %d\n", v);
			return -EPROTO;
		}
	}
	dp_ipmi.mapped = true;
	return 0;
}

/*
 * A BMC that did not answer, or answered what cannot be believed, may have
 * been restarted or replaced meanwhile, with another configuration: check
 * its domains and states again before the next request.  Needs dp_ipmi.xfer.
 */
static void dp_ipmi_forget_map(int err)
{
	if (err && err != -EINVAL)
		dp_ipmi.mapped = false;
}

static int dp_ipmi_get(u16 id, u8 *value)
{
	u8 req[1] = { id }, resp[2];
	int err;

	mutex_lock(&dp_ipmi.xfer);
	err = dp_ipmi_map_states();
	if (!err)
		err = dp_ipmi_cmd(ACMA_GET_STATE, req, 1, resp, sizeof(resp));
	if (!err && (resp[0] != id || dp_ipmi.from_bmc[resp[1]] < 0))
		err = -EPROTO;
	if (!err)
		*value = dp_ipmi.from_bmc[resp[1]];
	dp_ipmi_forget_map(err);
	mutex_unlock(&dp_ipmi.xfer);
	return err;
}

static int dp_ipmi_set(u16 id, u8 value)
{
	u8 req[2], resp[2];
	int err;

	mutex_lock(&dp_ipmi.xfer);
	/* a power change goes to the BMC firmware names, asked right before */
	err = dp_ipmi.mapped ? dp_ipmi_check_id() : 0;
	if (!err)
		err = dp_ipmi_map_states();
	if (!err && value >= dp_ipmi.map->nr_states)
		err = -EINVAL;
	if (!err) {
		req[0] = id;
		req[1] = dp_ipmi.to_bmc[value];
		err = dp_ipmi_cmd(ACMA_SET_STATE, req, 2, resp, sizeof(resp));
	}
	if (!err && (resp[0] != id || resp[1] != req[1]))
		err = -EPROTO;
	dp_ipmi_forget_map(err);
	mutex_unlock(&dp_ipmi.xfer);
	return err;
}

static const struct dram_power_backend dp_ipmi_backend = {
	.name = "ipmi",
	.get = dp_ipmi_get,
	.set = dp_ipmi_set,
};

/**
 * dram_power_ipmi_ids_fit() - Can the BMC be told about every domain?
 * @map:	The domains, as the MPST gives them.
 *
 * The protocol numbers domains in one byte (firmware-glue/PROTOCOL.md): a
 * domain id above 255 would name another domain once truncated.
 *
 * Return: whether every domain id of @map fits the protocol.
 */
VISIBLE_IF_KUNIT bool dram_power_ipmi_ids_fit(const struct dram_power_map *map)
{
	int i;

	for (i = 0; i < map->nr_domains; i++) {
		if (map->domains[i].id > U8_MAX) {
			pr_err_once("domain %u: the BMC numbers domains 0-255; not switching through it\n",
				    map->domains[i].id);
			return false;
		}
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(dram_power_ipmi_ids_fit);

/**
 * dram_power_ipmi_backend() - The BMC back end.
 * @map:	The domains, as the MPST gives them.
 *
 * Starts watching for the system interface on the first call; the back end
 * answers -ENODEV until it is there, and -EPROTO when the BMC's domains are
 * not the ones @map describes (checked once, with Get Domain Info).
 *
 * Return: the back end, or NULL when a domain id does not fit the protocol.
 */
const struct dram_power_backend *dram_power_ipmi_backend(
		const struct dram_power_map *map)
{
	static bool watching;
	int err;

	if (!dram_power_ipmi_ids_fit(map))
		return NULL;
	if (!watching) {
		init_completion(&dp_ipmi.done);
		dp_ipmi.map = map;
		err = ipmi_smi_watcher_register(&dp_ipmi_watcher);
		if (err) {
			pr_err("cannot watch IPMI interfaces: %d\n", err);
			return NULL;
		}
		watching = true;
	}
	return &dp_ipmi_backend;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * DRAM power domains for DAMON_ACMA.
 *
 * Learns the machine's DRAM power domains (ranks) from firmware, keeps one
 * state machine per domain and gives DAMON_ACMA its platform hooks: when a
 * memory range is gone, every domain it touches that holds no memory any
 * more is powered off; before a range is added back, every domain it
 * touches is powered on and that is confirmed, or the add is refused.
 *
 * A power-off that fails leaves the domain on and is retried with back-off.
 * Domains are switched through the BMC (IPMI) or an ACPI method, whichever
 * the firmware offers.
 */

#define pr_fmt(fmt) "dram-power: " fmt

#include <linux/acpi.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fault-inject.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/reboot.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <linux/damon_acma.h>
#include "dram-power.h"

#define CREATE_TRACE_POINTS
#include <trace/events/dram_power.h>

/* Power-off retries: first after 1 s, doubling up to about a minute. */
#define DRAM_POWER_RETRY_MIN_MS	1000
#define DRAM_POWER_RETRY_MAX_MS	64000

static struct dram_power dram_power = {
	.lock = __MUTEX_INITIALIZER(dram_power.lock),
	.synced = COMPLETION_INITIALIZER(dram_power.synced),
};

static const char * const dram_power_state_names[] = {
	[DRAM_POWER_ON] = "on",
	[DRAM_POWER_POWERING_OFF] = "powering-off",
	[DRAM_POWER_OFF] = "off",
	[DRAM_POWER_POWERING_ON] = "powering-on",
	[DRAM_POWER_FAILED] = "failed",
};

const char *dram_power_state_name(enum dram_power_state state)
{
	return state < NR_DRAM_POWER_STATES ? dram_power_state_names[state] :
		"unknown";
}

/**
 * dram_power_set_state() - The one setter of a domain's state.
 * @d:		The domain.
 * @state:	Its new state.
 *
 * Counts the entry and the time spent in the old state, logs changes
 * between on and off, and wakes whoever polls the domain's sysfs state
 * file (poll(2) POLLPRI, as for any sysfs attribute: acma-trace --on-change).
 */
void dram_power_set_state(struct dram_power_domain *d,
		enum dram_power_state state)
{
	u64 now = ktime_get_ns();

	if (d->since)
		d->time_ns[d->state] += now - d->since;
	d->since = now;
	if (state == d->state && d->entries[state])
		return;
	if (state != d->state) {
		trace_dram_power_state(d->desc.id, dram_power_state_name(d->state),
				       dram_power_state_name(state));
		if (d->state_kn)
			sysfs_notify_dirent(d->state_kn);
	}
	d->entries[state]++;
	/* a confirmed change of power: off, or back on */
	if (state == DRAM_POWER_OFF ||
	    (state == DRAM_POWER_ON && d->state == DRAM_POWER_POWERING_ON)) {
		d->transitions++;
		pr_info("domain %u: %s\n", d->desc.id,
			dram_power_state_name(state));
	}
	d->state = state;
}

static void dram_power_error(struct dram_power_domain *d, const char *what,
		int err)
{
	d->errors++;
	scnprintf(d->last_error, sizeof(d->last_error), "%s: %d", what, err);
	pr_warn_ratelimited("domain %u: %s failed: %d\n", d->desc.id, what, err);
}

bool dram_power_domain_touches(const struct dram_power_domain *d,
		u64 start, u64 size)
{
	int i;

	for (i = 0; i < d->desc.nr_ranges; i++) {
		const struct dram_power_range *r = &d->desc.ranges[i];

		if (start < r->start + r->size && r->start < start + size)
			return true;
	}
	return false;
}

/*
 * Fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS): firmware calls that
 * fail, from /sys/kernel/debug/dram_power/fail_firmware/, so that the error
 * paths are tested in the guest, not argued.
 */
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
static DECLARE_FAULT_ATTR(dram_power_fail_firmware);

static bool dram_power_fw_fails(void)
{
	return should_fail(&dram_power_fail_firmware, 1);
}

static void dram_power_fault_init(void)
{
	fault_create_debugfs_attr("fail_firmware",
				  debugfs_create_dir("dram_power", NULL),
				  &dram_power_fail_firmware);
}
#else
static bool dram_power_fw_fails(void)
{
	return false;
}

static void dram_power_fault_init(void)
{
}
#endif

/* The back end's calls, where faults are injected. */
static int dram_power_fw_set(struct dram_power *dp,
		struct dram_power_domain *d, u8 value)
{
	u64 t0 = ktime_get_ns();
	int err;

	err = dram_power_fw_fails() ? -EIO : dp->backend->set(d->desc.id, value);
	trace_dram_power_firmware(d->desc.id, "set", value, err,
				  ktime_get_ns() - t0);
	return err;
}

static int dram_power_fw_get(struct dram_power *dp,
		struct dram_power_domain *d, u8 *value)
{
	u64 t0 = ktime_get_ns();
	int err;

	err = dram_power_fw_fails() ? -EIO : dp->backend->get(d->desc.id, value);
	trace_dram_power_firmware(d->desc.id, "get", err ? 0 : *value, err,
				  ktime_get_ns() - t0);
	return err;
}

static int dram_power_count_block(struct memory_block *mem, void *arg)
{
	unsigned long *counts = arg;

	counts[0]++;
	if (mem->state == MEM_ONLINE)
		counts[1]++;
	return 0;
}

/* Memory blocks of the domain that exist (present) and that are online. */
static void dram_power_domain_blocks(const struct dram_power_domain *d,
		unsigned long *present, unsigned long *online)
{
	unsigned long counts[2] = { 0, 0 };
	int i;

	for (i = 0; i < d->desc.nr_ranges; i++)
		walk_memory_blocks(d->desc.ranges[i].start,
				   d->desc.ranges[i].size, counts,
				   dram_power_count_block);
	if (present)
		*present = counts[0];
	if (online)
		*online = counts[1];
}

/**
 * dram_power_domain_on() - Power a domain on and confirm it.
 * @dp:	The domains; its lock held.
 * @d:	The domain.
 *
 * Waits for the firmware's confirmation, read back, and for the exit latency
 * of the state the domain leaves.
 *
 * Return: 0 when the domain is on, else a negative error: the domain is
 * then "failed" and none of its memory may be added.
 */
int dram_power_domain_on(struct dram_power *dp, struct dram_power_domain *d)
{
	u64 t0 = ktime_get_ns(), latency = 0, spent;
	u8 value = 0xff;
	int err;

	lockdep_assert_held(&dp->lock);
	/* wanted on: a power-off retry still pending has nothing to do */
	cancel_delayed_work(&d->retry);
	if (d->state == DRAM_POWER_ON)
		return 0;
	if (!dp->backend) {
		dram_power_error(d, "power-on", -ENODEV);
		return -ENODEV;
	}
	if (d->state == DRAM_POWER_OFF)
		latency = dp->map.states[dp->off_value].exit_latency_ns;
	else
		latency = dp->map.states[dp->map.nr_states - 1].exit_latency_ns;
	dram_power_set_state(d, DRAM_POWER_POWERING_ON);
	err = dram_power_fw_set(dp, d, 0);
	if (!err)
		err = dram_power_fw_get(dp, d, &value);
	if (!err && value != 0)
		err = -EIO;
	if (err) {
		dram_power_error(d, "power-on", err);
		dram_power_set_state(d, DRAM_POWER_FAILED);
		return err;
	}
	spent = ktime_get_ns() - t0;
	if (spent < latency)
		fsleep(div_u64(latency - spent, NSEC_PER_USEC));
	d->backoff_ms = 0;
	dram_power_set_state(d, DRAM_POWER_ON);
	return 0;
}

/**
 * dram_power_domain_off() - Power a domain off if it holds no memory.
 * @dp:	The domains; its lock held.
 * @d:	The domain.
 *
 * A domain with any memory block present (online or not) stays on.  When
 * firmware does not confirm the power-off, the domain may be on or off (the
 * firmware may have acted and answered too late): it is "failed", so that
 * dram_power_domain_on() powers it on and reads it back before any of its
 * memory is added, and the power-off is retried with back-off.
 *
 * Return: 0 when the domain is off or must stay on, else a negative error.
 */
int dram_power_domain_off(struct dram_power *dp, struct dram_power_domain *d)
{
	unsigned long present;
	u8 value = 0xff;
	int err;

	lockdep_assert_held(&dp->lock);
	if (d->state == DRAM_POWER_OFF)
		return 0;
	dram_power_domain_blocks(d, &present, NULL);
	if (present)
		return 0;
	if (!dp->backend) {
		err = -ENODEV;
		goto retry;
	}
	dram_power_set_state(d, DRAM_POWER_POWERING_OFF);
	err = dram_power_fw_set(dp, d, dp->off_value);
	if (!err)
		err = dram_power_fw_get(dp, d, &value);
	if (!err && value != dp->off_value)
		err = -EIO;
	if (!err) {
		d->backoff_ms = 0;
		dram_power_set_state(d, DRAM_POWER_OFF);
		return 0;
	}
	dram_power_set_state(d, DRAM_POWER_FAILED);
retry:
	dram_power_error(d, "power-off", err);
	d->backoff_ms = clamp(d->backoff_ms * 2, DRAM_POWER_RETRY_MIN_MS,
			      DRAM_POWER_RETRY_MAX_MS);
	/* no firmware call while the system sleeps: the retry waits for it */
	mod_delayed_work(system_freezable_wq, &d->retry,
			 msecs_to_jiffies(d->backoff_ms));
	return err;
}

static void dram_power_retry_fn(struct work_struct *work)
{
	struct dram_power_domain *d = container_of(to_delayed_work(work),
			struct dram_power_domain, retry);

	mutex_lock(&dram_power.lock);
	if (d->state == DRAM_POWER_ON || d->state == DRAM_POWER_FAILED)
		dram_power_domain_off(&dram_power, d);
	mutex_unlock(&dram_power.lock);
}

/*
 * DAMON_ACMA's platform hooks.  The whole of "power on, confirm, add" and of
 * "offline, remove, power off" runs under the domains' lock: a power-off
 * retry, a sync or a second caller cannot come between a domain's power and
 * the memory blocks that make it hold memory.
 */

static int dram_power_add_range(int nid, phys_addr_t start, unsigned long size)
{
	struct dram_power *dp = &dram_power;
	int i, err = 0;

	mutex_lock(&dp->lock);
	for (i = 0; i < dp->map.nr_domains && !err; i++) {
		struct dram_power_domain *d = &dp->domains[i];

		if (dram_power_domain_touches(d, start, size))
			err = dram_power_domain_on(dp, d);
	}
	if (!err)
		err = add_memory_driver_managed(nid, start, size,
						DAMON_ACMA_RESOURCE_NAME,
						MHP_NONE);
	if (err) {
		/* a domain powered on for nothing goes off again */
		for (i = 0; i < dp->map.nr_domains; i++) {
			struct dram_power_domain *d = &dp->domains[i];

			if (dram_power_domain_touches(d, start, size) &&
			    d->state == DRAM_POWER_ON)
				dram_power_domain_off(dp, d);
		}
	}
	mutex_unlock(&dp->lock);
	return err;
}

static int dram_power_remove_range(phys_addr_t start, unsigned long size)
{
	struct dram_power *dp = &dram_power;
	int i, err;

	mutex_lock(&dp->lock);
	err = offline_and_remove_memory(start, size);
	for (i = 0; i < dp->map.nr_domains && !err; i++) {
		struct dram_power_domain *d = &dp->domains[i];

		if (dram_power_domain_touches(d, start, size))
			dram_power_domain_off(dp, d);
	}
	mutex_unlock(&dp->lock);
	return err;
}

/* The domains' memory is the driver's: it adds it, and removes it. */
static bool dram_power_owns(phys_addr_t start, unsigned long size)
{
	struct dram_power *dp = &dram_power;
	int i;

	for (i = 0; dp->adds_memory && i < dp->map.nr_domains; i++)
		if (dram_power_domain_touches(&dp->domains[i], start, size))
			return true;
	return false;
}

/* The one domain whose power the range's memory depends on, if one. */
static int dram_power_domain_of(phys_addr_t start, unsigned long size)
{
	struct dram_power *dp = &dram_power;
	int i, found = -ENOENT;

	for (i = 0; i < dp->map.nr_domains; i++) {
		if (!dram_power_domain_touches(&dp->domains[i], start, size))
			continue;
		if (found >= 0)
			return -EEXIST;
		found = i;
	}
	return found;
}

static const struct damon_acma_platform_ops dram_power_acma_ops = {
	.add_range = dram_power_add_range,
	.remove_range = dram_power_remove_range,
	.owns = dram_power_owns,
	.domain_of = dram_power_domain_of,
};

/* sysfs: /sys/devices/system/dram_power/ */

static struct dram_power_domain *to_domain(struct device *dev)
{
	return container_of(dev, struct dram_power_domain, dev);
}

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
		char *buf)
{
	enum dram_power_state state;

	mutex_lock(&dram_power.lock);
	state = to_domain(dev)->state;
	mutex_unlock(&dram_power.lock);
	return sysfs_emit(buf, "%s\n", dram_power_state_name(state));
}
static DEVICE_ATTR_RO(state);

static ssize_t dimm_show(struct device *dev, struct device_attribute *attr,
		char *buf)
{
	return sysfs_emit(buf, "DIMM%u\n", to_domain(dev)->desc.component);
}
static DEVICE_ATTR_RO(dimm);

static ssize_t ranges_show(struct device *dev, struct device_attribute *attr,
		char *buf)
{
	struct dram_power_domain *d = to_domain(dev);
	int i, n = 0;

	for (i = 0; i < d->desc.nr_ranges; i++)
		n += sysfs_emit_at(buf, n, "0x%llx-0x%llx\n",
				   d->desc.ranges[i].start,
				   d->desc.ranges[i].start +
				   d->desc.ranges[i].size - 1);
	return n;
}
static DEVICE_ATTR_RO(ranges);

static ssize_t blocks_show(struct device *dev, struct device_attribute *attr,
		char *buf)
{
	struct dram_power_domain *d = to_domain(dev);
	unsigned long bs = memory_block_size_bytes();
	int i, n = 0;

	for (i = 0; i < d->desc.nr_ranges; i++) {
		const struct dram_power_range *r = &d->desc.ranges[i];
		unsigned long first = r->start / bs;
		unsigned long last = (r->start + r->size - 1) / bs;

		if (first == last)
			n += sysfs_emit_at(buf, n, "%s%lu", i ? "," : "", first);
		else
			n += sysfs_emit_at(buf, n, "%s%lu-%lu", i ? "," : "",
					   first, last);
	}
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}
static DEVICE_ATTR_RO(blocks);

static ssize_t online_blocks_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	unsigned long online;

	dram_power_domain_blocks(to_domain(dev), NULL, &online);
	return sysfs_emit(buf, "%lu\n", online);
}
static DEVICE_ATTR_RO(online_blocks);

static u32 dram_power_domain_mw(const struct dram_power_domain *d)
{
	const struct dram_power_map *map = &dram_power.map;

	switch (d->state) {
	case DRAM_POWER_OFF:
		return map->states[dram_power.off_value].power_mw;
	default:
		/* on, or maybe on: count it on */
		return map->states[0].power_mw;
	}
}

static ssize_t power_mw_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	u32 mw;

	mutex_lock(&dram_power.lock);
	mw = dram_power_domain_mw(to_domain(dev));
	mutex_unlock(&dram_power.lock);
	return sysfs_emit(buf, "%u\n", mw);
}
static DEVICE_ATTR_RO(power_mw);

static ssize_t on_power_mw_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dram_power.map.states[0].power_mw);
}
static DEVICE_ATTR_RO(on_power_mw);

/* Per-state figures up to now: entries and time, ns. */
static void dram_power_snapshot(struct dram_power_domain *d, u64 *entries,
		u64 *time_ns)
{
	mutex_lock(&dram_power.lock);
	memcpy(entries, d->entries, sizeof(d->entries));
	memcpy(time_ns, d->time_ns, sizeof(d->time_ns));
	if (d->since)
		time_ns[d->state] += ktime_get_ns() - d->since;
	mutex_unlock(&dram_power.lock);
}

static ssize_t transitions_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(to_domain(dev)->transitions));
}
static DEVICE_ATTR_RO(transitions);

static ssize_t time_off_ms_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	u64 entries[NR_DRAM_POWER_STATES], time_ns[NR_DRAM_POWER_STATES];

	dram_power_snapshot(to_domain(dev), entries, time_ns);
	return sysfs_emit(buf, "%llu\n",
			  div_u64(time_ns[DRAM_POWER_OFF], NSEC_PER_MSEC));
}
static DEVICE_ATTR_RO(time_off_ms);

static ssize_t stat_show(struct device *dev, struct device_attribute *attr,
		char *buf)
{
	u64 entries[NR_DRAM_POWER_STATES], time_ns[NR_DRAM_POWER_STATES];
	int s, n = 0;

	dram_power_snapshot(to_domain(dev), entries, time_ns);
	for (s = 0; s < NR_DRAM_POWER_STATES; s++)
		n += sysfs_emit_at(buf, n, "%s %llu %llu\n",
				   dram_power_state_name(s), entries[s],
				   div_u64(time_ns[s], NSEC_PER_MSEC));
	return n;
}
static DEVICE_ATTR_RO(stat);

static ssize_t errors_show(struct device *dev, struct device_attribute *attr,
		char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(to_domain(dev)->errors));
}
static DEVICE_ATTR_RO(errors);

static ssize_t last_error_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	struct dram_power_domain *d = to_domain(dev);
	ssize_t n;

	mutex_lock(&dram_power.lock);
	n = sysfs_emit(buf, "%s\n", d->errors ? d->last_error : "none");
	mutex_unlock(&dram_power.lock);
	return n;
}
static DEVICE_ATTR_RO(last_error);

static struct attribute *dram_power_domain_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_dimm.attr,
	&dev_attr_ranges.attr,
	&dev_attr_blocks.attr,
	&dev_attr_online_blocks.attr,
	&dev_attr_power_mw.attr,
	&dev_attr_on_power_mw.attr,
	&dev_attr_transitions.attr,
	&dev_attr_time_off_ms.attr,
	&dev_attr_stat.attr,
	&dev_attr_errors.attr,
	&dev_attr_last_error.attr,
	NULL,
};
ATTRIBUTE_GROUPS(dram_power_domain);

static ssize_t backend_show(struct device *dev, struct device_attribute *attr,
		char *buf)
{
	const struct dram_power_backend *be = READ_ONCE(dram_power.backend);

	return sysfs_emit(buf, "%s\n", be ? be->name : "none");
}
static DEVICE_ATTR_RO(backend);

static ssize_t nr_domains_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", dram_power.map.nr_domains);
}
static DEVICE_ATTR_RO(nr_domains);

static struct attribute *dram_power_root_attrs[] = {
	&dev_attr_backend.attr,
	&dev_attr_nr_domains.attr,
	NULL,
};
ATTRIBUTE_GROUPS(dram_power_root);

static const struct bus_type dram_power_subsys = {
	.name = "dram_power",
	.dev_name = "domain",
};

static void dram_power_domain_release(struct device *dev)
{
	/* the domains live as long as the kernel */
}

static int dram_power_add_domains(struct dram_power *dp)
{
	int i, err;

	err = subsys_system_register(&dram_power_subsys, dram_power_root_groups);
	if (err)
		return err;
	for (i = 0; i < dp->map.nr_domains; i++) {
		struct dram_power_domain *d = &dp->domains[i];

		d->desc = dp->map.domains[i];
		INIT_DELAYED_WORK(&d->retry, dram_power_retry_fn);
		/* a crash kernel knows nothing until firmware says */
		dram_power_set_state(d, dp->in_kdump ? DRAM_POWER_FAILED :
				     DRAM_POWER_ON);
		d->dev.id = d->desc.id;
		d->dev.bus = &dram_power_subsys;
		d->dev.groups = dram_power_domain_groups;
		d->dev.release = dram_power_domain_release;
		err = device_register(&d->dev);
		if (err) {
			put_device(&d->dev);
			return err;
		}
		/* kept for the domain's life: domains are never unregistered */
		d->state_kn = sysfs_get_dirent(d->dev.kobj.sd, "state");
	}
	return 0;
}

/*
 * Add the memory of a domain that is on, block by block as DAMON_ACMA
 * removes and adds it back; memory hotplug's default policy onlines it.
 */
static void dram_power_domain_add_memory(struct dram_power_domain *d)
{
	unsigned long bs = memory_block_size_bytes();
	u64 a;
	int i, err;

	for (i = 0; i < d->desc.nr_ranges; i++) {
		const struct dram_power_range *r = &d->desc.ranges[i];

		for (a = r->start; a < r->start + r->size; a += bs) {
			err = add_memory_driver_managed(
					memory_add_physaddr_to_nid(a), a, bs,
					DAMON_ACMA_RESOURCE_NAME, MHP_NONE);
			if (err && err != -EEXIST) {
				dram_power_error(d, "adding memory", err);
				return;
			}
		}
	}
}

/*
 * Firmware's view of each domain, once its interface answers: a domain that
 * is off while none of its memory is present is off for us too; one that is
 * off while memory is present is a firmware fault, and is powered on.  When
 * the domains' memory is ours to add, every domain is powered on, confirmed,
 * and its memory added: the machine starts with all of it.
 *
 * In a crash kernel every domain stays as the crashed kernel left it: its
 * memory holds what the dump is for (adding it would let this kernel
 * allocate there), and a domain that is off has nothing to read.  A state
 * that cannot be read stays "failed", as it started: maybe on, maybe off.
 */
static void dram_power_sync(struct dram_power *dp)
{
	int i;

	mutex_lock(&dp->lock);
	for (i = 0; i < dp->map.nr_domains; i++) {
		struct dram_power_domain *d = &dp->domains[i];
		unsigned long present;
		u8 value;
		int err;

		err = dram_power_fw_get(dp, d, &value);
		if (err) {
			dram_power_error(d, "reading the state", err);
			continue;
		}
		if (dp->in_kdump) {
			dram_power_set_state(d, value == 0 ? DRAM_POWER_ON :
					     value == dp->off_value ?
					     DRAM_POWER_OFF : DRAM_POWER_FAILED);
			continue;
		}
		dram_power_domain_blocks(d, &present, NULL);
		if (value != 0 && !present)
			dram_power_set_state(d, DRAM_POWER_OFF);
		if (value != 0 && present) {
			pr_err("domain %u is off in firmware but holds memory\n",
			       d->desc.id);
			dram_power_set_state(d, DRAM_POWER_OFF);
			dram_power_domain_on(dp, d);
		}
		if (!dp->adds_memory || present)
			continue;
		if (!dram_power_domain_on(dp, d))
			dram_power_domain_add_memory(d);
	}
	mutex_unlock(&dp->lock);
	complete_all(&dp->synced);
}

#ifdef CONFIG_PROC_VMCORE
/* How long a crash kernel's dump waits for the firmware to say what is on. */
#define DRAM_POWER_KDUMP_WAIT_MS	60000

/*
 * A crash kernel reads the crashed kernel's memory through /proc/vmcore as
 * the ELF core header describes it, and that header may be older than the
 * last power-off: kexec_file_load() makes it when the crash kernel is loaded,
 * and memory hot-unplug updates it only where CONFIG_CRASH_HOTPLUG exists
 * (not on arm64).  A page of a domain that is not on is not RAM for the dump
 * (it reads as zeros), as virtio-mem does for memory it unplugged: real DRAM
 * that is off answers a read with an error, or garbage.  Until the firmware
 * answered, the dump waits; if it never does, the domains' pages are not
 * read at all.
 */
static bool dram_power_vmcore_pfn_is_ram(struct vmcore_cb *cb,
		unsigned long pfn)
{
	struct dram_power *dp = container_of(cb, struct dram_power, vmcore_cb);
	u64 addr = PFN_PHYS(pfn);
	bool ram = true;
	int i;

	for (i = 0; i < dp->map.nr_domains; i++) {
		struct dram_power_domain *d = &dp->domains[i];

		if (!dram_power_domain_touches(d, addr, PAGE_SIZE))
			continue;
		if (!wait_for_completion_timeout(&dp->synced,
				msecs_to_jiffies(DRAM_POWER_KDUMP_WAIT_MS))) {
			pr_warn_once("no firmware answer: /proc/vmcore skips the domains' memory\n");
			/* the states stay "failed": later pages skip at once */
			complete_all(&dp->synced);
			return false;
		}
		mutex_lock(&dp->lock);
		ram = d->state == DRAM_POWER_ON;
		mutex_unlock(&dp->lock);
		break;
	}
	return ram;
}

static void dram_power_kdump_init(struct dram_power *dp)
{
	dp->vmcore_cb.pfn_is_ram = dram_power_vmcore_pfn_is_ram;
	register_vmcore_cb(&dp->vmcore_cb);
	pr_info("crash kernel: domains left as found, /proc/vmcore reads only those on\n");
}
#else
static void dram_power_kdump_init(struct dram_power *dp)
{
	pr_info("crash kernel: domains left as found\n");
}
#endif

/*
 * Before a reboot, a kexec or a power-off, every domain goes back on: the
 * next kernel or firmware may expect all of the machine's DRAM, and this one
 * adds a domain's memory only after reading it back on anyway.
 */
static int dram_power_reboot(struct notifier_block *nb, unsigned long action,
		void *data)
{
	struct dram_power *dp = &dram_power;
	int i;

	mutex_lock(&dp->lock);
	for (i = 0; dp->backend && i < dp->map.nr_domains; i++)
		if (dp->domains[i].state != DRAM_POWER_ON &&
		    dram_power_domain_on(dp, &dp->domains[i]))
			pr_err("domain %u: not on before %s\n",
			       dp->domains[i].desc.id,
			       action == SYS_RESTART ? "restart" : "power-off");
	mutex_unlock(&dp->lock);
	return NOTIFY_DONE;
}

static struct notifier_block dram_power_reboot_nb = {
	.notifier_call = dram_power_reboot,
	/* before the firmware interfaces go */
	.priority = INT_MAX,
};

/* Pick the back end the firmware offers, once it is there. */
static void dram_power_probe_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(dram_power_probe_work, dram_power_probe_fn);

static void dram_power_probe_fn(struct work_struct *work)
{
	struct dram_power *dp = &dram_power;
	const struct dram_power_backend *be;
	static unsigned int tries;
	u8 value;

	be = dram_power_acpi_backend();
	if (!be)
		be = dram_power_ipmi_backend(&dp->map);
	if (be && !be->get(dp->domains[0].desc.id, &value)) {
		mutex_lock(&dp->lock);
		WRITE_ONCE(dp->backend, be);
		mutex_unlock(&dp->lock);
		pr_info("%d domains, switched through %s\n",
			dp->map.nr_domains, be->name);
		dram_power_sync(dp);
		return;
	}
	/* the firmware interface comes up later than we do: wait for it */
	if (++tries == 30)
		pr_warn("no firmware interface answers yet; domains stay on\n");
	schedule_delayed_work(&dram_power_probe_work,
			      msecs_to_jiffies(min(tries, 10U) * 200));
}

/* Memory the driver adds comes in whole memory blocks. */
static int dram_power_check_blocks(struct dram_power_map *map)
{
	unsigned long bs = memory_block_size_bytes();
	int i, j;

	for (i = 0; i < map->nr_domains; i++) {
		for (j = 0; j < map->domains[i].nr_ranges; j++) {
			const struct dram_power_range *r =
				&map->domains[i].ranges[j];

			if (IS_ALIGNED(r->start | r->size, bs))
				continue;
			pr_err("domain %u: range 0x%llx+0x%llx is not in whole memory blocks of 0x%lx\n",
			       map->domains[i].id, r->start, r->size, bs);
			dram_power_free_map(map);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * dram_power_register() - Take the domains firmware described.
 * @map:	The domains; the driver owns it from now on, whatever happens.
 * @adds_memory: The domains' memory is not boot memory: the driver adds it
 *		itself once each domain is confirmed on (devicetree boards).
 *
 * Sets up the state machines and sysfs, gives DAMON_ACMA its platform hooks
 * and looks for the firmware interface.  There is one set of domains in a
 * machine.
 *
 * Return: 0, -EBUSY when domains are registered already, or another error.
 */
int dram_power_register(struct dram_power_map *map, bool adds_memory)
{
	struct dram_power *dp = &dram_power;
	int off, err;

	if (dp->domains) {
		dram_power_free_map(map);
		return -EBUSY;
	}
	off = dram_power_off_value(map);
	if (off < 0) {
		pr_info("firmware has no state but on: nothing to switch\n");
		dram_power_free_map(map);
		return 0;
	}
	if (adds_memory) {
		err = dram_power_check_blocks(map);
		if (err)
			return err;
	}
	dp->map = *map;
	dp->off_value = off;
	dp->adds_memory = adds_memory;
	dp->in_kdump = is_kdump_kernel();
	dp->domains = kcalloc(dp->map.nr_domains, sizeof(*dp->domains),
			      GFP_KERNEL);
	if (!dp->domains) {
		dram_power_free_map(&dp->map);
		return -ENOMEM;
	}
	err = dram_power_add_domains(dp);
	if (err) {
		/* the devices hold the domains: they stay, unswitched */
		pr_err("sysfs: %d\n", err);
		return err;
	}
	if (dp->in_kdump) {
		dram_power_kdump_init(dp);
	} else {
		err = damon_acma_register_platform(&dram_power_acma_ops);
		if (err)
			pr_warn("DAMON_ACMA hooks not registered: %d\n", err);
	}
	register_reboot_notifier(&dram_power_reboot_nb);
	dram_power_fault_init();
	schedule_delayed_work(&dram_power_probe_work, 0);
	return 0;
}

#ifdef CONFIG_ACPI
/* An ACPI machine's domains: its MPST. */
static int __init dram_power_acpi_init(void)
{
	struct dram_power_map map;
	struct acpi_table_header *table;
	struct acpi_device *adev = NULL;
	acpi_handle handle;
	acpi_status status;
	char why[160];
	int err;

	if (acpi_disabled)
		return 0;
	status = acpi_get_table(ACPI_SIG_MPST, 0, &table);
	if (ACPI_FAILURE(status))
		return 0;
	err = dram_power_parse_mpst(table, table->length, &map, why,
				    sizeof(why));
	acpi_put_table(table);
	if (err == -EINVAL)
		pr_err("MPST refused: %s\n", why);
	if (err)
		return err;
	/* the BMC that speaks acma's protocol: \_SB.ACMA's _DSD names it */
	if (ACPI_SUCCESS(acpi_get_handle(NULL, "\\_SB.ACMA", &handle)))
		adev = acpi_fetch_acpi_dev(handle);
	err = dram_power_parse_bmc_id(adev ? acpi_fwnode_handle(adev) : NULL,
				      &map, why, sizeof(why));
	if (err) {
		pr_err("\\_SB.ACMA refused: %s\n", why);
		dram_power_free_map(&map);
		return err;
	}
	/*
	 * Rank memory is not boot memory: the firmware describes it in the
	 * MPST only (not as hot-plug memory for ACPI's memory device driver,
	 * or that driver is kept off it), and it is added here once each
	 * rank is confirmed on, after a reboot or kexec with ranks off too.
	 */
	return dram_power_register(&map, true);
}
late_initcall(dram_power_acpi_init);
#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * DAMON-based Access/Contiguity-aware Memory Auto-scaling (ACMA)
 *
 * Scales the memory the system uses down and up by itself, between a
 * minimum and a maximum the administrator sets, keeping the memory pressure
 * (the "some" memory PSI) under a target.  Three DAMOS schemes on the
 * physical address space do the work, each tuned by the pressure:
 *
 *  - "reclaim" pages cold memory out everywhere, making free room;
 *  - "scale-down" takes 2 MiB chunks (DAMOS_ALLOC) of the highest memory
 *    block it may give up, coldest first;
 *  - "scale-up" gives chunks back (DAMOS_FREE) in the lowest memory block
 *    that has some taken, harder the higher the pressure.
 *
 * A memory block whose chunks are all taken is offlined and removed, which
 * frees its struct pages too, and the platform (for example DRAM power
 * management firmware) is told that the range is gone.  Scaling up first
 * asks the platform to make the range usable, then adds and onlines it.
 *
 * In a virtual machine, every chunk taken is also reported to the host
 * through page reporting (virtio-balloon's reporting queue), so that the host
 * drops the memory behind it; and a balloon driver may set the maximum from
 * the host's balloon target (damon_acma_set_max_mem()), learning what was
 * really given back from the notifier chain.
 *
 * Only movable memory blocks present when ACMA is enabled, and whose owner
 * adds and removes them for ACMA (see damon_acma_owns()), are scaled.
 */

#define pr_fmt(fmt) "damon-acma: " fmt

#include <linux/ctype.h>
#include <linux/damon.h>
#include <linux/memblock.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <linux/damon_acma.h>
#include "modules-common.h"
#include "acma.h"

#define CREATE_TRACE_POINTS
#include <trace/events/damon_acma.h>

#ifdef MODULE_PARAM_PREFIX
#undef MODULE_PARAM_PREFIX
#endif
#define MODULE_PARAM_PREFIX "damon_acma."

/*
 * Enable or disable DAMON_ACMA.
 *
 * Setting it ``Y`` checks the parameters below and starts scaling; invalid
 * parameters make the write fail with -EINVAL.  Setting it ``N`` stops
 * scaling and gives every taken chunk and every removed memory block back.
 * ``N`` by default.
 */
static bool enabled __read_mostly;

/*
 * Make DAMON_ACMA apply the parameters again, except ``enabled``.
 *
 * Parameters written while DAMON_ACMA runs take effect only when ``Y`` is
 * written here.  Invalid parameters make the write fail with -EINVAL and
 * the running configuration is kept.  Reads back ``N`` once applied.
 */
static bool commit_inputs __read_mostly;

/*
 * Minimum memory of the system, in bytes (K, M and G suffixes accepted).
 *
 * DAMON_ACMA never scales the memory Linux has below this.  Raising it
 * above the current size makes DAMON_ACMA scale up at once.  0 by default:
 * everything movable may be given up.
 */
static unsigned long min_mem __read_mostly;

/*
 * Maximum memory of the system, in bytes (K, M and G suffixes accepted).
 *
 * DAMON_ACMA never scales the memory Linux has above this.  Lowering it
 * below the current size makes DAMON_ACMA scale down at the full speed its
 * time quota allows until it is met.  0, the default, means all the memory
 * the machine has.
 */
static unsigned long max_mem __read_mostly;

/*
 * Acceptable memory pressure: ``some`` memory PSI stall in microseconds per
 * quota reset interval (``quota_reset_interval_ms``).
 *
 * The three schemes tune their aggressiveness to keep the pressure at this
 * level: reclaim and scale-down work harder below it, scale-up above it.
 * 1000 us per 1 s (0.1%) by default; must be above 0 and below the whole
 * reset interval.
 */
static unsigned long mem_pressure_us __read_mostly = 1000;

/*
 * Order of the chunks DAMON_ACMA takes and gives back.
 *
 * 9 (2 MiB with 4 KiB pages) or the pageblock order if that is higher (16K
 * and 64K pages) by default; at least the pageblock order, at most a memory
 * block.
 */
static unsigned int scale_order __read_mostly = DAMOS_ALLOC_ORDER_DEFAULT;

/*
 * Minimum age of memory that reclaim pages out, in microseconds.
 *
 * 5 seconds by default.
 */
static unsigned long reclaim_min_age_us __read_mostly = 5000000;

struct damos_quota damon_acma_quota = {
	/* Use up to 100 ms per 1 s for each scheme, by default */
	.ms = 100,
	.sz = 0,
	.reset_interval = 1000,
	/* Within the quota, colder regions first. */
	.weight_sz = 0,
	.weight_nr_accesses = 1,
	.weight_age = 1,
};
DEFINE_DAMON_MODULES_DAMOS_TIME_QUOTA(damon_acma_quota);

/*
 * Sampling every 20 ms, a step every 400 ms: sampling is CPU time a workload
 * does not get and the memory pressure does not show, and every 5 ms (DAMON's
 * usual interval) it slowed a workload down by several percent on a small
 * guest, for no earlier scaling; emergencies do not wait for a step (the
 * shrinker and the urgent adds).
 */
static struct damon_attrs damon_acma_mon_attrs = {
	.sample_interval = 20000,	/* 20 ms */
	.aggr_interval = 400000,	/* 400 ms */
	.ops_update_interval = 0,
	.min_nr_regions = 10,
	.max_nr_regions = 1000,
};
DEFINE_DAMON_MODULES_MON_ATTRS_PARAMS(damon_acma_mon_attrs);

/* Read-only statistics of the three schemes. */
static struct damos_stat damon_acma_reclaim_stat;
DEFINE_DAMON_MODULES_DAMOS_STATS_PARAMS(damon_acma_reclaim_stat,
		reclaim_tried_regions, reclaimed_regions,
		reclaim_quota_exceeds);

static struct damos_stat damon_acma_scale_down_stat;
DEFINE_DAMON_MODULES_DAMOS_STATS_PARAMS(damon_acma_scale_down_stat,
		scale_down_tried_regions, scaled_down_regions,
		scale_down_quota_exceeds);

static struct damos_stat damon_acma_scale_up_stat;
DEFINE_DAMON_MODULES_DAMOS_STATS_PARAMS(damon_acma_scale_up_stat,
		scale_up_tried_regions, scaled_up_regions,
		scale_up_quota_exceeds);

static int damon_acma_check(struct damon_acma_cfg *cfg)
{
	unsigned long machine = damon_acma_machine_bytes();

	cfg->min_mem = min_mem;
	cfg->max_mem = max_mem ? max_mem : machine;
	cfg->mem_pressure_us = mem_pressure_us;
	cfg->scale_order = scale_order;
	cfg->reset_interval_ms = damon_acma_quota.reset_interval;
	cfg->cold_age = damon_acma_mon_attrs.aggr_interval ?
		reclaim_min_age_us / damon_acma_mon_attrs.aggr_interval : 0;

	if (cfg->min_mem > cfg->max_mem || cfg->max_mem > machine)
		return -EINVAL;
	if (!cfg->reset_interval_ms ||
	    cfg->reset_interval_ms > ULONG_MAX / USEC_PER_MSEC)
		return -EINVAL;
	if (!cfg->mem_pressure_us || cfg->mem_pressure_us >=
			cfg->reset_interval_ms * USEC_PER_MSEC)
		return -EINVAL;
	if (!damos_contig_valid_order(cfg->scale_order))
		return -EINVAL;
	/* what damon_set_attrs() refuses, refused here, where the writer sees it */
	if (!damon_acma_mon_attrs.aggr_interval ||
	    damon_acma_mon_attrs.sample_interval >
			damon_acma_mon_attrs.aggr_interval ||
	    damon_acma_mon_attrs.min_nr_regions < 3 ||
	    damon_acma_mon_attrs.min_nr_regions >
			damon_acma_mon_attrs.max_nr_regions)
		return -EINVAL;
	return 0;
}

/*
 * The parameter values in force, so that a commit refused leaves the files
 * showing what runs, not what was refused.  Under the parameters' lock
 * (kernel_param_lock()) or in kdamond while a commit is applied.
 */
static struct {
	unsigned long min_mem;
	unsigned long max_mem;
	unsigned long mem_pressure_us;
	unsigned int scale_order;
	unsigned long reclaim_min_age_us;
	unsigned long quota_ms;
	unsigned long reset_interval;
	struct damon_attrs attrs;
} damon_acma_in_force;

static void damon_acma_save_parameters(void)
{
	damon_acma_in_force.min_mem = min_mem;
	damon_acma_in_force.max_mem = max_mem;
	damon_acma_in_force.mem_pressure_us = mem_pressure_us;
	damon_acma_in_force.scale_order = scale_order;
	damon_acma_in_force.reclaim_min_age_us = reclaim_min_age_us;
	damon_acma_in_force.quota_ms = damon_acma_quota.ms;
	damon_acma_in_force.reset_interval = damon_acma_quota.reset_interval;
	damon_acma_in_force.attrs = damon_acma_mon_attrs;
}

static void damon_acma_restore_parameters(void)
{
	min_mem = damon_acma_in_force.min_mem;
	max_mem = damon_acma_in_force.max_mem;
	mem_pressure_us = damon_acma_in_force.mem_pressure_us;
	scale_order = damon_acma_in_force.scale_order;
	reclaim_min_age_us = damon_acma_in_force.reclaim_min_age_us;
	damon_acma_quota.ms = damon_acma_in_force.quota_ms;
	damon_acma_quota.reset_interval = damon_acma_in_force.reset_interval;
	damon_acma_mon_attrs = damon_acma_in_force.attrs;
}

/* Build a context from the parameters and commit it to the running one. */
static int damon_acma_apply_parameters(const struct damon_acma_cfg *cfg)
{
	struct damon_ctx *param_ctx;
	struct damon_target *param_target;
	struct damon_addr_range range;
	int err;

	err = damon_modules_new_paddr_ctx_target(&param_ctx, &param_target);
	if (err)
		return err;
	err = damon_set_attrs(param_ctx, &damon_acma_mon_attrs);
	if (err)
		goto out;
	err = damon_acma_add_schemes(param_ctx, cfg);
	if (err)
		goto out;
	/* all memory, up to the end of the highest scalable block */
	range.start = 0;
	range.end = damon_acma.nr_blocks ?
			damon_acma.block_start[damon_acma.nr_blocks - 1] +
		damon_acma.block_size : PFN_PHYS(max_pfn);
	err = damon_set_regions(param_target, &range, 1);
	if (err)
		goto out;
	err = damon_commit_ctx(damon_acma.ctx, param_ctx);
	if (!err) {
		damon_acma.cfg = *cfg;
		damon_acma_save_parameters();
	}
out:
	damon_destroy_ctx(param_ctx);
	return err;
}

static int damon_acma_after_aggregation(struct damon_ctx *c)
{
	struct damos *s;
	int i = 0, err = 0;

	damon_for_each_scheme(s, c) {
		if (i == DAMON_ACMA_RECLAIM)
			damon_acma_reclaim_stat = s->stat;
		else if (i == DAMON_ACMA_SCALE_DOWN)
			damon_acma_scale_down_stat = s->stat;
		else
			damon_acma_scale_up_stat = s->stat;
		i++;
	}
	if (commit_inputs) {
		struct damon_acma_cfg cfg;

		/* checked when written; the machine may have changed since */
		damon_acma_unstash_goals(c);
		err = damon_acma_check(&cfg);
		if (!err)
			err = damon_acma_apply_parameters(&cfg);
		if (err) {
			pr_warn("commit failed (%d); running as before\n", err);
			damon_acma_restore_parameters();
		}
		commit_inputs = false;
	}
	damon_acma_step(c);
	return 0;
}

static int damon_acma_turn(bool on)
{
	struct damon_acma_cfg cfg;
	int err;

	if (!on) {
		mutex_lock(&damon_acma.lock);
		WRITE_ONCE(damon_acma.scaling, false);
		mutex_unlock(&damon_acma.lock);
		if (damon_is_running(damon_acma.ctx)) {
			err = damon_stop(&damon_acma.ctx, 1);
			if (err)
				return err;
		}
		damon_acma_unstash_goals(damon_acma.ctx);
		err = damon_acma_give_all_back();
		damon_acma_notify();
		return err;
	}
	/* nothing of the last run may still be under way */
	cancel_work_sync(&damon_acma.resize_work);
	err = damon_acma_scan_blocks();
	if (err)
		return err;
	err = damon_acma_check(&cfg);
	if (err)
		return err;
	err = damon_acma_apply_parameters(&cfg);
	if (err)
		return err;
	damon_acma.psi_at = 0;
	damon_acma.pressure_us = 0;
	memset(damon_acma.pace, 0, sizeof(damon_acma.pace));
	damon_acma_start_pace(damon_acma.ctx);
	damon_acma.used_at = 0;
	damon_acma.growth = 0;
	damon_acma.step_ms = 0;
	damon_acma.wanted_at = 0;
	err = damon_start(&damon_acma.ctx, 1, true);
	if (err)
		return err;
	mutex_lock(&damon_acma.lock);
	WRITE_ONCE(damon_acma.scaling, true);
	mutex_unlock(&damon_acma.lock);
	return 0;
}

static int damon_acma_enabled_store(const char *val,
		const struct kernel_param *kp)
{
	bool on;
	int err;

	err = kstrtobool(val, &on);
	if (err)
		return err;
	if (!damon_acma.ctx) {
		/* before init, from the command line: init turns it on */
		enabled = on;
		return 0;
	}
	if (damon_is_running(damon_acma.ctx) == on &&
	    (on || !damon_acma_removed_blocks()))
		return 0;
	err = damon_acma_turn(on);
	if (!err)
		enabled = on;
	/* who meets a balloon target may have changed: let them look again */
	damon_acma_notify_state();
	return err;
}

static int damon_acma_enabled_load(char *buffer,
		const struct kernel_param *kp)
{
	bool on = damon_acma.ctx && damon_is_running(damon_acma.ctx);

	return sprintf(buffer, "%c\n", on ? 'Y' : 'N');
}

static const struct kernel_param_ops enabled_param_ops = {
	.set = damon_acma_enabled_store,
	.get = damon_acma_enabled_load,
};
module_param_cb(enabled, &enabled_param_ops, &enabled, 0600);
MODULE_PARM_DESC(enabled, "Enable or disable DAMON_ACMA (default: disabled)");

static int damon_acma_commit_inputs_store(const char *val,
		const struct kernel_param *kp)
{
	struct damon_acma_cfg cfg;
	bool commit;
	int err;

	err = kstrtobool(val, &commit);
	if (err)
		return err;
	if (!commit)
		return 0;
	if (!damon_acma.ctx || !damon_is_running(damon_acma.ctx))
		return -EINVAL;
	/*
	 * Refuse bad input here, where the writer sees it; the files then show
	 * the values in force again.
	 */
	err = damon_acma_check(&cfg);
	if (err) {
		damon_acma_restore_parameters();
		return err;
	}
	commit_inputs = true;
	return 0;
}

static const struct kernel_param_ops commit_inputs_param_ops = {
	.set = damon_acma_commit_inputs_store,
	.get = param_get_bool,
};
module_param_cb(commit_inputs, &commit_inputs_param_ops, &commit_inputs,
		0600);

/**
 * damon_acma_set_max_mem() - Set the maximum from a driver.
 * @bytes:	The memory the system may have at most, in bytes.
 * @applied:	Set to the maximum that applies: @bytes clamped between
 *		``min_mem`` and the memory DAMON_ACMA scales.
 *
 * For a driver that learns the size of the system from outside, such as a
 * balloon whose host sets a target.  The maximum becomes the ``max_mem``
 * parameter and is committed like an administrator's at the next step; a
 * maximum below the current size makes scale-down run at full allowed
 * speed until it is met.
 *
 * Context: Process context.
 * Return: 0 on success; -EAGAIN if DAMON_ACMA is not running, or -ENODEV
 * if it has no memory to scale (the caller then handles the size itself);
 * -EINVAL if even the parameters in force do not allow it (nothing is
 * changed then).  Parameters written since the last commit that are invalid
 * are dropped for the values in force.
 */
int damon_acma_set_max_mem(unsigned long bytes, unsigned long *applied)
{
	struct damon_acma_cfg cfg;
	unsigned long old;
	int err = -EAGAIN;

	kernel_param_lock(THIS_MODULE);
	if (!damon_acma.ctx || !damon_is_running(damon_acma.ctx))
		goto out;
	/* nothing to scale: the driver must give the memory back itself */
	err = -ENODEV;
	if (!damon_acma.nr_blocks)
		goto out;
	old = max_mem;
	max_mem = clamp(bytes, min_mem, damon_acma_machine_bytes());
	err = damon_acma_check(&cfg);
	if (err) {
		/*
		 * Parameters written since the last commit are invalid: they
		 * would be refused at commit anyway.  The host's maximum goes
		 * with the values in force, so that the driver never gives
		 * memory back itself while DAMON_ACMA scales too.
		 */
		damon_acma_restore_parameters();
		max_mem = clamp(bytes, min_mem, damon_acma_machine_bytes());
		err = damon_acma_check(&cfg);
	}
	if (err) {
		max_mem = old;
		goto out;
	}
	*applied = max_mem;
	commit_inputs = true;
out:
	kernel_param_unlock(THIS_MODULE);
	return err;
}
EXPORT_SYMBOL_GPL(damon_acma_set_max_mem);

/*
 * A size in bytes with an optional K, M, G, T, P or E suffix.  Unlike
 * memparse(), a number that does not fit is refused, not wrapped.
 */
static int damon_acma_bytes_store(const char *val,
		const struct kernel_param *kp)
{
	static const char suffixes[] = "KMGTPE";
	unsigned long long bytes;
	unsigned int shift = 0;
	const char *s;
	char buf[32];
	size_t len;
	int err;

	len = strlen(val);
	if (len && val[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, val, len);
	buf[len] = '\0';
	s = strchr(suffixes, toupper(buf[len - 1]));
	if (s && *s) {
		shift = 10 * (s - suffixes + 1);
		buf[--len] = '\0';
	}
	err = kstrtoull(buf, 0, &bytes);
	if (err)
		return -EINVAL;
	if (bytes > (ULONG_MAX >> shift))
		return -EINVAL;
	*(unsigned long *)kp->arg = bytes << shift;
	return 0;
}

static const struct kernel_param_ops bytes_param_ops = {
	.set = damon_acma_bytes_store,
	.get = param_get_ulong,
};
module_param_cb(min_mem, &bytes_param_ops, &min_mem, 0600);
module_param_cb(max_mem, &bytes_param_ops, &max_mem, 0600);
module_param(mem_pressure_us, ulong, 0600);
module_param(scale_order, uint, 0600);
module_param(reclaim_min_age_us, ulong, 0600);

static int damon_acma_kdamond_pid_load(char *buffer,
		const struct kernel_param *kp)
{
	int pid = damon_acma.ctx ? damon_kdamond_pid(damon_acma.ctx) : -1;

	return sprintf(buffer, "%d\n", pid < 0 ? -1 : pid);
}

static int damon_acma_ro_store(const char *val, const struct kernel_param *kp)
{
	/* read-only, but the kernel command line may name it */
	return 0;
}

static const struct kernel_param_ops kdamond_pid_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_kdamond_pid_load,
};
/* PID of the DAMON thread while enabled, else -1. */
module_param_cb(kdamond_pid, &kdamond_pid_param_ops, NULL, 0400);

static int damon_acma_count_online(struct memory_block *mem, void *arg)
{
	if (mem->state == MEM_ONLINE)
		*(unsigned long *)arg += memory_block_size_bytes();
	return 0;
}

static int damon_acma_mem_bytes_load(char *buffer,
		const struct kernel_param *kp)
{
	unsigned long online = 0;

	if (damon_acma.ctx && damon_is_running(damon_acma.ctx))
		return sprintf(buffer, "%lu\n", damon_acma_mem_bytes());
	/* not scaling: what is online now */
	walk_memory_blocks(0, PFN_PHYS(max_pfn) + memory_block_size_bytes(),
			&online, damon_acma_count_online);
	return sprintf(buffer, "%lu\n",
			online - damon_contig_total_owned_bytes());
}

static const struct kernel_param_ops mem_bytes_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_mem_bytes_load,
};
/* The memory Linux has now, in bytes: online memory minus taken chunks. */
module_param_cb(mem_bytes, &mem_bytes_param_ops, NULL, 0400);

static int damon_acma_owned_bytes_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%lu\n",
			damon_contig_owner_bytes(&damon_acma_owner));
}

static const struct kernel_param_ops owned_bytes_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_owned_bytes_load,
};
/* Bytes of the chunks taken and not given back, in blocks still present. */
module_param_cb(owned_bytes, &owned_bytes_param_ops, NULL, 0400);

static int damon_acma_removed_blocks_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%d\n", damon_acma_removed_blocks());
}

static const struct kernel_param_ops removed_blocks_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_removed_blocks_load,
};
/* Memory blocks DAMON_ACMA removed and not added back (yet). */
module_param_cb(removed_blocks, &removed_blocks_param_ops, NULL, 0400);

/*
 * One line per block scale-down leaves alone for now: "memoryN in-use S" (its
 * data are in use and memory is under max_mem) or "memoryN unmovable S" (its
 * data could not be migrated: pinned pages, pages the kernel holds), S the
 * seconds until scale-down tries the block again.
 */
static int damon_acma_deferred_blocks_load(char *buffer,
		const struct kernel_param *kp)
{
	char line[48];
	int i, n, len = 0;
	unsigned int secs;

	mutex_lock(&damon_acma.lock);
	for (i = 0; damon_acma.scaling && i < damon_acma.nr_blocks; i++) {
		if (damon_acma.blocks[i] != DAMON_ACMA_BLOCK_ONLINE ||
		    !damon_acma_deferred(i))
			continue;
		secs = DIV_ROUND_UP(jiffies_to_msecs(
				damon_acma_deferred_until(i) - jiffies),
				MSEC_PER_SEC);
		n = scnprintf(line, sizeof(line), "memory%lu %s %u\n",
				damon_acma_block_id(i),
				damon_acma.deferred[i].unmovable ? "unmovable" :
				"in-use", secs);
		/* whole lines only: the first PAGE_SIZE bytes' worth */
		if (len + n >= PAGE_SIZE)
			break;
		memcpy(buffer + len, line, n + 1);
		len += n;
	}
	mutex_unlock(&damon_acma.lock);
	return len;
}

static const struct kernel_param_ops deferred_blocks_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_deferred_blocks_load,
};
/* Blocks scale-down leaves alone for now, why, and for how long. */
module_param_cb(deferred_blocks, &deferred_blocks_param_ops, NULL, 0400);

static int damon_acma_pressure_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%lu\n", damon_acma.pressure_us);
}

static const struct kernel_param_ops pressure_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_pressure_load,
};
/* ``some`` memory PSI stall of the last quota interval, in microseconds. */
module_param_cb(measured_pressure_us, &pressure_param_ops, NULL, 0400);

static int damon_acma_reported_bytes_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%ld\n",
			atomic_long_read(&damon_acma_reported_bytes));
}

static const struct kernel_param_ops reported_bytes_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_reported_bytes_load,
};
/* Bytes of taken chunks reported to the host (VM guests), since boot. */
module_param_cb(reported_bytes, &reported_bytes_param_ops, NULL, 0400);

static int damon_acma_report_failures_load(char *buffer,
		const struct kernel_param *kp)
{
	return sprintf(buffer, "%ld\n",
			atomic_long_read(&damon_acma_report_failures));
}

static const struct kernel_param_ops report_failures_param_ops = {
	.set = damon_acma_ro_store,
	.get = damon_acma_report_failures_load,
};
/* Chunks that could not be reported to the host and were not taken. */
module_param_cb(report_failures, &report_failures_param_ops, NULL, 0400);

static int __init damon_acma_init(void)
{
	struct damon_target *target;
	int err;

	err = damon_acma_blocks_init();
	if (err)
		return err;
	/* with 16K or 64K pages, 2 MiB is below a pageblock */
	if (scale_order < pageblock_order)
		scale_order = pageblock_order;
	err = damon_modules_new_paddr_ctx_target(&damon_acma.ctx, &target);
	if (err)
		return err;
	damon_acma.ctx->callback.after_aggregation =
			damon_acma_after_aggregation;
	damon_acma_policy_init();

	/* enabled from the command line */
	if (enabled)
		err = damon_acma_turn(true);
	return err;
}

module_init(damon_acma_init);



/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DRAM power domains: the ranks a platform can power off and on, as
 * firmware describes them, and the back ends that switch them.
 */
#ifndef _DRAM_POWER_H
#define _DRAM_POWER_H

#include <linux/completion.h>
#include <linux/crash_dump.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#define DRAM_POWER_MAX_DOMAINS	256
#define DRAM_POWER_MAX_RANGES	16
#define DRAM_POWER_MAX_STATES	8

/**
 * enum dram_power_state - The state of a power domain, as the OS knows it.
 * @DRAM_POWER_ON:		On and confirmed: its memory may be used.
 * @DRAM_POWER_POWERING_OFF:	Asked to go off, not confirmed yet.
 * @DRAM_POWER_OFF:		Off and confirmed: its contents are gone.
 * @DRAM_POWER_POWERING_ON:	Asked to come on, not confirmed yet.
 * @DRAM_POWER_FAILED:		Firmware did not confirm a change: the domain
 *				may be on or off.  No memory of it may be
 *				added before it is powered on and read back.
 * @NR_DRAM_POWER_STATES:	Number of states.
 */
enum dram_power_state {
	DRAM_POWER_ON,
	DRAM_POWER_POWERING_OFF,
	DRAM_POWER_OFF,
	DRAM_POWER_POWERING_ON,
	DRAM_POWER_FAILED,
	NR_DRAM_POWER_STATES,
};

/**
 * struct dram_power_fw_state - A firmware power state (MPST characteristics).
 * @power_mw:		Average power of a domain in this state, mW.
 * @exit_latency_ns:	Time to get from this state back to on, ns.
 * @kept:		Memory contents survive this state.
 */
struct dram_power_fw_state {
	u32 power_mw;
	u64 exit_latency_ns;
	bool kept;
};

/**
 * struct dram_power_range - A physical address range of a domain.
 * @start:	First byte.
 * @size:	Size in bytes.
 */
struct dram_power_range {
	u64 start;
	u64 size;
};

/**
 * struct dram_power_desc - A domain as firmware describes it.
 * @id:		Domain (rank) id: MPST power node id, BMC domain number.
 * @component:	Physical component (DIMM) index.
 * @nr_ranges:	Number of @ranges (more than one when interleaved).
 * @ranges:	The physical ranges the domain holds.
 */
struct dram_power_desc {
	u16 id;
	u16 component;
	int nr_ranges;
	struct dram_power_range ranges[DRAM_POWER_MAX_RANGES];
};

/**
 * struct dram_power_map - Everything firmware said about the domains.
 * @nr_domains:	Number of @domains.
 * @domains:	The domains, in table order of their first range.
 * @nr_states:	Number of firmware power states; value 0 is on.
 * @states:	The power states, by firmware value (shallowest first).
 * @bmc_named:	Firmware named the BMC that speaks acma's DRAM power
 *		protocol ("acma,bmc-id"): @bmc_manufacturer and @bmc_product
 *		are what its Get Device ID reports.
 * @bmc_manufacturer: The BMC's manufacturer ID (IANA enterprise number).
 * @bmc_product: The BMC's product ID.
 */
struct dram_power_map {
	int nr_domains;
	struct dram_power_desc *domains;
	int nr_states;
	struct dram_power_fw_state states[DRAM_POWER_MAX_STATES];
	bool bmc_named;
	u32 bmc_manufacturer;
	u16 bmc_product;
};

struct fwnode_handle;

int dram_power_parse_mpst(const void *table, size_t len,
		struct dram_power_map *map, char *why, size_t why_len);
int dram_power_parse_fwnode(const struct fwnode_handle *node,
		struct dram_power_map *map, char *why, size_t why_len);
int dram_power_parse_bmc_id(const struct fwnode_handle *node,
		struct dram_power_map *map, char *why, size_t why_len);
__printf(3, 4)
int dram_power_refuse(char *why, size_t why_len, const char *fmt, ...);
int dram_power_check_overlap(const struct dram_power_map *map, char *why,
		size_t why_len);
void dram_power_free_map(struct dram_power_map *map);
int dram_power_off_value(const struct dram_power_map *map);
int dram_power_register(struct dram_power_map *map, bool adds_memory);

/**
 * struct dram_power_backend - How a domain's firmware state is read and set.
 * @name:	Shown in sysfs ("ipmi", "acpi").
 * @get:	Read domain @id's firmware power state value into @value.
 * @set:	Put domain @id in firmware state @value; 0 only when firmware
 *		confirmed it.
 *
 * Both are called with the domains' lock held, may sleep, and return
 * -ENODEV while the firmware interface is not there (yet).
 */
struct dram_power_backend {
	const char *name;
	int (*get)(u16 id, u8 *value);
	int (*set)(u16 id, u8 value);
};

/**
 * struct dram_power_domain - A power domain and its state machine.
 * @dev:		Its device, /sys/devices/system/dram_power/domainN.
 * @desc:		What firmware said about it.
 * @state:		Current state; changed only by dram_power_set_state().
 * @since:		When @state was entered (ktime, ns).
 * @entries:		Times each state was entered.
 * @time_ns:		Time spent in each state, up to @since.
 * @transitions:	Confirmed changes of power: to off, and back on.
 * @errors:		Firmware errors seen.
 * @last_error:		The last of them, as text.
 * @backoff_ms:		Delay of the next power-off retry.
 * @retry:		Retries a power-off that failed.
 * @state_kn:		The sysfs state file, to wake its pollers on a change.
 */
struct dram_power_domain {
	struct device dev;
	struct dram_power_desc desc;
	enum dram_power_state state;
	u64 since;
	u64 entries[NR_DRAM_POWER_STATES];
	u64 time_ns[NR_DRAM_POWER_STATES];
	u64 transitions;
	u64 errors;
	char last_error[80];
	unsigned int backoff_ms;
	struct delayed_work retry;
	struct kernfs_node *state_kn;
};

/**
 * struct dram_power - The domains of the machine.
 * @map:		What firmware said.
 * @domains:		One per domain of @map.
 * @backend:		How domains are switched; NULL: not known yet.
 * @off_value:		Firmware state value used for "off".
 * @adds_memory:	The domains' memory is not boot memory: the driver
 *			adds it once firmware confirmed the domain on.
 * @in_kdump:		This is a crash kernel: the domains' memory is the crashed
 *			kernel's, to be read through /proc/vmcore; nothing is
 *			switched or added, the domains stay as it left them.
 * @synced:		Done once the domains' states were read from firmware.
 * @lock:		Serializes state changes and firmware calls.
 * @vmcore_cb:		Keeps /proc/vmcore off domains that are not on.
 */
struct dram_power {
	struct dram_power_map map;
	struct dram_power_domain *domains;
	const struct dram_power_backend *backend;
	u8 off_value;
	bool adds_memory;
	bool in_kdump;
	struct completion synced;
	struct mutex lock;
#ifdef CONFIG_PROC_VMCORE
	struct vmcore_cb vmcore_cb;
#endif
};

const char *dram_power_state_name(enum dram_power_state state);
void dram_power_set_state(struct dram_power_domain *d,
		enum dram_power_state state);
bool dram_power_domain_touches(const struct dram_power_domain *d,
		u64 start, u64 size);
int dram_power_domain_on(struct dram_power *dp, struct dram_power_domain *d);
int dram_power_domain_off(struct dram_power *dp, struct dram_power_domain *d);

#ifdef CONFIG_DRAM_POWER_IPMI
const struct dram_power_backend *dram_power_ipmi_backend(
		const struct dram_power_map *map);
#if IS_ENABLED(CONFIG_KUNIT)
bool dram_power_ipmi_ids_fit(const struct dram_power_map *map);
#endif
#else
static inline const struct dram_power_backend *dram_power_ipmi_backend(
		const struct dram_power_map *map)
{
	return NULL;
}
#endif

#ifdef CONFIG_DRAM_POWER_ACPI
const struct dram_power_backend *dram_power_acpi_backend(void);
#else
static inline const struct dram_power_backend *dram_power_acpi_backend(void)
{
	return NULL;
}
#endif

#endif /* _DRAM_POWER_H */

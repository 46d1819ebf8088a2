// SPDX-License-Identifier: GPL-2.0
/*
 * DRAM power domains switched by ACPI firmware: the methods RGET and RSET of
 * the device \_SB.ACMA (ACMA0001) in an SSDT, which talk to the BMC through
 * an IPMI operation region (see firmware-glue/PROTOCOL.md).  Ranks and states
 * are the MPST's: rank = power node id, state = MPST power state value.  The
 * methods ask the BMC's Get Device ID before each OEM command and send none to
 * a BMC other than the one their device's acma,bmc-id names.
 */

#define pr_fmt(fmt) "dram-power: acpi: " fmt

#include <linux/acpi.h>

#include "dram-power.h"

#define DP_ACPI_DEVICE	"\\_SB.ACMA"
/* The methods' error for a BMC that is not the one acma,bmc-id names. */
#define DP_ACPI_ERR_BMC	0x302

static acpi_handle dp_acpi_handle;

/* Method results of 0x100 and above are errors; see PROTOCOL.md. */
static int dp_acpi_result(const char *method, u16 id, acpi_status status,
		unsigned long long value)
{
	if (ACPI_FAILURE(status)) {
		/* no IPMI operation-region handler yet, for one */
		pr_debug("%s(%u): %s\n", method, id,
			 acpi_format_exception(status));
		return -ENODEV;
	}
	if (value < 0x100)
		return 0;
	if (value == DP_ACPI_ERR_BMC) {
		/* the firmware sent the BMC nothing but Get Device ID */
		pr_err_ratelimited("%s(%u): the BMC is not the one firmware names (acma,bmc-id): no OEM command is sent to it\n",
				   method, id);
		return -EPROTO;
	}
	pr_debug("%s(%u): error 0x%llx\n", method, id, value);
	switch (value >> 8) {
	case 1:		/* the BMC answered a completion code */
		return -EIO;
	case 2:		/* the IPMI transfer failed */
		return (value & 0xff) == 0x10 ? -ETIMEDOUT : -EIO;
	default:
		return -EPROTO;
	}
}

static int dp_acpi_get(u16 id, u8 *value)
{
	union acpi_object arg = { .integer = { ACPI_TYPE_INTEGER, id } };
	struct acpi_object_list args = { 1, &arg };
	unsigned long long v = ~0ULL;
	acpi_status status;
	int err;

	status = acpi_evaluate_integer(dp_acpi_handle, "RGET", &args, &v);
	err = dp_acpi_result("RGET", id, status, v);
	if (!err)
		*value = v;
	return err;
}

static int dp_acpi_set(u16 id, u8 value)
{
	union acpi_object arg[2] = {
		{ .integer = { ACPI_TYPE_INTEGER, id } },
		{ .integer = { ACPI_TYPE_INTEGER, value } },
	};
	struct acpi_object_list args = { 2, arg };
	unsigned long long v = ~0ULL;
	acpi_status status;
	int err;

	status = acpi_evaluate_integer(dp_acpi_handle, "RSET", &args, &v);
	err = dp_acpi_result("RSET", id, status, v);
	/* RSET returns 0 once the BMC confirmed, nothing else below 0x100 */
	if (!err && v)
		err = -EPROTO;
	return err;
}

static const struct dram_power_backend dp_acpi_backend = {
	.name = "acpi",
	.get = dp_acpi_get,
	.set = dp_acpi_set,
};

/**
 * dram_power_acpi_backend() - The ACPI back end, if the firmware has one.
 *
 * Return: the back end when \_SB.ACMA has the methods RGET and RSET, else
 * NULL (the board switches its ranks through the BMC directly).
 */
const struct dram_power_backend *dram_power_acpi_backend(void)
{
	acpi_handle handle;

	if (ACPI_FAILURE(acpi_get_handle(NULL, DP_ACPI_DEVICE, &handle)) ||
	    !acpi_has_method(handle, "RGET") || !acpi_has_method(handle, "RSET"))
		return NULL;
	dp_acpi_handle = handle;
	return &dp_acpi_backend;
}

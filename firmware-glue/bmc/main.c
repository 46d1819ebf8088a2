// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - entry points ipmi_sim calls in acma's BMC plugin
 *
 * lan.conf loads the plugin with
 *   loadlib "acma-bmc.so" "config=RANKS.CONF state=RANKS.STATE [kcs=SOCKET]"
 * ipmi_sim calls ipmi_sim_module_init() after reading lan.conf and before
 * the .emu command file; a non-zero return stops ipmi_sim. The management
 * controller only exists once the .emu file ran, so its sensors are added
 * in ipmi_sim_module_post_init().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acma-bmc.h"

static struct acma_bmc *the_bmc;

/* Parse "config=PATH state=PATH [kcs=PATH]" into @bmc. */
static int parse_args(struct acma_bmc *bmc, const char *initstr)
{
	char *copy = strdup(initstr ? initstr : ""), *save, *t;
	int err = 0;

	if (!copy)
		return ENOMEM;
	for (t = strtok_r(copy, " \t", &save); t && !err;
	     t = strtok_r(NULL, " \t", &save)) {
		char **dst = NULL;

		if (!strncmp(t, "config=", 7))
			dst = &bmc->config_path;
		else if (!strncmp(t, "state=", 6))
			dst = &bmc->state_path;
		else if (!strncmp(t, "kcs=", 4))
			dst = &bmc->kcs_path;
		if (!dst || *dst || !strchr(t, '=')[1]) {
			acma_log(bmc, SETUP_ERROR,
				 "acma: bad or repeated argument '%s'", t);
			err = EINVAL;
			break;
		}
		*dst = strdup(strchr(t, '=') + 1);
		if (!*dst)
			err = ENOMEM;
	}
	free(copy);
	if (!err && (!bmc->config_path || !bmc->state_path)) {
		acma_log(bmc, SETUP_ERROR,
			 "acma: usage: loadlib \"acma-bmc.so\" \"config=FILE state=FILE [kcs=SOCKET]\"");
		err = EINVAL;
	}
	return err;
}

/* The transition log: transitions.log in the state file's folder. */
static int audit_path(struct acma_bmc *bmc)
{
	const char *slash = strrchr(bmc->state_path, '/');
	size_t dir = slash ? (size_t)(slash - bmc->state_path) + 1 : 0;

	bmc->audit_path = malloc(dir + sizeof("transitions.log"));
	if (!bmc->audit_path)
		return ENOMEM;
	memcpy(bmc->audit_path, bmc->state_path, dir);
	strcpy(bmc->audit_path + dir, "transitions.log");
	return 0;
}

/**
 * ipmi_sim_module_init() - load the board and the saved rank states
 * @sys: ipmi_sim's system data
 * @initstr: the loadlib arguments, "config=FILE state=FILE"
 *
 * Return: 0 on success; an errno value makes ipmi_sim exit.
 */
int ipmi_sim_module_init(sys_data_t *sys, const char *initstr)
{
	struct acma_bmc *bmc = calloc(1, sizeof(*bmc));
	int err;

	if (!bmc)
		return ENOMEM;
	bmc->sys = sys;
	err = parse_args(bmc, initstr);
	if (!err)
		err = audit_path(bmc);
	if (!err)
		err = acma_config_read(bmc);
	if (!err)
		err = acma_state_read(bmc);
	if (!err)
		err = acma_commands_register(bmc);
	if (!err)
		err = acma_sessions_init(bmc);
	if (err) {
		acma_free(bmc);
		return err;
	}
	acma_dcmi_register(bmc);
	the_bmc = bmc;
	acma_log(bmc, INFO, "acma: board %s: %d ranks, %d power states, %u mW",
		 bmc->board, bmc->nr_ranks, bmc->nr_states, acma_power_now(bmc));
	return 0;
}

/**
 * ipmi_sim_module_post_init() - add the ranks' sensors to the configured BMC
 * @sys: ipmi_sim's system data
 *
 * Also moves the system interface to its UNIX socket (kcs=). That failing
 * stops ipmi_sim: it must not serve the system interface on a TCP port.
 */
void ipmi_sim_module_post_init(sys_data_t *sys)
{
	struct acma_bmc *bmc = the_bmc;

	if (!bmc)
		return;
	bmc->mc = sys->ipmb_addrs[sys->bmc_ipmb];
	if (!bmc->mc) {
		acma_log(bmc, SETUP_ERROR, "acma: no BMC at IPMB 0x%02x",
			 sys->bmc_ipmb);
		exit(1);
	}
	if (bmc->kcs_path && acma_sysif_unix(bmc))
		exit(1);
	acma_defer_init(bmc);
	acma_device_id_init(bmc);
	acma_sensors_init(bmc);
	acma_fault_init(bmc);
}

/**
 * ipmi_sim_module_print_version() - print the plugin's version
 * @sys: ipmi_sim's system data
 * @initstr: the loadlib arguments (unused)
 *
 * Return: 0.
 */
int ipmi_sim_module_print_version(sys_data_t *sys, const char *initstr)
{
	(void)sys;
	(void)initstr;
	printf("acma BMC plugin version %s\n", ACMA_BMC_VERSION);
	return 0;
}

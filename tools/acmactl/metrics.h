/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - acmactl status as metrics: OpenMetrics, or the Prometheus
 * text format node_exporter's textfile collector reads
 */
#ifndef ACMACTL_METRICS_H
#define ACMACTL_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "sysfs.h"

int metrics_print(struct sysfs *fs, bool openmetrics, FILE *f);
void metrics_help(FILE *f);

#endif

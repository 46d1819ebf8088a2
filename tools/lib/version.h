/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h - the tools' -V/--version
 */
#ifndef TOOLS_LIB_VERSION_H
#define TOOLS_LIB_VERSION_H

int print_version(const char *prog);

#endif

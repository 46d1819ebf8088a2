# SPDX-License-Identifier: GPL-2.0
#
# acma: DRAM power and memory auto-scaling.
#
#   make deps                  install the Debian packages the project needs
#   make <board>_defconfig     select a board (make help lists them)
#   make run                   build what is missing and boot the selected board
#   make test                  unit tests, then end-to-end tests in QEMU
#   make plot                  draw the trace of acma-trace (CSV=, PNG=) as a PNG
#
# With no .config the default board is selected. Build output goes to build/.

SHELL := /bin/bash
.DEFAULT_GOAL := all

O := build
DEFAULT_BOARD := qemu-x86_64
BOARDS := $(sort $(patsubst boards/%/defconfig,%,$(wildcard boards/*/defconfig)))
KCONFIG_FILES := Kconfig boards/Kconfig $(wildcard boards/*/Kconfig)
# The configuration file; another one (KCONFIG_CONFIG=.config-x make ...) keeps a
# second board configured beside the first.
KCONFIG_CONFIG ?= .config
export KCONFIG_CONFIG

unquote = $(patsubst "%",%,$(1))
shquote = '$(subst ','\'',$(1))'
quiet = @printf '  %-8s %s\n' '$(1)' '$(2)';

# Goals that work without a board configuration.
config-goals := help deps clean distclean menuconfig savedefconfig oldconfig %_defconfig
ifneq ($(filter-out $(config-goals),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
need-config := 1
endif
ifneq ($(filter %_defconfig,$(MAKECMDGOALS)),)
need-config :=
endif

ifdef need-config
-include $(KCONFIG_CONFIG)
# No configuration yet: use the default board. A changed Kconfig: refresh it.
$(KCONFIG_CONFIG): $(KCONFIG_FILES) | deps-ensure
	$(call quiet,CONFIG,$(if $(wildcard $(KCONFIG_CONFIG)),olddefconfig,$(DEFAULT_BOARD)_defconfig (default board)))
	@if [ -f $(KCONFIG_CONFIG) ]; then kconfig-conf --olddefconfig Kconfig >/dev/null; \
	else kconfig-conf --defconfig=boards/$(DEFAULT_BOARD)/defconfig Kconfig >/dev/null; fi
endif

BOARD := $(call unquote,$(CONFIG_SYS_BOARD))
ARCH := $(call unquote,$(CONFIG_SYS_ARCH))
BOARD_DIR := boards/$(BOARD)
BOARD_FILE := $(BOARD_DIR)/board.hw
B := $(O)/$(BOARD)
KTREE := $(O)/$(ARCH)/linux
KIMAGE_x86_64 := arch/x86/boot/bzImage
KIMAGE_arm64 := arch/arm64/boot/Image
KIMAGE := $(KTREE)/$(KIMAGE_$(ARCH))
KFRAGMENTS := $(CURDIR)/kernel/configs/common.config $(CURDIR)/kernel/configs/$(ARCH).config \
	$(CURDIR)/$(BOARD_DIR)/kernel.config

ifdef need-config
ifeq ($(wildcard $(BOARD_FILE)),)
ifneq ($(BOARD),)
$(error .config selects board '$(BOARD)', but $(BOARD_FILE) does not exist; run 'make help')
endif
endif
endif

HOSTCC := gcc
HOSTCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror
BOARDGEN := $(O)/host/boardgen
BOARDGEN_SRCS := $(wildcard scripts/boardgen/*.c)
BOARDGEN_HDRS := $(wildcard scripts/boardgen/*.h)
# Host unit tests: tests/unit/test_<name>.c, linked with boardgen's library (all but main).
BOARDGEN_LIB_SRCS := $(filter-out scripts/boardgen/boardgen.c,$(BOARDGEN_SRCS))
UNIT_TESTS := $(patsubst tests/unit/test_%.c,$(O)/host/test-%,$(wildcard tests/unit/test_*.c))

# The board's ACPI tables (x86 boards): boardgen prints their iasl source into $(B),
# iasl compiles it; any iasl error, warning or remark fails the build.
ACPI_TABLES := $(if $(filter x86_64,$(ARCH)),$(B)/mpst.aml $(B)/ssdt.aml)
ACPI_ARGS := $(foreach t,$(ACPI_TABLES),--acpitable $(t))

# The BMC's firmware: acma's plugin for OpenIPMI's ipmi_sim (firmware-glue/bmc).
BMC_PLUGIN := $(O)/host/acma-bmc.so
BMC_SRCS := $(wildcard firmware-glue/bmc/*.c)
BMC_HDRS := $(wildcard firmware-glue/bmc/*.h)
# Operator tools (tools/<tool>/), each built with what they share (tools/lib/): the table
# model, the sysfs, DAMON_ACMA and DRAM power readers.
TOOLS := $(O)/host/acma-ranks $(O)/host/acmactl $(O)/host/acma-trace
TOOLS_LIB := $(wildcard tools/lib/*.c tools/lib/*.h)

# Programs that run inside the guest: static, for the board's architecture.
GUEST_CC_x86_64 := gcc
GUEST_CC_arm64 := aarch64-linux-gnu-gcc
GUEST_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -static
GUEST_PROGS := $(patsubst %.c,%,$(notdir $(wildcard tests/e2e/helpers/*.c)))
# The tools operators run on the machine DAMON_ACMA scales run in the guest too.
GUEST_TOOLS := acmactl acma-trace
GUEST_BINS := $(GUEST_PROGS:%=$(B)/bin/%) $(GUEST_TOOLS:%=$(B)/bin/%)
INITRAMFS := $(B)/initramfs.cpio.gz
GUEST_FILES := $(wildcard scripts/guest/* tests/e2e/guest/* tests/bench/guest/*)

.PHONY: all help deps deps-ensure menuconfig savedefconfig oldconfig kernel initramfs test-boards \
	board-check acpi run test bench plot kernel-patches clean distclean

all: kernel initramfs $(if $(BMC_SRCS),$(BMC_PLUGIN)) $(ACPI_TABLES)

help:
	@echo 'acma: DRAM power and memory auto-scaling'
	@echo
	@echo 'Set-up and main jobs:'
	@echo '  deps                 install the Debian packages in scripts/debian-packages.txt'
	@echo '  run                  build what is missing, boot the board, show its memory and BMC'
	@echo '  test                 host unit tests, then end-to-end tests in QEMU'
	@echo '  bench                benchmarks in QEMU, figures beside their baselines'
	@echo '  plot                 a trace of acma-trace as a PNG: memory above, DRAM power below'
	@echo '                       (CSV=build/<board>/run/trace.csv PNG=build/<board>/run/trace.png)'
	@echo
	@echo 'Configuration (kconfig-frontends):'
	@echo '  <board>_defconfig    select a board'
	@echo '  menuconfig           change the configuration'
	@echo '  savedefconfig        write the minimal configuration to ./defconfig'
	@echo
	@echo 'Build:'
	@echo '  all (default)        kernel and initramfs for the selected board'
	@echo '  kernel               the patched Linux 6.12 kernel (incremental, ccache)'
	@echo '  initramfs            guest user space: busybox, tests and tools'
	@echo '  board-check          validate the selected board file'
	@echo '  acpi                 the board'"'"'s ACPI tables, build/<board>/{mpst,ssdt}.aml (x86)'
	@echo '  kernel-patches       export the kernel change as a git format-patch series'
	@echo '  clean / distclean    remove build output (distclean: kernel trees and .config too)'
	@echo
	@echo 'Boards (default: $(DEFAULT_BOARD)):'
	@for b in $(BOARDS); do \
		printf '  %-20s %s\n' "$${b}_defconfig" \
			"$$(sed -n 's/^description[[:space:]]*//p' boards/$$b/board.hw)"; done

deps:
	@scripts/deps.sh install

deps-ensure:
	@scripts/deps.sh ensure

%_defconfig: | deps-ensure
	@if [ ! -f boards/$*/defconfig ]; then \
		echo "error: unknown board '$*' (no boards/$*/defconfig)." >&2; \
		echo "Boards: $(BOARDS)" >&2; exit 1; fi
	$(call quiet,CONFIG,$*)
	@kconfig-conf --defconfig=boards/$*/defconfig Kconfig >/dev/null

menuconfig: | deps-ensure
	@kconfig-mconf Kconfig

oldconfig: | deps-ensure
	@kconfig-conf --oldconfig Kconfig

savedefconfig: | deps-ensure
	@kconfig-conf --savedefconfig=defconfig Kconfig
	$(call quiet,SAVE,defconfig)

$(BOARDGEN): $(BOARDGEN_SRCS) $(BOARDGEN_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)
	@$(HOSTCC) $(HOSTCFLAGS) -o $@ $(BOARDGEN_SRCS)

$(O)/host/test-%: tests/unit/test_%.c tests/unit/tap.h $(BOARDGEN_LIB_SRCS) $(BOARDGEN_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)
	@$(HOSTCC) $(HOSTCFLAGS) -Iscripts/boardgen -o $@ $< $(BOARDGEN_LIB_SRCS)

$(BMC_PLUGIN): $(BMC_SRCS) $(BMC_HDRS) | deps-ensure
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)
	@$(HOSTCC) $(HOSTCFLAGS) -shared -fPIC -o $@ $(BMC_SRCS)

# A tool's sources are its folder's, found once its name is known.
.SECONDEXPANSION:
$(TOOLS): $(O)/host/%: $$(wildcard tools/%/*.c tools/%/*.h) $(TOOLS_LIB)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)
	@$(HOSTCC) $(HOSTCFLAGS) -Itools/lib -o $@ $(filter %.c,$^)

# Built by default beside the BMC plugin, so that make test has them.
all: $(TOOLS)

board-check: $(BOARDGEN)
	@$(BOARDGEN) check $(BOARD_FILE)

$(ACPI_TABLES:.aml=.asl): $(B)/%.asl: $(BOARD_FILE) $(BOARDGEN)
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)
	@$(BOARDGEN) $* $(BOARD_FILE) > $@.tmp && mv $@.tmp $@

$(ACPI_TABLES): %.aml: %.asl | deps-ensure
	$(call quiet,IASL,$@)
	@rm -f $@; if ! iasl -vs -p $* $< > $*.iasl.log 2>&1 || \
		! grep -q ' 0 Errors, 0 Warnings, 0 Remarks' $*.iasl.log; then \
		cat $*.iasl.log >&2; rm -f $@; echo "error: iasl: $< must compile cleanly" >&2; exit 1; fi

acpi: board-check $(ACPI_TABLES)

kernel: board-check | deps-ensure
	@scripts/kernel.sh $(ARCH) $(KTREE) $(KFRAGMENTS)

# Static, from the same sources as build/host/<tool>.
$(GUEST_TOOLS:%=$(B)/bin/%): $(B)/bin/%: $$(wildcard tools/%/*.c tools/%/*.h) $(TOOLS_LIB) | deps-ensure
	@mkdir -p $(dir $@)
	$(call quiet,GUESTCC,$@)
	@$(GUEST_CC_$(ARCH)) $(GUEST_CFLAGS) -Itools/lib -o $@ $(filter %.c,$^)

$(B)/bin/%: tests/e2e/helpers/%.c | deps-ensure
	@mkdir -p $(dir $@)
	$(call quiet,GUESTCC,$@)
	@$(GUEST_CC_$(ARCH)) $(GUEST_CFLAGS) -o $@ $<

$(INITRAMFS): $(GUEST_BINS) $(GUEST_FILES) $(BOARD_FILE) $(BOARDGEN) scripts/initramfs.sh $(KCONFIG_CONFIG)
	$(call quiet,INITRAMFS,$@)
	@scripts/initramfs.sh $(BOARD_FILE) $(BOARDGEN) $(B)/bin $@

initramfs: board-check $(INITRAMFS)

run: all
	@scripts/run-board.sh --mode demo --board $(BOARD_FILE) --kernel $(KIMAGE) \
		--initrd $(INITRAMFS) --out $(B)/run $(ACPI_ARGS)

# make test also runs the DRAM power tests on the boards that take the other firmware
# paths, as BOARD:GLOB[,GLOB...] (each configured in build/BOARD/.config); not when
# TESTS= picks tests, nor with TEST_BOARDS= .
TEST_BOARDS ?= qemu-x86_64-acpi:2[5-7]*,85*,86* qemu-x86_64-interleaved:27*,85*
TEST_ALSO := $(if $(TESTS),,$(filter-out $(BOARD):%,$(TEST_BOARDS)))

test-boards:
	@for tb in $(TEST_ALSO); do b=$${tb%%:*}; mkdir -p $(O)/$$b; \
		[ -f $(O)/$$b/.config ] || $(MAKE) -s KCONFIG_CONFIG=$(O)/$$b/.config $${b}_defconfig \
			> /dev/null || exit 1; \
		$(MAKE) -s KCONFIG_CONFIG=$(O)/$$b/.config all || exit 1; done

test: all $(UNIT_TESTS) test-boards
	@TESTS='$(TESTS)' scripts/test.sh --board $(BOARD_FILE) --kernel $(KIMAGE) --initrd $(INITRAMFS) \
		--out $(B)/test $(ACPI_ARGS) $(foreach tb,$(TEST_ALSO),--also '$(tb)')

bench: all
	@scripts/bench.sh --board $(BOARD_FILE) --kernel $(KIMAGE) --initrd $(INITRAMFS) \
		--out $(B)/bench $(ACPI_ARGS)

# The trace acma-trace recorded, drawn by gnuplot; make plot CSV=... PNG=... TITLE=...
# for another. Not a deps-ensure: drawing is no reason to install behind one's back.
CSV = $(B)/run/trace.csv
PNG = $(B)/run/trace.png
TITLE = $(CSV)
plot:
	@command -v gnuplot > /dev/null || { echo "error: gnuplot is not installed;" \
		"run 'make deps' (it installs gnuplot-nox, listed in scripts/debian-packages.txt)" >&2; \
		exit 1; }
	$(call quiet,PLOT,$(PNG))
	@scripts/plot.sh $(call shquote,$(CSV)) $(call shquote,$(PNG)) $(call shquote,$(TITLE))

kernel-patches: | deps-ensure
	@scripts/kernel-patches.sh $(O)/kernel-patches

clean:
	rm -rf $(O)/host $(foreach b,$(BOARDS),$(O)/$(b))

distclean:
	rm -rf $(O) .config .config.old defconfig

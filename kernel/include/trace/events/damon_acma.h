/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM damon_acma

#if !defined(_TRACE_DAMON_ACMA_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DAMON_ACMA_H

#include <linux/tracepoint.h>

/*
 * A memory block DAMON_ACMA scales changed state: "memory@block" names the
 * block as /sys/devices/system/memory does.
 */
TRACE_EVENT(damon_acma_block_state,

	TP_PROTO(unsigned long block, const char *old, const char *new),

	TP_ARGS(block, old, new),

	TP_STRUCT__entry(
		__field(unsigned long, block)
		__string(old, old)
		__string(new, new)
	),

	TP_fast_assign(
		__entry->block = block;
		__assign_str(old);
		__assign_str(new);
	),

	TP_printk("memory%lu %s -> %s", __entry->block, __get_str(old),
		  __get_str(new))
);

/*
 * One scaling step, after each aggregation interval: the memory the system
 * has against its bounds, what is available against the headroom kept for
 * growth, the measured pressure, and what the step decided.
 */
TRACE_EVENT(damon_acma_step,

	TP_PROTO(unsigned long mem, unsigned long min_mem,
		 unsigned long max_mem, unsigned long avail,
		 unsigned long headroom, unsigned long pressure_us,
		 bool wanted, bool urgent, bool open, int removing, int adding),

	TP_ARGS(mem, min_mem, max_mem, avail, headroom, pressure_us, wanted,
		urgent, open, removing, adding),

	TP_STRUCT__entry(
		__field(unsigned long, mem)
		__field(unsigned long, min_mem)
		__field(unsigned long, max_mem)
		__field(unsigned long, avail)
		__field(unsigned long, headroom)
		__field(unsigned long, pressure_us)
		__field(bool, wanted)
		__field(bool, urgent)
		__field(bool, open)
		__field(int, removing)
		__field(int, adding)
	),

	TP_fast_assign(
		__entry->mem = mem;
		__entry->min_mem = min_mem;
		__entry->max_mem = max_mem;
		__entry->avail = avail;
		__entry->headroom = headroom;
		__entry->pressure_us = pressure_us;
		__entry->wanted = wanted;
		__entry->urgent = urgent;
		__entry->open = open;
		__entry->removing = removing;
		__entry->adding = adding;
	),

	TP_printk("mem=%lu min=%lu max=%lu avail=%lu headroom=%lu pressure_us=%lu wanted=%d urgent=%d down_open=%d removing=%d adding=%d",
		  __entry->mem, __entry->min_mem, __entry->max_mem,
		  __entry->avail, __entry->headroom, __entry->pressure_us,
		  __entry->wanted, __entry->urgent, __entry->open,
		  __entry->removing, __entry->adding)
);

#endif /* _TRACE_DAMON_ACMA_H */

/* This part must be outside protection */
#include <trace/define_trace.h>

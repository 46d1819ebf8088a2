/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dram_power

#if !defined(_TRACE_DRAM_POWER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DRAM_POWER_H

#include <linux/tracepoint.h>

/* A DRAM power domain (rank) changed state, as the OS knows it. */
TRACE_EVENT(dram_power_state,

	TP_PROTO(unsigned int domain, const char *old, const char *new),

	TP_ARGS(domain, old, new),

	TP_STRUCT__entry(
		__field(unsigned int, domain)
		__string(old, old)
		__string(new, new)
	),

	TP_fast_assign(
		__entry->domain = domain;
		__assign_str(old);
		__assign_str(new);
	),

	TP_printk("domain=%u %s -> %s", __entry->domain, __get_str(old),
		  __get_str(new))
);

/*
 * A firmware call for a domain: "set" asks for a power state, "get" reads
 * it back; the value, the error (0 or -errno) and how long the call took.
 */
TRACE_EVENT(dram_power_firmware,

	TP_PROTO(unsigned int domain, const char *op, u8 value, int err,
		 u64 duration_ns),

	TP_ARGS(domain, op, value, err, duration_ns),

	TP_STRUCT__entry(
		__field(unsigned int, domain)
		__string(op, op)
		__field(u8, value)
		__field(int, err)
		__field(u64, duration_ns)
	),

	TP_fast_assign(
		__entry->domain = domain;
		__assign_str(op);
		__entry->value = value;
		__entry->err = err;
		__entry->duration_ns = duration_ns;
	),

	TP_printk("domain=%u %s value=%u err=%d duration_ns=%llu",
		  __entry->domain, __get_str(op), __entry->value, __entry->err,
		  __entry->duration_ns)
);

#endif /* _TRACE_DRAM_POWER_H */

/* This part must be outside protection */
#include <trace/define_trace.h>

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A poor man's profiler for a TCG guest's kernel: samples every vCPU's RIP through
QEMU's human monitor (info registers -a) until QEMU goes away, then prints the
kernel functions the samples fall in (System.map; boot the guest with nokaslr).

    ripsample.py MONITOR-SOCKET SYSTEM.MAP [INTERVAL-S] [CONSOLE-LOG]

With CONSOLE-LOG, only samples taken between the guest's "# profile on" and
"# profile off" lines count (migbench prints them around its offlining)."""
import bisect, re, socket, sys, time

sock_path, sysmap = sys.argv[1], sys.argv[2]
interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.005
console = sys.argv[4] if len(sys.argv) > 4 else None

syms = []
for line in open(sysmap):
    a, t, n = line.split()[:3]
    if t in 'tTwW':
        syms.append((int(a, 16), n))
syms.sort()
addrs = [a for a, _ in syms]

for _ in range(200):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sock_path)
        break
    except OSError:
        time.sleep(0.05)
else:
    sys.exit('ripsample: no monitor at ' + sock_path)
s.settimeout(5)

def cmd(c):
    s.sendall(c.encode() + b'\n')
    buf = b''
    while not buf.endswith(b'(qemu) '):
        d = s.recv(65536)
        if not d:
            raise EOFError
        buf += d
    return buf.decode(errors='replace')

def profiling():
    """The label of the "# profile on LABEL" phase the guest is in, or None."""
    if not console:
        return 'all'
    try:
        t = open(console, errors='replace').read()
    except OSError:
        return None
    on = t.rfind('# profile on ')
    if on < 0 or t.rfind('# profile off') > on:
        return None
    return t[on + 13:].split()[0] if t[on + 13:].split() else 'all'

counts, total, user = {}, {}, {}
try:
    cmd('')
    while True:
        out = cmd('info registers -a')
        label = profiling()
        if label:
            c = counts.setdefault(label, {})
            for rip in re.findall(r'RIP=([0-9a-f]{16})', out):
                r = int(rip, 16)
                total[label] = total.get(label, 0) + 1
                if r < 0xffff800000000000:
                    user[label] = user.get(label, 0) + 1
                    continue
                i = bisect.bisect_right(addrs, r) - 1
                name = syms[i][1] if i >= 0 else '?'
                c[name] = c.get(name, 0) + 1
        time.sleep(interval)
except (EOFError, OSError):
    pass
for label, c in counts.items():
    print(f'# {label}: {total[label]} vCPU samples, {user.get(label, 0)} in user space')
    for n, k in sorted(c.items(), key=lambda x: -x[1])[:30]:
        print(f'{k:7d} {100.0 * k / total[label]:5.1f}% {n}')

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Recount the hunk headers of patches edited by hand.

Usage: scripts/fixhunks.py PATCH...

A hunk ends at the next hunk header, the next "diff --git" line or the
format-patch signature ("-- " and a version line at the end).  Each header's
line counts are set to what the hunk holds, and the new-file start lines of
later hunks in the same file move by what earlier hunks grew.  A patch whose
counts are right comes out byte for byte the same.
"""
import re
import sys

HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$', re.S)


def is_end(lines, i):
    line = lines[i]
    if line.startswith('diff --git ') or HUNK.match(line):
        return True
    # the signature: "-- " then a version line, then at most blank lines
    return (line == '-- \n' and i + 1 < len(lines) and
            all(not l.strip() for l in lines[i + 2:]))


def fix(lines):
    out, i, shift = [], 0, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('diff --git '):
            shift = 0
        m = HUNK.match(line)
        if not m:
            out.append(line)
            i += 1
            continue
        a, b, c, d, rest = m.groups()
        b = 1 if b is None else int(b)
        d = 1 if d is None else int(d)
        j, old, new = i + 1, 0, 0
        while j < len(lines) and not is_end(lines, j):
            t = lines[j][:1]
            if t in (' ', '\n'):
                old += 1
                new += 1
            elif t == '-':
                old += 1
            elif t == '+':
                new += 1
            j += 1
        c = int(c) + shift
        shift += (new - d) - (old - b)

        def rng(start, n):
            return '%d' % start if n == 1 else '%d,%d' % (start, n)
        out.append('@@ -%s +%s @@%s' % (rng(int(a), old), rng(c, new), rest))
        out.extend(lines[i + 1:j])
        i = j
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    for path in sys.argv[1:]:
        with open(path, encoding='utf-8') as f:
            lines = f.readlines()
        fixed = fix(lines)
        if fixed != lines:
            with open(path, 'w', encoding='utf-8') as f:
                f.writelines(fixed)
            print('%s: hunk headers recounted' % path)


if __name__ == '__main__':
    main()

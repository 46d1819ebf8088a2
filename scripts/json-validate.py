#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Validate JSON files against a JSON Schema (draft 2020-12), as the tools' golden
tests do with their schemas (tools/schemas/).

    json-validate.py SCHEMA FILE...

FILE - is standard input. The schema is checked first (against its metaschema). A
file is read strictly: a member twice in one object, NaN or Infinity is an error,
as the tools never print them. For each error: FILE: JSON path: message, one a line.

Exit status: 0 every file is valid; 1 a file is not (or not JSON); 2 usage, the
schema unreadable or invalid, or python3-jsonschema missing (Debian package
python3-jsonschema, in scripts/debian-packages.txt: make deps).
"""
import json
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError:
    print("json-validate.py: python3-jsonschema is not installed (Debian package "
          "python3-jsonschema; run make deps)", file=sys.stderr)
    sys.exit(2)


def no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"member {key!r} twice in one object")
        obj[key] = value
    return obj


def no_constant(name):
    raise ValueError(f"{name} is not JSON")


def load(path):
    with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as f:
        return json.load(f, object_pairs_hook=no_duplicates, parse_constant=no_constant)


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print("usage: json-validate.py SCHEMA FILE...", file=sys.stderr)
        return 2
    try:
        schema = load(argv[1])
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError) as e:
        print(f"json-validate.py: {argv[1]}: {e}", file=sys.stderr)
        return 2
    except SchemaError as e:
        print(f"json-validate.py: {argv[1]}: not a valid schema: {e.json_path}: {e.message}",
              file=sys.stderr)
        return 2
    validator = Draft202012Validator(schema)
    bad = False
    for path in argv[2:]:
        try:
            doc = load(path)
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            bad = True
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: e.json_path)
        for e in errors:
            print(f"{path}: {e.json_path}: {e.message}")
        bad |= bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

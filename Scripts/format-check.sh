#!/usr/bin/env bash
# Fails (exit 1) when a Swift file of the package is not formatted as .swift-format says or breaks one of
# its rules that is on (`swift format lint --strict`), naming each file and line; `swift format -i -r
# Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources` formats them (a rule such as
# NeverForceUnwrap needs a hand). Each file is linted with the nearest .swift-format above it: Tests/ and
# Benchmarks/ have their own, equal to the root's but for the two rules docs/FORMAT.md names, which this
# checks first. Uses the toolchain's swift-format (Swift 6 and later ship it).
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources)
if ! swift format --version >/dev/null 2>&1; then
    echo "format-check: swift format is missing (it ships with Swift 6 and later)" >&2
    exit 2
fi
python3 - <<'PY'
import json, sys
root = json.load(open(".swift-format"))
allowed = {"NeverForceUnwrap", "NeverUseForceTry"}
for path in ("Tests/.swift-format", "Benchmarks/.swift-format"):
    other = json.load(open(path))
    rules, other_rules = root.pop("rules", {}), other.pop("rules", {})
    differ = sorted(k for k in set(rules) | set(other_rules) if rules.get(k) != other_rules.get(k) and k not in allowed)
    if root != other or differ or set(rules) != set(other_rules):
        sys.exit(f"format-check: {path} differs from .swift-format beyond {sorted(allowed)}: {differ or 'settings'}")
    root["rules"] = rules
PY
if swift format lint --strict --recursive --parallel "${paths[@]}"; then
    echo "format-check: every Swift file is formatted and follows the rules that are on"
else
    echo "format-check: fix the files above; swift format -i -r ${paths[*]} fixes the layout" >&2
    exit 1
fi

#!/usr/bin/env bash
# Fails (exit 1) when a Swift file of the package is not formatted as .swift-format says, naming each file
# and line; `swift format -i -r Sources Tests Benchmarks/Sources` formats them. Uses the toolchain's
# swift-format (Swift 6 and later ship it).
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources)
if ! swift format --version >/dev/null 2>&1; then
    echo "format-check: swift format is missing (it ships with Swift 6 and later)" >&2
    exit 2
fi
if swift format lint --strict --recursive --parallel --configuration .swift-format "${paths[@]}"; then
    echo "format-check: every Swift file is formatted"
else
    echo "format-check: the files above are not formatted; run: swift format -i -r ${paths[*]}" >&2
    exit 1
fi

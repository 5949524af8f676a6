#!/usr/bin/env bash
# Runs the test suite with the engine's internal invariant checks compiled in (PERIMETER_INVARIANTS):
# DeviceMonitor's slots sorted, one quiet window per monitored region, its wake-ups equal to their
# recomputation (Geofencing/DeviceMonitor+Invariants.swift), and ShapeTable's box bounds around the exact
# distance (Geodesy/ShapeTable.swift, checkBounds). A broken invariant stops the tests with a precondition
# failure that names it. Without the flag the checks are empty: the plain build pays nothing.
#   Scripts/invariants.sh [extra swift test arguments, e.g. --filter GeofencingTests]
# Builds in its own scratch path (.build-invariants), so the plain build's products are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
swift test --disable-xctest --scratch-path .build-invariants -Xswiftc -DPERIMETER_INVARIANTS "$@"
echo "invariants.sh: the tests with PERIMETER_INVARIANTS passed in $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# Runs the engine's tests with its internal invariant checks compiled in (PERIMETER_INVARIANTS):
# DeviceMonitor's slots sorted, one quiet window per monitored region, its wake-ups equal to their
# recomputation (Geofencing/DeviceMonitor+Invariants.swift), and ShapeTable's box bounds around the exact
# distance (Geodesy/ShapeTable.swift, checkBounds). A broken invariant stops the tests with a precondition
# failure that names it. Without the flag the checks are empty: the plain build pays nothing.
#   Scripts/invariants.sh                 the tests that drive the engine (below), then the SEMANTICS
#                                         crosscheck's random scenarios through the checked binary
#   Scripts/invariants.sh --all           the whole suite
#   Scripts/invariants.sh [swift test arguments, e.g. --filter GeofencingTests]
# The checks live in Geodesy and Geofencing, so the tests that exercise them are those targets' own, Runs'
# (batches, streams, interruption) and Analysis' (compare's reference and profile runs); the crosscheck adds
# 100 random scenarios of every rule. The rest of the suite (formats, sinks, commands) reaches the engine
# through these same paths and runs once in the fast tier.
# Builds in its own scratch path (.build-invariants), so the plain build's products are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scratch=.build-invariants
args=("$@")
crosscheck=0
if [ ${#args[@]} -eq 0 ]; then
    args=(--filter 'GeodesyTests|GeofencingTests|RunsTests|AnalysisTests')
    crosscheck=1
elif [ "${args[0]}" = --all ]; then
    args=("${args[@]:1}")
fi
swift test --disable-xctest --scratch-path "$scratch" -Xswiftc -DPERIMETER_INVARIANTS "${args[@]}"
if [ "$crosscheck" -eq 1 ]; then
    swift build --scratch-path "$scratch" -Xswiftc -DPERIMETER_INVARIANTS --product perimeter
    python3 Scripts/semantics-crosscheck.py 100 "$scratch/debug/perimeter"
fi
echo "invariants.sh: the tests with PERIMETER_INVARIANTS passed in $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# Runs the tests under AddressSanitizer (with LeakSanitizer) and then ThreadSanitizer, each in its own
# scratch folder (.build-asan, .build-tsan: each is a full rebuild of several minutes).
#   Scripts/sanitizers.sh [address|thread]...         (both when none is named)
#   SANITIZE_ALL=1 Scripts/sanitizers.sh ...          the whole suite under each
#   Scripts/sanitizers.sh --with-invariants thread    ThreadSanitizer's build also compiles in the engine's
#                                                     invariant checks (PERIMETER_INVARIANTS, Scripts/invariants.sh)
#                                                     and then runs the 100 crosscheck scenarios through its binary:
#                                                     invariants.sh's pass without a build of its own (CI does this)
# Each sanitizer runs the test targets that exercise what it checks (the whole suite runs once, plainly,
# in the fast tier):
#   address  the targets with unsafe pointers, C libraries or byte-level parsing: escapers, number text,
#            files, fix tables, GPX (libxml2, zlib), time (ISO 8601 bytes), draws (SHA-256's blocks),
#            geodesy, the engine, the wire format, the sinks (SQLite, libcurl), documents and scenarios;
#   thread   the targets that run work on threads: geodesy (the shape table every lane reads), parallel
#            (concurrentMap), the engine (DeviceLanes), fix tables (pieces read in parallel), a scenario's
#            GPX tracks read ahead (TrackReadAheadTests), the sinks (the journal writer, the HTTP sender),
#            runs (batches, streams, interruption) and compare.
# Logs go to .build-asan/test.log and .build-tsan/test.log; the exit status is non-zero when either failed.
set -uo pipefail
cd "$(dirname "$0")/.."

invariants=0
if [ "${1:-}" = --with-invariants ]; then invariants=1; shift; fi
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)
status=0
for kind in "${kinds[@]}"; do
  case $kind in
    address) scratch=.build-asan
             filter='TextEscapingTests|NumberTextTests|FileSystemTests|FixTablesTests|GPXTests|TimeTests|DrawsTests|GeodesyTests|GeofencingTests|WireFormatTests|EventSinksTests|EventSinksSQLiteTests|EventSinksHTTPTests|DocumentsTests|ScenarioFormatTests' ;;
    thread) scratch=.build-tsan
            filter='GeodesyTests|ParallelTests|GeofencingTests|FixTablesTests|TrackReadAheadTests|EventSinksTests|EventSinksHTTPTests|RunsTests|AnalysisTests' ;;
    *) echo "sanitizers.sh: unknown sanitizer $kind (address, thread)" >&2; exit 2 ;;
  esac
  selection=(--filter "$filter")
  [ "${SANITIZE_ALL:-0}" = 1 ] && selection=()
  # The thread kind's filter holds every target invariants.sh runs (Geodesy, Geofencing, Runs, Analysis).
  flags=()
  [ "$invariants" = 1 ] && [ "$kind" = thread ] && flags=(-Xswiftc -DPERIMETER_INVARIANTS)
  mkdir -p "$scratch"
  echo "== swift test --sanitize=$kind ${selection[*]} (scratch $scratch, log $scratch/test.log)"
  # halt_on_error=0 for TSan: report every race, then fail at exit (exitcode 66). The suppressions
  # (Scripts/lsan-suppressions.txt) name leaks in Foundation and libcurl, not Perimeter's; the perimeter
  # processes that the tests launch inherit these options.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0} \
    LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/Scripts/lsan-suppressions.txt:print_suppressions=0} \
    swift test --disable-xctest --sanitize="$kind" --scratch-path "$scratch" "${flags[@]}" "${selection[@]}" 2>&1 | tee "$scratch/test.log"
  result=${PIPESTATUS[0]}
  if [ ${#flags[@]} -gt 0 ] && [ "$result" -eq 0 ]; then
    echo "== the crosscheck's 100 scenarios through the binary with the invariants and $kind sanitizer compiled in"
    swift build --sanitize="$kind" --scratch-path "$scratch" "${flags[@]}" --product perimeter 2>&1 | tail -1
    TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0} python3 Scripts/semantics-crosscheck.py 100 "$scratch/debug/perimeter" 2>&1 | tee -a "$scratch/test.log"
    result=${PIPESTATUS[0]}
  fi
  echo "== --sanitize=$kind: exit $result; $(grep -c 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer' "$scratch/test.log") sanitizer reports"
  [ "$result" -eq 0 ] || status=1
done
exit $status

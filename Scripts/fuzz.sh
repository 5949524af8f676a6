#!/usr/bin/env bash
# Builds one libFuzzer target of Fuzz/ and runs it for SECONDS.
#   Scripts/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags…]
#   TARGET: gpx | scenario | regions | engine | fixtable (or gpx-fuzz, …); SECONDS defaults to 300.
# The corpus grows in Fuzz/corpus/TARGET (seeded from the repository's fixtures on every run), crashes,
# timeouts, leaks and out-of-memory inputs land in Fuzz/findings/TARGET/, the log in Fuzz/logs/TARGET.log.
# The Perimeter modules and the target are built with -sanitize=fuzzer,address in Fuzz/.build-fuzz.
# Reproduce a finding: Fuzz/.build-fuzz/release/TARGET-fuzz Fuzz/findings/TARGET/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

target=${1:?usage: Scripts/fuzz.sh gpx|scenario|regions|engine|fixtable [SECONDS] [libFuzzer flags…]}
target=${target%-fuzz}
seconds=${2:-300}
shift $(( $# >= 2 ? 2 : 1 ))

corpus=Fuzz/corpus/$target
findings=Fuzz/findings/$target
mkdir -p "$corpus" "$findings" Fuzz/logs

seed() { for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"; done; return 0; }
dict=()
case $target in
  gpx)
    shopt -s nullglob
    seed Tests/GPXTests/Fixtures/conformance/*.gpx Tests/GPXTests/Fixtures/hostile/* Tests/GPXTests/Fixtures/fuzz/*
    ;;
  scenario)
    shopt -s nullglob globstar
    seed Scenarios/*.yaml Tests/ScenarioFormatTests/Fixtures/**/*.yaml Tests/ScenarioFormatTests/Fixtures/**/*.json \
      Tests/ScenarioFormatTests/Fixtures/**/*.geojson Tests/ScenarioFormatTests/Fixtures/fuzz/*
    ;;
  regions)
    shopt -s nullglob globstar
    seed Tests/ScenarioFormatTests/Fixtures/**/*.geojson Tracks/*.geojson Tests/ScenarioFormatTests/Fixtures/fuzz/*.geojson
    ;;
  fixtable)
    shopt -s nullglob
    seed Tests/FixTablesTests/Fixtures/*
    ;;
  engine)
    # Random bytes are as good a start as any: every input decodes to a simulation.
    [ -n "$(ls -A "$corpus")" ] || head -c 64 /dev/urandom >"$corpus/seed-random"
    ;;
  *) echo "fuzz.sh: unknown target $target (gpx, scenario, regions, engine, fixtable)" >&2; exit 2 ;;
esac

# The build plan is made again: SwiftPM keeps the one it made for a path dependency (the Perimeter package)
# and does not see a source file added to it since, which then fails to compile as missing.
rm -f Fuzz/.build-fuzz/release.yaml
swift build -c release --package-path Fuzz --scratch-path Fuzz/.build-fuzz --product "$target-fuzz" \
  -Xswiftc -sanitize=fuzzer,address
binary=Fuzz/.build-fuzz/release/$target-fuzz

# -timeout: a single input taking over 10 s is a hang; -rss_limit_mb: over 2 GB is a resource bug.
export PERIMETER_ROOT=$root
"$binary" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$findings/" -print_final_stats=1 "$@" 2>&1 | tee "Fuzz/logs/$target.log"

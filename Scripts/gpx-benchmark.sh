#!/usr/bin/env bash
# Benchmarks the GPX reader against libxml2 itself, on one generated file in one run:
#   the Swift GPXReader (release build), a C SAX2 push-parser reference, and xmllint --stream.
# Usage: Scripts/gpx-benchmark.sh [POINTS=1000000] [CALLGRIND_POINTS=0]
# With CALLGRIND_POINTS > 0 it also counts instructions per point under valgrind --tool=callgrind.
set -euo pipefail
points=${1:-1000000}
callgrind_points=${2:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gpx-benchmark.XXXXXX")
trap 'rm -rf "$work"' EXIT

command -v xmllint >/dev/null || { echo "xmllint missing: apt-get install libxml2-utils" >&2; exit 1; }
echo "== building (release)"
swift build -c release --package-path "$root/Benchmarks" --product gpx-benchmark >/dev/null
bench=$(swift build -c release --package-path "$root/Benchmarks" --show-bin-path)/gpx-benchmark
gcc -O2 "$root/Benchmarks/Reference/sax2_count.c" $(pkg-config --cflags --libs libxml-2.0) -o "$work/sax2_count"

echo "== generating $points points"
"$bench" generate "$points" "$work/track.gpx"
cat "$work/track.gpx" > /dev/null   # warm the page cache for everyone

# Runs a command three times and keeps the fastest wall time; prints "seconds peak_kB".
measure() {
    local best="" peak=0
    for _ in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2>&1 || { cat "$work/out"; exit 1; }
        read -r seconds kb < "$work/time"
        if [[ -z $best ]] || awk "BEGIN{exit !($seconds < $best)}"; then best=$seconds; fi
        (( kb > peak )) && peak=$kb
    done
    echo "$best $peak"
}

echo "== timing (best of 3)"
read -r swift_s swift_kb < <(measure "$bench" read "$work/track.gpx")
sed 's/^/   /' "$work/out"
read -r c_s c_kb < <(measure "$work/sax2_count" "$work/track.gpx")
sed 's/^/   /' "$work/out"
read -r lint_s lint_kb < <(measure xmllint --stream --noout "$work/track.gpx")

printf '%-26s %8s %12s %10s\n' "reader" "seconds" "points/s" "peak MB"
for row in "Swift GPXReader:$swift_s:$swift_kb" "C SAX2 push (64 KB):$c_s:$c_kb" "xmllint --stream:$lint_s:$lint_kb"; do
    IFS=: read -r name s kb <<< "$row"
    printf '%-26s %8s %12.0f %10.1f\n' "$name" "$s" "$(awk "BEGIN{print $points/$s}")" "$(awk "BEGIN{print $kb/1024}")"
done
echo "ratios: Swift/C SAX2 = $(awk "BEGIN{printf \"%.2f\", $swift_s/$c_s}"), xmllint/C SAX2 = $(awk "BEGIN{printf \"%.2f\", $lint_s/$c_s}"), Swift/xmllint = $(awk "BEGIN{printf \"%.2f\", $swift_s/$lint_s}")"

if (( callgrind_points > 0 )); then
    command -v valgrind >/dev/null || { echo "valgrind missing" >&2; exit 1; }
    echo "== instructions per point under callgrind ($callgrind_points points)"
    "$bench" generate "$callgrind_points" "$work/small.gpx" > /dev/null
    # valgrind 3.19 cannot read the DWARF 5 that Swift writes: a copy without debug information, symbols kept.
    strip --strip-debug "$bench" -o "$work/gpx-benchmark"
    for name in swift c; do
        if [[ $name == swift ]]; then cmd=("$work/gpx-benchmark" read "$work/small.gpx"); else cmd=("$work/sax2_count" "$work/small.gpx"); fi
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$name" "${cmd[@]}" > /dev/null 2> "$work/cg.$name.log"
        ir=$(grep -E '^summary:|^totals:' "$work/cg.$name" | head -1 | awk '{print $2}')
        echo "   $name: $ir instructions, $(( ir / callgrind_points )) per point"
        echo "$ir" > "$work/ir.$name"
    done
    echo "instruction ratio Swift/C = $(awk "BEGIN{printf \"%.2f\", $(cat "$work/ir.swift")/$(cat "$work/ir.c")}")"
fi

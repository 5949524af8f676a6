#!/usr/bin/env python3
"""Checks the benchmarks' instruction counts against Benchmarks/thresholds.json.

    python3 Benchmarks/Scripts/check-thresholds.py [--update] [--only ID ...] [--jobs N] [--no-build]
                                                   [--scratch-path DIR] [--static-swift-stdlib]

Builds the benchmarks in release, makes each input once natively (a GPX file, fix tables), then runs
each figure's command under `valgrind --tool=callgrind`, counting only what runs inside the figure's
toggle function (`perimeter_benchmark_measured` in the benchmarks: `Sources/BenchmarkSupport`; a
libxml2 function for xmllint), and divides by the units the command reports (`measured: COUNT UNIT`,
or the figure named by `units_from`). A ratio figure divides one figure by another measured in the same
run (the GPX read by xmllint's on the same file), so it does not depend on the machine.

A timed figure (`timed`: NAME) is a ratio of times a command prints as `ratio: NAME VALUE`, measured in
one process with its reference (the fleet on two threads against one thread and against reading its
tracks: fleet-benchmark); its command runs once, outside callgrind and after it, so that it has the cores
to itself. Its tolerance is wide and its ceiling is what it is held to. A timed command with a figure over
its limit is timed once more, and the second timing is the one judged and printed (marked `retimed`): a
shared machine's neighbour can take a core for a few seconds, a regression holds in both timings.

The machine's load is measured with every timing: the share of all its processors' time that other
processes used meanwhile (`/proc/stat`'s busy time less this script's children's own, `others`). Before
each timing the script waits, up to two minutes, for the machine to be quiet (others under 15 %). A timed
figure over its limit whose judged timing ran on a busy machine (others at 15 % or more) is not judged:
it is printed `busy`, with the load, and fails nothing, since a two-thread ratio measures the neighbour
as much as the code there (run ÷ inspect read 2.2 with one core taken, 1.24 quiet). Counted figures
(instructions, allocations) do not depend on the load and are always judged. `--update` keeps today's
value of a timed figure measured on a busy machine.

A counted figure may also hold `allocations`: heap allocations per unit, from the same callgrind run (how
many times glibc's allocators were entered inside the toggle, `allocations()`), with `today` and a
`ceiling`; the figure fails when they rise above the ceiling.

A figure fails when it exceeds `today × (1 + tolerance)`, or its `ceiling` when it has one. Instruction
counts are steady on a shared machine where wall times are not: the same binary and input give the same
count to within a few hundred instructions (Swift's hashing is made deterministic here). `--update`
records the measured values as today's (with the date and commit) and keeps tolerances and ceilings.
Prints every figure; exits 1 when one fails, 2 on a bad thresholds file or a failed command.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

BENCHMARKS = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
THRESHOLDS = os.path.join(BENCHMARKS, "thresholds.json")
MEASURED = re.compile(r"^measured: (\d+) (\w+)$", re.MULTILINE)
TIMED = re.compile(r"^ratio: ([\w-]+) ([\d.]+)$", re.MULTILINE)
# glibc's allocators, one entry an allocation: malloc, calloc, realloc, and _int_memalign, where
# posix_memalign, aligned_alloc and memalign go past 16-byte alignment (at 16 bytes or less they call malloc,
# counted there). Swift's swift_slowAlloc calls malloc, or posix_memalign past 16 bytes. free is not counted;
# a realloc of nothing, which calls malloc, counts twice (Swift makes none).
ALLOCATORS = {"malloc", "calloc", "realloc", "_int_memalign"}
NAMED = re.compile(r"^(c?fn)=\((\d+)\)(?: (.*))?$")


def fail(message):
    print(f"check-thresholds: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            document = json.load(f)
    except (OSError, json.JSONDecodeError) as error:
        fail(f"{path}: {error}")
    ids = [figure.get("id") for figure in document.get("figures", [])]
    for figure in document.get("figures", []):
        for key in ("id", "per", "today", "tolerance", "measured"):
            if key not in figure:
                fail(f"{path}: the figure {figure.get('id', '?')} has no '{key}'")
        if "allocations" in figure:
            if "command" not in figure or "timed" in figure:
                fail(f"{path}: the figure {figure['id']} counts allocations but runs no command under callgrind")
            for key in ("today", "ceiling"):
                if not isinstance(figure["allocations"].get(key), (int, float)):
                    fail(f"{path}: the figure {figure['id']}'s allocations have no number '{key}'")
        if ("command" in figure) == ("ratio" in figure):
            fail(f"{path}: the figure {figure['id']} needs either 'command' or 'ratio'")
        for other in figure.get("ratio", []) + ([figure["units_from"]] if "units_from" in figure else []):
            if other not in ids:
                fail(f"{path}: the figure {figure['id']} refers to {other}, which is not a figure")
    return document


def swift_build(options):
    """`swift build` of the benchmarks in release, with the options' scratch path and static runtime."""
    words = ["swift", "build", "-c", "release", "--package-path", BENCHMARKS]
    if options.scratch_path:
        words += ["--scratch-path", os.path.abspath(options.scratch_path)]
    if options.static_swift_stdlib:
        words.append("--static-swift-stdlib")
    return words


def build(options):
    print("== building the benchmarks (release)", flush=True)
    began = time.monotonic()
    subprocess.run(swift_build(options), check=True, stdout=subprocess.DEVNULL)
    print(f"   {time.monotonic() - began:.0f} s", flush=True)


def bin_path(options):
    return subprocess.run(swift_build(options) + ["--show-bin-path"], check=True, capture_output=True,
                          text=True).stdout.strip()


def expand(arguments, bin_dir, work, stripped=False):
    """A command's words with {work} replaced and a benchmark's name made its path in the build; with
    `stripped`, a copy without debug information in `work` (valgrind 3.19 cannot read the DWARF 5 that
    Swift's compiler writes, and gives up; the symbols, which the toggle needs, stay)."""
    words = [word.replace("{work}", work) for word in arguments]
    candidate = os.path.join(bin_dir, words[0])
    if os.path.exists(candidate):
        words[0] = candidate
        if stripped:
            words[0] = os.path.join(work, "bin", os.path.basename(candidate))
            if not os.path.exists(words[0]):
                os.makedirs(os.path.dirname(words[0]), exist_ok=True)
                subprocess.run(["strip", "--strip-debug", candidate, "-o", words[0]], check=True)
    elif shutil.which(words[0]) is None:
        fail(f"{words[0]} is neither a built benchmark nor on PATH")
    return words


def allocations(lines):
    """Heap allocations in a callgrind profile written with --dump-instr=yes: how many times the first
    instruction of each allocator (`ALLOCATORS`) ran while callgrind collected, that is, its calls inside the
    toggle. Not the `calls=` counts of the profile's arcs: callgrind goes on counting an arc's calls while
    collection is off (a benchmark's input made before its `measured` would count). The entry is the
    address the profile's calls of the function go to; a cost line is `ADDRESS LINE COST`, an address
    absolute (`0x…`), relative to the one before (`+N`, `-N`) or the same (`*`); the line after a `calls=`
    is that call's inclusive cost, not the caller's own. O(lines)."""
    names, function, callee, entries, counts = {}, None, None, {}, {}
    address, inclusive = 0, False
    for line in lines:
        named = NAMED.match(line)
        if named:
            kind, number, name = named.groups()
            if name is not None:
                names[number] = name
            if kind == "fn":
                function = names.get(number)
            else:
                callee = names.get(number)
            continue
        if line.startswith("calls="):
            target = line.split()[1]
            if callee in ALLOCATORS:
                entries.setdefault(callee, set()).add(position(target, address))
            inclusive = True
            continue
        if line[:1] not in ("0", "+", "-", "*"):
            continue
        words = line.split()
        address = position(words[0], address)
        if inclusive:
            inclusive = False
        elif function in ALLOCATORS:
            costs = counts.setdefault(function, {})
            costs[address] = costs.get(address, 0) + int(words[-1])
    return sum(counts.get(f, {}).get(a, 0) for f in ALLOCATORS for a in entries.get(f, ()))


def position(token, last):
    """An instruction address of a cost or call line: absolute, relative to `last`, or `last` itself."""
    if token == "*":
        return last
    if token[0] in "+-":
        return last + int(token)
    return int(token, 16) if token.startswith("0x") else int(token)


def callgrind(figure, bin_dir, work, environment):
    """(instructions counted, units reported or None, seconds, heap allocations) of one figure's command
    under callgrind."""
    out = os.path.join(work, f"callgrind.{figure['id'].replace('/', '.')}")
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no", "--dump-instr=yes",
               f"--toggle-collect={figure.get('toggle', 'perimeter_benchmark_measured')}"]
    command += expand(figure["command"], bin_dir, work, stripped=True)
    began = time.monotonic()
    result = subprocess.run(command, cwd=BENCHMARKS, env=environment, capture_output=True, text=True)
    seconds = time.monotonic() - began
    if result.returncode != 0:
        fail(f"{figure['id']}: {' '.join(command)} exited {result.returncode}:\n{result.stdout}{result.stderr}")
    with open(out) as f:
        text = f.read()
    totals = re.search(r"^(?:totals|summary): (\d+)", text, re.MULTILINE)
    if totals is None or int(totals.group(1)) == 0:
        fail(f"{figure['id']}: callgrind counted nothing inside {figure.get('toggle', 'perimeter_benchmark_measured')}")
    units = MEASURED.search(result.stdout)
    if units and units.group(2) != figure["per"]:
        fail(f"{figure['id']}: the command counts {units.group(2)}s, the figure is per {figure['per']}")
    return int(totals.group(1)), (int(units.group(1)) if units else None), seconds, allocations(text.splitlines())


# Other processes' share of the machine at or above which it is busy: a timing then is not judged.
BUSY = 0.15


def processor_times():
    """(busy, all) seconds of every processor since boot, from /proc/stat's first line (idle and iowait
    are not busy; guest time is inside user time)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - fields[3] - fields[4]) / hz, sum(fields) / hz


def children_seconds():
    """The processor seconds this script's finished children (and theirs) used."""
    t = os.times()
    return t.children_user + t.children_system


def others_share(before, after, ours):
    """The share of the machine's processor time that processes other than ours used between two
    `processor_times()` readings, `ours` being our children's seconds meanwhile."""
    busy, every = after[0] - before[0], after[1] - before[1]
    return max(0.0, busy - ours) / every if every > 0 else 0.0


def wait_for_quiet(limit_seconds=120):
    """Waits, in 2 s looks, until other processes use less than BUSY of the machine, at most
    `limit_seconds`; returns the last look's share."""
    waited, share = 0, 1.0
    while waited <= limit_seconds:
        before = processor_times()
        time.sleep(2)
        share = others_share(before, processor_times(), 0.0)
        if share < BUSY:
            return share
        if waited == 0:
            print(f"== the machine is busy (other processes use {share:.0%} of it): waiting up to {limit_seconds} s",
                  flush=True)
        waited += 2
    return share


def timed(command, bin_dir, work, environment):
    """({name: ratio}, seconds, others) of a timed command (not under callgrind): its `ratio: NAME VALUE`
    lines, its wall time, and the share of the machine other processes used while it ran."""
    words = expand(command, bin_dir, work)
    wait_for_quiet()
    began, before, ours = time.monotonic(), processor_times(), children_seconds()
    result = subprocess.run(words, cwd=BENCHMARKS, env=environment, capture_output=True, text=True)
    others = others_share(before, processor_times(), children_seconds() - ours)
    if result.returncode != 0:
        fail(f"{' '.join(words)} exited {result.returncode}:\n{result.stdout}{result.stderr}")
    return {name: float(value) for name, value in TIMED.findall(result.stdout)}, time.monotonic() - began, others


def limit_of(figure):
    """What a figure is held to: today × (1 + tolerance), or its ceiling when that is lower."""
    limit = figure["today"] * (1 + figure["tolerance"])
    return min(limit, figure["ceiling"]) if "ceiling" in figure else limit


def retime(ratios, figures, wanted):
    """The timed commands with a figure over its limit (or missing), to be timed once more."""
    over = []
    for command, (found, _, _) in ratios.items():
        shared = [figures[i] for i in wanted if "timed" in figures[i] and tuple(figures[i]["command"]) == command]
        if any(found.get(f["timed"], float("inf")) > limit_of(f) for f in shared):
            over.append(command)
    return over


def dumped(value, indent=""):
    """The thresholds file's text: JSON indented by two, a list of plain values (a command) on one line."""
    inner = indent + "  "
    if isinstance(value, dict):
        members = [f"{inner}{json.dumps(k)}: {dumped(v, inner)}" for k, v in value.items()]
        text = "{\n" + ",\n".join(members) + "\n" + indent + "}"
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        text = "[\n" + ",\n".join(inner + dumped(v, inner) for v in value) + "\n" + indent + "]"
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text + ("\n" if indent == "" else "")


def provenance():
    """Where today's values come from: the date, the commit and the tools whose versions move the counts."""
    def first_line(command):
        result = subprocess.run(command, capture_output=True, text=True)
        return (result.stdout or result.stderr).strip().split("\n")[0]
    commit = first_line(["git", "-C", BENCHMARKS, "rev-parse", "--short", "HEAD"]) or "unknown"
    dirty = subprocess.run(["git", "-C", BENCHMARKS, "diff", "--quiet", "HEAD", "--", ".."]).returncode != 0
    swift = re.search(r"Swift version [^ ]+", first_line(["swift", "--version"]))
    libxml2 = first_line(["xmllint", "--version"]).split()[-1] if shutil.which("xmllint") else "?"
    return (f"{datetime.date.today().isoformat()}, commit {commit}{' with changes' if dirty else ''}; "
            f"{first_line(['valgrind', '--version'])}, {swift.group(0) if swift else 'Swift ?'}, libxml2 {libxml2}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--update", action="store_true", help="record the measured values as today's")
    parser.add_argument("--only", nargs="+", metavar="ID", help="measure these figures (and what they need)")
    parser.add_argument("--jobs", type=int, default=2, help="callgrind runs at once (default 2)")
    parser.add_argument("--no-build", action="store_true", help="use the benchmarks as built")
    parser.add_argument("--scratch-path", metavar="DIR",
                        help="build in DIR (the project's .build: the modules a release build of perimeter made "
                             "with the same flags are reused, not compiled again)")
    parser.add_argument("--static-swift-stdlib", action="store_true",
                        help="link the Swift runtime in, as the binary shipped to CI servers and Spark is")
    options = parser.parse_args()
    for tool in ("valgrind", "swift"):
        if shutil.which(tool) is None:
            fail(f"{tool} is missing (valgrind: apt-get install valgrind)")
    document = load(THRESHOLDS)
    figures = {figure["id"]: figure for figure in document["figures"]}
    wanted = set(options.only or figures)
    unknown = wanted - set(figures)
    if unknown:
        fail(f"no such figure: {', '.join(sorted(unknown))}")
    # What the chosen figures need: the figures they divide by, and those that give their units.
    pending = list(wanted)
    while pending:
        figure = figures[pending.pop()]
        for other in figure.get("ratio", []) + ([figure["units_from"]] if "units_from" in figure else []):
            if other not in wanted:
                wanted.add(other)
                pending.append(other)

    began = time.monotonic()
    if not options.no_build:
        build(options)
    bin_dir = bin_path(options)
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    work = tempfile.mkdtemp(prefix="check-thresholds.")
    try:
        for name, arguments in document.get("inputs", {}).items():
            if any(f"{{work}}/{name}" in " ".join(figures[i].get("command", [])) for i in wanted):
                subprocess.run(expand(arguments, bin_dir, work), cwd=BENCHMARKS, env=environment, check=True,
                               stdout=subprocess.DEVNULL)
        measured = [figures[i] for i in figures if i in wanted and "command" in figures[i] and "timed" not in figures[i]]
        for figure in measured:
            expand(figure["command"], bin_dir, work, stripped=True)
        print(f"== {len(measured)} commands under callgrind, {options.jobs} at a time", flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
            counts = dict(zip([f["id"] for f in measured],
                              pool.map(lambda f: callgrind(f, bin_dir, work, environment), measured)))
        # Timed figures: each command once, alone (the figures that share a command share its run).
        ratios, retimed = {}, set()
        for command in {tuple(figures[i]["command"]) for i in wanted if "timed" in figures[i]}:
            print(f"== timing {' '.join(command)}", flush=True)
            ratios[command] = timed(list(command), bin_dir, work, environment)
        for command in retime(ratios, figures, wanted):
            print(f"== timing again (a figure over its limit) {' '.join(command)}", flush=True)
            ratios[command] = timed(list(command), bin_dir, work, environment)
            retimed.add(command)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    values, allocated, loads = {}, {}, {}
    for figure in (figures[i] for i in figures if i in wanted and "timed" in figures[i]):
        found, seconds, loads[figure["id"]] = ratios[tuple(figure["command"])]
        if figure["timed"] not in found:
            fail(f"{figure['id']}: the command printed no 'ratio: {figure['timed']} VALUE' line")
        values[figure["id"]] = found[figure["timed"]]
        counts[figure["id"]] = (None, None, seconds, None)
    for figure in (figures[i] for i in figures if i in wanted and "command" in figures[i] and "timed" not in figures[i]):
        instructions, units, _, allocation_calls = counts[figure["id"]]
        if "units_from" in figure:
            units = counts[figure["units_from"]][1]
        if not units:
            fail(f"{figure['id']}: no units (the command printed no 'measured:' line and names no units_from)")
        values[figure["id"]] = instructions / units
        allocated[figure["id"]] = allocation_calls / units
    for figure in (figures[i] for i in figures if i in wanted and "ratio" in figures[i]):
        numerator, denominator = figure["ratio"]
        values[figure["id"]] = values[numerator] / values[denominator]

    failures, busy = 0, 0
    print(f"{'figure':34} {'per':>7} {'measured':>12} {'today':>12} {'÷ today':>8} {'limit':>12}  result  seconds")
    for figure in document["figures"]:
        if figure["id"] not in wanted:
            continue
        value, today = values[figure["id"]], figure["today"]
        limit = limit_of(figure)
        ok = value <= limit
        # A timed figure over its limit on a busy machine is not judged (the module's doc says why).
        unjudged = not ok and loads.get(figure["id"], 0.0) >= BUSY
        failures += not ok and not unjudged
        busy += unjudged
        digits = 3 if "ratio" in figure or "timed" in figure else 1
        seconds = f"{counts[figure['id']][2]:8.1f}" if figure["id"] in counts else ""
        others = f"  others {loads[figure['id']]:.0%}" if figure["id"] in loads else ""
        print(f"{figure['id']:34} {figure['per']:>7} {value:12.{digits}f} {today:12.{digits}f} {value / today:8.3f}"
              f" {limit:12.{digits}f}  {'busy' if unjudged else 'ok' if ok else 'FAIL':6}{seconds}{others}"
              f"{'  retimed' if tuple(figure.get('command', [])) in retimed and 'timed' in figure else ''}")
        if options.update and loads.get(figure["id"], 0.0) < BUSY:
            figure["today"] = round(value, digits)
    counted = [f for f in document["figures"] if f["id"] in wanted and "allocations" in f]
    if counted:
        print(f"\n{'heap allocations':34} {'per':>7} {'measured':>12} {'today':>12} {'calls':>12} {'ceiling':>12}  result")
    for figure in counted:
        value, bounds = allocated[figure["id"]], figure["allocations"]
        ok = value <= bounds["ceiling"]
        failures += not ok
        calls = counts[figure["id"]][3]
        print(f"{figure['id']:34} {figure['per']:>7} {value:12.4f} {bounds['today']:12.4f} {calls:12d}"
              f" {bounds['ceiling']:12.4f}  {'ok' if ok else 'FAIL'}")
        if options.update:
            bounds["today"] = round(value, 4)
    print(f"== {time.monotonic() - began:.0f} s in all")
    if busy:
        print(f"{busy} timed figure{'s' if busy > 1 else ''} over {'their' if busy > 1 else 'its'} limit not judged: "
              f"other processes used {BUSY:.0%} or more of the machine while {'they' if busy > 1 else 'it'} ran "
              f"(counted figures are judged whatever the load)")
    if options.update:
        document["recorded"] = provenance()
        with open(THRESHOLDS, "w") as f:
            f.write(dumped(document))
        print(f"recorded today's values in {os.path.relpath(THRESHOLDS)}")
        return 0
    if failures:
        print(f"{failures} figure{'s' if failures > 1 else ''} over {'their' if failures > 1 else 'its'} threshold")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`perimeter stream` against `perimeter run` on the same fleets, in one run: peak memory as the fleet grows
from 100 to 1,000 devices (one hour each, a fix a second), and rows per second.

    python3 Benchmarks/Scripts/stream-benchmark.py [--binary .build/release/perimeter] [DEVICES ...]

Each fleet is Scripts/example-fleet.py's vans (Saint Petersburg, Groser's six zones, Android), sorted by
device as it is written. Each command runs in a child whose peak resident memory is read with wait4;
times are the best of two. The reference for memory is `perimeter run`, which holds the whole fleet.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def measured(command, stdin_path=None):
    """(seconds, peak MB) of one run of `command`, its output discarded."""
    began = time.monotonic()
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    child = subprocess.Popen(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - began
    if stdin_path:
        stdin.close()
    if status != 0:
        sys.exit(f"{' '.join(command)} failed: {child.stderr.read().decode()}")
    return seconds, usage.ru_maxrss / 1024


def best(command, stdin_path=None):
    runs = [measured(command, stdin_path) for _ in range(2)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("devices", nargs="*", type=int, default=[100, 1000])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "perimeter"))
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="perimeter-stream-bench-")
    try:
        measure(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(args, folder):
    print(f"load average {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    print(f"{'devices':>8} {'rows':>10} | {'stream s':>8} {'rows/s':>10} {'peak MB':>8} | "
          f"{'run s':>7} {'rows/s':>10} {'peak MB':>8} | {'stream ÷ run time':>17}")
    for devices in args.devices:
        csv = os.path.join(folder, f"fleet-{devices}.csv")
        subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "example-fleet.py"), csv, str(devices), "1"],
                       check=True, stdout=subprocess.DEVNULL)
        rows = sum(1 for _ in open(csv)) - 1
        scenario = os.path.join(folder, f"fleet-{devices}.yaml")
        with open(scenario, "w") as out:
            out.write(f"name: fleet\nprofile: android\nregions:\n  - geojson: {ROOT}/Tracks/groser-zones.geojson\n"
                      f"devices:\n  - fixes: {csv}\n")
        stream = best([args.binary, "stream", scenario, "--start", "2024-05-01T09:00:00Z", "--sink", "csv:-",
                       "--quiet"], csv)
        run = best([args.binary, "run", scenario, "--sink", "csv:-", "--quiet"])
        print(f"{devices:8} {rows:10,} | {stream[0]:8.2f} {rows / stream[0]:10,.0f} {stream[1]:8.1f} | "
              f"{run[0]:7.2f} {rows / run[0]:10,.0f} {run[1]:8.1f} | {stream[0] / run[0]:17.2f}")


if __name__ == "__main__":
    main()

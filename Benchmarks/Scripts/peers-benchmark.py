#!/usr/bin/env python3
"""Perimeter against what an analyst writes instead, in one run: 300 vans × 1 h at a fix a second (1.08 M
rows, Scripts/example-fleet.py) against 100 zones (50 circles, 50 squares) under `ideal` (ground truth),
whole process each, the median of five after one untimed run, with the same enters and exits checked.

    python3 Benchmarks/Scripts/peers-benchmark.py [--binary .build/release/perimeter] [--keep] [VANS]

The references run in a virtual environment this script makes (Benchmarks/.build-peers/venv): DuckDB
1.5.5 with its spatial extension from PyPI (duckdb-extension-spatial, loaded offline through
duckdb-extensions), and GeoPandas. Their scripts are peers/duckdb_events.py and peers/geopandas_events.py.
"""
import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
VENV = os.path.join(ROOT, "Benchmarks", ".build-peers", "venv")
PACKAGES = ["duckdb==1.5.5", "duckdb-extension-spatial==1.5.5", "duckdb-extensions==1.5.5", "geopandas", "pyarrow"]
R = 6371008.8


def venv_python():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check"] + PACKAGES, check=True)
    return python


def zones(folder):
    """50 circles and 50 squares (80 to 600 m) over the vans' city, seeded; as the references read them
    (JSON) and as the scenario gives them (circles inline, squares in GeoJSON)."""
    rng = random.Random(16)
    circles, polygons, features = [], [], []
    for i in range(100):
        lat, lon = 59.95 + rng.uniform(-0.05, 0.05), 30.31 + rng.uniform(-0.09, 0.09)
        h = rng.randint(80, 600)
        if i % 2 == 0:
            circles.append({"id": f"c{i}", "lat": round(lat, 6), "lon": round(lon, 6), "radius": h})
            continue
        dlat, dlon = math.degrees(h / R), math.degrees(h / (R * math.cos(math.radians(lat))))
        ring = [[lon - dlon, lat - dlat], [lon + dlon, lat - dlat], [lon + dlon, lat + dlat], [lon - dlon, lat + dlat],
                [lon - dlon, lat - dlat]]
        wkt = "POLYGON((" + ", ".join(f"{x!r} {y!r}" for x, y in ring) + "))"
        polygons.append({"id": f"p{i}", "wkt": wkt})
        features.append({"type": "Feature", "id": f"p{i}", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [ring]}})
    with open(os.path.join(folder, "zones.json"), "w") as out:
        json.dump({"circles": circles, "polygons": polygons}, out)
    with open(os.path.join(folder, "squares.geojson"), "w") as out:
        json.dump({"type": "FeatureCollection", "features": features}, out)
    return circles


def median(command, out_path, runs=5):
    """Median wall time of `runs` whole-process runs (on a shared machine the best run is a lucky one),
    after one run that is not timed (each tool's first run pays for what the run before it left: the
    fleet's generation frees hundreds of megabytes, and on a virtual machine new memory is slow to come
    back); standard output goes to `out_path`."""
    with open(out_path, "w") as out:
        subprocess.run(command, stdout=out, check=True)
    times = []
    for _ in range(runs):
        with open(out_path, "w") as out:
            began = time.monotonic()
            subprocess.run(command, stdout=out, check=True)
            times.append(time.monotonic() - began)
    return statistics.median(times)


def events(path, perimeter=False):
    """Enters and exits as (device, region, kind, time)."""
    found = set()
    for line in open(path):
        if perimeter:
            e = json.loads(line)
            if e["kind"] in ("enter", "exit"):
                found.add((e["device"], e["region"], e["kind"], e["time"]))
        elif line.strip():
            found.add(tuple(line.strip().split(",")))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("vans", nargs="?", type=int, default=300)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "perimeter"))
    parser.add_argument("--keep", action="store_true", help="keep the fleet, the scenario and the outputs (the folder is named)")
    args = parser.parse_args()
    python = venv_python()
    folder = tempfile.mkdtemp(prefix="perimeter-peers-")
    try:
        measure(args, python, folder)
    finally:
        if args.keep:
            print(f"kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def measure(args, python, folder):
    fleet = os.path.join(folder, "fleet.csv")
    subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "example-fleet.py"), fleet, str(args.vans), "1"],
                   check=True, stdout=subprocess.DEVNULL)
    circles = zones(folder)
    scenario = os.path.join(folder, "fleet.yaml")
    with open(scenario, "w") as out:
        out.write("name: peers\nprofile: ideal\nregions:\n")
        for c in circles:
            out.write(f"  - {{id: {c['id']}, circle: {{lat: {c['lat']}, lon: {c['lon']}, radius: {c['radius']}}}}}\n")
        # beside the scenario: a scenario reads only files inside the folder that holds it
        out.write("  - geojson: squares.geojson\ndevices:\n  - fixes: fleet.csv\n")
    rows = sum(1 for _ in open(fleet)) - 1
    zones_json = os.path.join(folder, "zones.json")
    print(f"{args.vans} vans × 1 h, {rows:,} rows, 100 zones, ideal; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    results = []
    out = os.path.join(folder, "perimeter.jsonl")
    results.append(("perimeter run (jsonl sink)", median([args.binary, "run", scenario, "--sink", "jsonl:-", "--quiet"], out), out, True))
    out = os.path.join(folder, "duckdb.csv")
    results.append(("DuckDB 1.5.5 + spatial", median([python, os.path.join(HERE, "peers", "duckdb_events.py"), fleet, zones_json], out), out, False))
    out = os.path.join(folder, "geopandas.csv")
    results.append(("GeoPandas", median([python, os.path.join(HERE, "peers", "geopandas_events.py"), fleet, zones_json], out), out, False))
    reference = events(results[0][2], perimeter=True)
    enters = sum(1 for e in reference if e[2] == "enter")
    print(f"{'':28} {'seconds':>8} {'÷ perimeter':>12}  events")
    for name, seconds, path, is_perimeter in results:
        found = events(path, perimeter=is_perimeter)
        same = "the same" if found == reference else f"DIFFERENT ({len(found - reference)} extra, {len(reference - found)} missing)"
        print(f"{name:28} {seconds:8.2f} {seconds / results[0][1]:12.2f}  {len(found):,} enters and exits, {same}")
    print(f"({enters:,} enters, {len(reference) - enters:,} exits)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the example field study's walks: four testers, each walking Rua Augusta's eight shops ten times
(east, then back west), standing a few minutes in some of them. Each tester's day is a journey file
(Tracks/journeys/field-study/tester-N.yaml); `perimeter track synth` makes the loggers' GPX tracks
(tracks/tester-N.gpx.gz) from them.

    python3 Examples/field-study/make-study.py        # rewrites the journeys (seeded: the same files)
    python3 Examples/field-study/make-study.py --observed PERIMETER   # rewrites observed.jsonl

There is no real phone behind this example's field log: `--observed` runs the study under the hidden
phone truth.profile.yaml (noise seed 7, not the scenario's 1) and writes what the app would have logged,
in the shape of docs/FIELD-LOGS.md (enters and exits with the decision time and the triggering position;
nothing only a simulation knows).
"""
import json, math, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAT0, LON0 = 38.7090, -9.1400          # the west end of the street
SHOPS = 8
SPACING = 300.0                        # metres between shop centres, along the street
M_PER_DEG_LAT = 111_195.0              # the one Earth model's mean radius, 6,371,008.8 m
M_PER_DEG_LON = M_PER_DEG_LAT * math.cos(math.radians(LAT0))


def point(east_m, north_m=0.0):
    return [round(LAT0 + north_m / M_PER_DEG_LAT, 7), round(LON0 + east_m / M_PER_DEG_LON, 7)]


def journey(tester, rng):
    lines = [f"# Tester {tester}'s logger: ten walks along the street, alternately east and west (make-study.py).",
             f"name: Tester {tester}", f"start: 2026-10-{13 + tester:02d}T08:00:00Z", "interval: 2s", "route:"]
    west, east = -400.0, SPACING * (SHOPS - 1) + 400.0
    lines.append(f"  - at: {point(west, 0)}")
    for walk in range(10):
        eastward = walk % 2 == 0
        order = range(SHOPS) if eastward else reversed(range(SHOPS))
        speed = round(rng.uniform(1.1, 1.6), 2)
        for shop in order:
            # Past the shop's centre at a small offset (the pavement), sometimes stopping inside.
            offset = round(rng.uniform(-15, 15), 1)
            lines.append(f"  - to: {point(shop * SPACING, offset)}")
            lines.append(f"    speed: {speed}")
            if rng.random() < 0.4:
                lines.append(f"  - stop: {rng.randint(2, 6)}min")
        end = east if eastward else west
        lines.append(f"  - to: {point(end, 0)}")
        lines.append(f"    speed: {speed}")
        lines.append(f"  - stop: {rng.randint(3, 10)}min")
    return "\n".join(lines) + "\n"


def observed(perimeter):
    """Runs the study under truth.profile.yaml with noise seed 7 and writes observed.jsonl."""
    with open(os.path.join(HERE, "study.yaml")) as f:
        study = f.read().replace("seed: 1}", "seed: 7}")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = os.path.join(HERE, ".observed-run.yaml")
        with open(scenario, "w") as f:
            f.write(study)
        try:
            subprocess.run([perimeter, "run", scenario, "--profile", os.path.join(HERE, "truth.profile.yaml"),
                            "--sink", f"jsonl:{tmp}/events.jsonl"], check=True, stdout=subprocess.DEVNULL)
        finally:
            os.remove(scenario)
        rows = [json.loads(line) for line in open(f"{tmp}/events.jsonl")]
    with open(os.path.join(HERE, "observed.jsonl"), "w") as out:
        for e in rows:
            if e["kind"] not in ("enter", "exit", "dwell"):
                continue                       # an app hears enters, exits and dwells only
            row = {"time": e["time"], "detectedAt": e.get("detectedAt", e["time"]), "device": e["device"],
                   "region": e["region"], "kind": e["kind"], "lat": round(e["lat"], 6), "lon": round(e["lon"], 6),
                   "platform": "ios", "os": "26.1", "model": "iPhone 15", "appState": "background"}
            out.write(json.dumps(row, separators=(",", ":")) + "\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--observed":
        return observed(sys.argv[2])
    rng = random.Random(2026)
    for tester in range(1, 5):
        with open(os.path.join(HERE, "..", "..", "Tracks", "journeys", "field-study", f"tester-{tester}.yaml"), "w") as f:
            f.write(journey(tester, rng))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A fleet of GPX tracks against many circles, for timing `perimeter run` at fleet scale (issue 41).

    python3 Benchmarks/Scripts/gpx-fleet.py OUT_FOLDER [DRIVERS] [SECONDS] [REGIONS] [PROFILE] [SIDE_KM]

Writes OUT_FOLDER/drivers/driver-NNNN.gpx (DRIVERS, default 500, each SECONDS long, default 3,600, a fix
a second), OUT_FOLDER/circles.geojson (REGIONS circles, default 10,000, radius 50-300 m) and
OUT_FOLDER/fleet.yaml, a scenario running every driver against the circles under PROFILE (default
ios-documented: the documented iOS thresholds, capacity 20, refreshed every 500 m). Everything lies in
the engine benchmark's 40 km square around Berlin; each driver keeps a speed (1-15 m/s) and heading for
10 s at a time, as the engine benchmark's devices do. Seeded: the same files every time. The defaults
are the fleet of issue 41 (1.8 M samples); CI's threshold check uses a smaller one (check-thresholds.py).
"""
import json
import math
import os
import random
import sys
from datetime import datetime, timedelta, timezone

R = 6371008.8
CENTRE = (52.52, 13.40)
SIDE = 40_000.0  # metres; SIDE_KM replaces it
START = datetime(2024, 5, 1, 9, 0, 0, tzinfo=timezone.utc)


def offset(north, east):
    """The point `north` and `east` metres from the centre (flat: the same for every binary)."""
    lat = CENTRE[0] + math.degrees(north / R)
    lon = CENTRE[1] + math.degrees(east / (R * math.cos(math.radians(CENTRE[0]))))
    return lat, lon


def write_driver(path, rng, seconds):
    half = SIDE / 2
    x, y = rng.uniform(-half, half), rng.uniform(-half, half)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>\n',
             '<gpx version="1.1" creator="gpx-fleet.py" xmlns="http://www.topografix.com/GPX/1/1">\n',
             "<trk><trkseg>\n"]
    speed = heading = 0.0
    for k in range(seconds + 1):
        if k % 10 == 0:
            speed, heading = rng.uniform(1, 15), rng.uniform(0, 2 * math.pi)
        lat, lon = offset(y, x)
        time = (START + timedelta(seconds=k)).strftime("%Y-%m-%dT%H:%M:%SZ")
        lines.append('<trkpt lat="%.6f" lon="%.6f"><time>%s</time></trkpt>\n' % (lat, lon, time))
        x = min(half, max(-half, x + speed * math.cos(heading)))
        y = min(half, max(-half, y + speed * math.sin(heading)))
    lines.append("</trkseg></trk>\n</gpx>\n")
    with open(path, "w") as out:
        out.writelines(lines)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    folder = sys.argv[1]
    drivers = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 3600
    regions = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000
    profile = sys.argv[5] if len(sys.argv) > 5 else "ios-documented"
    global SIDE
    SIDE = float(sys.argv[6]) * 1000 if len(sys.argv) > 6 else SIDE
    os.makedirs(os.path.join(folder, "drivers"), exist_ok=True)
    rng = random.Random(41)
    features = []
    for i in range(regions):
        lat, lon = offset(rng.uniform(-SIDE / 2, SIDE / 2), rng.uniform(-SIDE / 2, SIDE / 2))
        features.append({"type": "Feature", "id": f"r{i}",
                         "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
                         "properties": {"radius": rng.randint(50, 300)}})
    with open(os.path.join(folder, "circles.geojson"), "w") as out:
        json.dump({"type": "FeatureCollection", "features": features}, out, separators=(",", ":"))
    devices = []
    for d in range(drivers):
        name = "driver-%04d" % d
        write_driver(os.path.join(folder, "drivers", name + ".gpx"), rng, seconds)
        devices.append("  - {id: %s, track: drivers/%s.gpx}\n" % (name, name))
    with open(os.path.join(folder, "fleet.yaml"), "w") as out:
        out.write("name: GPX fleet (%d drivers x %d s, %d circles)\n" % (drivers, seconds, regions))
        out.write("start: %s\n" % START.strftime("%Y-%m-%dT%H:%M:%SZ"))
        out.write("profile: %s\n" % profile)
        out.write("regions:\n  - geojson: circles.geojson\n")
        out.write("devices:\n")
        out.writelines(devices)


if __name__ == "__main__":
    main()

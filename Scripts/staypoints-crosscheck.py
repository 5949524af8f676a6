#!/usr/bin/env python3
"""Compares the stays Perimeter finds in real recorded tracks (SEMANTICS §9, `perimeter inspect --stays`) with
a peer's stay-point detection: trackintel's `generate_staypoints` (MIT; the 'sliding' method, adapted from
Li et al. 2008), installed from PyPI into a virtual environment this script makes under .build-venv/.

    python3 Scripts/staypoints-crosscheck.py [PERIMETER]        (default .build/debug/perimeter)

The tracks are phone and logger recordings that nobody here made: the GPX conformance corpus in
Tests/GPXTests/Fixtures/conformance (see its README.md and licenses/). trackintel runs with §9's thresholds
(50 m, 2 min), each GPX segment as a user of its own (§9 finds stays within a segment), no gap threshold
(§9 has none) and the last stay included. A stay of either side is matched by one of the other when they
overlap in time; matched stays must agree within TOLERANCE_S on arrival and on departure and within
TOLERANCE_M on their centres. Perimeter's stay ends at its core's last fix (within D/2 of its centre) and
trackintel's at the first fix beyond D, and §9 skips spikes that trackintel takes for a departure: the
tolerances allow for both. Prints one line per track and exits 1 when a stay is unmatched or off.
"""
import json, os, subprocess, sys, venv
import xml.etree.ElementTree as ET
from datetime import datetime

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "GPXTests", "Fixtures", "conformance")
VENV = os.path.join(ROOT, ".build-venv")
TRACKINTEL = "trackintel==1.4.2"
# Tracks that stop where they stop: checked stay by stay.
TRACKS = ["dougfales-gpx__arches.gpx", "gpxpy__around-visnjan-with-car.gpx"]
# Slow hikes and rides, where walking 50 m takes two minutes and more: both methods find stays there, but
# where one begins and ends depends on the anchor rule (trackintel restarts at the fix that left, §9 tries the
# next fix and keeps a core), so they cut such stretches differently. Shown, with the share of stay time both
# agree on (intersection over union), not checked.
SHOWN = ["gpxpy__cerknicko-jezero.gpx", "togeojson__blue_hills.gpx", "CoreGPX__GPXTest-TrackPointOnly.gpx",
         "georust-gpx__garmin_with_extensions.gpx"]
TOLERANCE_S, TOLERANCE_M = 120, 50.0
D_M, T_MIN = 50, 2.0


def in_venv():
    """Re-runs this script in the virtual environment, with trackintel installed there."""
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(python):
        venv.create(VENV, with_pip=True)
    check = subprocess.run([python, "-c", "import trackintel"], capture_output=True)
    if check.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", TRACKINTEL], check=True)
    sys.exit(subprocess.run([python] + sys.argv).returncode)


def fixes(path):
    """The timed trkpts of a GPX file by segment, as (lat, lon, time) with SEMANTICS §1's drops."""
    segments, last = [], None
    for seg in ET.parse(path).getroot().iter():
        if not seg.tag.endswith("trkseg"):
            continue
        kept = []
        for pt in seg:
            if not pt.tag.endswith("trkpt"):
                continue
            when = [c.text for c in pt if c.tag.endswith("time")]
            if not when:
                continue
            t = datetime.fromisoformat(when[0].strip().replace("Z", "+00:00"))
            if last is not None and t < last:
                continue
            if last is not None and t == last and kept:
                kept.pop()
            kept.append((float(pt.get("lat")), float(pt.get("lon")), t))
            last = t
        if kept:
            segments.append(kept)
    return segments


def peer_stays(segments):
    import geopandas as gpd
    import pandas as pd
    import trackintel as ti
    from shapely.geometry import Point

    rows = [{"user_id": s, "tracked_at": t, "geometry": Point(lon, lat)}
            for s, seg in enumerate(segments) for lat, lon, t in seg]
    gdf = gpd.GeoDataFrame(pd.DataFrame(rows), geometry="geometry", crs="EPSG:4326")
    gdf["tracked_at"] = pd.to_datetime(gdf["tracked_at"], utc=True)
    pfs = ti.Positionfixes(gdf)
    _, sp = pfs.generate_staypoints(method="sliding", dist_threshold=D_M, time_threshold=T_MIN,
                                    gap_threshold=1e9, include_last=True, print_progress=False)
    return [(r.started_at.timestamp(), r.finished_at.timestamp(), r.geometry.y, r.geometry.x)
            for r in sp.sort_values("started_at").itertuples()]


def haversine(a, b):
    import math
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def unmatched(ours, theirs):
    """The stays of `ours` that the stays of `theirs` overlapping it in time do not match: one of them, or a
    run of them split where the other saw one stay, from within TOLERANCE_S of its arrival to within
    TOLERANCE_S of its departure, each centre within TOLERANCE_M of its centre."""
    bad = []
    for a in ours:
        overlapping = [b for b in theirs if a[0] <= b[1] and b[0] <= a[1]]
        if not (overlapping and abs(a[0] - min(b[0] for b in overlapping)) <= TOLERANCE_S
                and abs(a[1] - max(b[1] for b in overlapping)) <= TOLERANCE_S
                and all(haversine(a[2:], b[2:]) <= TOLERANCE_M for b in overlapping)):
            bad.append(a)
    return bad


def agreed(ours, theirs):
    """The share of the time in stays, by either, that both call a stay (per second)."""
    a = {int(t) for s in ours for t in range(int(s[0]), int(s[1]) + 1)}
    b = {int(t) for s in theirs for t in range(int(s[0]), int(s[1]) + 1)}
    return len(a & b) / len(a | b) if a | b else 1.0


def main():
    in_venv()
    perimeter = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "perimeter")
    failed = 0
    for name in TRACKS + SHOWN:
        path = os.path.join(CORPUS, name)
        run = subprocess.run([perimeter, "inspect", "--stays", "--json", path], capture_output=True, text=True)
        if run.returncode != 0:
            print("%s: perimeter exited %d: %s" % (name, run.returncode, run.stderr.strip()))
            return 1
        ours = [(datetime.fromisoformat(s["arrival"].replace("Z", "+00:00")).timestamp(),
                 datetime.fromisoformat(s["departure"].replace("Z", "+00:00")).timestamp(), s["lat"], s["lon"])
                for s in json.loads(run.stdout)["stays"]]
        theirs = peer_stays(fixes(path))
        a, b = unmatched(ours, theirs), unmatched(theirs, ours)
        if name in SHOWN:
            print("%s (shown): perimeter %d stays, trackintel %d; %.0f %% of the stay time agreed"
                  % (name, len(ours), len(theirs), 100 * agreed(ours, theirs)))
            continue
        print("%s: perimeter %d stays, trackintel %d; unmatched %d and %d" % (name, len(ours), len(theirs), len(a), len(b)))
        for s in a:
            print("  perimeter's %s to %s unmatched" % (datetime.utcfromtimestamp(s[0]), datetime.utcfromtimestamp(s[1])))
        for s in b:
            print("  trackintel's %s to %s unmatched" % (datetime.utcfromtimestamp(s[0]), datetime.utcfromtimestamp(s[1])))
        failed += bool(a or b)
    print("%d passed, %d failed" % (len(TRACKS) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

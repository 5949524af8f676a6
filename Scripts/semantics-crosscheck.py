#!/usr/bin/env python3
"""Runs random scenarios through `perimeter run` and through the independent reference of
Scripts/semantics_reference.py, and compares the event logs: identity and times exactly, numbers to 1e-6.

    python3 Scripts/semantics-crosscheck.py [SEEDS] [PERIMETER]     (default 100 seeds, .build/debug/perimeter)
    python3 Scripts/semantics-crosscheck.py --reference-only [SEEDS]  (the reference alone: how often each
                                                                       revision-3 rule acted)

Prints the first difference of a failing seed and exits 1; the scenario stays in the temporary folder.

Odd seeds are revision-2 scenarios (the same scenarios as before revision 3); even seeds add revision 3's
fields (phase, stationary, outliers, delivery, misses, signed enterBuffer, enterConfidence below 0.5) and
pauses in the tracks. Profiles are written with the names of §8's documented-threshold profiles
(`ios-documented`, `android-documented`; `android-background` as `android-documented` with `interval: 120s`),
whose values the page's table gives; CROSSCHECK_PROFILES=plain writes `ios`, `android` and
`android-background` as before revision 3.
"""
import collections, json, math, os, random, subprocess, sys, tempfile
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import semantics_reference as ref

BASE = 1_700_000_000_000_000  # µs


def iso(us):
    ms = us // 1000
    return datetime.fromtimestamp(ms // 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % (ms % 1000)


def offset(lat, lon, north, east):
    return lat + math.degrees(north / ref.R), lon + math.degrees(east / (ref.R * math.cos(math.radians(lat))))


def device_extra(dev):
    """A device entry's optional keys, as YAML."""
    extra = ", accuracy: %r" % dev["accuracy"] if "accuracy" in dev else ""
    extra += ", recorded: true" if dev.get("recorded") and not dev.get("recorded_by_scenario") else ""
    return extra + (", offset: %d" % (dev["offset"] // 1_000_000) if "offset" in dev else "")


def revision4(rng, sc, at):
    """Revision 4's recorded devices (SEMANTICS §9) in scenario `sc`, drawn from `rng` (a generator of their
    own, so that the rest of the scenario is the one the seed gives before revision 4): walks that stop near a
    region for 1-12 minutes, recorded every 1-5 s with wandering GPS error and spikes; and some of the
    scenario's own timed devices marked recorded."""
    marks = []
    for _ in range(rng.randint(1, 3)):
        region = rng.choice(sc["regions"])
        if region["type"] == "circle":
            lat, lon = region["lat"], region["lon"]
        else:
            ring = region["polygons"][0][0][:-1]
            lat, lon = sum(p[1] for p in ring) / len(ring), sum(p[0] for p in ring) / len(ring)
        # the stop's position in the scenario's frame: the region's, give or take
        x0 = math.radians(lon - at(0, 0)[1]) * ref.R * math.cos(math.radians(at(0, 0)[0])) + rng.uniform(-80, 80)
        y0 = math.radians(lat - at(0, 0)[0]) * ref.R + rng.uniform(-80, 80)
        t = BASE + rng.randint(0, 60) * 1_000_000
        step, sigma, corr = rng.choice([1, 2, 3, 5]), rng.uniform(2, 12), rng.uniform(5, 40)
        heading = rng.uniform(0, 2 * math.pi)
        speed = rng.uniform(0.8, 15)
        plan = [(x0 - 300 * math.cos(heading), y0 - 300 * math.sin(heading), 0)]
        for _ in range(rng.randint(1, 3)):  # stops, then on
            plan.append((x0 + rng.uniform(-30, 30), y0 + rng.uniform(-30, 30), rng.randint(60, 720)))
        plan.append((x0 + 300 * math.cos(heading), y0 + 300 * math.sin(heading), 0))
        truth = []
        x, y = plan[0][0], plan[0][1]
        for px, py, stay in plan[1:]:
            n = max(1, int(math.hypot(px - x, py - y) / (speed * step)))
            truth += [(x + (px - x) * i / n, y + (py - y) * i / n) for i in range(1, n + 1)]
            truth += [(px, py)] * (stay // step)
            x, y = px, py
        seg, ne, ee, spike = [], 0.0, 0.0, 0
        rho = math.exp(-step / corr)
        for px, py in truth:
            ne = rho * ne + sigma * math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
            ee = rho * ee + sigma * math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
            if spike == 0 and rng.random() < 0.01:
                spike, sx, sy = rng.randint(1, 4), rng.uniform(-200, 200), rng.uniform(-200, 200)
            dx, dy = (sx, sy) if spike else (0.0, 0.0)
            spike = max(0, spike - 1)
            if rng.random() > 0.03:
                lat, lon = at(px + ee + dx, py + ne + dy)
                seg.append((float(f"{lat:.7f}"), float(f"{lon:.7f}"), t))
            t += step * 1_000_000
        segments = [seg]
        if rng.random() < 0.3 and len(seg) > 20:  # a gap: two segments
            cut = rng.randint(5, len(seg) - 5)
            segments = [seg[:cut], seg[cut:]]
        sc["devices"].append({"id": "rec%d" % len(marks), "segments": segments, "recorded": True})
        marks.append(sc["devices"][-1])
    for dev in sc["devices"]:
        if "paced" not in dev and not dev.get("recorded") and rng.random() < 0.3:
            dev["recorded"] = True
    if rng.random() < 0.25:  # every device recorded, said once at the top
        sc["recorded"] = True
        for dev in sc["devices"]:
            dev["recorded"] = dev["recorded_by_scenario"] = True


def seconds(us):
    """A duration in µs as exact decimal text in seconds: 12500000 -> "12.5s"."""
    text = "%d.%06d" % (abs(us) // 1_000_000, abs(us) % 1_000_000)
    return ("-" if us < 0 else "") + text.rstrip("0").rstrip(".") + "s"


def revision3(rng, sc):
    """Revision 3's fields (SEMANTICS §2, §5, §7) in scenario `sc`, drawn from `rng` (a generator of their
    own, so that the rest of the scenario is the one the seed gives in revision 2): values that make the
    rules happen in scenarios of a few minutes; and pauses in the tracks for the stationary slow-down."""
    m, tick = sc["monitor"], sc["tick"]
    for dev in sc["devices"]:  # pauses of 30 s to 5 min in place
        if "paced" in dev:
            paced = []
            for point in dev["paced"]:
                paced.append(point)
                if rng.random() < 0.12:
                    paced.extend([point] * (rng.randint(30, 300) // (dev["pace"] // 1_000_000)))
            dev["paced"] = paced
            continue
        shift, segments = 0, []
        for seg in dev["segments"]:
            out = []
            for lat, lon, t in seg:
                out.append((lat, lon, t + shift))
                if rng.random() < 0.12:
                    shift += rng.randint(30, 300) * 1_000_000
                    out.append((lat, lon, t + shift))
            segments.append(out)
        dev["segments"] = segments
    interval = m.get("interval", ref.PROFILES[sc["profile"]]["interval"])
    if rng.random() < 0.5:
        if interval > 0 and rng.random() < 0.5:
            m["phase"] = rng.randrange(0, interval // tick) * tick
        else:
            m["phase"] = "random"
    if rng.random() < 0.5:
        m["stationary"] = {"after": rng.randint(30, 120) * 1_000_000, "within": rng.uniform(5, 30),
                           "interval": tick * rng.randint(5, 60)}
    if rng.random() < 0.5:
        median = rng.uniform(100, 500)
        m["outliers"] = {"every": rng.randint(120, 600) * 1_000_000, "duration": rng.randint(10, 120) * 1_000_000,
                         "median": median, "p90": median if rng.random() < 0.2 else median * rng.uniform(1, 5),
                         "accuracy": rng.choice([1.0, 0.0, rng.uniform(0.1, 1)])}
    if rng.random() < 0.5:
        median = rng.randint(5000, 60000)  # ms
        p90 = median if rng.random() < 0.2 else rng.randint(median, median * 8)
        m["delivery"] = {"median": median * 1000, "p90": p90 * 1000}
    if rng.random() < 0.4: m["missEnter"] = rng.choice([rng.uniform(0.2, 0.6), 1.0])
    if rng.random() < 0.4: m["missExit"] = rng.choice([rng.uniform(0.2, 0.6), 1.0])
    if rng.random() < 0.4: m["enterBuffer"] = rng.uniform(-40, 20)
    if rng.random() < 0.5: m["enterConfidence"] = rng.choice([rng.uniform(0, 0.5), rng.uniform(0, 1)])
    if rng.random() < 0.4 and "accuracy" not in m: m["accuracy"] = rng.uniform(5, 60)  # uncertain fixes enter early
    for r in sc["regions"]:
        if rng.random() < 0.2: r["missEnter"] = rng.uniform(0.2, 0.6)
        if rng.random() < 0.2: r["missExit"] = rng.uniform(0.2, 0.6)
        if rng.random() < 0.2: r["enterBuffer"] = rng.uniform(-40, 20)
        if rng.random() < 0.2: r["enterConfidence"] = rng.uniform(0, 0.5)


def monitor_value(key, v):
    """A `monitor:` field as YAML."""
    if key in ("confirmation", "interval"):
        return v / 1e6
    if key == "phase":
        return v if v == "random" else seconds(v)
    if key == "stationary":
        return "{after: %s, within: %rm, interval: %s}" % (seconds(v["after"]), v["within"], seconds(v["interval"]))
    if key == "outliers":
        return "{every: %s, duration: %s, median: %rm, p90: %rm, accuracy: %r}" % (
            seconds(v["every"]), seconds(v["duration"]), v["median"], v["p90"], v["accuracy"])
    if key == "delivery":
        return "{median: %s, p90: %s}" % (seconds(v["median"]), seconds(v["p90"]))
    return repr(v) if isinstance(v, float) else v


def documented_profile(sc):
    """§8 revision 3: the plain names get fitted profiles that the page does not tabulate; the table's values
    are `ios-documented` and `android-documented` (android-background: android-documented every 120 s)."""
    if os.environ.get("CROSSCHECK_PROFILES") == "plain":
        return
    if sc["profile"] == "android-background":
        sc["profile"] = "android-documented"
        sc["monitor"].setdefault("interval", 120_000_000)
    elif sc["profile"] in ("ios", "android"):
        sc["profile"] += "-documented"


def make(seed, folder):
    rng = random.Random(seed)
    lat0, lon0 = rng.uniform(-60, 60), rng.uniform(-179, 179)
    at = lambda x, y: offset(lat0, lon0, y, x)
    regions = []
    for i in range(rng.randint(1, 25)):
        x, y = rng.uniform(-2500, 2500), rng.uniform(-2500, 2500)
        kind = rng.random()
        region = {"id": f"r{i}"}
        if kind < 0.45:
            lat, lon = at(x, y)
            region.update(type="circle", lat=lat, lon=lon, radius=rng.uniform(30, 700))
        else:
            polygons = []
            for part in range(2 if kind > 0.85 else 1):
                px, py, h = x + part * 1600, y, rng.uniform(80, 600)
                # a concave outline: an L shape, counter-clockwise, in (lon, lat)
                pts = [(-h, -h), (h, -h), (h, 0), (0, 0), (0, h), (-h, h)]
                ring = [tuple(reversed(at(px + a, py + b))) for a, b in pts]
                rings = [ring + [ring[0]]]
                if rng.random() < 0.4:
                    q = h / 3
                    hole = [tuple(reversed(at(px + a, py + b))) for a, b in [(-q - h / 2, -q - h / 2), (-h / 2 - q, q - h / 2), (q - h / 2, q - h / 2), (q - h / 2, -q - h / 2)]]
                    rings.append(hole + [hole[0]])
                polygons.append(rings)
            region.update(type="polygon", polygons=polygons)
        if rng.random() < 0.25:
            region["hysteresis"] = rng.uniform(0, 80)
        regions.append(region)

    devices = []
    for d in range(rng.randint(1, 4)):
        t = BASE + rng.randint(0, 20_000_000) // 1000 * 1000
        x, y = rng.uniform(-2500, 2500), rng.uniform(-2500, 2500)
        segments = []
        for _ in range(rng.randint(1, 3)):
            seg = []
            for _ in range(rng.randint(2, 30)):
                lat, lon = at(x, y)
                seg.append((float(f"{lat:.7f}"), float(f"{lon:.7f}"), t))
                step = rng.randint(1000, 60_000) * 1000
                if rng.random() > 0.2:
                    v, a = rng.uniform(1, 25), rng.uniform(0, 2 * math.pi)
                    x += v * step / 1e6 * math.cos(a)
                    y += v * step / 1e6 * math.sin(a)
                t += step
            segments.append(seg)
            t += rng.randint(1, 120) * 1_000_000
        device = {"id": f"dev{d}" if rng.random() < 0.7 else f"Dev {d}", "segments": segments}
        if rng.random() < 0.25:  # an Xcode-style file: waypoints without times, played at the pace
            device = {"id": device["id"], "paced": [(lat, lon) for seg in segments for lat, lon, _ in seg],
                      "pace": rng.choice([1, 1, 2, 5]) * 1_000_000}
        devices.append(device)

    sc = {"profile": rng.choice(["ios", "android", "ideal"]), "regions": regions, "devices": devices,
          "tick": rng.choice([1, 1, 2, 3]) * 1_000_000, "monitor": {}}
    m = sc["monitor"]
    if rng.random() < 0.5: m["capacity"] = rng.randint(1, 8)
    if rng.random() < 0.3: m["selection"] = "static"
    if rng.random() < 0.4: m["refreshDistance"] = rng.uniform(100, 1500)
    if rng.random() < 0.4: m["hysteresis"] = rng.uniform(0, 150)
    if rng.random() < 0.3: m["enterBuffer"] = rng.uniform(0, 40)
    if rng.random() < 0.4: m["confirmation"] = rng.randint(0, 40) * 1_000_000
    if rng.random() < 0.4: m["initialTrigger"] = rng.choice(["none", "enter"])
    if rng.random() < 0.3: sc["start"] = BASE + rng.randint(-30, 30) * 1_000_000
    sc["rules"] = [{"name": f"rule {k}", "duration": rng.randint(0, 90) * 1_000_000,
                    "regions": None if rng.random() < 0.5 else [r["id"] for r in regions if rng.random() < 0.5] or [regions[0]["id"]]}
                   for k in range(rng.randint(0, 3))]
    # Revision 2 §2, §5: accuracy and confidence (drawn last, so that the scenarios of revision 1 stay as
    # they were for every seed).
    if rng.random() < 0.3: m["accuracy"] = rng.uniform(0, 60)
    if rng.random() < 0.3: m["enterConfidence"] = rng.uniform(0.5, 1)
    if rng.random() < 0.3: m["exitConfidence"] = rng.uniform(0, 0.5)
    for r in regions:
        if rng.random() < 0.15: r["enterConfidence"] = rng.uniform(0.5, 1)
        if rng.random() < 0.15: r["exitConfidence"] = rng.uniform(0, 0.5)
    for dev in devices:
        if rng.random() < 0.3: dev["accuracy"] = rng.uniform(0, 50)
    if rng.random() < 0.25: m["interval"] = sc["tick"] * rng.choice([1, 2, 3, 5])
    if rng.random() < 0.15: sc["profile"] = "android-background"  # §8 revision 2 (every tick here divides 120 s)
    if rng.random() < 0.4:  # §3 revision 2: a MultiPolygon of overlapping parts (d is the minimum over them)
        x, y, h = rng.uniform(-2000, 2000), rng.uniform(-2000, 2000), rng.uniform(150, 600)
        parts = []
        for px, py in [(x, y), (x + rng.uniform(0.2, 1.2) * h, y + rng.uniform(-0.5, 0.5) * h)]:
            ring = [tuple(reversed(at(px + a, py + b))) for a, b in [(-h, -h), (h, -h), (h, h), (-h, h)]]
            parts.append([ring + [ring[0]]])
        regions.append({"id": "r%d" % len(regions), "type": "polygon", "polygons": parts})
    for dev in devices:
        if rng.random() < 0.3: dev["offset"] = rng.randint(-300, 300) * 1_000_000
    if rng.random() < 0.35:
        sc["noise"] = {"sigma": rng.uniform(0, 40), "seed": rng.randint(0, 2 ** 40),
                       "correlation": rng.choice([0, 0, 1, 5, 30, 120]) * 1_000_000}

    if seed % 2 == 0:
        revision3(random.Random("revision 3: %d" % seed), sc)
    documented_profile(sc)
    if seed % 3 == 0:
        revision4(random.Random("revision 4: %d" % seed), sc, at)

    # §1 revision 2: the timed devices in one fix table, one segment each, rows interleaved by time.
    table = [d for d in devices if "paced" not in d and not d["id"].startswith("rec")] if rng.random() < 0.3 else []
    if any(d.get("recorded") and not d.get("recorded_by_scenario") for d in table):
        table = []  # a fix table's entry marks all its devices recorded or none
    if table:
        common = {"offset": rng.randint(-100, 100) * 1_000_000} if rng.random() < 0.5 else {}
        if rng.random() < 0.5: common["accuracy"] = rng.uniform(0, 50)
        for d in table:
            d.pop("offset", None)
            d.pop("accuracy", None)
            d.update(common)
            d["segments"] = [[fix + ((rng.uniform(0, 40) if rng.random() < 0.5 else None),)
                              for seg in d["segments"] for fix in seg]]
        sc["table"] = {"devices": [d["id"] for d in table], "entry": common}

    # Write it as a user would.
    y = ["name: crosscheck %d" % seed, "profile: %s" % sc["profile"], "tick: %g" % (sc["tick"] / 1e6)]
    if "start" in sc: y.append("start: %s" % datetime.fromtimestamp(sc["start"] / 1e6, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
    if "noise" in sc:
        n = sc["noise"]
        on = ", onRecorded: true" if any(d.get("recorded") for d in devices) else ""
        y.append("noise: {sigma: %r, seed: %d, correlation: %g%s}" % (n["sigma"], n["seed"], n["correlation"] / 1e6, on))
    if sc.get("recorded"):
        y.append("recorded: true")
    if m:
        y.append("monitor:")
        for k, v in m.items():
            y.append("  %s: %s" % (k, monitor_value(k, v)))
    y.append("regions:")
    for r in regions:
        extra = "".join(", %s: %r" % (k, r[k]) for k in ("hysteresis", "enterConfidence", "exitConfidence",
                                                         "enterBuffer", "missEnter", "missExit") if k in r)
        if r["type"] == "circle":
            y.append("  - {id: %s, circle: {lat: %r, lon: %r, radius: %r}%s}" % (r["id"], r["lat"], r["lon"], r["radius"], extra))
        else:
            coords = [[[list(p) for p in ring] for ring in poly] for poly in r["polygons"]]
            geometry = {"type": "MultiPolygon", "coordinates": coords} if len(coords) > 1 else {"type": "Polygon", "coordinates": coords[0]}
            y.append("  - {id: %s, polygon: %s%s}" % (r["id"], json.dumps(geometry), extra))
    if sc["rules"]:
        y.append("rules:")
        for rule in sc["rules"]:
            regs = "" if rule["regions"] is None else ", regions: [%s]" % ", ".join(rule["regions"])
            y.append("  - {name: %s, dwell: %d%s}" % (json.dumps(rule["name"]), rule["duration"] // 1_000_000, regs))
    y.append("devices:")
    if "table" in sc:
        rows = sorted(((fix[2], dev["id"], fix) for dev in devices if dev["id"] in sc["table"]["devices"]
                       for fix in dev["segments"][0]), key=lambda r: r[0])
        with open(os.path.join(folder, "fleet.csv"), "w") as f:
            f.write("device,time,lat,lon,accuracy\n")
            for t, did, (lat, lon, _, a) in rows:
                f.write("%s,%d.%06d,%.7f,%.7f,%s\n" % (did, t // 1_000_000, t % 1_000_000, lat, lon, "" if a is None else repr(a)))
        entry = sc["table"]["entry"]
        y.append("  - {fixes: fleet.csv%s%s}" % (", offset: %d" % (entry["offset"] // 1_000_000) if "offset" in entry else "",
                                                ", accuracy: %r" % entry["accuracy"] if "accuracy" in entry else ""))
    for dev in devices:
        if "table" in sc and dev["id"] in sc["table"]["devices"]:
            continue
        name = dev["id"].replace(" ", "_") + ".gpx"
        if "paced" in dev:
            with open(os.path.join(folder, name), "w") as f:
                f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="crosscheck">\n')
                for lat, lon in dev["paced"]:
                    f.write('<wpt lat="%.7f" lon="%.7f"/>\n' % (lat, lon))
                f.write("</gpx>\n")
            y.append("  - {id: %s, track: %s, pace: %g%s}" % (json.dumps(dev["id"]), name, dev["pace"] / 1e6, device_extra(dev)))
            continue
        with open(os.path.join(folder, name), "w") as f:
            f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="crosscheck">\n<trk>\n')
            for seg in dev["segments"]:
                f.write("<trkseg>\n")
                for lat, lon, t in seg:
                    f.write('<trkpt lat="%.7f" lon="%.7f"><time>%s</time></trkpt>\n' % (lat, lon, iso(t)))
                f.write("</trkseg>\n")
            f.write("</trk>\n</gpx>\n")
        y.append("  - {id: %s, track: %s%s}" % (json.dumps(dev["id"]), name, device_extra(dev)))
    path = os.path.join(folder, "scenario.yaml")
    with open(path, "w") as f:
        f.write("\n".join(y) + "\n")
    return sc, path


def compare(expected, actual):
    if len(expected) != len(actual):
        return "event counts differ: reference %d, perimeter %d" % (len(expected), len(actual))
    for n, (e, a) in enumerate(zip(expected, actual)):
        for key in ["time", "device", "region", "kind", "crossedAt", "arrival", "departure", "rule"]:
            want = e.get(key)
            if key in ("time", "crossedAt", "arrival", "departure") and want is not None:
                want = iso(want)
            if want != a.get(key):
                return "event %d: %s: reference %r, perimeter %r\n  reference %r\n  perimeter %r" % (n, key, want, a.get(key), e, a)
        # §7 revision 3: detectedAt is written only where it differs from time
        want = iso(e["detectedAt"]) if e.get("detectedAt", e["time"]) != e["time"] else None
        if want != a.get("detectedAt"):
            return "event %d: detectedAt: reference %r, perimeter %r\n  reference %r\n  perimeter %r" % (n, want, a.get("detectedAt"), e, a)
        for key in ["lat", "lon", "distance", "duration"]:
            want = e.get(key)
            if key == "duration" and want is not None:
                want = want / 1e6
            got = a.get(key)
            if (want is None) != (got is None) or (want is not None and abs(want - got) > 1e-6):
                return "event %d: %s: reference %r, perimeter %r\n  reference %r\n  perimeter %r" % (n, key, want, got, e, a)
    return None


def coverage(stats):
    return ", ".join("%s %d" % item for item in sorted(stats.items())) or "none"


def main():
    args = sys.argv[1:]
    reference_only = "--reference-only" in args
    args = [a for a in args if a != "--reference-only"]
    seeds = int(args[0]) if args else 100
    perimeter = args[1] if len(args) > 1 else ".build/debug/perimeter"
    total, stats = 0, collections.Counter()
    for seed in range(1, seeds + 1):
        folder = tempfile.mkdtemp(prefix="crosscheck-%d-" % seed)
        sc, path = make(seed, folder)
        if reference_only:
            total += len(ref.events(sc, stats=stats))
            subprocess.run(["rm", "-rf", folder])
            continue
        run = subprocess.run([perimeter, "run", path, "--sink", "jsonl:-", "--quiet"], capture_output=True, text=True)
        if run.returncode != 0:
            print("seed %d: perimeter exited %d: %s (%s)" % (seed, run.returncode, run.stderr.strip(), folder))
            return 1
        actual = [json.loads(line) for line in run.stdout.splitlines()]
        problem = compare(ref.events(sc, stats=stats), actual)
        if problem:
            print("seed %d (%s): %s" % (seed, folder, problem))
            return 1
        total += len(actual)
        if any(d.get("recorded") for d in sc["devices"]):  # §9 revision 4: the truth
            run = subprocess.run([perimeter, "run", path, "--truth", "--sink", "jsonl:-", "--quiet"],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print("seed %d: perimeter run --truth exited %d: %s (%s)" % (seed, run.returncode, run.stderr.strip(), folder))
                return 1
            actual = [json.loads(line) for line in run.stdout.splitlines()]
            expected = ref.truth(sc)
            stats["truth events of recorded devices"] += sum(1 for e in expected if e["device"].startswith("rec") or
                                                              any(d.get("recorded") and d["id"] == e["device"] for d in sc["devices"]))
            problem = compare(expected, actual)
            if problem:
                print("seed %d (%s): the truth: %s" % (seed, folder, problem))
                return 1
            total += len(actual)
        subprocess.run(["rm", "-rf", folder])
    if reference_only:
        print("reference: %d seeds, %d events; revision 3: %s" % (seeds, total, coverage(stats)))
        return 0
    print("crosscheck: %d seeds, %d events, all equal to the reference; revision 3: %s" % (seeds, total, coverage(stats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Hand-computed cases for SEMANTICS revisions 3 and 4 in Scripts/semantics_reference.py (python3 -m unittest).

    cd Scripts && python3 -m unittest -v semantics_reference_test
    python3 -m unittest discover -s Scripts -p semantics_reference_test.py      (from the repository)

The tests are data: each table row is one rule's case, with a readable id. The draws' literal values were
computed apart from the reference (an implementation of the page's formulas on ctypes' c_uint64), and the
event times from them by hand: the scenarios below put one device on a meridian through a café at
(45°, 7°), so that its distance to the café's centre is the metres north or south that a row gives.
"""
import importlib.util
import math
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import semantics_reference as ref  # noqa: E402

BASE = 1_700_000_000_000_000  # µs: the scenarios' time 0
LAT, LON = 45.0, 7.0  # the café's centre
S = 1_000_000  # µs per second


def north(metres):
    """The latitude `metres` north (negative: south) of the café's centre, on its meridian."""
    return LAT + math.degrees(metres / ref.R)


def scenario(points, monitor=None, radius=95.0, circles=("cafe",), region=None, rules=(), seed=None,
             profile="ideal"):
    """One device `dev0` walking the meridian: points (metres north of the centre, seconds), one segment;
    circles of `radius` around the centre; `region` extra fields for each; dwell rules (name, seconds) over
    every region; `seed` the noise's seed with sigma 0 (the run's seed S of §2 without any noise)."""
    regions = [dict(id=name, type="circle", lat=LAT, lon=LON, radius=radius, **(region or {})) for name in circles]
    sc = {"profile": profile, "regions": regions, "monitor": dict(monitor or {}), "start": BASE,
          "devices": [{"id": "dev0", "segments": [[(north(m), LON, BASE + round(s * S)) for m, s in points]]}],
          "rules": [{"name": name, "duration": seconds * S, "regions": None} for name, seconds in rules]}
    if seed is not None:
        sc["noise"] = {"sigma": 0.0, "seed": seed, "correlation": 0}
    return sc


def secs(us):
    """µs after BASE as exact decimal seconds: 17228660 -> "17.22866"."""
    us -= BASE
    return ("%d.%06d" % (us // S, us % S)).rstrip("0").rstrip(".")


def lines(sc):
    """The events as readable lines: `kind region @time key=value…` (times in seconds after BASE)."""
    out = []
    for e in ref.events(sc):
        text = "%s %s @%s" % (e["kind"], e["region"], secs(e["time"]))
        for key in ("crossedAt", "detectedAt", "arrival", "departure"):
            if key in e and (key != "detectedAt" or e[key] != e["time"]):
                text += " %s=%s" % (key, secs(e[key]))
        if "rule" in e:
            text += " rule=%s" % e["rule"]
        out.append(text)
    return out


# The walk across the café (radius 95 m): from 200 m south at 0 s to 200 m north at 40 s, 10 m/s. It is
# 90 m south at 11 s (inside, d = -5) and 100 m north at 30 s (outside, d = 5): ideal enters at 11, exits at 30.
ACROSS = [(-200, 0), (200, 40)]
ACROSS_AND_BACK = [(-200, 0), (200, 40), (-200, 80)]  # back in at 51 s (90 m north), out at 70 s
STANDING = [(0, 0), (0, 20)]  # at the centre for 20 s
DWELL_5S = [("5 s", 5)]

# §2 revision 3, random draws: (S, device, stream W, r, draw i) -> x_1, x_2 and u_1.
DRAWS = [
    ("phase of dev0, S 0", (0, "dev0", "phase", 0, 0), 0x0261FD6CFB6C023C, 0xD264641699C87CC9, 0.009307707888567163),
    ("outlier of 'Dev 1', S 42, tick 17", (42, "Dev 1", "outlier", 0, 17), 0x8E4517C2554F35AC, 0x6B637238FBB488AA,
     0.5557417725988757),
    ("miss-enter region 3, draw i -1 (two's complement)", (7, "a", "miss-enter", 3, -1), 0x1C05912FB222D4AA,
     0x9CA0143B9C751349, 0.10945994772385903),
    ("delay-dwell region 2, rule 0 (r = 2 + 2^32)", (7, "a", "delay-dwell", 2 + (1 << 32), 5), 0x45A8819DF7FD4C83,
     0xE7D1A22171FF51E8, 0.2721024523416322),
    ("S 2^64 - 1, UTF-8 device id", (2 ** 64 - 1, "café", "miss-exit", 0, 123456789), 0xDA556988573D3FC9,
     0x29365EBBA76F0260, 0.8528657873023251),
]
STREAM_KEYS = [  # streamKey(D, W, r) of the rows above
    ("phase of dev0, S 0", (0, "dev0", "phase", 0), 0x58DA8670AD009188),
    ("outlier of 'Dev 1', S 42", (42, "Dev 1", "outlier", 0), 0x16215038B9543868),
    ("delay-dwell r = 2 + 2^32", (7, "a", "delay-dwell", 2 + (1 << 32)), 0xCE61DDB4F9727B77),
]
# (median, p90, z) -> lognormal value
LOGNORMALS = [
    ("q = m gives m, whatever z", (30.0, 30.0, 2.7), 30.0),
    ("z = 0 gives the median", (10.0, 60.0, 0.0), 10.0),
    ("z at the 90th percentile gives p90", (10.0, 60.0, 1.2815515655446004), 60.0),
    ("z at the 10th percentile gives m² / q", (10.0, 60.0, -1.2815515655446004), 10.0 / 6),
]

# §2 revision 3, phase: the device's first observed sample is its first grid tick. x_1 of draw 0 of stream
# `phase` for dev0 with S 0 is 0x0261FD6CFB6C023C: mod 10 = 6, mod 120 = 116, mod 1 = 0.
PHASES = [
    ("random phase, interval 10 s: p = x_1 mod 10 = 6", dict(interval=10 * S, phase="random"), [(0, 0), (0, 30)], 6),
    ("random phase, interval 120 s: p = 116", dict(interval=120 * S, phase="random"), [(0, 0), (0, 200)], 116),
    ("random phase, no interval: n = 1, p = 0", dict(phase="random"), [(0, 0), (0, 30)], 0),
    ("phase 30 s, interval 60 s", dict(interval=60 * S, phase=30 * S), [(0, 0), (0, 100)], 30),
    ("phase 0 is revision 2's grid", dict(interval=60 * S, phase=0), [(0, 0), (0, 100)], 0),
]

# §2 revision 3, outliers of 300 m (median = p90) at the centre of a 250 m circle: the sample in an episode is
# moved 300 m (in §2's local move, so d is 50 m give or take 2 mm of haversine) on bearing β = 2π u_4 of draw
# i = k of stream `outlier` (dev0, S 0).
# Draw 0: β = 3.846637296874672 -> (44.99794527972179, 6.9975273016246256), d = 50.00225919863948;
# draw 3: β = 3.8374321542177485 -> (44.99792927216127, 6.997554154433568), d = 50.00222761775575;
# u_1 of draw 0 = 0.2548.
EPISODE = dict(every=1 * S, duration=3 * S, median=300.0, p90=300.0, accuracy=1.0)
OUTLIERS = [
    ("every = tick: an episode at the first sample (β of draw 0)", dict(outliers=EPISODE),
     (0, 50.00225919863948, 44.99794527972179, 6.9975273016246256)),
    ("the first episode (3 s) ended at 3 s: a new one from draw 3",
     dict(outliers=EPISODE, interval=10 * S, phase=3 * S), (3, 50.00222761775575, 44.99792927216127, 6.997554154433568)),
    ("an episode of 4 s still open at 3 s (β of draw 0)",
     dict(outliers=dict(EPISODE, duration=4 * S), interval=10 * S, phase=3 * S),
     (3, 50.00225919863948, 44.99794527972179, 6.9975273016246256)),
    ("every hour: u_1 = 0.2548 is not below 1/3600, no episode", dict(outliers=dict(EPISODE, every=3600 * S)),
     (0, -250.0, LAT, LON)),
]

# §5 revision 3: misses (u_1 of draw 11 of stream `miss-enter`, region 0, dev0, S 0, is 0.8615455667821211),
# signed enterBuffer and the drop rule d > max(0, −e); §7 revision 3: delivery.
U_MISS_ENTER_11 = 0.8615455667821211
EVENTS = [
    ("revision 2: the walk across", dict(points=ACROSS, rules=DWELL_5S), [
        "monitor-start cafe @0", "enter cafe @11 crossedAt=11", "dwell cafe @16 rule=5 s",
        "exit cafe @30 crossedAt=30", "visit cafe @30 arrival=11 departure=30"]),
    # misses
    ("missEnter 1: the stay unannounced, the exit still reported",
     dict(points=ACROSS, rules=DWELL_5S, monitor=dict(missEnter=1.0)), [
         "monitor-start cafe @0", "exit cafe @30 crossedAt=30"]),
    ("missExit 1: no exit, no visit; the next enter is reported",
     dict(points=ACROSS_AND_BACK, rules=DWELL_5S, monitor=dict(missExit=1.0)), [
         "monitor-start cafe @0", "enter cafe @11 crossedAt=11", "dwell cafe @16 rule=5 s",
         "enter cafe @51 crossedAt=51", "dwell cafe @56 rule=5 s"]),
    ("a region's missEnter equal to u_1 misses (u_1 ≤ p)",
     dict(points=ACROSS, region=dict(missEnter=U_MISS_ENTER_11)), [
         "monitor-start cafe @0", "exit cafe @30 crossedAt=30"]),
    ("a region's missEnter just below u_1 reports",
     dict(points=ACROSS, region=dict(missEnter=math.nextafter(U_MISS_ENTER_11, 0))), [
         "monitor-start cafe @0", "enter cafe @11 crossedAt=11", "exit cafe @30 crossedAt=30",
         "visit cafe @30 arrival=11 departure=30"]),
    ("a monitor-start enter is never missed",
     dict(points=STANDING, monitor=dict(missEnter=1.0, initialTrigger="enter")), [
         "monitor-start cafe @0", "enter cafe @0 crossedAt=0"]),
    # signed enterBuffer
    # Leaving at 10 m/s, d = 5 m at 30 s and 15 m at 31 s: an exit needs d > h + e⁻ (e⁻ = max(0, −e) = 10 m).
    ("enterBuffer -10 m, enterConfidence 0: enters 10 m outside (d = 5 at 10 s), leaves past 10 m",
     dict(points=ACROSS, monitor=dict(enterBuffer=-10.0, enterConfidence=0.0)), [
         "monitor-start cafe @0", "enter cafe @10 crossedAt=10", "exit cafe @31 crossedAt=31",
         "visit cafe @31 arrival=10 departure=31"]),
    ("enterBuffer -10 m with confidence 0.5 and accuracy 0: the crossing still decides",
     dict(points=ACROSS, monitor=dict(enterBuffer=-10.0)), [
         "monitor-start cafe @0", "enter cafe @11 crossedAt=11", "exit cafe @31 crossedAt=31",
         "visit cafe @31 arrival=11 departure=31"]),
    ("enterBuffer -30 m, accuracy 20 m, enterConfidence 0.3: conf 0.07 at d = 15, 0.34 at d = 5",
     dict(points=ACROSS, monitor=dict(enterBuffer=-30.0, enterConfidence=0.3, accuracy=20.0)), [
         "monitor-start cafe @0", "enter cafe @10 crossedAt=10", "exit cafe @33 crossedAt=33",
         "visit cafe @33 arrival=10 departure=33"]),
    ("enterBuffer -10 m, 5 s confirmation: d 8 then 9 (≤ 10) keeps the candidate",
     dict(points=[(-130, 0), (-130, 10), (-103, 11), (-104, 12), (-104, 16), (0, 17), (0, 30)],
          monitor=dict(enterBuffer=-10.0, enterConfidence=0.0, confirmation=5 * S)), [
         "monitor-start cafe @0", "enter cafe @16 crossedAt=11"]),
    ("enterBuffer -10 m, 5 s confirmation: d 13 > max(0, 10) drops it, d 8 starts another",
     dict(points=[(-130, 0), (-130, 10), (-103, 11), (-108, 12), (-103, 13), (-103, 18), (0, 19), (0, 30)],
          monitor=dict(enterBuffer=-10.0, enterConfidence=0.0, confirmation=5 * S)), [
         "monitor-start cafe @0", "enter cafe @18 crossedAt=13"]),
    # An exit needs d > h + e⁻ (e⁻ = max(0, −e) = 10 m): a device entered 9 m outside stays entered.
    ("enterBuffer -10 m, hysteresis 0: standing 9 m outside enters once, and stays",
     dict(points=[(-130, 0), (-130, 10), (-103, 11), (-104, 12), (-104, 30)],
          monitor=dict(enterBuffer=-10.0, enterConfidence=0.0, confirmation=5 * S)), [
         "monitor-start cafe @0", "enter cafe @16 crossedAt=11"]),
    # delivery
    ("delivery of a fixed 30 s: times shifted, monitor-start not, order kept",
     dict(points=ACROSS, rules=DWELL_5S, monitor=dict(delivery=dict(median=30 * S, p90=30 * S))), [
         "monitor-start cafe @0", "enter cafe @41 crossedAt=11 detectedAt=11", "dwell cafe @46 detectedAt=16 rule=5 s",
         "exit cafe @60 crossedAt=30 detectedAt=30", "visit cafe @60 detectedAt=30 arrival=11 departure=30"]),
    # δ = lognormal(10 s, 60 s) of draw k of `delay-enter` r 0 (k 11): 6.22866 s; `delay-dwell` r 2^32 (k 16):
    # 4.9846 s; `delay-exit` r 0 (k 30): 114.943708 s.
    ("delivery median 10 s, p90 60 s: each its own draw; the visit with its exit",
     dict(points=ACROSS, rules=DWELL_5S, monitor=dict(delivery=dict(median=10 * S, p90=60 * S))), [
         "monitor-start cafe @0", "enter cafe @17.22866 crossedAt=11 detectedAt=11",
         "dwell cafe @20.9846 detectedAt=16 rule=5 s", "exit cafe @144.943708 crossedAt=30 detectedAt=30",
         "visit cafe @144.943708 detectedAt=30 arrival=11 departure=30"]),
    # S 1, two equal circles entered at 11 s: δ(region 0) = 93.487407 s, δ(region 1) = 0.432349 s; region 1's
    # enter is decided after region 0's in the same sample (region order), so it waits for it (FIFO).
    ("delivery FIFO: a shorter delay waits for the device's previous event",
     dict(points=[(-200, 0), (0, 20)], circles=("r0", "r1"), seed=1,
          monitor=dict(delivery=dict(median=10 * S, p90=120 * S))), [
         "monitor-start r0 @0", "monitor-start r1 @0", "enter r0 @104.487407 crossedAt=11 detectedAt=11",
         "enter r1 @104.487407 crossedAt=11 detectedAt=11"]),
]

# §2 revision 3, stationary slow-down (after 30 s, within 5 m, every 60 s) on a 500 m circle entered at 0 s:
# 2 m/s north for 20 s (the anchor moves at 3, 6, …, 18 s: 6 m each time), standing at 40 m until 200 s, then
# 50 m/s north (out at 210 s, 540 m). Observed: 0–47 s (t − 18 < 30), then 107 and 167 (every 60 s), then from
# 201 s on (the anchor moves at every sample). The dwell rules show which samples were observed.
STATIONARY_TRACK = [(0, 0), (40, 20), (40, 200), (1040, 220)]
STATIONARY_RULES = [("40 s", 40), ("50 s", 50), ("150 s", 150), ("170 s", 170)]
STATIONARY = [
    ("without stationary: every sample", {}, [
        "monitor-start cafe @0", "enter cafe @0 crossedAt=0", "dwell cafe @40 rule=40 s", "dwell cafe @50 rule=50 s",
        "dwell cafe @150 rule=150 s", "dwell cafe @170 rule=170 s", "exit cafe @210 crossedAt=210",
        "visit cafe @210 arrival=0 departure=210"]),
    # The anchor moves at observed samples more than 5 m on: 6 m at 3 s, … 36 m at 18 s (40 m at 20 s is
    # 4 m on). Moving until 18 + 30 = 48 s; then a check every 60 s: 47 + 60 = 107, 167, 227 (after the
    # track's end): the move from 200 s on is never noticed.
    ("stationary: skips samples while standing; a move is noticed only at the next check",
     dict(stationary=dict(after=30 * S, within=5.0, interval=60 * S)), [
         "monitor-start cafe @0", "enter cafe @0 crossedAt=0", "dwell cafe @40 rule=40 s", "dwell cafe @107 rule=50 s",
         "dwell cafe @167 rule=150 s"]),
    # Checks every 55 s from 47 s: 102, 157, 212; at 212 s the phone is at 640 m (140 m out): it exits.
    ("stationary: the check after the move sees it and exits",
     dict(stationary=dict(after=30 * S, within=5.0, interval=55 * S)), [
         "monitor-start cafe @0", "enter cafe @0 crossedAt=0", "dwell cafe @40 rule=40 s", "dwell cafe @102 rule=50 s",
         "dwell cafe @157 rule=150 s", "exit cafe @212 crossedAt=212", "visit cafe @212 arrival=0 departure=212"]),
    # t − t_anchor < 0 never holds: every 60 s even while moving; the track ends (220 s) before 240 s.
    ("stationary after 0 s: every 60 s, even while moving",
     dict(stationary=dict(after=0, within=5.0, interval=60 * S)), [
         "monitor-start cafe @0", "enter cafe @0 crossedAt=0", "dwell cafe @60 rule=40 s", "dwell cafe @60 rule=50 s",
         "dwell cafe @180 rule=150 s", "dwell cafe @180 rule=170 s"]),
]


class Draws(unittest.TestCase):
    def test_stream_keys(self):
        for name, (seed, device, stream, r), key in STREAM_KEYS:
            with self.subTest(name):
                self.assertEqual(ref.stream_key(seed, device, stream, r), key)

    def test_first_outputs(self):
        for name, (seed, device, stream, r, i), x1, x2, u1 in DRAWS:
            with self.subTest(name):
                key = ref.stream_key(seed, device, stream, r)
                self.assertEqual(ref.draw_x(key, i, 2), [x1, x2])
                self.assertEqual(ref.draw_u(key, i, 1), [u1])

    def test_u_in_zero_one(self):
        self.assertEqual(ref.unit(0), 2.0 ** -53)
        self.assertEqual(ref.unit(2 ** 64 - 1), 1.0)

    def test_lognormal(self):
        for name, (m, q, z), want in LOGNORMALS:
            with self.subTest(name):
                self.assertAlmostEqual(ref.lognormal(m, q, z), want, places=12)
        self.assertEqual(ref.standard_normal(1.0, 0.3), 0.0)


class Rules(unittest.TestCase):
    def test_phase(self):
        for name, monitor, points, first in PHASES:
            with self.subTest(name):
                self.assertEqual(lines(scenario(points, monitor=monitor))[0], "monitor-start cafe @%d" % first)

    def test_outliers(self):
        for name, monitor, (at, distance, lat, lon) in OUTLIERS:
            with self.subTest(name):
                first = ref.events(scenario(STANDING, monitor=monitor, radius=250.0))[0]
                self.assertEqual((first["kind"], secs(first["time"])), ("monitor-start", str(at)))
                self.assertAlmostEqual(first["distance"], distance, places=6)
                self.assertAlmostEqual(first["lat"], lat, places=9)
                self.assertAlmostEqual(first["lon"], lon, places=9)

    def test_outlier_accuracy(self):
        # android-documented enters with 85 % of the accuracy circle inside. 1.4 km south of a 1 km circle's
        # centre until 9 s (outside whatever the 300 m episodes do), at the centre from 10 s: d = -700 m. The
        # episode's accuracy × 300 m is the sample's accuracy: 0 or 300 m (conf 1, enters at 10 s), 1.5 km
        # (conf 0.786 < 0.85: no enter).
        track = [(-1400, 0), (-1400, 9), (0, 10), (0, 20)]
        for share, want in [(0.0, ["monitor-start cafe @0", "enter cafe @10 crossedAt=10"]),
                            (1.0, ["monitor-start cafe @0", "enter cafe @10 crossedAt=10"]),
                            (5.0, ["monitor-start cafe @0"])]:
            with self.subTest("outliers accuracy %g" % share):
                sc = scenario(track, radius=1000.0, profile="android-documented",
                              monitor=dict(outliers=dict(EPISODE, accuracy=share), accuracy=0.0))
                self.assertEqual(lines(sc), want)

    def test_events(self):
        for name, kwargs, want in EVENTS:
            with self.subTest(name):
                kwargs = dict(kwargs)
                self.assertEqual(lines(scenario(kwargs.pop("points"), **kwargs)), want)

    def test_stationary(self):
        for name, monitor, want in STATIONARY:
            with self.subTest(name):
                sc = scenario(STATIONARY_TRACK, radius=500.0, rules=STATIONARY_RULES,
                              monitor=dict(monitor, initialTrigger="enter"))
                self.assertEqual(lines(sc), want)


def crosscheck():
    spec = importlib.util.spec_from_file_location("crosscheck", os.path.join(HERE, "semantics-crosscheck.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ZERO_MONITOR = dict(phase=0, stationary=None, outliers=None, delivery=None, missEnter=0.0, missExit=0.0)
ZERO_REGION = dict(missEnter=0.0, missExit=0.0)


class RevisionTwo(unittest.TestCase):
    """With every revision-3 field at its zero value, the events are revision 2's."""

    def test_zero_fields(self):
        generator = crosscheck()
        for seed in (1, 3, 5, 7, 9, 11):  # odd seeds: revision-2 scenarios
            with self.subTest("crosscheck seed %d" % seed), tempfile.TemporaryDirectory() as folder:
                sc, _ = generator.make(seed, folder)
                self.assertFalse(set(ZERO_MONITOR) & set(sc["monitor"]))
                plain = ref.events(sc)
                sc["monitor"].update(ZERO_MONITOR)
                for region in sc["regions"]:
                    region.update(ZERO_REGION)
                self.assertEqual(ref.events(sc), plain)
                self.assertTrue(all("detectedAt" not in e for e in plain))

    def test_delivery_changes_only_times(self):
        # Delivery delays what the app hears, never what the phone decides: with `time` set back to
        # `detectedAt`, a scenario's events are those without `delivery`.
        generator = crosscheck()

        def decided(events):
            return sorted((e.pop("detectedAt", e["time"]), e["device"], e["kind"], e["region"], e.get("rule", ""))
                          for e in events)

        for seed in (2, 8, 14, 20):
            with self.subTest("crosscheck seed %d" % seed), tempfile.TemporaryDirectory() as folder:
                sc, _ = generator.make(seed, folder)
                sc["monitor"]["delivery"] = dict(median=20 * S, p90=90 * S)
                delayed = ref.events(sc)
                self.assertTrue(all(e.get("detectedAt", e["time"]) <= e["time"] for e in delayed))
                del sc["monitor"]["delivery"]
                self.assertEqual(decided(delayed), decided(ref.events(sc)))

    def test_monte_carlo_run(self):
        # A Monte Carlo run r uses S + r for every draw.
        monitor = dict(delivery=dict(median=10 * S, p90=120 * S), missExit=0.5, phase="random", interval=5 * S)
        sc = scenario(ACROSS_AND_BACK, monitor=monitor, seed=40, rules=DWELL_5S)
        self.assertEqual(ref.events(sc, run=2), ref.events(scenario(ACROSS_AND_BACK, monitor=monitor, seed=42,
                                                                    rules=DWELL_5S)))


# The crosscheck writes revision 3's fields in the scenario syntax that the Swift engine reads.
YAML = [
    ("phase random", ("phase", "random"), "random"),
    ("phase 30 s", ("phase", 30 * S), "30s"),
    ("stationary", ("stationary", dict(after=84 * S, within=25.0, interval=360 * S)),
     "{after: 84s, within: 25.0m, interval: 360s}"),
    ("outliers", ("outliers", dict(every=1800 * S, duration=20 * S, median=300.0, p90=2000.0, accuracy=1.0)),
     "{every: 1800s, duration: 20s, median: 300.0m, p90: 2000.0m, accuracy: 1.0}"),
    ("delivery to the millisecond", ("delivery", dict(median=10 * S, p90=52_006_000)), "{median: 10s, p90: 52.006s}"),
    ("signed enterBuffer", ("enterBuffer", -15.0), "-15.0"),
    ("missEnter", ("missEnter", 0.1), "0.1"),
]


class Crosscheck(unittest.TestCase):
    def test_yaml(self):
        generator = crosscheck()
        for name, (key, value), want in YAML:
            with self.subTest(name):
                self.assertEqual(generator.monitor_value(key, value), want)

    def test_detected_at_compared(self):
        generator = crosscheck()
        event = dict(time=BASE + 41 * S, device="dev0", region="cafe", kind="enter", crossedAt=BASE + 11 * S,
                     lat=LAT, lon=LON, distance=-5.0)
        written = dict(time=generator.iso(BASE + 41 * S), device="dev0", region="cafe", kind="enter",
                       crossedAt=generator.iso(BASE + 11 * S), lat=LAT, lon=LON, distance=-5.0)
        for name, detected, actual, equal in [
                ("no delivery: not written", None, {}, True),
                ("delayed: written", BASE + 11 * S, dict(detectedAt=generator.iso(BASE + 11 * S)), True),
                ("delayed but missing", BASE + 11 * S, {}, False),
                ("a delay of 0: not written", BASE + 41 * S, {}, True)]:
            with self.subTest(name):
                expected = dict(event, **({} if detected is None else dict(detectedAt=detected)))
                self.assertEqual(generator.compare([expected], [dict(written, **actual)]) is None, equal)

    def test_half_the_seeds_are_revision_3(self):
        generator = crosscheck()

        def revision_3(sc):
            m = sc["monitor"]
            return bool(set(ZERO_MONITOR) & set(m) or m.get("enterBuffer", 0) < 0 or m.get("enterConfidence", 1) < 0.5
                        or any(set(ZERO_REGION) & set(r) for r in sc["regions"]))

        with tempfile.TemporaryDirectory() as folder:
            flags = [revision_3(generator.make(seed, folder)[0]) for seed in range(1, 21)]
        self.assertEqual(flags[0::2], [False] * 10)  # odd seeds: revision 2
        self.assertGreaterEqual(sum(flags[1::2]), 8)  # even seeds: nearly all with a revision-3 field


# §9 revision 4, stays: fixes every 10 s, x metres east of (0°, 0°) -> (first fix, last fix, centre x) of each stay.
def east_segment(xs):
    return [(0.0, math.degrees(x / ref.R), k * 10 * S) for k, x in enumerate(xs)]


STAYS = [
    ("120 s within D of fix 0, then away", [0] * 13 + [200, 400], [(0, 12, 0.0)]),
    ("110 s is below T", [0] * 12 + [200, 400], []),
    ("one fix 300 m off, back 10 s later: a spike", [0] * 6 + [300] + [0] * 6 + [500], [(0, 12, 0.0)]),
    ("three fixes 300 m off, back 30 s > G after the first: a departure", [0] * 6 + [300] * 3 + [0] * 6 + [500], []),
    ("walked in and out: median centre 0, core 25 m", [45, 30, 15] + [0] * 12 + [15, 30, 45, 900], [(2, 15, 0.0)]),
]

# §9 revision 4, the truth: the café's circle of radius 96 m (no fix or sample exactly on it), a recorded device on its meridian, a coupon of
# 600 s. DOORWAY: 61 fixes every 10 s alternating 100 m and 92 m north (outside and inside) for 600 s, then
# away: one stay at the median, 100 m (outside), so no crossing at all, where the fixes cross 60 times.
DOORWAY = [(100 if k % 2 == 0 else 92, 10 * k) for k in range(61)] + [(400, 610), (700, 620)]
# INSIDE: in from 300 m, at 50 m from 30 s to 930 s with one fix 300 m off at 300 s, out to 700 m at 1100 s.
# The stay is fix 3 (30 s) to the last 50 m (930 s) at 50 m; the path crosses 96 m at 21 s (from 100 m at
# 20 s toward 50 m at 30 s: 95 m at 21 s, d = -1) and at 934 s (50 m at 930 s toward 200 m at 940 s: 95 m at
# 933 s, 110 m at 934 s); settled after τ = 60 s at 81 s and 994 s, then moved back: enter 21, dwell 621 (81 + 600 - 60),
# exit 934, visit 21-934. The fixes as exact would exit at 292 and enter again at 309 (the spike), and the
# coupon would wait until 909.
INSIDE = ([(300, 0), (200, 10), (100, 20)] + [(300 if t == 300 else 50, t) for t in range(30, 931, 10)]
          + [(200, 940), (400, 950), (700, 1100)])
TRUTHS = [
    ("doorway: one stay outside, no crossing", DOORWAY, ["monitor-start cafe @0"]),
    ("inside with a spike: one stay, one coupon", INSIDE,
     ["monitor-start cafe @0", "enter cafe @21 crossedAt=21", "dwell cafe @621 rule=coupon",
      "exit cafe @934 crossedAt=934", "visit cafe @934 arrival=21 departure=934"]),
]
FIXES_AS_EXACT = ["monitor-start cafe @0", "enter cafe @21 crossedAt=21", "exit cafe @292 crossedAt=292",
                  "visit cafe @292 arrival=21 departure=292", "enter cafe @309 crossedAt=309",
                  "dwell cafe @909 rule=coupon", "exit cafe @934 crossedAt=934", "visit cafe @934 arrival=309 departure=934"]


def truth_lines(sc):
    """`lines` of the truth (§9)."""
    out = []
    for e in ref.truth(sc):
        text = "%s %s @%s" % (e["kind"], e["region"], secs(e["time"]))
        for key in ("crossedAt", "arrival", "departure"):
            if key in e:
                text += " %s=%s" % (key, secs(e[key]))
        if "rule" in e:
            text += " rule=%s" % e["rule"]
        out.append(text)
    return out


class RecordedTrackTests(unittest.TestCase):
    def test_stays(self):
        for name, xs, expected in STAYS:
            with self.subTest(name):
                got = [(first, last, round(math.radians(lon) * ref.R, 6)) for first, last, _, lon in ref.stays(east_segment(xs))]
                self.assertEqual(got, expected)

    def test_truth(self):
        for name, points, expected in TRUTHS:
            with self.subTest(name):
                sc = scenario(points, rules=[("coupon", 600)], radius=96.0)
                sc["devices"][0]["recorded"] = True
                self.assertEqual(truth_lines(sc), expected)

    def test_fixes_as_exact_flicker(self):
        sc = scenario(INSIDE, rules=[("coupon", 600)], radius=96.0)
        self.assertEqual(lines(sc), FIXES_AS_EXACT)
        self.assertEqual(truth_lines(sc), FIXES_AS_EXACT)  # not recorded: the truth is ideal on the fixes

    def test_doorway_flickers_as_exact(self):
        self.assertEqual(sum(1 for line in lines(scenario(DOORWAY, radius=96.0)) if line.startswith("enter")), 30)

    def test_a_third_of_the_seeds_have_recorded_devices(self):
        generator = crosscheck()
        with tempfile.TemporaryDirectory() as folder:
            flags = [any(d.get("recorded") for d in generator.make(seed, folder)[0]["devices"]) for seed in range(1, 13)]
        self.assertEqual(flags, [seed % 3 == 0 for seed in range(1, 13)])


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""An independent reading of docs/SEMANTICS.md in plain Python, written from the text of the page and
not from the Swift code: the second engine that Perimeter's events must agree with.

It covers timed tracks (already parsed into segments of (lat, lon, time_us)) and untimed ones (a list of
(lat, lon) and a pace), circles, polygons with
holes and multipolygons, every monitor field, dwell rules, and the total order of §7; and from revision 2
the noise generator with its correlation, accuracy and the confidence of being inside; and from revision 3
the random draws under their streams, observation phase, the stationary slow-down, outlier episodes, the
signed enter buffer, misses and delivery with `detectedAt`.
`events(scenario)` returns the events as dicts with the keys of §7 (times as microseconds).

Revision 3's fields, in a scenario's `monitor` (the device settings, and the four per-region ones also on a
region): `phase` ("random" or µs), `stationary` {after µs, within m, interval µs}, `outliers` {every µs,
duration µs, median m, p90 m, accuracy}, `delivery` {median µs, p90 µs}, `missEnter`, `missExit`,
`enterBuffer` (signed m), `enterConfidence` in [0, 1].
"""
import math

R = 6371008.8
KINDS = ["monitor-stop", "monitor-failed", "monitor-start", "exit", "visit", "enter", "dwell"]
PROFILES = {
    "ios": dict(capacity=20, selection="nearest", refreshDistance=500.0, hysteresis=200.0, enterBuffer=0.0,
                confirmation=20_000_000, initialTrigger="none", accuracy=0.0, enterConfidence=0.5, exitConfidence=0.5, interval=0),
    "android": dict(capacity=100, selection="nearest", refreshDistance=500.0, hysteresis=0.0, enterBuffer=0.0,
                    confirmation=0, initialTrigger="enter", accuracy=20.0, enterConfidence=0.85, exitConfidence=0.15,
                    interval=0),
    "android-background": dict(capacity=100, selection="nearest", refreshDistance=500.0, hysteresis=0.0,
                               enterBuffer=0.0, confirmation=0, initialTrigger="enter", accuracy=20.0,
                               enterConfidence=0.85, exitConfidence=0.15, interval=120_000_000),
    "ideal": dict(capacity=None, selection="nearest", refreshDistance=500.0, hysteresis=0.0, enterBuffer=0.0,
                  confirmation=0, initialTrigger="none", accuracy=0.0, enterConfidence=0.5, exitConfidence=0.5, interval=0),
}


# Revision 3's fields at their zero values (§2, §5, §7): every profile of the table in §8 has them.
REVISION3_ZERO = dict(phase=0, stationary=None, outliers=None, delivery=None, missEnter=0.0, missExit=0.0)
for _p in PROFILES.values():
    _p.update(REVISION3_ZERO)
# §8 (revision 3): the documented-threshold profiles keep revision 2's values under these names. The page's
# table gives only those values, so the plain names read the same table (see the report on the fitted ones).
PROFILES["ios-documented"] = dict(PROFILES["ios"])
PROFILES["android-documented"] = dict(PROFILES["android"])


def norm(lon):
    """Longitude into [-180, 180)."""
    x = math.fmod(lon + 180.0, 360.0)
    if x < 0:
        x += 360.0
    return x - 180.0


M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z):
    """SplitMix64's finaliser (§2)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def fnv1a(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def standard_pair(key, k):
    """§2: the standard normal pair w_k (north, east) of tick k: draw k of the noise's key itself."""
    u1, u2 = draw_u(key, k, 2)
    r, theta = math.sqrt(-2 * math.log(u1)), 2 * math.pi * u2
    return r * math.cos(theta), r * math.sin(theta)


def stream_key(seed, device, stream, r=0):
    """§2 revision 3: streamKey(D, W, r) = mix(mix(key_D ⊕ fnv1a(W)) ⊕ r), key_D = mix(S ⊕ fnv1a(D))."""
    key_d = mix((seed & M64) ^ fnv1a(device))
    return mix(mix(key_d ^ fnv1a(stream)) ^ (r & M64))


def draw_x(key, i, count):
    """§2 revision 3: the outputs x_1 … x_count of draw i (a 64-bit two's-complement integer)."""
    s = mix(key ^ ((i * GOLDEN) & M64))
    xs = []
    for _ in range(count):
        s = (s + GOLDEN) & M64
        xs.append(mix(s))
    return xs


def unit(x):
    """u = ((x >> 11) + 1) / 2^53, in (0, 1]."""
    return ((x >> 11) + 1) / 2.0 ** 53


def draw_u(key, i, count):
    return [unit(x) for x in draw_x(key, i, count)]


def standard_normal(u1, u2):
    return math.sqrt(-2 * math.log(u1)) * math.cos(2 * math.pi * u2)


Z90 = 1.2815515655446004


def lognormal(median, p90, z):
    """§2 revision 3: median m, 90th percentile q: m × exp(z × ln(q / m) / 1.2815515655446004)."""
    return median * math.exp(z * math.log(p90 / median) / Z90)


def move(lat, lon, north, east):
    """§2: the sample moved by (north, east) metres."""
    dlat = math.degrees(north / R)
    c = math.cos(math.radians(lat))
    dlon = math.degrees(east / (R * c)) if c > 1e-12 else 0.0
    return max(-90.0, min(90.0, lat + dlat)), norm(lon + dlon)


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * R * math.asin(min(1.0, math.sqrt(h)))


def seg_dist(x1, y1, x2, y2):
    dx, dy = x2 - x1, y2 - y1
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, -(x1 * dx + y1 * dy) / L))
    cx, cy = x1 + t * dx, y1 + t * dy
    return math.hypot(cx, cy)


def polygon_d(lat, lon, polygons):
    """§3: a MultiPolygon's d is the minimum of its polygons' (revision 2)."""
    return min(one_polygon_d(lat, lon, rings) for rings in polygons)


def one_polygon_d(lat, lon, rings):
    """§3: ± distance to the nearest edge in the local plane at p; inside by even-odd over the rings."""
    kx = R * math.pi / 180 * math.cos(math.radians(lat))
    ky = R * math.pi / 180
    best = math.inf
    inside = False
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:]):
            # on the edge exactly
            cross = (bx - ax) * (lat - ay) - (by - ay) * (lon - ax)
            if cross == 0 and min(ax, bx) <= lon <= max(ax, bx) and min(ay, by) <= lat <= max(ay, by):
                return 0.0
            if (ay > lat) != (by > lat):
                if lon < ax + (lat - ay) * (bx - ax) / (by - ay):
                    inside = not inside
            # every point of the edge the short way round
            dxa = norm(ax - lon)
            dxb = dxa + (bx - ax)
            for shift in (-360.0, 0.0, 360.0):
                best = min(best, seg_dist((dxa + shift) * kx, (ay - lat) * ky, (dxb + shift) * kx, (by - lat) * ky))
    return -best if inside else best


def signed_distance(region, lat, lon):
    if region["type"] == "circle":
        return haversine(lat, lon, region["lat"], region["lon"]) - region["radius"]
    return polygon_d(lat, lon, region["polygons"])


def clean(segments):
    """§1: drop a fix earlier than the previous kept one; of equal times keep the later."""
    out, last = [], None
    for seg in segments:
        kept = []
        for fix in seg:
            if last is not None and fix[2] < last:
                continue
            if last is not None and fix[2] == last:
                if kept:
                    kept.pop()
                else:
                    for s in reversed(out):
                        if s:
                            s.pop()
                            break
            kept.append(fix)
            last = fix[2]
        out.append(kept)
    return [s for s in out if s]


def samples(segments, start, tick, accuracy=0.0):
    """§2: a sample at every tick inside a segment, interpolated linearly, lon the short way; with its
    accuracy interpolated alike (a fix's own, the 4th item when not None, else `accuracy`)."""
    def acc(fix):
        return fix[3] if len(fix) > 3 and fix[3] is not None else accuracy
    for seg in segments:
        t0, t1 = seg[0][2], seg[-1][2]
        k = max(0, -((start - t0) // tick))  # ceil((t0 - start) / tick)
        j = 0
        while start + k * tick <= t1:
            t = start + k * tick
            while j + 1 < len(seg) and seg[j + 1][2] <= t:
                j += 1
            a = seg[j]
            if a[2] == t or j + 1 == len(seg):
                yield t, a[0], norm(a[1]), acc(a)
            else:
                b = seg[j + 1]
                f = (t - a[2]) / (b[2] - a[2])
                yield t, a[0] + f * (b[0] - a[0]), norm(a[1] + f * norm(b[1] - a[1])), acc(a) + f * (acc(b) - acc(a))
            k += 1


def confidence(d, a):
    """§5 (revision 2): the share of a disc of radius a around the sample inside the region."""
    if a <= 0:
        return 1.0 if d <= 0 else 0.0
    c = min(1.0, max(-1.0, d / a))
    return (math.acos(c) - c * math.sqrt(1 - c * c)) / math.pi


def delivery_delay(median, p90, key, k):
    """§7 revision 3: δ = lognormal(median, p90) from z of draw i = k (u_1, u_2), truncated to microseconds.
    The durations are in microseconds, so δ is computed in microseconds and truncated (δ > 0)."""
    u1, u2 = draw_u(key, k, 2)
    return int(lognormal(median, p90, standard_normal(u1, u2)))


def events(sc, run=0, stats=None):
    """All events of a scenario, in the order of §7; `run` is the Monte Carlo run r (seed S + r). `stats`, a
    collections.Counter, counts how often revision 3's rules acted (for the crosscheck's coverage line)."""
    if stats is None:
        stats = {}
    count = lambda what: stats.__setitem__(what, stats.get(what, 0) + 1)
    s = dict(PROFILES[sc["profile"]])
    s.update(sc.get("monitor", {}))
    regions, rules = sc["regions"], sc.get("rules", [])
    n = len(regions)
    cap = n if s["capacity"] is None else min(s["capacity"], n)
    per_region = ("hysteresis", "enterBuffer", "confirmation", "enterConfidence", "exitConfidence", "missEnter", "missExit")
    th = [tuple(r.get(f, s[f]) for f in per_region) for r in regions]
    rules_of = [[ri for ri, rule in enumerate(rules) if rule.get("regions") is None or regions[i]["id"] in rule["regions"]]
                for i in range(n)]
    # §1: the clock starts at the scenario's start, else at the earliest first fix of the timed tracks;
    # an untimed track's point i plays at start + i × pace.
    # §1: a device's offset shifts its times, timed or not (revision 2).
    timed = {d["id"]: clean([[(f[0], f[1], f[2] + d.get("offset", 0)) + tuple(f[3:]) for f in seg] for seg in d["segments"]])
             for d in sc["devices"] if "paced" not in d}
    starts = [segs[0][0][2] for segs in timed.values() if segs]
    start = sc.get("start", min(starts) if starts else 0)
    tracks = {d["id"]: timed[d["id"]] if "paced" not in d else
              clean([[(lat, lon, start + d.get("offset", 0) + i * d["pace"]) for i, (lat, lon) in enumerate(d["paced"])]])
              for d in sc["devices"]}
    tick = sc.get("tick", 1_000_000)
    grid = max(1, s["interval"] // tick)  # §2 observation: n = interval / tick (interval 0: n = 1)
    noise = sc.get("noise")
    seed = ((noise["seed"] if noise else 0) + run) & M64  # §2 revision 3: S + r
    outliers, stationary, delivery = s["outliers"], s["stationary"], s["delivery"]
    out = []
    for dev in sc["devices"]:
        did = dev["id"]
        acc = dev.get("accuracy", s["accuracy"])  # §2: no fix of a GPX track has its own accuracy
        key = mix(seed ^ fnv1a(did))
        last_noise = None  # (k, north, east) of the previous sample
        state = {}  # region -> dict(inside, cand, stay, fired)
        last_refresh = None
        # §2 revision 3: the device's phase p, its outlier episode, its stationary anchor
        phase = s["phase"]
        if phase == "random":
            p = draw_x(stream_key(seed, did, "phase"), 0, 1)[0] % grid
        else:
            p = phase // tick
        if p:
            count("devices with a phase")
        outlier_key = stream_key(seed, did, "outlier") if outliers else None
        episode = None  # (t_s, ℓ, north, east) of the open episode
        anchor = None  # (lat, lon, t) of the exact position
        last_observed = None  # t_last
        delivered = None  # the device's previous delivered time
        decided = []  # this sample's enter, exit, visit and dwell events, before delivery

        def emit(kind, t, lat, lon, i, d, **extra):
            e = dict(time=t, device=did, region=regions[i]["id"], kind=kind, lat=lat, lon=lon, distance=d,
                     _index=i, _rule=extra.pop("_rule", -1))
            e.update(extra)
            (out if kind.startswith("monitor-") else decided).append(e)

        def start_region(i, t, lat, lon, d):
            emit("monitor-start", t, lat, lon, i, d)
            inside = d <= 0
            st = dict(inside=inside, cand=None, stay=None, fired=set())
            state[i] = st
            if inside and s["initialTrigger"] == "enter":  # §5 revision 3: never missed
                st["stay"] = t
                emit("enter", t, lat, lon, i, d, crossedAt=t)
                dwell(i, t, lat, lon, d)

        def dwell(i, t, lat, lon, d):
            st = state[i]
            if not st["inside"] or st["stay"] is None:
                return
            for ri in rules_of[i]:
                if ri not in st["fired"] and t >= st["stay"] + rules[ri]["duration"]:
                    st["fired"].add(ri)
                    emit("dwell", t, lat, lon, i, d, rule=rules[ri]["name"], duration=(t - st["stay"]), _rule=ri)

        def nearest(lat, lon):
            ranked = sorted(range(n), key=lambda i: (max(0.0, signed_distance(regions[i], lat, lon)), i))
            return set(ranked[:cap])

        def missed(stream, i, k, probability):
            """§5 revision 3: draw i = k of stream `miss-enter` / `miss-exit` (r: the region index): u_1 ≤ p."""
            return draw_u(stream_key(seed, did, stream, i), k, 1)[0] <= probability

        def deliver(k):
            """§7 revision 3: this sample's decisions in the order of §7 (kind, region index, rule order),
            each delayed and kept after the device's previous delivered one; a visit with its exit."""
            nonlocal delivered
            decided.sort(key=lambda e: (KINDS.index(e["kind"]), e["_index"], e["_rule"]))
            exits = {}
            for e in decided:
                if delivery is not None:
                    t_d = e["time"]
                    if e["kind"] == "visit":
                        e["time"] = exits[e["_index"]]
                    else:
                        r = e["_index"] + (1 << 32) * (e["_rule"] + 1) if e["kind"] == "dwell" else e["_index"]
                        delay = delivery_delay(delivery["median"], delivery["p90"],
                                               stream_key(seed, did, "delay-" + e["kind"], r), k)
                        e["time"] = t_d + delay if delivered is None else max(t_d + delay, delivered)
                        if e["time"] != t_d + delay:
                            count("deliveries held back (FIFO)")
                        delivered = e["time"]
                        if e["kind"] == "exit":
                            exits[e["_index"]] = e["time"]
                    e["detectedAt"] = t_d
                out.append(e)
            decided.clear()

        for t, lat, lon, acc in samples(tracks[did], start, tick, acc):
            k = (t - start) // tick
            exact = (lat, lon)  # §2 revision 3: the stationary anchor follows the exact position
            north = east = 0.0
            moved = False
            if noise and noise["sigma"] > 0:
                sigma, (wn, we) = noise["sigma"], standard_pair(key, k)
                north, east = sigma * wn, sigma * we
                if last_noise is not None and noise.get("correlation", 0) > 0:
                    rho = math.exp(-((k - last_noise[0]) * (tick / 1e6)) / (noise["correlation"] / 1e6))
                    scale = sigma * math.sqrt(1 - rho * rho)
                    north, east = rho * last_noise[1] + scale * wn, rho * last_noise[2] + scale * we
                last_noise = (k, north, east)
                moved = True
            if outliers is not None:  # §2 revision 3: episodes over every sample, observed or not
                if episode is not None and not t < episode[0] + outliers["duration"]:
                    episode = None
                if episode is None:
                    u = draw_u(outlier_key, k, 4)
                    if u[0] < tick / outliers["every"]:
                        length = lognormal(outliers["median"], outliers["p90"], standard_normal(u[1], u[2]))
                        bearing = 2 * math.pi * u[3]
                        episode = (t, length, length * math.cos(bearing), length * math.sin(bearing))
                        count("outlier episodes")
                if episode is not None:
                    north, east = north + episode[2], east + episode[3]
                    acc = max(acc, outliers.get("accuracy", 1.0) * episode[1])
                    moved = True
            if moved:
                lat, lon = move(lat, lon, north, east)
            if (k - p) % grid != 0:
                continue  # not observed: no part in §4–§6
            if stationary is not None and last_observed is not None and not (
                    t - anchor[2] < stationary["after"] or t >= last_observed + stationary["interval"]):
                count("grid samples skipped while stationary")
                continue  # §2 revision 3: stationary, and checked less often
            last_observed = t
            if stationary is not None:  # §2 revision 3: the anchor moves at observed samples only
                if anchor is None or haversine(exact[0], exact[1], anchor[0], anchor[1]) > stationary["within"]:
                    anchor = (exact[0], exact[1], t)
            dist = {}

            def d_of(i):
                if i not in dist:
                    dist[i] = signed_distance(regions[i], lat, lon)
                return dist[i]

            if last_refresh is None:
                last_refresh = (lat, lon)
                if s["selection"] == "static":
                    chosen = set(range(cap))
                    for i in range(cap, n):
                        emit("monitor-failed", t, lat, lon, i, d_of(i))
                else:
                    chosen = nearest(lat, lon)
                for i in sorted(chosen):
                    start_region(i, t, lat, lon, d_of(i))
                deliver(k)
                continue
            joining = []
            if s["selection"] == "nearest" and haversine(lat, lon, *last_refresh) >= s["refreshDistance"]:
                last_refresh = (lat, lon)
                chosen = nearest(lat, lon)
                for i in sorted(state):
                    if i not in chosen:
                        emit("monitor-stop", t, lat, lon, i, d_of(i))
                        del state[i]
                joining = sorted(chosen - set(state))
            for i in sorted(state):
                st, d = state[i], d_of(i)
                h, e, tau, c_in, c_out, miss_enter, miss_exit = th[i]
                if not st["inside"]:
                    if st["cand"] is None:
                        if d <= -e and confidence(d, acc) >= c_in:
                            st["cand"] = t
                    elif d > max(0.0, -e):  # §5 revision 3: back out beyond where an enter may start
                        st["cand"] = None
                    if st["cand"] is not None and t >= st["cand"] + tau:
                        if d > 0:
                            count("enters outside the region")
                        if missed("miss-enter", i, k, miss_enter):
                            count("missed enters")
                            st.update(inside=True, stay=None, fired=set())  # unannounced
                        else:
                            st.update(inside=True, stay=t, fired=set())
                            emit("enter", t, lat, lon, i, d, crossedAt=st["cand"])
                        st["cand"] = None
                else:
                    margin = max(0.0, -e)  # §5 revision 3: e⁻, an early-enter margin, is left only beyond it
                    if st["cand"] is None:
                        if d > h + margin and confidence(d, acc) <= c_out:
                            st["cand"] = t
                    elif d <= margin:
                        st["cand"] = None
                    if st["cand"] is not None and t >= st["cand"] + tau:
                        if missed("miss-exit", i, k, miss_exit):
                            count("missed exits")
                        else:
                            emit("exit", t, lat, lon, i, d, crossedAt=st["cand"])
                            if st["stay"] is not None:
                                emit("visit", t, lat, lon, i, d, arrival=st["stay"], departure=t, duration=t - st["stay"])
                        st.update(inside=False, stay=None, cand=None)
                dwell(i, t, lat, lon, d)
            for i in joining:
                start_region(i, t, lat, lon, d_of(i))
            deliver(k)
    out.sort(key=lambda e: (e["time"], e["device"].encode(), e.get("detectedAt", e["time"]), KINDS.index(e["kind"]),
                            e["_index"], e["_rule"]))
    return out


# §9 (revision 4): recorded tracks. The constants of the page.
STAY_RADIUS, STAY_TIME, SPIKE_RETURN, SETTLE = 50.0, 120_000_000, 20_000_000, 60_000_000


def median(values):
    """The middle value once sorted, or the mean of the two middle ones."""
    v = sorted(values)
    m = len(v)
    return v[(m - 1) // 2] if m % 2 else (v[m // 2 - 1] + v[m // 2]) / 2


def stays(seg):
    """§9: the stays of one segment of (lat, lon, t, ...) fixes, as (first, last, lat, lon)."""
    out, n, i = [], len(seg), 0
    while i < n:
        a = seg[i]

        def near(k):
            return haversine(a[0], a[1], seg[k][0], seg[k][1]) <= STAY_RADIUS

        j, k = i, i + 1
        while k < n:  # the anchored scan: fixes within D of fix i, runs beyond D that come back within G skipped
            if near(k):
                j, k = k, k + 1
                continue
            m = k + 1
            while m < n and seg[m][2] - seg[k][2] <= SPIKE_RETURN and not near(m):
                m += 1
            if m < n and seg[m][2] - seg[k][2] <= SPIKE_RETURN:
                k = m
            else:
                break
        if seg[j][2] - seg[i][2] < STAY_TIME:
            i += 1
            continue
        ks = [k for k in range(i, j + 1) if near(k)]
        lat = median([seg[k][0] for k in ks])
        lon = norm(a[1] + median([norm(seg[k][1] - a[1]) for k in ks]))
        core = [k for k in ks if haversine(lat, lon, seg[k][0], seg[k][1]) <= STAY_RADIUS / 2]
        if not core or seg[core[-1]][2] - seg[core[0]][2] < STAY_TIME:
            i += 1
            continue
        out.append((core[0], core[-1], lat, lon))
        i = core[-1] + 1
    return out


def true_path(segments):
    """§9: each segment with every stay's fixes replaced by its centre at its first and its last fix's times."""
    out = []
    for seg in segments:
        path, nxt = [], 0
        for first, last, lat, lon in stays(seg):
            path += [(f[0], f[1], f[2]) for f in seg[nxt:first]]
            path += [(lat, lon, seg[first][2]), (lat, lon, seg[last][2])]
            nxt = last + 1
        path += [(f[0], f[1], f[2]) for f in seg[nxt:]]
        out.append(path)
    return out


def truth(sc):
    """§9: the truth of a scenario. Its devices without noise as they are (`ideal` with the scenario's monitor
    and regions); its recorded devices (`"recorded": True`) under plain `ideal` with confirmation τ on their
    true paths, each side change then moved back to when it crossed. Every event in §7's order."""
    timed = [clean([[(f[0], f[1], f[2] + d.get("offset", 0)) + tuple(f[3:]) for f in seg] for seg in d["segments"]])
             for d in sc["devices"] if "paced" not in d]
    starts = [segs[0][0][2] for segs in timed if segs]
    start = sc.get("start", min(starts) if starts else 0)
    plain = dict(sc, profile="ideal", start=start, devices=[d for d in sc["devices"] if not d.get("recorded")])
    plain.pop("noise", None)
    recorded = []
    for d in sc["devices"]:
        if not d.get("recorded"):
            continue
        if "paced" in d:
            segments = clean([[(lat, lon, start + d.get("offset", 0) + i * d["pace"]) for i, (lat, lon) in enumerate(d["paced"])]])
        else:
            segments = clean([[(f[0], f[1], f[2] + d.get("offset", 0)) + tuple(f[3:]) for f in seg] for seg in d["segments"]])
        recorded.append({"id": d["id"], "segments": true_path(segments)})
    out = events(plain) if plain["devices"] else []
    if recorded:
        settled = dict(profile="ideal", start=start, tick=sc.get("tick", 1_000_000), rules=sc.get("rules", []),
                       regions=[{k: v for k, v in r.items() if k in ("id", "type", "lat", "lon", "radius", "polygons")}
                                for r in sc["regions"]],
                       devices=recorded, monitor={"confirmation": SETTLE})
        enters, exits = {}, {}
        for e in events(settled):
            key = (e["device"], e["_index"])
            if e["kind"] == "enter":
                enters[key] = (e["crossedAt"], e["time"] - e["crossedAt"])
                e["time"] = e["crossedAt"]
            elif e["kind"] == "exit":
                exits[key] = e["crossedAt"]
                e["time"] = e["crossedAt"]
            elif e["kind"] == "visit":
                e["arrival"], e["departure"] = enters[key][0], exits[key]
                e["duration"] = e["departure"] - e["arrival"]
                e["time"] = e["departure"]
            elif e["kind"] == "dwell":
                e["time"] -= enters[key][1]
            out.append(e)
    out.sort(key=lambda e: (e["time"], e["device"].encode(), e.get("detectedAt", e["time"]), KINDS.index(e["kind"]),
                            e["_index"], e["_rule"]))
    return out

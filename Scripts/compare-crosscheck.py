#!/usr/bin/env python3
"""Checks `perimeter compare --json` and the Monte Carlo summary (`perimeter run --runs N --json`) against
a second implementation written here from the definitions of docs/COMMANDS.md (compare, Monte Carlo), on
the random scenarios of Scripts/semantics-crosscheck.py:

- compare: each profile's and the reference's events come from `perimeter run --profile P --sink jsonl:-`
  (the reference: ideal on the scenario without its noise line, or with --noisy-reference the noisy ideal
  run); per (device, region, kind, rule) for enter, exit and dwell, the one-to-one, order-preserving
  pairing of least cost sum(|dt|) + window * unpaired, ties to the lexicographically smallest profile
  indices (`align`, a full-grid dynamic programme of its own); counts, nearest-rank delays, pairs and
  spurious events must equal perimeter's JSON exactly (the true distances are not checked here); its
  `outcomes` (SEMANTICS §10), per rule: the devices with a dwell of it in the exact track's ideal run and
  in each profile's run, the false positives and negatives, each device's share;
- Monte Carlo: every run's events from `--sink jsonl:-` (each with its run), paired with the exact track's
  ideal run, give each crossing's detection share, count, nearest-rank p5/p50/p95 and delays, each key's
  spurious row and the other kinds' occurrences; run r must be byte for byte the plain run with noise
  seed S + r.

    python3 Scripts/compare-crosscheck.py [SEEDS] [PERIMETER]     (default 40 seeds, .build/debug/perimeter)
"""
import calendar, importlib.util, json, math, os, random, re, subprocess, sys, tempfile
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
spec = importlib.util.spec_from_file_location("crosscheck", os.path.join(HERE, "semantics-crosscheck.py"))
crosscheck = importlib.util.module_from_spec(spec)
spec.loader.exec_module(crosscheck)

PROFILES = ["ios", "android", "android-background", "ideal"]
MATCHED = ["enter", "exit", "dwell"]


def seconds(iso):
    return datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


def micros(iso):
    """An event time as whole microseconds since 1970, exactly (no floating point)."""
    d = datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ")
    return calendar.timegm(d.timetuple()) * 1000000 + d.microsecond


def rank(p, values):
    return values[(p * len(values) + 99) // 100 - 1] if values else None


def key(e):
    return (e["device"], e["region"], e["kind"], e.get("rule"))


def align(r, p, window):
    """docs/COMMANDS.md's pairing of one key: reference times r and profile times p (ascending, microseconds).

    Of all order-preserving one-to-one pairings with every pair at most `window` apart, the least cost
    sum(|dt|) + window * (unpaired on either side); of equal costs, the lexicographically smallest sequence
    of paired profile indices taken reference by reference (unpaired = after every index). Written as
    a plain full-grid dynamic programme over prefixes (Python's integers do not overflow), then a
    backward search for the lexicographic optimum; no blocks, unlike perimeter's. Returns, per reference
    time, the paired profile index or None."""
    n, m = len(r), len(p)
    INF = float("inf")
    # best[i][j]: the least cost of r[i:] with p[j:].
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n or j == m:
                best[i][j] = window * ((n - i) + (m - j))
                continue
            options = [best[i + 1][j] + window, best[i][j + 1] + window]
            if abs(r[i] - p[j]) <= window:
                options.append(best[i + 1][j + 1] + abs(r[i] - p[j]))
            best[i][j] = min(options)
    out, j = [], 0
    for i in range(n):
        chosen = None
        for k in range(j, m):   # the smallest k that an optimal pairing of r[i:] with p[j:] allows
            if abs(r[i] - p[k]) <= window and window * (k - j) + abs(r[i] - p[k]) + best[i + 1][k + 1] == best[i][j]:
                chosen = k
                break
        if chosen is None:
            assert best[i + 1][j] + window == best[i][j]
        else:
            j = chosen + 1
        out.append(chosen)
    return out


def match(reference, profile, window):
    """The pairs and spurious events of docs/COMMANDS.md's definition, in reference (and profile) order."""
    window = int(round(window * 1000000))
    refs, profs = {}, {}
    for n, e in enumerate(reference):
        if e["kind"] in MATCHED:
            refs.setdefault(key(e), []).append(n)
    for n, e in enumerate(profile):
        if e["kind"] in MATCHED:
            profs.setdefault(key(e), []).append(n)
    partner, taken = {}, set()
    for k, positions in refs.items():
        others = profs.get(k, [])
        aligned = align([micros(reference[x]["time"]) for x in positions], [micros(profile[x]["time"]) for x in others], window)
        for x, y in zip(positions, aligned):
            if y is not None:
                partner[x] = others[y]
                taken.add(others[y])
    pairs = []
    for n, e in enumerate(reference):
        if e["kind"] not in MATCHED:
            continue
        found = profile[partner[n]] if n in partner else None
        pairs.append({"device": e["device"], "region": e["region"], "kind": e["kind"], "rule": e.get("rule"),
                      "reference": e["time"], "profile": found["time"] if found else None,
                      "delay": (micros(found["time"]) - micros(e["time"])) / 1e6 if found else None})
    spurious = [{"device": e["device"], "region": e["region"], "kind": e["kind"], "rule": e.get("rule"), "profile": e["time"]}
                for n, e in enumerate(profile) if e["kind"] in MATCHED and n not in taken]
    kinds = {}
    for kind in MATCHED:
        delays = sorted(p["delay"] for p in pairs if p["kind"] == kind and p["delay"] is not None)
        kinds[kind] = {"paired": len(delays), "missed": sum(1 for p in pairs if p["kind"] == kind and p["profile"] is None),
                       "spurious": sum(1 for s in spurious if s["kind"] == kind),
                       "delay": {"median": rank(50, delays), "p90": rank(90, delays), "max": delays[-1] if delays else None}}
    return {"kinds": kinds, "pairs": pairs, "spurious": spurious}


def without_distances(part):
    """perimeter's pairs, spurious events or kinds without the true distances (geometry this script lacks)."""
    if isinstance(part, dict):
        return {k: without_distances(v) for k, v in part.items() if k != "distance"}
    if isinstance(part, list):
        return [without_distances(v) for v in part]
    return part


def run(perimeter, *arguments):
    done = subprocess.run([perimeter, *arguments], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def events(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def recorded(text):
    """Whether the scenario has devices recorded on phones (SEMANTICS §9): its reference is then the truth."""
    return "recorded: true" in text


def exact_run(perimeter, path, text):
    """The ideal run of the exact track: the scenario `text` without its noise line; with recorded devices,
    the truth (`run --truth`: their true paths, settled crossings; SEMANTICS §9, which
    semantics-crosscheck.py checks against the Python reference). (events, problem)."""
    exact = path + ".exact.yaml"
    with open(exact, "w") as f:
        f.write("\n".join(line for line in text.split("\n") if not line.startswith("noise:")))
    how = ["--truth"] if recorded(text) else ["--profile", "ideal"]
    code, out, err = run(perimeter, "run", exact, *how, "--sink", "jsonl:-", "--quiet")
    if code != 0:
        return None, "run of the exact track exited %d: %s" % (code, err.strip())
    return events(out), None


def alike(a, b):
    """Equal, numbers to a millisecond: event logs show times to the millisecond (SEMANTICS §7), so a
    delay computed here from them may differ by up to 1 ms from perimeter's, which has the microseconds
    of a delivered event (revision 3's delivery delays)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 0.0011
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(alike(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(alike(x, y) for x, y in zip(a, b))
    return a == b


def check_compare(perimeter, path, rng):
    profiles = []
    logs = {}
    for profile in PROFILES:
        code, out, err = run(perimeter, "run", path, "--profile", profile, "--sink", "jsonl:-", "--quiet")
        if code == 2 and "not a multiple of the tick" in err:
            continue   # a tick that does not divide the background interval: compare refuses it too
        if code != 0:
            return "run --profile %s exited %d: %s" % (profile, code, err.strip())
        logs[profile] = events(out)
        profiles.append(profile)
    if "ideal" not in logs:
        return None
    window = rng.choice([0, 5, 30, 120, 600])
    chosen = [p for p in profiles if p != "ideal"] + (["ideal"] if rng.random() < 0.3 else [])
    if not chosen:
        return None
    # The reference: the exact track (the scenario without its noise line), or with --noisy-reference the
    # noisy ideal run.
    noisy = rng.random() < 0.3
    text = open(path).read()
    reference = logs["ideal"]
    if not noisy and ("\nnoise:" in text or recorded(text)):
        reference, problem = exact_run(perimeter, path, text)
        if problem:
            return problem
    code, out, err = run(perimeter, "compare", path, "--profiles", ",".join(chosen), "--window", "%ds" % window, "--json",
                         *(["--noisy-reference"] if noisy else []))
    if code != 0:
        return "compare exited %d: %s" % (code, err.strip())
    got = json.loads(out)
    if got["against"] != "ideal" or got["window"] != window:
        return "compare: against/window %r %r" % (got["against"], got["window"])
    if got.get("exactReference", False) != (not noisy and ("\nnoise:" in text or recorded(text))):
        return "compare: exactReference %r with noisy %r" % (got.get("exactReference"), noisy)
    for entry, profile in zip(got["profiles"], chosen):
        want = match(reference, logs[profile], window)
        if entry["profile"] != profile:
            return "compare: profile %r where %r was expected" % (entry["profile"], profile)
        for part in ["kinds", "pairs", "spurious"]:
            if not alike(without_distances(entry[part]), want[part]):
                return "compare, %s, %s:\n  expected %s\n  perimeter %s" % (profile, part, json.dumps(want[part])[:600], json.dumps(without_distances(entry[part]))[:600])
    return check_outcomes(perimeter, path, text, got, chosen, logs,
                          reference if not (noisy and ("\nnoise:" in text or recorded(text))) else None)


def check_outcomes(perimeter, path, text, got, chosen, logs, truth):
    """compare's `outcomes` (SEMANTICS §10), one plain run of each profile: per rule, the devices with a
    dwell of it in the truth (ideal on the exact track) and in each profile's run; false positives and
    negatives; each device's share, 1 or 0."""
    if "outcomes" not in got:
        return None
    if truth is None:
        truth, problem = exact_run(perimeter, path, text)
        if problem:
            return problem
    for row in got["outcomes"]:
        rule = row["rule"]
        def devices(log):
            return {e["device"] for e in log if e["kind"] == "dwell" and e.get("rule") == rule}
        true = devices(truth)
        if row["truth"] != len(true):
            return "compare, outcomes, rule %r: truth %r, expected %d" % (rule, row["truth"], len(true))
        for profile in chosen:
            have = devices(logs[profile])
            n = len(have)
            want = {"devices": {"p5": n, "median": n, "p95": n, "mean": n},
                    "falsePositives": {"median": len(have - true), "mean": len(have - true)},
                    "falseNegatives": {"median": len(true - have), "mean": len(true - have)}}
            entry = row["profiles"][profile]
            shares = entry["perDevice"]
            if not alike({k: entry[k] for k in want}, want) or any(shares.get(d) != 1.0 for d in have) \
                    or any(v not in (0.0, 1.0) or (v == 1.0) != (d in have) for d, v in shares.items()):
                return "compare, outcomes, rule %r, %s:\n  expected %s\n  perimeter %s" % (rule, profile, json.dumps(want), json.dumps(entry)[:600])
    return None


def check_monte_carlo(perimeter, path, rng):
    text = open(path).read()
    if "noise:" not in text:
        # Noise over recorded devices is asked for explicitly (SEMANTICS §9).
        extra = ", onRecorded: true" if recorded(text) else ""
        text = text.replace("\ndevices:", "\nnoise: {sigma: %dm, seed: 3, correlation: %ds%s}\ndevices:" % (rng.choice([5, 20, 60]), rng.choice([0, 30]), extra), 1)
        with open(path, "w") as f:
            f.write(text)
    runs, seed = rng.randint(1, 9), rng.randint(0, 1000)
    code, out, err = run(perimeter, "run", path, "--runs", str(runs), "--seed", str(seed), "--json", "--quiet")
    if code != 0:
        return "run --runs exited %d: %s" % (code, err.strip())
    summary = json.loads(out)
    code, raw, err = run(perimeter, "run", path, "--runs", str(runs), "--seed", str(seed), "--sink", "jsonl:-", "--quiet")
    if code != 0:
        return "run --runs --sink exited %d: %s" % (code, err.strip())
    by_run = [[] for _ in range(runs)]
    for line in raw.splitlines():
        e = json.loads(line)
        by_run[e["run"]].append(line[:line.rindex(',"run":')] + "}")
    # Run r is the plain run with the seed S + r.
    for r in sorted({0, runs - 1, rng.randrange(runs)}):
        seeded = re.sub(r"seed: \d+", "seed: %d" % (seed + r), text, count=1) if "seed:" in text.split("noise:")[1].split("\n")[0] \
            else text.replace("noise: {", "noise: {seed: %d, " % (seed + r), 1)
        copy = path + ".seeded.yaml"
        with open(copy, "w") as f:
            f.write(seeded)
        code, plain, err = run(perimeter, "run", copy, "--sink", "jsonl:-", "--quiet")
        if code != 0 or plain != "".join(l + "\n" for l in by_run[r]):
            return "run %d of --runs %d --seed %d differs from the plain run with seed %d" % (r, runs, seed, seed + r)
    # The spread, by crossing of the exact track.
    reference, problem = exact_run(perimeter, path, text)
    if problem:
        return problem
    crossings, seen = [], {}
    for e in reference:
        if e["kind"] in MATCHED:
            seen[key(e)] = seen.get(key(e), 0) + 1
            crossings.append((key(e) + ("crossing", seen[key(e)]), e["time"]))
    times = {row: [] for row, _ in crossings}
    spurious_runs = {}
    for lines in by_run:
        run_events = [json.loads(line) for line in lines]
        matched = match(reference, run_events, 600)
        for (row, _), pair in zip(crossings, matched["pairs"]):
            if pair["profile"] is not None:
                times[row].append(pair["profile"])
        for k in {key(e) for e in matched["spurious"]}:
            spurious_runs[k] = spurious_runs.get(k, 0) + 1
        for e in matched["spurious"]:
            times.setdefault((e["device"], e["region"], e["kind"], e["rule"], "spurious", 0), []).append(e["profile"])
        seen = {}
        for e in run_events:
            if e["kind"] not in MATCHED:
                seen[key(e)] = seen.get(key(e), 0) + 1
                times.setdefault(key(e) + ("occurrence", seen[key(e)]), []).append(e["time"])
    at = dict(crossings)
    want = {}
    for row, ts in times.items():
        ts.sort()
        having = spurious_runs[row[:4]] if row[4] == "spurious" else len(ts)
        delays = [(micros(t) - micros(at[row])) / 1e6 for t in ts] if row[4] == "crossing" else []
        want[row] = {"crossing": at.get(row), "count": len(ts), "share": having / runs, "p5": rank(5, ts),
                     "p50": rank(50, ts), "p95": rank(95, ts), "delay": {"median": rank(50, delays), "p90": rank(90, delays)}}
    got = {(e["device"], e["region"], e["kind"], e["rule"], e["group"], e["n"]):
           {x: e[x] for x in ["crossing", "count", "share", "p5", "p50", "p95", "delay"]} for e in summary["events"]}
    if summary["runs"] != runs or summary["seed"] != seed or not alike(got, want):
        return "the spread of --runs %d --seed %d differs:\n  expected %s\n  perimeter %s" % (runs, seed, str(want)[:600], str(got)[:600])
    return None


def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    perimeter = sys.argv[2] if len(sys.argv) > 2 else ".build/debug/perimeter"
    for seed in range(1, seeds + 1):
        folder = tempfile.mkdtemp(prefix="compare-crosscheck-%d-" % seed)
        _, path = crosscheck.make(seed, folder)
        rng = random.Random(seed)
        problem = check_compare(perimeter, path, rng) or check_monte_carlo(perimeter, path, rng)
        if problem:
            print("seed %d (%s): %s" % (seed, folder, problem))
            return 1
        subprocess.run(["rm", "-rf", folder])
    print("compare-crosscheck: %d seeds, compare and Monte Carlo equal to this script's reading" % seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())

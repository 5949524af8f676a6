#!/usr/bin/env python3
"""Checks `perimeter compare --json` and the Monte Carlo summary (`perimeter run --runs N --json`) against
a second implementation written here from README's definitions, on the random scenarios of
Scripts/semantics-crosscheck.py:

- compare: each profile's and the reference's events come from `perimeter run --profile P --sink jsonl:-`;
  per (device, region, kind, rule) for enter, exit and dwell, reference events in time order are paired
  with the earliest unpaired profile event within the window; counts, nearest-rank delays, pairs and
  spurious events must equal perimeter's JSON exactly;
- Monte Carlo: every run's events from `--sink jsonl:-` (each with its run) give each event key's share
  and nearest-rank p5/p50/p95; run r must be byte for byte the plain run with noise seed S + r.

    python3 Scripts/compare-crosscheck.py [SEEDS] [PERIMETER]     (default 40 seeds, .build/debug/perimeter)
"""
import importlib.util, json, math, os, random, re, subprocess, sys, tempfile
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


def rank(p, values):
    return values[(p * len(values) + 99) // 100 - 1] if values else None


def key(e):
    return (e["device"], e["region"], e["kind"], e.get("rule"))


def match(reference, profile, window):
    """The pairs and spurious events of README's definition, in reference (and profile) order."""
    candidates = {}
    for n, e in enumerate(profile):
        if e["kind"] in MATCHED:
            candidates.setdefault(key(e), []).append([seconds(e["time"]), e["time"], False])
    pairs = []
    for e in reference:
        if e["kind"] not in MATCHED:
            continue
        t = seconds(e["time"])
        found = None
        for c in candidates.get(key(e), []):   # ascending time: the first unpaired one within the window
            if not c[2] and abs(c[0] - t) <= window + 1e-9:
                c[2] = True
                found = c
                break
        pairs.append({"device": e["device"], "region": e["region"], "kind": e["kind"], "rule": e.get("rule"),
                      "reference": e["time"], "profile": found[1] if found else None,
                      "delay": round(found[0] - t, 6) if found else None})
    spurious = []
    seen = {}
    for e in profile:
        if e["kind"] not in MATCHED:
            continue
        n = seen.get(key(e), 0)
        seen[key(e)] = n + 1
        if not candidates[key(e)][n][2]:
            spurious.append({"device": e["device"], "region": e["region"], "kind": e["kind"], "rule": e.get("rule"),
                             "profile": e["time"]})
    kinds = {}
    for kind in MATCHED:
        delays = sorted(p["delay"] for p in pairs if p["kind"] == kind and p["delay"] is not None)
        kinds[kind] = {"paired": len(delays), "missed": sum(1 for p in pairs if p["kind"] == kind and p["profile"] is None),
                       "spurious": sum(1 for s in spurious if s["kind"] == kind),
                       "delay": {"median": rank(50, delays), "p90": rank(90, delays), "max": delays[-1] if delays else None}}
    return {"kinds": kinds, "pairs": pairs, "spurious": spurious}


def run(perimeter, *arguments):
    done = subprocess.run([perimeter, *arguments], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def events(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


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
    code, out, err = run(perimeter, "compare", path, "--profiles", ",".join(chosen), "--window", "%ds" % window, "--json")
    if code != 0:
        return "compare exited %d: %s" % (code, err.strip())
    got = json.loads(out)
    if got["against"] != "ideal" or got["window"] != window:
        return "compare: against/window %r %r" % (got["against"], got["window"])
    for entry, profile in zip(got["profiles"], chosen):
        want = match(logs["ideal"], logs[profile], window)
        if entry["profile"] != profile:
            return "compare: profile %r where %r was expected" % (entry["profile"], profile)
        for part in ["kinds", "pairs", "spurious"]:
            if entry[part] != want[part]:
                return "compare, %s, %s:\n  expected %s\n  perimeter %s" % (profile, part, json.dumps(want[part])[:600], json.dumps(entry[part])[:600])
    return None


def check_monte_carlo(perimeter, path, rng):
    text = open(path).read()
    if "noise:" not in text:
        text = text.replace("\ndevices:", "\nnoise: {sigma: %dm, seed: 3, correlation: %ds}\ndevices:" % (rng.choice([5, 20, 60]), rng.choice([0, 30])), 1)
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
    # The spread.
    times = {}
    for lines in by_run:
        seen = {}
        for line in lines:
            e = json.loads(line)
            k = key(e)
            seen[k] = seen.get(k, 0) + 1
            times.setdefault(k + (seen[k],), []).append(e["time"])
    want = {}
    for k, ts in times.items():
        ts.sort()
        want[k] = {"share": len(ts) / runs, "p5": rank(5, ts), "p50": rank(50, ts), "p95": rank(95, ts)}
    got = {(e["device"], e["region"], e["kind"], e["rule"], e["n"]): {x: e[x] for x in ["share", "p5", "p50", "p95"]}
           for e in summary["events"]}
    if summary["runs"] != runs or summary["seed"] != seed or got != want:
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

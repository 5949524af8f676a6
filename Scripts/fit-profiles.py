#!/usr/bin/env python3
"""Re-derives the fitted values of the built-in profiles from the Fidelity/ expectations, and holds rows out.

    python3 Scripts/fit-profiles.py [PERIMETER]            # fit; print each parameter's value against the built-in
    python3 Scripts/fit-profiles.py --check [PERIMETER]    # fail (exit 1) when a fitted value is not the built-in's,
                                                           # or a row is both fitted and held out
    python3 Scripts/fit-profiles.py --loo [PERIMETER]      # also the leave-one-out pass (docs/FIDELITY.md's column)

Each fitted parameter (PARAMETERS) is a field of one built-in, a list of candidate values, and the rows of
Fidelity/ it is fitted to. For each candidate the script writes a profile file (`base:` the built-in, the
field replaced), runs the rows' scenarios under it (`perimeter check --measurements`, the scenario's own
runs and seed) and scores how far each measured figure lies from the centre of its bounds, in half-widths
(a one-sided bound counts only when broken). The lowest score wins; a tie keeps the earlier candidate.
The rows no parameter is fitted to are held out (`HELD_OUT`): they test the fit and never steer it.

Leave-one-out (`--loo`): for each fitted row, every parameter fitted to it is refitted without it (a
parameter left with no row keeps its PRIOR: what the profile would say without field data), and the row is
checked under the refitted profile: does it still agree? A row that alone is fitted to a parameter
(`alone`) cannot be held out of that parameter's fit: docs/FIDELITY.md says so on its row.

A run takes well under a minute with a debug build (each scenario about 1 s); CI's full tier runs
`python3 Scripts/fit-profiles.py --check .build/debug/perimeter`.
"""
import json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = "Fidelity"

# Samply's Study 1 at two radii: the miss rates are the phone's, whatever the fence, so both radii fit them.
SAMPLY = ["samply-visit-100m.yaml", "samply-visit-10m.yaml"]

# (profile, field, prior, candidates, rows): candidates in profile-file syntax, the built-in's value first
# (a tie keeps the earlier candidate: rows that bound a figure from one side only, such as a tail's "at
# most", score several candidates 0); prior: the value without field data (the documented threshold or the
# engine's neutral value).
PARAMETERS = [
    ("ios", "missEnter", "0", ["0.02", "0.04", "0.06", "0.08", "0.1"], ["ios-enter-walk.yaml", "ios-enter-drive.yaml"]),
    ("ios", "hysteresis", "0m", ["200m", "150m", "175m", "225m", "250m"], ["ios-exit-suspended.yaml"]),
    ("ios-gps", "hysteresis", "0m", ["55m", "45m", "50m", "60m", "65m"], ["ios-exit-walk.yaml"]),
    ("ios-terminated", "delivery", "{median: 5s, p90: 20s}",
     ["{median: 35min, p90: 120min}", "{median: 15min, p90: 60min}", "{median: 20min, p90: 75min}",
      "{median: 26min, p90: 90min}"], ["ios-terminated-exit.yaml"]),
    ("android", "delivery", "null",
     ["{median: 20s, p90: 90s}", "{median: 10s, p90: 60s}", "{median: 40s, p90: 120s}"],
     ["android-latency-moving.yaml"]),
    ("android-background", "delivery", "null",
     ["{median: 60s, p90: 90s}", "{median: 30s, p90: 45s}", "{median: 40s, p90: 60s}", "{median: 50s, p90: 75s}",
      "{median: 30s, p90: 90s}", "{median: 60s, p90: 150s}", "{median: 90s, p90: 240s}"],
     ["android-background-latency.yaml", "android-background-tail.yaml"]),
    ("android-background", "missEnter", "0", ["0.1", "0.05", "0.15", "0.2"], SAMPLY),
    ("android-background", "missExit", "0", ["0.08", "0.04", "0.06", "0.1", "0.15"], SAMPLY),
    ("android-idle", "stationary", "{after: 10min, within: 25m, interval: 6min}",
     ["{after: 1h, within: 25m, interval: 20min}", "{after: 1h, within: 25m, interval: 15min}",
      "{after: 1h, within: 25m, interval: 25min}", "{after: 1h, within: 25m, interval: 30min}"],
     ["android-overnight-exit.yaml", "android-overnight-enter.yaml"]),
]

# Rows no parameter is fitted to: they test the fit (at least a third of Fidelity/).
HELD_OUT = [
    "android-background-stationary.yaml", "ios-documented-exit-walk.yaml", "ios-enter-edge.yaml", "ios-exit-walk-50m.yaml",
    "ios-false-enter-far.yaml", "ios-latency-apple.yaml",
]


def fitted_rows():
    return sorted({row for *_, rows in PARAMETERS for row in rows})


def measure(perimeter, row, overrides, work):
    """The measurements of Fidelity/ROW under its profile with `overrides` ({(profile, field): value})."""
    text = open(os.path.join(ROOT, FOLDER, row), encoding="utf-8").read()
    profile = re.search(r"^profile:\s*(\S+)", text, re.M).group(1)
    fields = {f: v for (p, f), v in overrides.items() if p == profile}
    if fields:
        with open(os.path.join(work, "fit.profile.yaml"), "w", encoding="utf-8") as out:
            out.write("base: %s\n" % profile)
            for field, value in sorted(fields.items()):
                out.write("%s: %s\n" % (field, value))
        text = re.sub(r"^profile:.*$", "profile: fit.profile.yaml", text, flags=re.M)
    scenario = os.path.join(work, row)
    with open(scenario, "w", encoding="utf-8") as out:
        out.write(text)
    result = os.path.join(work, "measurements.jsonl")
    if os.path.exists(result):
        os.remove(result)
    subprocess.run([perimeter, "check", scenario, "--measurements", result], cwd=ROOT, capture_output=True)
    if not os.path.exists(result):
        sys.exit("fit-profiles: perimeter check %s wrote no measurements" % row)
    return [json.loads(line) for line in open(result, encoding="utf-8")]


def statistics(measurements):
    """(value, bounds) of every bounded figure: the share of runs, then each quantity's statistics."""
    for m in measurements:
        if m["probability"]:
            yield m["share"], m["probability"]
        for q in m["quantities"]:
            for v in q["statistics"].values():
                yield v["value"], v


def score(measurements):
    """How far the figures lie from their bounds' centres, in half-widths; a broken one-sided bound by its
    gap relative to the bound; a missing figure counts 10."""
    total = 0.0
    for value, bounds in statistics(measurements):
        low, high = bounds.get("atLeast"), bounds.get("atMost")
        if value is None:
            total += 10
        elif low is not None and high is not None:
            half = (high - low) / 2 or 1
            total += ((value - (low + high) / 2) / half) ** 2
        elif low is not None and value < low:
            total += 1 + (low - value) / (abs(low) or 1)
        elif high is not None and value > high:
            total += 1 + (value - high) / (abs(high) or 1)
    return total


def agrees(measurements):
    return all(m["passed"] for m in measurements)


def fit(perimeter, work, leaving_out=None):
    """{(profile, field): value} fitted to every row but `leaving_out`; a parameter with no row left keeps
    its prior."""
    chosen = {}
    for profile, field, prior, candidates, rows in PARAMETERS:
        rows = [r for r in rows if r != leaving_out]
        if not rows:
            chosen[(profile, field)] = prior
            continue
        best = None
        for candidate in candidates:
            s = sum(score(measure(perimeter, r, {(profile, field): candidate}, work)) for r in rows)
            if best is None or s < best[0]:
                best = (s, candidate)
        chosen[(profile, field)] = best[1]
    return chosen


def shown(perimeter, profile, field, value, work):
    """The field's value as `perimeter profile show` prints it: of the built-in when value is None."""
    target = profile
    if value is not None:
        target = os.path.join(work, "shown.profile.yaml")
        with open(target, "w", encoding="utf-8") as out:
            out.write("base: %s\n%s: %s\n" % (profile, field, value))
    out = subprocess.run([perimeter, "profile", "show", target, "--json"], cwd=ROOT, capture_output=True, text=True)
    fields = json.loads(out.stdout)["fields"]
    return next(f["value"] for f in fields if f["field"] == field)


def alone(row):
    """The parameters ("profile field") that `row` alone is fitted to: leaving it out leaves them no row, so
    they fall back to their priors and the row cannot be held out of their fit."""
    return ["%s %s" % (profile, field) for profile, field, _, _, rows in PARAMETERS if rows == [row]]


def loo(perimeter, work, chosen):
    """{row: agrees under the profiles refitted without it} for every fitted row: only the parameters
    fitted to the row are refitted; the others keep the full fit's values (`chosen`)."""
    result = {}
    for row in fitted_rows():
        refit = dict(chosen)
        for profile, field, prior, candidates, rows in PARAMETERS:
            if row not in rows:
                continue
            rest = [r for r in rows if r != row]
            if not rest:
                refit[(profile, field)] = prior
                continue
            scored = [(sum(score(measure(perimeter, r, {(profile, field): c}, work)) for r in rest), i, c)
                      for i, c in enumerate(candidates)]
            refit[(profile, field)] = min(scored)[2]
        result[row] = agrees(measure(perimeter, row, refit, work))
    return result


def main(argv):
    check, with_loo = "--check" in argv, "--loo" in argv
    args = [a for a in argv if not a.startswith("--")]
    perimeter = os.path.abspath(args[0]) if args else os.path.join(ROOT, ".build", "debug", "perimeter")
    problems = []
    both = set(fitted_rows()) & set(HELD_OUT)
    if both:
        problems.append("rows both fitted and held out: " + ", ".join(sorted(both)))
    every = sorted(f for f in os.listdir(os.path.join(ROOT, FOLDER)) if f.endswith(".yaml"))
    unassigned = set(every) - set(fitted_rows()) - set(HELD_OUT)
    if unassigned:
        problems.append("rows neither fitted nor held out: " + ", ".join(sorted(unassigned)))
    if len(HELD_OUT) * 3 < len(every):
        problems.append("%d of %d rows held out: hold out at least a third" % (len(HELD_OUT), len(every)))
    work = tempfile.mkdtemp(prefix=".fit-", dir=ROOT)  # beside Fidelity/: its tracks' ../ paths still resolve
    try:
        chosen = fit(perimeter, work)
        for (profile, field), value in chosen.items():
            fitted, builtin = shown(perimeter, profile, field, value, work), shown(perimeter, profile, field, None, work)
            mark = "" if fitted == builtin else "   <- the built-in says " + builtin
            print("%-20s %-16s %s%s" % (profile, field, fitted, mark))
            if fitted != builtin:
                problems.append("%s %s: the fit gives %s, the built-in %s (update Profile+FittedTables.swift)"
                                % (profile, field, fitted, builtin))
        if with_loo:
            for row, ok in loo(perimeter, work, chosen).items():
                sole = alone(row)
                print("leave-one-out %-34s %s%s" % (row, "agrees" if ok else "does not agree",
                                                    "; alone fits " + ", ".join(sole) if sole else ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for p in problems:
        print("fit-profiles: " + p, file=sys.stderr)
    if check:
        print("fit-profiles: %d parameters, %d rows fitted, %d held out; %s"
              % (len(PARAMETERS), len(fitted_rows()), len(HELD_OUT), "FAILED" if problems else "the built-ins are the fit"))
    return 1 if problems and check else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

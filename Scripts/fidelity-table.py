#!/usr/bin/env python3
"""Builds docs/FIDELITY.md from the runs of Fidelity/: each scenario there rebuilds one published field
measurement of phones, and its expectations encode the published figure with the source's own spread.

    python3 Scripts/fidelity-table.py [PERIMETER]           # run `perimeter check Fidelity/`, rewrite docs/FIDELITY.md
    python3 Scripts/fidelity-table.py --check [PERIMETER]   # the same, but fail (exit 1) when the table on disk
                                                            # is not what the runs give, or when a row's agreement
                                                            # is not what its scenario declares

Each scenario's header comments give its row: `# condition:`, `# source:`, `# published:`, `# encoded:`
and, for a row known not to agree, `# disagrees:` with why (`# leave-one-out:` says why a row does not
agree once the fit leaves it out). A row agrees when every Monte Carlo
measurement of the scenario lies within its bounds (`perimeter check --measurements`). A row that
disagrees stays in the table, marked, with by how much and why.

Each row is marked "fitted" (a parameter of Scripts/fit-profiles.py is fitted to it) or "held out" (no
parameter is); agreement is reported for each part, and each fitted row gets the leave-one-out verdict:
refit the parameters fitted to it without it (a parameter left with no row keeps its prior), does the row
still agree?
"""
import importlib.util, json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = "Fidelity"
_spec = importlib.util.spec_from_file_location("fit_profiles", os.path.join(ROOT, "Scripts", "fit-profiles.py"))
FIT = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(FIT)
TABLE = os.path.join("docs", "FIDELITY.md")


def header(path):
    """The scenario's row fields from its leading comments, and its profile, runs and seed."""
    fields, text = {}, open(path, encoding="utf-8").read()
    for line in text.splitlines():
        m = re.match(r"#\s*(condition|source|published|encoded|disagrees|leave-one-out):\s*(.*)", line)
        if m:
            fields[m.group(1)] = m.group(2).strip()
    for key in ("profile", "runs", "name"):
        m = re.search(r"^%s:\s*(.+)$" % key, text, re.M)
        fields[key] = m.group(1).strip() if m else ""
    m = re.search(r"^noise:.*seed:\s*(\d+)", text, re.M)
    fields["seed"] = m.group(1) if m else "0"
    return fields


def number(value, unit):
    if unit == "s":
        return "%.0f s" % value if abs(value) >= 10 else "%.1f s" % value
    if unit == "m":
        return "%.0f m" % value if abs(value) >= 10 else "%.1f m" % value
    return "%g %%" % round(value, 1)


def gap(value, bounds, unit):
    """'' within the bounds, else how far outside: '153.7 m above 75 m'."""
    low, high = bounds.get("atLeast"), bounds.get("atMost")
    if low is not None and value < low:
        return "%s below %s" % (number(low - value, unit), number(low, unit))
    if high is not None and value > high:
        return "%s above %s" % (number(value - high, unit), number(high, unit))
    return ""


def bounds_text(bounds, unit):
    low, high = bounds.get("atLeast"), bounds.get("atMost")
    if low is not None and high is not None:
        return "%s–%s" % (number(low, unit), number(high, unit))
    return ("≥ " + number(low, unit)) if low is not None else ("≤ " + number(high, unit))


def figures(measurements):
    """Perimeter's figures for one scenario, and the gaps of those outside their bounds."""
    shown, gaps = [], []
    for m in measurements:
        share = "%s in %.1f %% of runs" % (m["statement"], 100 * m["share"])
        if m["probability"]:
            percent = {k: (None if v is None else 100 * v) for k, v in m["probability"].items()}
            share += " (expected %s)" % bounds_text(percent, "%")
            g = gap(100 * m["share"], percent, "%")
            if g:
                gaps.append("share of runs %.1f %%, %s" % (100 * m["share"], g))
        shown.append(share)
        for q in m["quantities"]:
            for stat, v in q["statistics"].items():
                if v["value"] is None:
                    gaps.append("no %s measured" % q["key"])
                    continue
                shown.append("%s %s %s (expected %s)" % (q["key"], stat, number(v["value"], q["unit"]),
                                                         bounds_text(v, q["unit"])))
                g = gap(v["value"], v, q["unit"])
                if g:
                    gaps.append("%s %s %s, %s" % (q["key"], stat, number(v["value"], q["unit"]), g))
    return shown, gaps


def run(perimeter):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "measurements.jsonl")
        proc = subprocess.run([perimeter, "check", FOLDER, "--measurements", out], cwd=ROOT,
                              capture_output=True, text=True)
        if proc.returncode not in (0, 1) or not os.path.exists(out):
            sys.stderr.write(proc.stdout + proc.stderr)
            sys.exit("fidelity-table: perimeter check %s/ failed with exit code %d" % (FOLDER, proc.returncode))
        failed_logs = [l for l in proc.stdout.splitlines() if "differ from the golden log" in l or "no golden log" in l]
        if failed_logs:
            sys.stderr.write(proc.stdout)
            sys.exit("fidelity-table: a golden log of %s/ differs; re-record with perimeter check --update %s/" % (FOLDER, FOLDER))
        rows = {}
        for line in open(out, encoding="utf-8"):
            m = json.loads(line)
            rows.setdefault(m["scenario"], []).append(m)
        return rows


def assess(rows):
    """Each scenario's row fields, Perimeter's figures and the gaps outside their bounds, read once."""
    assessed = {}
    for path, measured in rows.items():
        shown, gaps = figures(measured)
        assessed[path] = (header(os.path.join(ROOT, path)), shown, gaps)
    return assessed


def leave_one_out(perimeter):
    """{row file name: agrees} for each fitted row, the other parameters at the built-ins' values."""
    work = tempfile.mkdtemp(prefix=".fit-", dir=ROOT)
    try:
        return FIT.loo(perimeter, work, {})
    finally:
        shutil.rmtree(work, ignore_errors=True)


def table(assessed, loo):
    lines = [
        "# Fidelity: Perimeter's phones against published field measurements",
        "",
        "Generated by `python3 Scripts/fidelity-table.py` from the Monte Carlo runs of the scenarios in",
        "`Fidelity/` (each row one scenario; `perimeter check Fidelity/` evaluates the same expectations,",
        "and `.ci/run` fails when this table is not what the runs give). Do not edit by hand: change a",
        "scenario or a profile, then run the script.",
        "",
        "Each scenario rebuilds the published condition (the fence, the walk or drive, GPS error of 5 m",
        "wandering over 30 s unless it says otherwise) and encodes the published figure with the source's",
        "own spread. Distances are from the boundary (positive outside), delays from the true crossing.",
        "A published figure quotes `docs/sources/ID.md` after `[ID]`, or is labelled `assumption:`.",
        "",
        "**fit**: \"fitted\" rows steer a value of `Scripts/fit-profiles.py` (which re-derives the built-ins);",
        "\"held out\" rows never do. **leave-one-out**: refit without the row (a parameter left with no row",
        "keeps its prior, the value without field data), does the row still agree? A row that alone is fitted",
        "to a parameter cannot be held out of its fit; its row says so. Most fitted values rest on one",
        "published condition each (one thread, one trial series): where two rows share a parameter, leaving",
        "one out still leaves the other to fit it; where a row is alone, its value comes from it or from",
        "nowhere. A held-out row from another source is the test such a value gets.",
        "",
        "| # | condition | source | published | encoded as | Perimeter (profile, runs, seed) | fit | agrees | leave-one-out |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    agree, total, notes = 0, 0, []
    parts = {"fitted": [0, 0], "held out": [0, 0]}
    for i, path in enumerate(sorted(assessed), 1):
        f, shown, gaps = assessed[path]
        total += 1
        ok = not gaps
        agree += ok
        name = os.path.basename(path)
        part = "fitted" if name in FIT.fitted_rows() else "held out"
        parts[part][0] += ok
        parts[part][1] += 1
        left = ("agrees" if loo[name] else "does not agree") if name in loo else "–"
        sole = FIT.alone(name)
        if sole:
            left += " (cannot be held out: it alone fits %s, which falls back to its prior)" % ", ".join(
                "`%s`" % p for p in sole)
        elif name in loo and not loo[name] and f.get("leave-one-out"):
            left += " (%d)" % (len(notes) + 1)
            notes.append("(%d) %s, left out: %s" % (len(notes) + 1, name, f["leave-one-out"]))
        source = f.get("source", "")
        link = source if not source.startswith("http") else "[%s](%s)" % (short(source), source.split(" ")[0])
        disputed = (f.get("disagrees") or "").startswith("sources disagree")
        verdict = "yes" if ok else ("**no, sources disagree**: " if disputed else "**no**: ") + "; ".join(gaps)
        if not ok and f.get("disagrees"):
            verdict += " (%d)" % (len(notes) + 1)
            notes.append("(%d) %s: %s" % (len(notes) + 1, os.path.basename(path), f["disagrees"]))
        lines.append("| %d | %s | %s | %s | %s | `%s`, %s runs, seed %s: %s | %s | %s | %s |" % (
            i, cell(f.get("condition")), cell(link), cell(f.get("published")), cell(f.get("encoded")),
            f["profile"], f["runs"], f["seed"], cell("; ".join(shown)), part, verdict, left))
    kept = sum(loo.values())
    shared = [r for r in loo if not FIT.alone(r)]
    lines += ["", "%d of %d rows agree: %d of %d fitted rows, %d of %d held-out rows. Leave-one-out: %d of %d "
              "fitted rows still agree when refitted without them; of the %d rows that share each of their "
              "parameters with another row, %d. The other %d alone fit a parameter (their rows say which)." % (
                  agree, total, parts["fitted"][0], parts["fitted"][1], parts["held out"][0],
                  parts["held out"][1], kept, len(loo), len(shared), sum(loo[r] for r in shared),
                  len(loo) - len(shared)), ""]
    if notes:
        lines += ["Why the rows marked **no** or **does not agree** do not agree:", ""] + ["- " + n for n in notes] + [""]
    return "\n".join(lines)


def short(url):
    m = re.match(r"https?://github\.com/([^/]+/[^/]+)/(?:issues|pull)/(\d+)", url)
    if m:
        return "%s#%s" % (m.group(1), m.group(2))
    m = re.match(r"https?://(?:www\.)?([^/]+)", url)
    return m.group(1) if m else url


def cell(text):
    return (text or "").replace("|", "\\|")


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    perimeter = os.path.abspath(args[0]) if args else os.path.join(ROOT, ".build", "debug", "perimeter")
    assessed = assess(run(perimeter))
    text = table(assessed, leave_one_out(perimeter))
    declared = []
    for path, (f, _, gaps) in sorted(assessed.items()):
        if not gaps and f.get("disagrees"):
            declared.append("%s now agrees: remove its `# disagrees:` line" % path)
        if gaps and not f.get("disagrees"):
            declared.append("%s does not agree: %s (fix the profile, or declare it with `# disagrees: why`)"
                            % (path, "; ".join(gaps)))
    held = [p for p in assessed if os.path.basename(p) not in FIT.fitted_rows()]
    if len(held) * 3 < len(assessed):
        declared.append("%d of %d rows held out: hold out at least a third (Scripts/fit-profiles.py)"
                        % (len(held), len(assessed)))
    target = os.path.join(ROOT, TABLE)
    if check:
        current = open(target, encoding="utf-8").read() if os.path.exists(target) else ""
        if current != text:
            declared.append("%s is not what the runs give: run python3 Scripts/fidelity-table.py" % TABLE)
        for problem in declared:
            print("fidelity-table: " + problem, file=sys.stderr)
        print("fidelity-table: %d scenarios; %s" % (len(assessed), "table up to date" if not declared else "FAILED"))
        return 1 if declared else 0
    with open(target, "w", encoding="utf-8") as out:
        out.write(text)
    for problem in declared:
        print("fidelity-table: " + problem, file=sys.stderr)
    print("fidelity-table: wrote %s (%d rows)" % (TABLE, len(assessed)))
    return 1 if declared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

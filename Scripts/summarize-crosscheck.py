#!/usr/bin/env python3
"""Checks `perimeter summarize` against DuckDB: the same numbers from the same events by a SQL query.

    python3 Scripts/summarize-crosscheck.py [PERIMETER]        (default .build/debug/perimeter)

It writes a fleet with a fixed seed (DEVICES devices over about three hours, each walking into one to three
of four 80 m circles in Madrid and staying from half a minute to 25 minutes, a fix every 15 s, as a CSV fix
table; one device's id holds a comma and quotes), runs it under `android` (misses, and delivery delays: a
delayed event's `time` is not its decision time) with a 10-minute dwell rule to a JSON Lines log, then runs
`perimeter summarize LOG --csv` with `--by region --by hour`, `--by device`, `--by day --by region` and
`--by hour --timezone Asia/Kolkata` (UTC+05:30: hours that UTC's do not share) and computes each with one
DuckDB query over the log (`read_json`). Every group's key, counts of enter, exit, dwell and visit, and the
visit durations' p50, p90 and max must be equal, exactly. The percentiles are nearest rank, computed in SQL
from the sorted list (rank ceil(p·n/100), 1-based), as `Analysis/NearestRank.swift` defines them; DuckDB's
`quantile_disc` is computed beside them and must agree too (its documented definition is the same rank).

DuckDB comes from PyPI: when `import duckdb` fails, the script makes a virtual environment under
.build-venv/summarize, installs duckdb there and runs itself again inside it. Exits 1 on any difference.
"""
import csv, io, json, math, os, random, subprocess, sys, tempfile, venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".build-venv", "summarize")
DUCKDB = "duckdb>=1,<3"
DEVICES, SEED = 300, 56
ZONES = [("plaza-mayor", 40.41550, -3.70740), ("sol", 40.41690, -3.70350),
         ("retiro", 40.41530, -3.68440), ("prado", 40.41380, -3.69210)]
START = 1714550400  # 2024-05-01T08:00:00Z
FIX_S, WALK_MS = 15, 1.4
M_PER_DEG_LAT = 111_320.0


def in_venv():
    """Runs this script again in a virtual environment with duckdb, unless duckdb can be imported here."""
    try:
        import duckdb  # noqa: F401
        return
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        sys.exit("summarize-crosscheck: duckdb is not importable even in " + VENV)
    if not os.path.exists(python):
        venv.create(VENV, with_pip=True)
    if subprocess.run([python, "-c", "import duckdb"], capture_output=True).returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", DUCKDB], check=True)
    sys.exit(subprocess.run([python] + sys.argv).returncode)


def offset(lat, lon, metres, bearing):
    """The point `metres` from (lat, lon) towards `bearing` (radians from north), on a local plane."""
    dlat = metres * math.cos(bearing) / M_PER_DEG_LAT
    dlon = metres * math.sin(bearing) / (M_PER_DEG_LAT * math.cos(math.radians(lat)))
    return lat + dlat, lon + dlon


def fleet(rng):
    """Rows (device, time, lat, lon): each device walks from outside to its zones, stays, and walks off."""
    rows = []
    for n in range(DEVICES):
        device = 'van "42", east' if n == 42 else "d%03d" % n
        t = START + rng.randint(0, 150 * 60)
        centre = ZONES[rng.randrange(len(ZONES))]
        here = offset(centre[1], centre[2], 700, rng.uniform(0, 2 * math.pi))
        points = [(t, here)]
        for _ in range(rng.randint(1, 3)):
            zone = ZONES[rng.randrange(len(ZONES))]
            target = offset(zone[1], zone[2], rng.uniform(0, 30), rng.uniform(0, 2 * math.pi))
            t = walk(points, target, t)
            t = stand(points, target, t, rng.uniform(30, 25 * 60))
        t = walk(points, offset(points[-1][1][0], points[-1][1][1], 700, rng.uniform(0, 2 * math.pi)), t)
        rows += [(device, when, lat, lon) for when, (lat, lon) in points]
    return rows


def walk(points, to, t):
    """Appends a fix every FIX_S seconds walking from the last point to `to`; returns the time of arrival."""
    (lat0, lon0) = points[-1][1]
    dy = (to[0] - lat0) * M_PER_DEG_LAT
    dx = (to[1] - lon0) * M_PER_DEG_LAT * math.cos(math.radians(lat0))
    steps = max(1, int(math.hypot(dx, dy) / WALK_MS / FIX_S))
    for i in range(1, steps + 1):
        t += FIX_S
        points.append((t, (lat0 + (to[0] - lat0) * i / steps, lon0 + (to[1] - lon0) * i / steps)))
    return t


def stand(points, at, t, seconds):
    """Appends a fix every FIX_S seconds standing at `at` for about `seconds`."""
    for _ in range(int(seconds / FIX_S)):
        t += FIX_S
        points.append((t, at))
    return t


def write_scenario(folder, rows):
    with open(os.path.join(folder, "fleet.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["device", "time", "lat", "lon"])
        out.writerows((d, t, "%.6f" % lat, "%.6f" % lon) for d, t, lat, lon in rows)
    regions = "\n".join("  - {id: %s, circle: {lat: %.5f, lon: %.5f, radius: 80}}" % z for z in ZONES)
    with open(os.path.join(folder, "fleet.yaml"), "w") as f:
        f.write("name: summarize crosscheck\nstart: 2024-05-01T08:00:00Z\nprofile: android\nregions:\n" + regions
                + "\nrules:\n  - {name: stay, dwell: 10m}\ndevices:\n  - fixes: fleet.csv\n")
    return os.path.join(folder, "fleet.yaml")


# The group keys as `summarize` writes them (`GroupValue`): hours ISO 8601 with the clocks' offset, days dates.
KEYS = {
    "region": "region",
    "device": "device",
    "hour": "strftime(date_trunc('hour', t + {shift}), '%Y-%m-%dT%H:00:00') || '{suffix}'",
    "day": "strftime(date_trunc('day', t + {shift}), '%Y-%m-%d')",
}


def duckdb_summary(con, log, by, shift_minutes, suffix):
    """The summary by `by` from DuckDB, as rows of strings in summarize's CSV columns."""
    shift = "INTERVAL '%d minutes'" % shift_minutes
    keys = [KEYS[k].format(shift=shift, suffix=suffix) for k in by]
    names = ["k%d" % i for i in range(len(by))]
    select = ", ".join("%s AS %s" % (k, n) for k, n in zip(keys, names))
    group = ", ".join(names)
    sql = f"""
        WITH e AS (
            SELECT device, region, kind, duration,
                   strptime(time, '%Y-%m-%dT%H:%M:%S.%gZ') AS t
            FROM read_json('{log}', format = 'newline_delimited',
                           columns = {{time: 'VARCHAR', device: 'VARCHAR', region: 'VARCHAR', kind: 'VARCHAR',
                                      duration: 'DOUBLE'}})
            WHERE kind IN ('enter', 'exit', 'dwell', 'visit')
        ), g AS (
            SELECT {select},
                   count(*) FILTER (WHERE kind = 'enter') AS enter,
                   count(*) FILTER (WHERE kind = 'exit') AS exit,
                   count(*) FILTER (WHERE kind = 'dwell') AS dwell,
                   count(*) FILTER (WHERE kind = 'visit') AS visit,
                   list_sort(list(duration) FILTER (WHERE kind = 'visit')) AS d,
                   quantile_disc(duration, 0.5) FILTER (WHERE kind = 'visit') AS qd50,
                   quantile_disc(duration, 0.9) FILTER (WHERE kind = 'visit') AS qd90
            FROM e GROUP BY {group}
        )
        SELECT {group}, enter, exit, dwell, visit,
               CASE WHEN visit > 0 THEN d[(50 * visit + 99) // 100] END AS p50,
               CASE WHEN visit > 0 THEN d[(90 * visit + 99) // 100] END AS p90,
               CASE WHEN visit > 0 THEN d[visit] END AS max, qd50, qd90
        FROM g ORDER BY {group}
    """
    rows = {}
    for row in con.execute(sql).fetchall():
        key = tuple(row[: len(by)])
        counts = tuple(int(x) for x in row[len(by): len(by) + 4])
        p50, p90, top, qd50, qd90 = row[len(by) + 4:]
        if (qd50, qd90) != (p50, p90):
            sys.exit("quantile_disc is not nearest rank for %s: %s, %s against %s, %s" % (key, qd50, qd90, p50, p90))
        rows[key] = counts + (p50, p90, top)
    return rows


def perimeter_summary(binary, log, by, zone):
    args = [binary, "summarize", log, "--csv"] + sum((["--by", k] for k in by), [])
    if zone:
        args += ["--timezone", zone]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    reader = csv.reader(io.StringIO(out, newline=""))
    header = next(reader)
    assert header[: len(by)] == by, header
    rows = {}
    for row in reader:
        number = lambda text: float(text) if text else None  # noqa: E731
        rows[tuple(row[: len(by)])] = tuple(int(x) for x in row[len(by): len(by) + 4]) + tuple(
            number(x) for x in row[len(by) + 4:])
    return rows


def main():
    in_venv()
    import duckdb

    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/perimeter"))
    with tempfile.TemporaryDirectory() as folder:
        scenario = write_scenario(folder, fleet(random.Random(SEED)))
        log = os.path.join(folder, "events.jsonl")
        subprocess.run([binary, "run", scenario, "--quiet", "--sink", "jsonl:" + log], check=True)
        con = duckdb.connect()
        kinds = dict(con.execute(f"SELECT kind, count(*) FROM read_json('{log}') GROUP BY kind").fetchall())
        delayed = con.execute(
            f"SELECT count(*) FROM read_json('{log}', columns = {{detectedAt: 'VARCHAR'}}) "
            "WHERE detectedAt IS NOT NULL").fetchall()[0][0]
        print("summarize-crosscheck: %d devices, events %s, %d delivered late (duckdb %s)"
              % (DEVICES, json.dumps(kinds, sort_keys=True), delayed, duckdb.__version__))
        failed = False
        for by, zone, shift, suffix in [
            (["region", "hour"], None, 0, "Z"),
            (["device"], None, 0, "Z"),
            (["day", "region"], None, 0, "Z"),
            (["hour"], "Asia/Kolkata", 330, "+05:30"),
        ]:
            ours = perimeter_summary(binary, log, by, zone)
            theirs = duckdb_summary(con, log, by, shift, suffix)
            numbers = sum(len(v) for v in theirs.values())
            diffs = [k for k in sorted(set(ours) | set(theirs)) if ours.get(k) != theirs.get(k)]
            label = " ".join("--by " + k for k in by) + (" --timezone " + zone if zone else "")
            print("  %-40s %4d groups, %5d numbers: %s" % (label, len(theirs), numbers,
                                                         "equal" if not diffs else "%d DIFFER" % len(diffs)))
            for key in diffs[:5]:
                print("    %s: perimeter %s, duckdb %s" % (key, ours.get(key), theirs.get(key)))
            if not {"enter", "exit", "dwell", "visit"} <= kinds.keys() or len(theirs) < 2:
                print("    the fleet did not give every kind and several groups")
                diffs.append(None)
            failed |= bool(diffs)
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

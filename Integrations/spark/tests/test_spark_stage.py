"""The Spark stage against `perimeter run`, in local mode: a generated fleet of 200 vans for one hour (a fix
every 10 s) from Parquet through `python -m perimeter_spark` gives exactly the events `perimeter run` gives
the same fleet; times as text, timestamps or seconds give the same events; rows out of order, or a bad row,
fail the job with perimeter's own message.

    PERIMETER=.build/release/perimeter python -m unittest discover -s Integrations/spark/tests -v

PERIMETER names the binary (default: .build/release/perimeter, else .build/debug/perimeter).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Integrations", "spark"))
VANS = 200

SCENARIO = """\
name: Spark fleet
profile: android
regions:
  - geojson: {zones}
  - {{id: depot, circle: {{lat: 59.9270, lon: 30.3200, radius: 150}}}}
rules:
  - {{name: stop, dwell: 120}}
noise: {{sigma: 6, seed: 11, correlation: 20}}
devices:
  - fixes: {fixes}
"""


def binary() -> str:
    given = os.environ.get("PERIMETER")
    if given:
        return os.path.abspath(given)
    for build in ("release", "debug"):
        path = os.path.join(ROOT, ".build", build, "perimeter")
        if os.access(path, os.X_OK):
            return path
    raise unittest.SkipTest("no perimeter binary: build it first (swift build -c release)")


def canonical(event: dict) -> tuple:
    """An event as comparable values: times in microseconds since 1970, numbers as floats, absent as None."""
    def time(value):
        if value is None:
            return None
        if isinstance(value, str):
            from datetime import datetime
            return int(round(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1e6))
        return int(round(value.timestamp() * 1e6))
    number = lambda v: None if v is None else float(v)
    return (time(event["time"]), event["device"], event["region"], event["kind"], number(event["lat"]),
            number(event["lon"]), number(event["distance"]), time(event.get("crossedAt")), time(event.get("arrival")),
            time(event.get("departure")), number(event.get("duration")), event.get("rule"), time(event.get("detectedAt")))


class SparkStageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.binary = binary()
        cls.folder = tempfile.mkdtemp(prefix="perimeter-spark-")
        cls.csv = os.path.join(cls.folder, "fleet.csv")
        subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "example-fleet.py"), cls.csv, str(VANS)], check=True)
        table = pacsv.read_csv(cls.csv, convert_options=pacsv.ConvertOptions(column_types={"time": pa.string()}))
        assert table.num_rows == VANS * 361, table.num_rows
        cls.parquet = os.path.join(cls.folder, "fleet.parquet")
        pq.write_table(table, cls.parquet)
        cls.scenario = os.path.join(cls.folder, "fleet.yaml")
        # The scenario reads only beside itself (its input root, docs/SECURITY.md "Inputs Perimeter refuses"): its zones
        # and fixes are copied there and named relatively, as a job's scenario folder would hold them.
        shutil.copy(os.path.join(ROOT, "Tracks", "groser-zones.geojson"), cls.folder)
        with open(cls.scenario, "w") as out:
            out.write(SCENARIO.format(zones="groser-zones.geojson", fixes="fleet.csv"))
        run = subprocess.run([cls.binary, "run", cls.scenario, "--sink", "jsonl:-", "--quiet"],
                             check=True, capture_output=True, text=True)
        cls.expected = sorted(canonical(json.loads(line)) for line in run.stdout.splitlines())
        assert len(cls.expected) > 1000, len(cls.expected)

        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        from pyspark.sql import SparkSession
        cls.spark = (SparkSession.builder.master("local[2]").appName("perimeter-tests")
                     .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate())
        cls.spark.sparkContext.setLogLevel("ERROR")

    @classmethod
    def tearDownClass(cls):
        cls.spark.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_command_line_job_gives_the_events_of_perimeter_run(self):
        out = os.path.join(self.folder, "events")
        job = subprocess.run([sys.executable, "-m", "perimeter_spark", self.scenario, self.parquet, "--out", out,
                              "--master", "local[2]", "--partitions", "4", "--binary", self.binary],
                             cwd=os.path.join(ROOT, "Integrations", "spark"), capture_output=True, text=True)
        self.assertEqual(job.returncode, 0, job.stderr[-4000:])
        table = pq.read_table(out)
        schema = table.schema
        for name in ("time", "crossedAt", "arrival", "departure"):
            self.assertEqual(schema.field(name).type, pa.timestamp("us", tz="UTC"), name)
        for name in ("lat", "lon", "distance", "duration"):
            self.assertEqual(schema.field(name).type, pa.float64(), name)
        rows = table.to_pylist()
        self.assertEqual(len({row["run_id"] for row in rows}), 1)
        self.assertTrue(all(str(row["date"]) == row["time"].strftime("%Y-%m-%d") for row in rows))
        visits = [row for row in rows if row["kind"] == "visit"]
        self.assertTrue(visits and all(row["rule"] is None and row["duration"] > 0 for row in visits))
        self.assertTrue(all(row["crossedAt"] is None for row in rows if row["kind"] in ("dwell", "visit", "monitor-start")))
        self.assertEqual(sorted(canonical(row) for row in rows), self.expected)

    def cli(self, *arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "perimeter_spark", *arguments, "--master", "local[2]",
                               "--binary", self.binary],
                              cwd=os.path.join(ROOT, "Integrations", "spark"), capture_output=True, text=True)

    def test_command_line_refuses_an_existing_out_before_computing(self):
        out = tempfile.mkdtemp(dir=self.folder)
        job = self.cli(self.scenario, self.parquet, "--out", out)
        self.assertEqual(job.returncode, 2, job.stderr[-4000:])
        self.assertIn(f"--out {out} already exists; give --mode overwrite", job.stderr)
        self.assertNotIn("Traceback", job.stderr)
        self.assertEqual(os.listdir(out), [])

    def test_command_line_says_a_missing_column_in_one_line(self):
        out = os.path.join(self.folder, "never")
        job = self.cli(self.scenario, self.parquet, "--out", out, "--columns", "time=ts")
        self.assertEqual(job.returncode, 2, job.stderr[-4000:])
        self.assertNotIn("Traceback", job.stderr)
        line = [text for text in job.stderr.splitlines() if text.startswith("perimeter_spark:")]
        self.assertEqual(len(line), 1, job.stderr[-4000:])
        self.assertIn("the fixes have no column 'ts' for 'time'", line[0])
        self.assertIn("map it with --columns time=YOUR_COLUMN", line[0])
        self.assertFalse(os.path.exists(out))

    def test_run_fleet_with_mapped_csv_columns_on_one_partition(self):
        from perimeter_spark import run_fleet
        renamed = os.path.join(self.folder, "renamed.csv")
        with open(self.csv) as source, open(renamed, "w") as out:
            out.write("van_id,ts,y,x,acc\n")
            lines = source.read().splitlines()[1:]
            out.write("\n".join(reversed(lines)) + "\n")  # newest first: the stage sorts
        fixes = self.spark.read.option("header", True).csv(renamed)
        events = run_fleet(self.spark, fixes, self.scenario, self.binary, partitions=1,
                           columns={"device": "van_id", "time": "ts", "lat": "y", "lon": "x", "accuracy": "acc"})
        self.assertEqual(sorted(canonical(row.asDict()) for row in events.collect()), self.expected)

    def test_times_as_timestamps_or_seconds_give_the_same_events(self):
        from pyspark.sql import functions as F
        from perimeter_spark import run_fleet
        vans = os.path.join(ROOT, "Tracks", "vans.csv")
        scenario = os.path.join(ROOT, "Scenarios", "vans-fleet.yaml")
        text = self.spark.read.option("header", True).csv(vans)
        key = lambda rows: sorted(canonical(row.asDict()) for row in rows)
        expected = key(run_fleet(self.spark, text, scenario, self.binary).collect())
        self.assertEqual(len(expected), 501)
        zone = self.spark.conf.get("spark.sql.session.timeZone")
        self.spark.conf.set("spark.sql.session.timeZone", "America/New_York")  # a timestamp is an instant anywhere
        try:
            stamped = text.withColumn("time", F.to_timestamp("time"))
            self.assertEqual(key(run_fleet(self.spark, stamped, scenario, self.binary).collect()), expected)
        finally:
            self.spark.conf.set("spark.sql.session.timeZone", zone)
        seconds = text.withColumn("time", F.unix_timestamp(F.to_timestamp("time")).cast("double"))
        self.assertEqual(key(run_fleet(self.spark, seconds, scenario, self.binary).collect()), expected)

    def test_rows_out_of_time_order_fail_with_perimeters_message(self):
        from perimeter_spark import run_fleet
        rows = [("van-x", "2024-05-01T09:00:%02dZ" % s, 59.93, 30.32) for s in (0, 10, 5, 20)]
        fixes = self.spark.createDataFrame(rows, "device string, time string, lat double, lon double").coalesce(1)
        with self.assertRaises(Exception) as caught:
            run_fleet(self.spark, fixes, self.scenario, self.binary, sort=False).collect()
        text = str(caught.exception)
        self.assertIn("perimeter stream exited with status 2", text)
        self.assertIn('standard input:4:', text)
        self.assertIn('is earlier than its time 2024-05-01T09:00:10.000Z at line 3', text)

    def test_a_bad_row_fails_with_perimeters_message(self):
        from perimeter_spark import run_fleet
        rows = [("van-y", "2024-05-01T09:00:00Z", "59.93", "30.32"), ("van-y", "2024-05-01T09:00:10Z", "north", "30.32")]
        fixes = self.spark.createDataFrame(rows, "device string, time string, lat string, lon string")
        with self.assertRaises(Exception) as caught:
            run_fleet(self.spark, fixes, self.scenario, self.binary, partitions=2).collect()
        self.assertIn('"lat" is "north", which is not a number', str(caught.exception))


if __name__ == "__main__":
    unittest.main()

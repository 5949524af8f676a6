"""README "Fix tables and field logs in Parquet", run for real: tables written as Parquet by pyarrow (one
file, and a hive-partitioned folder whose parts hold the rows out of order) go through
Scripts/parquet-rows.py into `perimeter run`, `perimeter stream` and `perimeter calibrate --observed -`, and
give exactly what the same rows give as CSV or JSON Lines.

    PERIMETER=.build/release/perimeter VENV/bin/python -m unittest discover -s Scripts -p 'parquet_rows_test.py'

Needs pyarrow in the interpreter that runs it (.ci/run uses the Spark stage's virtual environment).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "Scripts", "parquet-rows.py")
PERIMETER = os.path.abspath(os.environ.get("PERIMETER", os.path.join(ROOT, ".build", "release", "perimeter")))


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, **kwargs)
    if result.returncode != 0:
        raise AssertionError(f"{args} exited {result.returncode}: {result.stderr.decode()}")
    return result.stdout


def rows(script_args, **kwargs):
    return run([sys.executable, SCRIPT] + script_args, **kwargs)


class ParquetRowsTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="parquet-rows-")
        self.addCleanup(shutil.rmtree, self.folder)
        shutil.copy(os.path.join(ROOT, "Tracks", "vans.csv"), self.folder)
        shutil.copy(os.path.join(ROOT, "Tracks", "groser-zones.geojson"), self.folder)
        with open(os.path.join(ROOT, "Scenarios", "vans-fleet.yaml")) as f:
            scenario = f.read()
        scenario = scenario.replace("../Tracks/groser-zones.geojson", "groser-zones.geojson")
        self.scenario = os.path.join(self.folder, "vans.yaml")
        with open(self.scenario, "w") as f:
            f.write(scenario.replace("../Tracks/vans.csv", "FIXES"))
        # The fleet as an analyst's warehouse holds it: times as UTC timestamps, parts by van group, and
        # within each part the rows in reverse, so that only --sort gives perimeter stream its order.
        table = pacsv.read_csv(os.path.join(self.folder, "vans.csv"))  # times read as timestamp[s, UTC]
        assert pa.types.is_timestamp(table.schema.field("time").type), table.schema
        self.parquet = os.path.join(self.folder, "vans.parquet")
        pq.write_table(table, self.parquet)
        groups = pa.array([int(d[-2:]) % 3 for d in table["device"].to_pylist()])
        parted = table.append_column("group", groups).take(pa.array(range(table.num_rows - 1, -1, -1)))
        self.parts = os.path.join(self.folder, "vans-parts")
        pq.write_to_dataset(parted, self.parts, partition_cols=["group"])

    def scenario_with(self, fixes):
        path = os.path.join(self.folder, f"with-{os.path.basename(fixes)}.yaml")
        with open(self.scenario) as f, open(path, "w") as out:
            out.write(f.read().replace("FIXES", fixes))
        return path

    def events(self, scenario):
        out = os.path.join(self.folder, "events.jsonl")
        run([PERIMETER, "run", scenario, "--quiet", "--sink", f"jsonl:{out}"], cwd=self.folder)
        with open(out) as f:
            text = f.read()
        os.remove(out)
        return text

    def test_a_file_and_a_partitioned_folder_give_the_csv_events(self):
        expected = self.events(self.scenario_with("vans.csv"))
        self.assertGreater(expected.count("\n"), 144)
        for source in (self.parquet, self.parts):
            for fmt, name in (("csv", "from-parquet.csv"), ("jsonl", "from-parquet.jsonl")):
                with self.subTest(source=os.path.basename(source), format=fmt):
                    with open(os.path.join(self.folder, name), "wb") as f:
                        f.write(rows([source, "--format", fmt, "--sort", "device,time"]))
                    self.assertEqual(self.events(self.scenario_with(name)), expected)

    def test_piped_into_stream_gives_the_csv_stream(self):
        scenario = self.scenario_with("vans.csv")
        with open(os.path.join(self.folder, "vans.csv"), "rb") as f:
            expected = run([PERIMETER, "stream", scenario, "--quiet"], stdin=f, cwd=self.folder)
        piped = subprocess.run(
            f'"{sys.executable}" "{SCRIPT}" "{self.parts}" --sort device,time --columns device,time,lat,lon,accuracy'
            f' | "{PERIMETER}" stream "{scenario}" --quiet',
            shell=True, capture_output=True, cwd=self.folder)
        self.assertEqual(piped.returncode, 0, piped.stderr.decode())
        self.assertEqual(piped.stdout, expected)
        # Unsorted parts are out of order, and stream says where.
        unsorted = subprocess.run(
            f'"{sys.executable}" "{SCRIPT}" "{self.parts}" | "{PERIMETER}" stream "{scenario}" --quiet',
            shell=True, capture_output=True, cwd=self.folder)
        self.assertEqual(unsorted.returncode, 2)
        self.assertIn("standard input:", unsorted.stderr.decode())

    def test_a_field_log_piped_into_calibrate(self):
        study = os.path.join(ROOT, "Examples", "field-study")
        log = os.path.join(study, "observed.jsonl")
        with open(log) as f:
            records = [json.loads(line) for line in f]
        table = pa.Table.from_pylist(records)
        for name in ("time", "detectedAt"):
            stamps = pc.cast(pc.replace_substring(table[name], "Z", ""), pa.timestamp("ms"))
            self.assertEqual(stamps.null_count, table[name].null_count)
            table = table.set_column(table.schema.get_field_index(name), name, pc.assume_timezone(stamps, "UTC"))
        parquet = os.path.join(self.folder, "observed.parquet")
        pq.write_table(table, parquet)
        fit = ["--fit", "hysteresis", "--runs", "2", "--bootstrap", "5", "--seed", "1000", "--json"]
        expected = run([PERIMETER, "calibrate", "study.yaml", "--observed", "observed.jsonl"] + fit, cwd=study)
        piped = subprocess.run(
            f'"{sys.executable}" "{SCRIPT}" "{parquet}" | "{PERIMETER}" calibrate study.yaml --observed - '
            + " ".join(fit),
            shell=True, capture_output=True, cwd=study)
        self.assertEqual(piped.returncode, 0, piped.stderr.decode())
        self.assertEqual(
            json.loads(piped.stdout.decode().replace("standard input", "observed.jsonl")), json.loads(expected))

    def test_bad_input_exits_two_naming_it(self):
        for args, says in (
            ([os.path.join(self.folder, "nothing-here")], "cannot read it as Parquet"),
            ([self.parquet, "--sort", "van"], "no column 'van'; it has device, time, lat, lon, accuracy"),
        ):
            with self.subTest(args=args):
                result = subprocess.run([sys.executable, SCRIPT] + args, capture_output=True)
                self.assertEqual(result.returncode, 2)
                self.assertIn(says, result.stderr.decode())


if __name__ == "__main__":
    unittest.main()

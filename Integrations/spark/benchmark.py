"""The Spark stage against `perimeter stream` alone, in one run on this machine.

    python Integrations/spark/benchmark.py [VANS] [STEP_SECONDS] [--binary PATH]

A fleet of VANS vans (default 300) for one hour with a fix every STEP seconds (default 1: 1.08 M rows)
in Groser's six zones under Android, as Parquet. Measured, each the best of two after a warm-up job:
- `perimeter stream` alone on the fleet's CSV (sorted by device, then time): the reference;
- `perimeter run` of the same fleet (all devices in one process, one thread per core);
- the Spark stage (`run_fleet`, mapInArrow) on 1, 2 and 4 partitions, in local mode on every core, from
  Parquet to a no-op sink (Spark's "noop" format: the whole plan runs, nothing is written);
- the same stage through applyInPandas (one group per partition, pandas in and out), on 2 partitions;
- and the Spark job of the command line, Parquet in and Parquet out by date, on 2 partitions.
Prints rows per second and each time over the stream reference.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)


def best(runs: int, job) -> float:
    times = []
    for _ in range(runs):
        began = time.monotonic()
        job()
        times.append(time.monotonic() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("vans", nargs="?", type=int, default=300)
    parser.add_argument("step", nargs="?", type=int, default=1)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "perimeter"))
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)

    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    folder = tempfile.mkdtemp(prefix="perimeter-spark-bench-")
    csv = os.path.join(folder, "fleet.csv")
    subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "example-fleet.py"), csv, str(args.vans), str(args.step)],
                   check=True, stdout=subprocess.DEVNULL)
    table = pacsv.read_csv(csv, convert_options=pacsv.ConvertOptions(column_types={"time": pa.string()}))
    rows = table.num_rows
    parquet = os.path.join(folder, "fleet.parquet")
    pq.write_table(table, parquet)
    scenario = os.path.join(folder, "fleet.yaml")
    with open(scenario, "w") as out:
        out.write(f"name: bench\nprofile: android\nregions:\n  - geojson: {ROOT}/Tracks/groser-zones.geojson\n"
                  f"devices:\n  - fixes: {csv}\n")
    start = "2024-05-01T09:00:00Z"
    print(f"fleet: {args.vans} vans x 1 h, a fix every {args.step} s: {rows:,} rows; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.2f}")

    def stream():
        with open(csv, "rb") as source:
            subprocess.run([binary, "stream", scenario, "--start", start, "--format", "csv", "--sink", "csv:-", "--quiet"],
                           stdin=source, stdout=subprocess.DEVNULL, check=True)

    def run():
        subprocess.run([binary, "run", scenario, "--sink", "csv:-", "--quiet"], stdout=subprocess.DEVNULL, check=True)

    reference = best(2, stream)
    results = [("perimeter stream alone (reference)", reference), ("perimeter run, every core", best(2, run))]

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from perimeter_spark import EVENT_SCHEMA, run_fleet
    from perimeter_spark.stage import run_partition, stream_command

    spark = (SparkSession.builder.master("local[*]").appName("perimeter-bench")
             .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    fixes = spark.read.parquet(parquet)
    run_fleet(spark, fixes, scenario, binary, partitions=2).write.format("noop").mode("overwrite").save()  # warm-up

    for partitions in (1, 2, 4):
        job = lambda: run_fleet(spark, fixes, scenario, binary, partitions=partitions, start=start) \
            .write.format("noop").mode("overwrite").save()
        results.append((f"Spark, mapInArrow, {partitions} partition{'s' if partitions > 1 else ''}", best(2, job)))

    def pandas_job(partitions=2):
        import pandas as pd
        import pyarrow as pa
        command = stream_command(binary, scenario, start, None)

        def group(frame: "pd.DataFrame") -> "pd.DataFrame":
            batch = pa.RecordBatch.from_pandas(frame[["device", "time", "lat", "lon", "accuracy"]], preserve_index=False)
            out = [b.to_pandas() for b in run_partition([batch], command, "bench")]
            return pd.concat(out) if out else pd.DataFrame(columns=EVENT_SCHEMA.names)

        keyed = fixes.withColumn("_bucket", F.pmod(F.hash("device"), F.lit(partitions))) \
            .withColumn("_row", F.monotonically_increasing_id())
        keyed = keyed.repartition(partitions, "_bucket").sortWithinPartitions("device", "time", "_row")
        keyed.groupBy("_bucket").applyInPandas(group, EVENT_SCHEMA).write.format("noop").mode("overwrite").save()

    results.append(("Spark, applyInPandas, 2 partitions", best(2, pandas_job)))
    out = os.path.join(folder, "events")

    def parquet_job():
        subprocess.run([sys.executable, "-m", "perimeter_spark", scenario, parquet, "--out", out, "--mode", "overwrite",
                        "--master", "local[*]", "--partitions", "2", "--binary", binary],
                       cwd=HERE, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    spark.stop()
    results.append(("python -m perimeter_spark, Parquet by date, 2 partitions (whole process)", best(2, parquet_job)))

    print(f"{'':74} {'seconds':>8} {'rows/s':>10} {'÷ stream':>9}")
    for name, seconds in results:
        print(f"{name:74} {seconds:8.2f} {rows / seconds:10,.0f} {seconds / reference:9.2f}")


if __name__ == "__main__":
    main()

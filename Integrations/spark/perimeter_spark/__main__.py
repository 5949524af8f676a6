"""python -m perimeter_spark SCENARIO FIXES --out events/ [--master local[2]] [--binary PATH] ...

Reads a fleet's fixes (Parquet, CSV with a header, or JSON Lines; told by --input-format or the name),
runs them through `perimeter stream` as a Spark stage, and writes the events as Parquet partitioned by
event date (UTC): events/date=2024-05-01/part-....parquet. Prints how many events and where they went.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time


def _columns(text: str | None) -> dict[str, str]:
    """`device=van_id,time=ts` as {"device": "van_id", "time": "ts"}."""
    mapping = {}
    for part in filter(None, (text or "").split(",")):
        ours, sep, theirs = part.partition("=")
        if not sep or not ours.strip() or not theirs.strip():
            raise argparse.ArgumentTypeError(f"--columns: {part!r} is not NAME=COLUMN (e.g. device=van_id)")
        mapping[ours.strip()] = theirs.strip()
    return mapping


def _format(path: str, given: str | None) -> str:
    if given:
        return given
    name = path.rstrip("/").lower()
    for suffix, kind in ((".parquet", "parquet"), (".csv", "csv"), (".jsonl", "json"), (".ndjson", "json"),
                         (".json", "json")):
        if name.endswith(suffix):
            return kind
    if os.path.isdir(path):
        return "parquet"  # a folder of part files, as Spark writes them
    raise SystemExit(f"perimeter_spark: {path}: cannot tell its format from its name; "
                     "give --input-format parquet, csv or json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perimeter_spark", description=__doc__.split("\n\n")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", help="the scenario: regions, rules, profile, noise (its devices are not read)")
    parser.add_argument("fixes", help="the fleet's fixes: a Parquet file or folder, a CSV, or JSON Lines")
    parser.add_argument("--out", required=True, help="the folder the events go to, as Parquet by event date")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--binary", default="perimeter", help="the perimeter executable (default: perimeter on PATH)")
    parser.add_argument("--input-format", choices=("parquet", "csv", "json"), help="default: from the name")
    parser.add_argument("--columns", type=_columns, default={},
                        help="your column names for ours: device=van_id,time=ts,lat=y,lon=x,accuracy=acc")
    parser.add_argument("--profile", help="replaces the scenario's profile: ios, ios-gps, ios-terminated, android, android-background, android-idle, ideal")
    parser.add_argument("--partitions", type=int, help="partitions by device (default: spark.sql.shuffle.partitions)")
    parser.add_argument("--start", help="the clock's start, ISO 8601 (default: the fleet's earliest fix)")
    parser.add_argument("--run-id", help="the run_id column (default: from the scenario, start and profile)")
    parser.add_argument("--mode", choices=("error", "overwrite", "append"), default="error",
                        help="when --out exists: fail (default), replace it, or add to it")
    args = parser.parse_args(argv)

    if not os.path.exists(args.scenario):
        parser.error(f"{args.scenario}: no such scenario file")
    if not os.path.exists(args.fixes):
        parser.error(f"{args.fixes}: no such file or folder of fixes")
    if os.sep not in args.binary and not shutil.which(args.binary):
        parser.error(f"{args.binary}: not on PATH; give --binary PATH (swift build -c release builds .build/release/perimeter)")
    if os.sep in args.binary and not os.access(args.binary, os.X_OK):
        parser.error(f"{args.binary}: not an executable file")
    if args.partitions is not None and args.partitions < 1:
        parser.error(f"--partitions must be 1 or more, not {args.partitions}")
    if args.mode == "error" and os.path.exists(args.out):
        parser.error(f"--out {args.out} already exists; give --mode overwrite to replace it, --mode append to add "
                     "to it, or another --out")
    kind = _format(args.fixes, args.input_format)

    # The workers run this same Python (with pyarrow), unless told otherwise.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from . import FixColumnError, run_fleet

    builder = SparkSession.builder.appName("perimeter")
    if args.master:
        builder = builder.master(args.master)
    spark = (builder.config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        reader = spark.read
        if kind == "csv":
            fixes = reader.option("header", True).csv(args.fixes)  # every column as text: perimeter reads it exactly
        elif kind == "json":
            fixes = reader.json(args.fixes)
        else:
            fixes = reader.parquet(args.fixes)
        began = time.monotonic()
        try:
            events = run_fleet(spark, fixes, args.scenario, args.binary, columns=args.columns, profile=args.profile,
                               partitions=args.partitions, start=args.start, run_id=args.run_id)
        except FixColumnError as error:  # the user's columns: one line, in the command line's words
            print(f"perimeter_spark: {args.fixes}: {error.reason}; map it with --columns {error.name}=YOUR_COLUMN",
                  file=sys.stderr)
            return 2
        except ValueError as error:
            print(f"perimeter_spark: {args.fixes}: {error}", file=sys.stderr)
            return 2
        events = events.withColumn("date", F.to_date("time"))
        try:
            events.write.mode("errorifexists" if args.mode == "error" else args.mode).partitionBy("date").parquet(args.out)
        except Exception as error:  # the job failed: say why in perimeter's words when it was perimeter
            text = str(error)
            start = text.find("perimeter stream exited")
            reason = text[start:].split("\n  command:")[0] if start >= 0 else text.splitlines()[0]
            print(f"perimeter_spark: the job failed: {reason}", file=sys.stderr)
            return 1
        written = spark.read.parquet(args.out).count() if args.mode != "append" else None
        seconds = time.monotonic() - began
        print(f"perimeter_spark: {written if written is not None else 'the'} events in {args.out} "
              f"(Parquet by date), {seconds:.1f} s", file=sys.stderr)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

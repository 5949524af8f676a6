#!/usr/bin/env python3
"""Apache Parquet to CSV or JSON Lines on standard output, for Perimeter's fix tables and field logs.

Perimeter reads CSV and JSON Lines; a table in Parquet (one file, a folder of parts, or a hive-partitioned
folder such as fixes/date=2024-05-01/part-0.parquet, whose partition columns become columns) goes through
this script on the way in (README "Fix tables and field logs in Parquet"):

    python3 Scripts/parquet-rows.py fixes/ > fixes.csv                      # then fixes: fixes.csv
    python3 Scripts/parquet-rows.py fixes/ --sort device,time | perimeter stream zones.yaml --start T
    python3 Scripts/parquet-rows.py field-log.parquet | perimeter calibrate study.yaml --observed -

Needs pyarrow (pip install pyarrow). Timestamps are written as ISO 8601 in UTC with Z (a zone-less
timestamp column is read as UTC), so no time is read in a zone it was not written in; other columns as
Arrow writes them. --sort orders the rows (perimeter stream wants them grouped by device and in time
order); without it rows stream in the files' order, batch by batch, in bounded memory. --columns keeps
and orders the columns named. Exit 0, or 2 with a sentence naming the input.
"""

import argparse
import sys


def fail(message):
    print(f"parquet-rows: {message}", file=sys.stderr)
    sys.exit(2)


def main(argv):
    parser = argparse.ArgumentParser(
        prog="parquet-rows.py", description="Parquet (a file or a partitioned folder) to CSV or JSON Lines.")
    parser.add_argument("source", help="a .parquet file or a folder of them (hive partitions become columns)")
    parser.add_argument("--format", choices=["csv", "jsonl"], default="csv", help="what to write (default csv)")
    parser.add_argument("--sort", default="", help="columns to sort by, comma-separated (e.g. device,time)")
    parser.add_argument("--columns", default="", help="columns to keep, comma-separated, in this order")
    args = parser.parse_args(argv)
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.dataset as ds
    except ImportError:
        fail("pyarrow is not installed; install it (pip install pyarrow) and run again.")

    try:
        dataset = ds.dataset(args.source, format="parquet", partitioning="hive")
    except (FileNotFoundError, OSError, pa.ArrowInvalid) as error:
        fail(f"{args.source}: cannot read it as Parquet: {error}")
    names = [c for c in args.columns.split(",") if c] or dataset.schema.names
    sort = [c for c in args.sort.split(",") if c]
    for name in names + sort:
        if name not in dataset.schema.names:
            fail(f"{args.source}: no column {name!r}; it has {', '.join(dataset.schema.names)}.")

    def utc(batch):
        """Timestamps as ISO 8601 text in UTC with Z; a zone-less one is taken as UTC."""
        columns = []
        for field, column in zip(batch.schema, batch.columns):
            if pa.types.is_timestamp(field.type):
                column = column.cast(pa.timestamp(field.type.unit, tz="UTC"))
                # %S carries the unit's fraction (20.500000 for microseconds); its trailing zeros are cut.
                column = pc.strftime(column, format="%Y-%m-%dT%H:%M:%S")
                column = pc.replace_substring_regex(column, pattern=r"(\.[0-9]*?)0+$", replacement=r"\1")
                column = pc.replace_substring_regex(column, pattern=r"\.$", replacement="")
                column = pc.binary_join_element_wise(column, pa.scalar("Z"), "")
            columns.append(column)
        return pa.RecordBatch.from_arrays(columns, names=batch.schema.names)

    out = sys.stdout.buffer
    if sort:
        table = dataset.to_table(columns=names + [c for c in sort if c not in names])
        table = table.sort_by([(c, "ascending") for c in sort]).select(names)
        batches = table.to_batches(max_chunksize=65536)
    else:
        batches = dataset.to_batches(columns=names, batch_size=65536)
    try:
        if args.format == "csv":
            import pyarrow.csv as csv
            writer = None
            for batch in batches:
                batch = utc(batch)
                if writer is None:
                    writer = csv.CSVWriter(out, batch.schema)
                writer.write_batch(batch)
            if writer is None:
                out.write((",".join(names) + "\n").encode())
            else:
                writer.close()
        else:
            import json
            for batch in batches:
                for row in utc(batch).to_pylist():
                    out.write((json.dumps(row, ensure_ascii=False, default=str) + "\n").encode())
        out.flush()
    except BrokenPipeError:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])

"""One Spark partition through `perimeter stream`: the partition's fix rows in as CSV on its standard input,
its events out as CSV on its standard output, read back into Arrow record batches as they come.

Runs on the executors (inside `mapInArrow`); imports nothing from Spark but SparkFiles, so that it can be
tested on its own.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
import threading
from typing import Iterable, Iterator, Optional, Sequence

import pyarrow as pa
import pyarrow.csv as pacsv

# SEMANTICS §7's fields, in the order of perimeter's CSV sink, with their Arrow types; then the run's id.
# Perimeter's one table of them is `WireField` (Sources/WireFormat/WireSchema.swift): a time is a timestamp,
# a text a string, a number a float64. WireSchemaTests (Swift) reads this tuple and fails when the two differ.
EVENT_FIELDS: Sequence[tuple[str, pa.DataType]] = (
    ("time", pa.timestamp("us", tz="UTC")),
    ("device", pa.string()),
    ("region", pa.string()),
    ("kind", pa.string()),
    ("lat", pa.float64()),
    ("lon", pa.float64()),
    ("distance", pa.float64()),
    ("crossedAt", pa.timestamp("us", tz="UTC")),
    ("arrival", pa.timestamp("us", tz="UTC")),
    ("departure", pa.timestamp("us", tz="UTC")),
    ("duration", pa.float64()),
    ("rule", pa.string()),
    ("detectedAt", pa.timestamp("us", tz="UTC")),  # revision 3: set only for an event delivered late
)
ARROW_SCHEMA = pa.schema([pa.field(name, kind) for name, kind in EVENT_FIELDS] + [pa.field("run_id", pa.string())])

# How much of perimeter's standard error a failure carries (its messages are short; warnings are capped).
STDERR_KEPT = 64 * 1024


class PerimeterStageError(RuntimeError):
    """`perimeter stream` failed on a partition: its exit status and what it wrote on standard error."""

    def __init__(self, command: Sequence[str], status: int, stderr: str):
        self.command = list(command)
        self.status = status
        self.stderr = stderr
        what = {2: "bad input", 3: "a sink failed", 130: "interrupted"}.get(status, "failed")
        super().__init__(f"perimeter stream exited with status {status} ({what}): {stderr.strip() or '(no message)'}"
                         f"\n  command: {' '.join(command)}")


def resolve_shipped(path: str, executable: bool = False) -> str:
    """`path` when it exists here; else the file of that name shipped with `--files` (SparkFiles), made
    executable in a private copy when it must be and is not."""
    if os.path.exists(path):
        return path
    try:
        from pyspark import SparkFiles
        shipped = SparkFiles.get(os.path.basename(path))
    except Exception:  # no SparkContext (a test), or none shipped
        shipped = None
    if not shipped or not os.path.exists(shipped):
        found = shutil.which(path) if executable else None
        if found:
            return found
        raise FileNotFoundError(f"{path}: not found on this executor, nor shipped with --files "
                                f"(spark-submit --files {os.path.basename(path)})")
    if executable and not os.access(shipped, os.X_OK):
        folder = tempfile.mkdtemp(prefix="perimeter-")
        copy = os.path.join(folder, os.path.basename(shipped))
        shutil.copy(shipped, copy)
        os.chmod(copy, os.stat(copy).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return copy
    return shipped


def stream_command(binary: str, scenario: str, start: str, profile: Optional[str]) -> list[str]:
    """The command one partition runs."""
    command = [binary, "stream", scenario, "--start", start, "--format", "csv", "--sink", "csv:-", "--quiet"]
    if profile:
        command += ["--profile", profile]
    return command


def run_partition(batches: Iterable[pa.RecordBatch], command: Sequence[str], run_id: str) -> Iterator[pa.RecordBatch]:
    """Pipes the fix rows of `batches` (columns device, time, lat, lon[, accuracy], grouped by device and
    in time order) through `command` and yields its events as record batches of `ARROW_SCHEMA`, as they
    come. Raises PerimeterStageError, with perimeter's standard error, when it exits with a failure."""
    rows = iter(batches)
    first = next((b for b in rows if b.num_rows > 0), None)
    if first is None:
        return  # an empty partition runs nothing
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        feeding_error: list[BaseException] = []

        def feed():
            try:
                pacsv.write_csv(first, process.stdin, write_options=pacsv.WriteOptions(include_header=True))
                for batch in rows:
                    if batch.num_rows:
                        pacsv.write_csv(batch, process.stdin, write_options=pacsv.WriteOptions(include_header=False))
            except (BrokenPipeError, OSError) as error:
                if process.poll() is None:  # perimeter still runs: the pipe broke for another reason
                    feeding_error.append(error)
            except BaseException as error:  # the upstream rows failed: stop perimeter, report it
                feeding_error.append(error)
                process.kill()
            finally:
                try:
                    process.stdin.close()
                except OSError:
                    pass

        feeder = threading.Thread(target=feed, name="perimeter-stdin", daemon=True)
        feeder.start()

        def failure() -> PerimeterStageError:
            stderr.seek(0)
            text = stderr.read(STDERR_KEPT).decode("utf-8", "replace")
            return PerimeterStageError(command, process.returncode, text)

        run_column = None
        try:
            reader = pacsv.open_csv(
                process.stdout,
                read_options=pacsv.ReadOptions(block_size=1 << 20),
                parse_options=pacsv.ParseOptions(newlines_in_values=True),
                convert_options=pacsv.ConvertOptions(
                    column_types={name: kind for name, kind in EVENT_FIELDS},
                    strings_can_be_null=True,
                    timestamp_parsers=[pacsv.ISO8601],
                ),
            )
            for batch in reader:
                if run_column is None or len(run_column) != batch.num_rows:
                    run_column = pa.array([run_id] * batch.num_rows, pa.string())
                yield pa.RecordBatch.from_arrays(batch.columns + [run_column], schema=ARROW_SCHEMA)
        except pa.ArrowInvalid:
            # Nothing (or not CSV) on standard output: perimeter failed before writing; its status says why.
            process.wait()
            feeder.join()
            if process.returncode != 0:
                raise failure() from None
            raise
        except BaseException:  # the consumer stopped early, or the task was killed: so is perimeter
            if process.poll() is None:
                process.kill()
            process.wait()
            raise
        process.wait()
        feeder.join()
        if process.returncode != 0:  # perimeter's own message first: a broken pipe only follows from it
            raise failure()
        if feeding_error:
            raise feeding_error[0]

"""Perimeter as a stage of an Apache Spark job: a fleet's fixes in, its geofence events out, as DataFrames.

    from perimeter_spark import run_fleet
    events = run_fleet(spark, fixes, "zones.yaml", binary="/opt/perimeter/perimeter")
    events.write.partitionBy("date").parquet("events/")   # after adding a date column

Devices are independent (SEMANTICS §2-§6 never mix two), so the fleet is partitioned by device; each
partition's rows, sorted by device then time, are piped through `perimeter stream`, which runs each device
as soon as its rows end. The clock's start (SEMANTICS §1: the fleet's earliest fix) is computed once, on
the whole fleet, so that every partition ticks alike: the events are exactly those `perimeter run` gives
for the same fleet.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
import zipfile
from datetime import datetime, timedelta, timezone
from typing import Mapping, Optional

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T
from pyspark.sql.pandas.types import from_arrow_schema

from .stage import ARROW_SCHEMA, PerimeterStageError, resolve_shipped, run_partition, stream_command

__all__ = ["run_fleet", "EVENT_SCHEMA", "FIX_COLUMNS", "FixColumnError", "PerimeterStageError", "fleet_start"]

# The fix table's columns (SEMANTICS §1); accuracy is optional.
FIX_COLUMNS = ("device", "time", "lat", "lon", "accuracy")

# SEMANTICS §7's names, typed: times as UTC timestamps, distances and durations as doubles, nulls where a
# kind has no value; then the run's id. Spark's reading of the Arrow schema the partitions return.
EVENT_SCHEMA = from_arrow_schema(ARROW_SCHEMA)


class FixColumnError(ValueError):
    """A fix-table column (`name`) that the fixes do not have under `source`; `have` lists theirs. The
    command line says how to map it with --columns, a library caller with columns=."""

    def __init__(self, name: str, source: str, have: list[str]):
        self.name, self.source, self.have = name, source, have
        super().__init__(f"{self.reason}; map it with columns={{{name!r}: 'your_column'}}")

    @property
    def reason(self) -> str:
        return f"the fixes have no column {self.source!r} for {self.name!r} (they have {self.have})"


def _named(fixes: DataFrame, columns: Optional[Mapping[str, str]]) -> DataFrame:
    """`fixes` with its columns renamed to the fix table's (`columns` maps ours to theirs:
    {"device": "van_id"}), and only those."""
    columns = dict(columns or {})
    unknown = set(columns) - set(FIX_COLUMNS)
    if unknown:
        raise ValueError(f"columns: {sorted(unknown)} are not fix-table columns; map {list(FIX_COLUMNS)} onto yours")
    have = set(fixes.columns)
    picked = []
    for name in FIX_COLUMNS:
        source = columns.get(name, name)
        if source not in have:
            if name == "accuracy":
                continue
            raise FixColumnError(name, source, sorted(have))
        picked.append(F.col(f"`{source}`").alias(name))
    return fixes.select(*picked)


def _time_columns(fixes: DataFrame) -> DataFrame:
    """Adds `_us`, each row's time in microseconds since 1970 (for sorting and the clock's start; null when
    Spark cannot read it, and perimeter then names the row), and turns `time` into the text perimeter reads
    exactly: strings as they are, timestamps as ISO 8601 with microseconds, numbers as seconds."""
    kind = fixes.schema["time"].dataType
    time = F.col("time")
    if isinstance(kind, T.StringType):
        parsed = F.coalesce(F.unix_micros(F.expr("try_cast(time AS TIMESTAMP)")),
                            F.expr("CAST(try_cast(time AS DOUBLE) * 1000000 AS BIGINT)"))
        return fixes.withColumn("_us", parsed)
    if isinstance(kind, T.TimestampType):
        micros = F.unix_micros(time)
    elif isinstance(kind, T.TimestampNTZType):
        micros = F.unix_micros(F.expr("to_utc_timestamp(time, 'UTC')"))
    elif isinstance(kind, (T.NumericType,)):
        micros = F.expr("CAST(time * 1000000 AS BIGINT)")
        return fixes.withColumn("_us", micros).withColumn("time", time.cast("string"))
    else:
        raise ValueError(f"the time column is {kind.simpleString()}; give a timestamp, a number of seconds "
                         "since 1970, or ISO 8601 text")
    seconds = (micros.cast("decimal(38,0)") / F.lit(1_000_000)).cast("decimal(38,6)").cast("string")
    return fixes.withColumn("_us", micros).withColumn("time", seconds)


def _iso(micros: int) -> str:
    """Microseconds since 1970 as ISO 8601 UTC with microseconds."""
    moment = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=micros)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def fleet_start(fixes: DataFrame, columns: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """The clock's start of SEMANTICS §1 for the whole fleet: its earliest fix with a position in range
    (a fix out of range is dropped), as ISO 8601; None for a fleet with no fix."""
    rows = _time_columns(_named(fixes, columns))
    lat, lon = F.expr("try_cast(lat AS DOUBLE)"), F.expr("try_cast(lon AS DOUBLE)")
    in_range = lat.between(-90, 90) & lon.between(-180, 180)
    earliest = rows.where(in_range & F.col("_us").isNotNull()).agg(F.min("_us")).first()[0]
    return None if earliest is None else _iso(earliest)


def _default_run_id(scenario: str, start: str, profile: Optional[str]) -> str:
    """The same inputs give the same id (and byte-identical output); pass run_id to tell reruns apart."""
    digest = hashlib.sha256()
    with open(scenario, "rb") as text:
        digest.update(text.read())
    digest.update(f"\0{start}\0{profile or ''}".encode())
    return digest.hexdigest()[:16]


_shipped: set[str] = set()


def _ship_package(spark: SparkSession) -> None:
    """Makes this package importable on the executors (their Python runs the partitions): a zip of it
    added to the job once per session, named by its content so that a changed copy is shipped anew."""
    folder = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    sources = sorted(name for name in os.listdir(folder) if name.endswith(".py"))
    for name in sources:
        with open(os.path.join(folder, name), "rb") as source:
            digest.update(name.encode() + b"\0" + source.read())
    key = f"{id(spark.sparkContext)}-{digest.hexdigest()[:12]}"
    if key in _shipped:
        return
    shipping = tempfile.mkdtemp(prefix="perimeter-spark-")
    atexit.register(shutil.rmtree, shipping, True)  # the job may read it until the driver ends
    archive = os.path.join(shipping, f"perimeter_spark-{digest.hexdigest()[:12]}.zip")
    with zipfile.ZipFile(archive, "w") as out:
        for name in sources:
            out.write(os.path.join(folder, name), f"perimeter_spark/{name}")
    spark.sparkContext.addPyFile(archive)
    _shipped.add(key)


def run_fleet(spark: SparkSession, fixes: DataFrame, scenario: str, binary: str = "perimeter", *,
              columns: Optional[Mapping[str, str]] = None, profile: Optional[str] = None,
              partitions: Optional[int] = None, start: Optional[str] = None, run_id: Optional[str] = None,
              sort: bool = True) -> DataFrame:
    """The geofence events of a fleet: `fixes` (columns device, time, lat, lon and optionally accuracy, or
    others mapped by `columns`, e.g. {"device": "van_id", "time": "ts"}) through the regions, rules,
    profile and noise of `scenario` (its own devices are not read), as a DataFrame of `EVENT_SCHEMA`.

    - `binary`: the perimeter executable: a path, a name on PATH, or the name of a file shipped with
      `spark-submit --files` (the same goes for `scenario`, which must then be self-contained).
    - `start`: the clock's start; by default computed once here, the fleet's earliest fix (SEMANTICS §1).
      A scenario with its own `start:` keeps it.
    - `partitions`: how many partitions the fleet is split into, by device (default: the session's
      shuffle partitions).
    - `sort`: sort each partition by device, then time (the file order breaks ties, so that of equal
      times the later row wins, as in `perimeter run`). With `sort=False` the rows must already come
      grouped by device and in time order within each partition; perimeter refuses them otherwise.
    - `run_id`: a column on every event; by default derived from the scenario, start and profile.

    A partition whose `perimeter stream` fails makes the job fail with a PerimeterStageError carrying
    its exit status and its message (the file is `standard input`, the line is the row's place in the
    partition's CSV, counting the header as line 1).
    """
    local_scenario = os.path.abspath(scenario) if os.path.exists(scenario) else scenario
    if os.sep in binary or os.path.exists(binary):
        local_binary = os.path.abspath(binary)
    else:
        local_binary = shutil.which(binary) or binary
    named = _named(fixes, columns)
    if start is None:
        start = fleet_start(named) or "1970-01-01T00:00:00Z"
    if run_id is None:
        run_id = _default_run_id(local_scenario, start, profile) if os.path.exists(local_scenario) else start

    rows = _time_columns(named)
    if sort:
        rows = rows.withColumn("_row", F.monotonically_increasing_id())
        rows = rows.repartition(partitions, "device") if partitions else rows.repartition("device")
        rows = rows.sortWithinPartitions("device", "_us", "_row")
    kept = [name for name in FIX_COLUMNS if name in rows.columns]
    rows = rows.select(*[F.col(name).cast("string") if name == "device" else F.col(name) for name in kept])

    _ship_package(spark)

    def partition(batches):
        command = stream_command(resolve_shipped(local_binary, executable=True),
                                 resolve_shipped(local_scenario), start, profile)
        return run_partition(batches, command, run_id)

    return rows.mapInArrow(partition, EVENT_SCHEMA)

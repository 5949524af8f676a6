"""What an analyst writes instead of Perimeter, with DuckDB's spatial extension: the ground-truth enters and
exits of a fleet (one fix a second per device) against circles and polygons, printed as CSV
(device,region,kind,time). Inside: haversine distance to the centre ≤ radius (R = 6,371,008.8 m, as
SEMANTICS §3), or the point in (or on) the polygon. An enter at a device's sample inside after one outside
(none at its first sample), an exit at its first sample outside after one inside.

    python duckdb_events.py FLEET.csv ZONES.json
"""
import json
import math
import sys

import duckdb
from duckdb_extensions import import_extension

fleet, zones = sys.argv[1], json.load(open(sys.argv[2]))
import_extension("spatial")
con = duckdb.connect()
con.load_extension("spatial")
# Each circle with a box around it (1 % wider), so that the join compares boxes before distances.
con.execute("CREATE TABLE circles(id VARCHAR, lat DOUBLE, lon DOUBLE, radius DOUBLE, "
            "min_lat DOUBLE, max_lat DOUBLE, min_lon DOUBLE, max_lon DOUBLE)")
boxes = []
for c in zones["circles"]:
    dlat = math.degrees(c["radius"] * 1.01 / 6371008.8)
    dlon = dlat / math.cos(math.radians(abs(c["lat"]) + dlat))
    boxes.append((c["id"], c["lat"], c["lon"], c["radius"], c["lat"] - dlat, c["lat"] + dlat, c["lon"] - dlon, c["lon"] + dlon))
con.executemany("INSERT INTO circles VALUES (?, ?, ?, ?, ?, ?, ?, ?)", boxes)
con.execute("CREATE TABLE polygons(id VARCHAR, geom GEOMETRY)")
con.executemany("INSERT INTO polygons VALUES (?, ST_GeomFromText(CAST(? AS VARCHAR)))", [(p["id"], p["wkt"]) for p in zones["polygons"]])
rows = con.execute("""
WITH fixes AS (
  SELECT device, t, lat, lon, LAG(t) OVER w AS prev_t, LEAD(t) OVER w AS next_t
  FROM (SELECT device, CAST(replace(time, 'Z', '') AS TIMESTAMP) AS t, lat, lon
        FROM read_csv(?, header = true, columns = {'device': 'VARCHAR', 'time': 'VARCHAR', 'lat': 'DOUBLE',
                                                   'lon': 'DOUBLE', 'accuracy': 'DOUBLE'}))
  WINDOW w AS (PARTITION BY device ORDER BY t)),
hits AS (
  SELECT f.*, c.id AS region FROM fixes f JOIN circles c
    ON f.lat BETWEEN c.min_lat AND c.max_lat AND f.lon BETWEEN c.min_lon AND c.max_lon
   AND ST_Distance_Sphere(ST_Point(f.lat, f.lon), ST_Point(c.lat, c.lon)) <= c.radius
  UNION ALL
  SELECT f.*, p.id AS region FROM fixes f JOIN polygons p ON ST_Intersects(p.geom, ST_Point(f.lon, f.lat))),
runs AS (
  SELECT *, LAG(t) OVER r AS prev_hit, LEAD(t) OVER r AS next_hit FROM hits
  WINDOW r AS (PARTITION BY device, region ORDER BY t))
SELECT device, region, 'enter' AS kind, t FROM runs WHERE prev_t IS NOT NULL AND prev_hit IS DISTINCT FROM prev_t
UNION ALL
SELECT device, region, 'exit' AS kind, next_t FROM runs WHERE next_t IS NOT NULL AND next_hit IS DISTINCT FROM next_t
""", [fleet]).fetchall()
out = sys.stdout
for device, region, kind, t in rows:
    out.write(f"{device},{region},{kind},{t.strftime('%Y-%m-%dT%H:%M:%S')}.000Z\n")

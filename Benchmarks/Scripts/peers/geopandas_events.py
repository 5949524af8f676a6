"""The same ground truth with GeoPandas: `sjoin` of the fixes with the polygons, a vectorised haversine for
the circles, then groupby/shift for the transitions; printed as CSV (device,region,kind,time), like
duckdb_events.py.

    python geopandas_events.py FLEET.csv ZONES.json
"""
import json
import sys

import geopandas as gpd
import numpy as np
import pandas as pd
from shapely import wkt

R = 6371008.8
fleet, zones = sys.argv[1], json.load(open(sys.argv[2]))
fixes = pd.read_csv(fleet, dtype={"device": str, "time": str})
fixes["t"] = pd.to_datetime(fixes["time"].str.replace("Z", "", regex=False))
fixes = fixes.sort_values(["device", "t"], kind="stable").reset_index(drop=True)
fixes["prev_t"] = fixes.groupby("device")["t"].shift(1)
fixes["next_t"] = fixes.groupby("device")["t"].shift(-1)

hits = []
lat, lon = np.radians(fixes["lat"].to_numpy()), np.radians(fixes["lon"].to_numpy())
for c in zones["circles"]:
    clat, clon = np.radians(c["lat"]), np.radians(c["lon"])
    h = np.sin((lat - clat) / 2) ** 2 + np.cos(lat) * np.cos(clat) * np.sin((lon - clon) / 2) ** 2
    inside = 2 * R * np.arcsin(np.sqrt(np.minimum(h, 1))) <= c["radius"]
    hits.append(fixes.loc[inside, ["device", "t", "prev_t", "next_t"]].assign(region=c["id"]))
points = gpd.GeoDataFrame(fixes[["device", "t", "prev_t", "next_t"]], geometry=gpd.points_from_xy(fixes["lon"], fixes["lat"]))
polygons = gpd.GeoDataFrame({"region": [p["id"] for p in zones["polygons"]]},
                            geometry=[wkt.loads(p["wkt"]) for p in zones["polygons"]])
joined = gpd.sjoin(points, polygons, predicate="intersects", how="inner")
hits.append(pd.DataFrame(joined[["device", "t", "prev_t", "next_t", "region"]]))
runs = pd.concat(hits).sort_values(["device", "region", "t"]).reset_index(drop=True)
runs["prev_hit"] = runs.groupby(["device", "region"])["t"].shift(1)
runs["next_hit"] = runs.groupby(["device", "region"])["t"].shift(-1)
enters = runs[runs["prev_t"].notna() & (runs["prev_hit"] != runs["prev_t"])]
exits = runs[runs["next_t"].notna() & (runs["next_hit"] != runs["next_t"])]
out = sys.stdout
for row in enters.itertuples():
    out.write(f"{row.device},{row.region},enter,{row.t.strftime('%Y-%m-%dT%H:%M:%S')}.000Z\n")
for row in exits.itertuples():
    out.write(f"{row.device},{row.region},exit,{row.next_t.strftime('%Y-%m-%dT%H:%M:%S')}.000Z\n")

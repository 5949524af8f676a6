#!/usr/bin/env python3
"""A large GeoJSON region file for timing `perimeter validate` and `perimeter run`.

    python3 Benchmarks/Scripts/region-file.py OUT.geojson [REGIONS]

REGIONS (default 100,000) features on one line, spread over 1.2° of latitude and 2.4° of longitude around
St Petersburg (where Scripts/example-fleet.py drives its vans): even ones circles (a Point with
`properties.radius`, 50–300 m), odd ones 9-position polygons (an octagon and its closing position) with a
`hysteresis` override. Seeded: the same file every time.
"""
import json
import math
import random
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rng = random.Random(7)
    features = []
    for i in range(count):
        lat, lon = 59.93 + rng.uniform(-0.6, 0.6), 30.32 + rng.uniform(-1.2, 1.2)
        if i % 2 == 0:
            features.append({"type": "Feature", "id": f"c{i}",
                             "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
                             "properties": {"radius": rng.randint(50, 300)}})
        else:
            r = rng.uniform(0.0005, 0.002)
            ring = [[round(lon + 2 * r * math.cos(k * math.pi / 4), 6), round(lat + r * math.sin(k * math.pi / 4), 6)]
                    for k in range(8)]
            ring.append(ring[0])
            features.append({"type": "Feature", "id": f"p{i}", "geometry": {"type": "Polygon", "coordinates": [ring]},
                             "properties": {"hysteresis": 20}})
    with open(sys.argv[1], "w") as out:
        json.dump({"type": "FeatureCollection", "features": features}, out, separators=(",", ":"))


if __name__ == "__main__":
    main()

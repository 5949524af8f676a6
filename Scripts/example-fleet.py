#!/usr/bin/env python3
"""Writes Tracks/vans.csv, the example fleet of Scenarios/vans-fleet.yaml: 24 delivery vans in Saint
Petersburg for one hour, a fix every 10 s (8,664 rows), each van driving from the dark store at Sennaya
Square to three random stops among Groser's zones and back, 2-5 minutes at each stop, with 8 m of GPS
noise and a reported accuracy per fix. Deterministic (seeded): the same file on every machine.

    python3 Scripts/example-fleet.py [OUT] [VANS] [STEP]   (default Tracks/vans.csv, 24 vans, a fix every 10 s)
"""
import math, random, sys
from datetime import datetime, timedelta, timezone

R = 6371008.8
START = datetime(2024, 5, 1, 9, 0, 0, tzinfo=timezone.utc)
DEPOT = (59.9270, 30.3200)
STOPS = [(59.9390, 30.3150), (59.9430, 30.2780), (59.9600, 30.3100), (59.9700, 30.2600), (59.9620, 30.3400),
         (59.9850, 30.3450), (59.9300, 30.3600), (59.9500, 30.2500), (59.9750, 30.3000), (59.9350, 30.2900)]


def metres(a, b):
    dy = math.radians(b[0] - a[0]) * R
    dx = math.radians(b[1] - a[1]) * R * math.cos(math.radians(a[0]))
    return math.hypot(dx, dy)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "Tracks/vans.csv"
    vans = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    every = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    rng = random.Random(2024)
    table = open(out, "w")
    table.write("device,time,lat,lon,accuracy\n")
    count = 0
    for van in range(vans):
        plan = [DEPOT] + rng.sample(STOPS, 3) + [DEPOT]
        speed = rng.uniform(7, 11)             # m/s in city traffic
        t, here, leg, waited = 0, plan[0], 1, 0
        wait = 0
        while t <= 3600:
            noise_n, noise_e = rng.gauss(0, 8), rng.gauss(0, 8)
            lat = here[0] + math.degrees(noise_n / R)
            lon = here[1] + math.degrees(noise_e / (R * math.cos(math.radians(here[0]))))
            time = (START + timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%SZ")
            table.write("van-%0*d,%s,%.6f,%.6f,%d\n" % (2 if vans < 100 else 4, van + 1, time, lat, lon, rng.choice([5, 8, 12, 20])))
            count += 1
            t += every
            if wait > 0:
                wait -= every
                continue
            if leg >= len(plan):
                continue                       # back at the store
            target = plan[leg]
            step = speed * every
            d = metres(here, target)
            if d <= step:
                here, leg = target, leg + 1
                wait = rng.randint(12, 30) * 10 if leg < len(plan) else 0
            else:
                f = step / d
                here = (here[0] + (target[0] - here[0]) * f, here[1] + (target[1] - here[1]) * f)
    table.close()
    print("%s: %d rows" % (out, count))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the recorded-customers example: a coffee shop in Lisbon's Baixa, 40 customers walking its street,
their known true paths (true-paths.csv) and what their phones recorded of them (customers.csv).

    python3 Examples/coffee/make-customers.py        (rewrites the two CSV files beside it; fixed seed)

Customers (all walk 150 m along the pavement 6 m south of the shop's front, at 1.1-1.5 m/s):
- 17 stay inside for 12-25 minutes (3 of them 35-50 minutes): each earns the 10-minute coupon;
- 8 stay inside for 2-6 minutes;
- 12 pass by without going in;
- 3 stand 4 m outside the door for 8-12 minutes (waiting for someone), then walk on.
The phones record one fix a second, with GPS error that wanders (a Gauss-Markov process, sigma 6 m outside
and 8 m inside, correlation 20 s), spikes of 40-200 m lasting 1-4 fixes (0.2 % of fixes start one), about
2 % of fixes lost, and a few gaps of 20-60 s: what a phone's GPX of a walk into a shop holds.
The true paths are what the customers did, for checking the truth that Perimeter estimates from the fixes.
"""
import math, pathlib, random

R = 6371008.8
LAT0, LON0 = 38.71050, -9.13700  # the shop's front door, Rua Augusta
START = 1_717_236_000  # 2024-06-01T10:00:00Z
HERE = pathlib.Path(__file__).resolve().parent


def at(east, north):
    return LAT0 + math.degrees(north / R), LON0 + math.degrees(east / (R * math.cos(math.radians(LAT0))))


# The shop: 20 m wide (east), 14 m deep (north of the front wall, which runs along the door at north = 0).
SHOP = [(-10, 0), (10, 0), (10, 14), (-10, 14), (-10, 0)]


def walk(points, a, b, speed):
    """Append positions each second from a to b at `speed`."""
    n = max(1, round(math.dist(a, b) / speed))
    for i in range(1, n + 1):
        points.append((a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n))


def customer(rng, kind):
    """One customer's true path: a position (east, north) each second from their start."""
    speed = rng.uniform(1.1, 1.5)
    pavement = -6.0
    x0 = rng.choice([-150.0, 150.0])
    p = [(x0, pavement)]
    if kind == "pass":
        walk(p, p[-1], (-x0, pavement + rng.uniform(-1.5, 1.5)), speed)
        return p
    if kind == "doorway":
        spot = (rng.uniform(-2, 2), -4.0)
        walk(p, p[-1], spot, speed)
        p += [spot] * int(rng.uniform(8, 12) * 60)
        walk(p, spot, (-x0, pavement), speed)
        return p
    minutes = {"long": rng.uniform(12, 25), "very long": rng.uniform(35, 50), "short": rng.uniform(2, 6)}[kind]
    seat = (rng.uniform(-6, 6), rng.uniform(4, 10))
    walk(p, p[-1], (0, pavement), speed)
    walk(p, p[-1], (0, 2), speed)
    walk(p, p[-1], seat, 0.8)
    for _ in range(int(minutes * 60)):  # seated: moving a little
        p.append((seat[0] + rng.uniform(-0.3, 0.3), seat[1] + rng.uniform(-0.3, 0.3)))
    walk(p, p[-1], (0, 2), 0.8)
    walk(p, p[-1], (0, pavement), speed)
    walk(p, p[-1], (-x0, pavement), speed)
    return p


def inside(east, north):
    return -10 <= east <= 10 and 0 <= north <= 14


def main():
    rng = random.Random(7)
    kinds = ["long"] * 14 + ["very long"] * 3 + ["short"] * 8 + ["pass"] * 12 + ["doorway"] * 3
    rng.shuffle(kinds)
    true_rows, phone_rows, coupons = [], [], 0
    for n, kind in enumerate(kinds):
        device = "customer-%02d" % (n + 1)
        start = START + n * 90 + rng.randint(0, 60)
        path = customer(rng, kind)
        coupons += kind in ("long", "very long")
        ne = ee = 0.0
        spike = None
        for i, (east, north) in enumerate(path):
            t = start + i
            lat, lon = at(east, north)
            true_rows.append("%s,%d,%.7f,%.7f" % (device, t, lat, lon))
            sigma = 8.0 if inside(east, north) else 6.0
            rho = math.exp(-1 / 20)
            ne = rho * ne + sigma * math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
            ee = rho * ee + sigma * math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
            if spike is None and rng.random() < 0.002:
                length, bearing = rng.uniform(40, 200), rng.uniform(0, 2 * math.pi)
                spike = [rng.randint(1, 4), length * math.cos(bearing), length * math.sin(bearing)]
            dn, de = ne, ee
            if spike is not None:
                dn, de = dn + spike[1], de + spike[2]
                spike[0] -= 1
                if spike[0] == 0:
                    spike = None
            if i and rng.random() < 0.02:
                continue  # lost
            if 0 < i < len(path) - 60 and rng.random() < 0.0015:
                continue  # the start of a gap of 20-60 s (the fixes of the gap are dropped below)
            lat, lon = at(east + de, north + dn)
            accuracy = max(3.0, round(sigma * rng.uniform(1.0, 1.8)))
            row = "%s,%d,%.7f,%.7f,%g" % (device, t, lat, lon, accuracy)
            phone_rows.append(row)
    # Gaps: drop the fixes of a few 20-60 s stretches.
    for _ in range(25):
        k = rng.randrange(len(phone_rows))
        device = phone_rows[k].split(",")[0]
        end = k + rng.randint(20, 60)
        phone_rows[k:end] = [r for r in phone_rows[k:end] if r.split(",")[0] != device]
    phone_rows.sort(key=lambda r: int(r.split(",")[1]))  # a fleet's table, rows by time (stable per device)
    (HERE / "true-paths.csv").write_text("device,time,lat,lon\n" + "\n".join(true_rows) + "\n")
    (HERE / "customers.csv").write_text("device,time,lat,lon,accuracy\n" + "\n".join(phone_rows) + "\n")
    print("%d customers, %d coupons in truth (stays of 10 minutes or more); %d fixes recorded"
          % (len(kinds), coupons, len(phone_rows)))


if __name__ == "__main__":
    main()

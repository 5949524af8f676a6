#!/usr/bin/env python3
"""Writes Tracks/lorrenzillos-visit.gpx: an Xcode location-simulation file (waypoints, no times).

Xcode plays such a file at one waypoint per second. The journey: drive in from 1.5 km west of
Lorrenzillo's (37.703026, -121.759735) at 12.5 m/s, park 60 m from it for 2 minutes, drive away east
at 12.5 m/s for 1.5 km. Positions use a local equirectangular plane (good to centimetres here).
"""
import math, pathlib

R = 6371008.8
LAT0, LON0 = 37.703026, -121.759735

def at(east, north):
    lat = LAT0 + math.degrees(north / R)
    lon = LON0 + math.degrees(east / (R * math.cos(math.radians(LAT0))))
    return lat, lon

points = []
for i in range(120):                      # 1500 m west to 0 m, 12.5 m/s
    points.append(at(-1500 + 12.5 * i, -60))
for i in range(120):                      # parked, 60 m south of the door
    points.append(at(0, -60))
for i in range(121):                      # away east, 12.5 m/s, to 1500 m
    points.append(at(12.5 * i, -60))

out = ['<?xml version="1.0"?>', '<gpx version="1.1" creator="Perimeter Scripts/make-restaurant-track.py">']
for n, (lat, lon) in enumerate(points):
    out.append(f'  <wpt lat="{lat:.7f}" lon="{lon:.7f}"><name>{n}</name></wpt>')
out.append('</gpx>')
path = pathlib.Path(__file__).resolve().parent.parent / "Tracks" / "lorrenzillos-visit.gpx"
path.write_text("\n".join(out) + "\n")
print(f"wrote {path} ({len(points)} waypoints)")

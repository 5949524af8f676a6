#!/usr/bin/env python3
"""Every package Perimeter depends on is pinned to one version, and the build resolved exactly those.

Perimeter ships a binary, so the same source must build from the same dependencies on every machine.
SwiftPM's convention for that is a committed Package.resolved, but a resolved file pins each package's
commit, and a machine whose copies of the packages are mirrors (as this project's CI machines are) has
other commit ids for the same tags: a committed file would pin commits no other machine has. So each
dependency of Package.swift (and of Benchmarks/Package.swift) is declared `exact: "X.Y.Z"`, and this
check, run after `swift build`, fails when

  - a dependency is declared with `from:`, `upToNextMajor`, a range, a branch or a revision;
  - the build resolved a package that Package.swift does not pin (a new transitive dependency: pin it
    too, or say why not), or resolved a pinned one at another version.

    python3 Scripts/check-pins.py [PACKAGE_DIR]    (default: the repository; reads PACKAGE_DIR/Package.resolved)
"""
import json
import re
import sys
from pathlib import Path

root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
problems = []
pins = {}
for manifest in [root / "Package.swift", root / "Benchmarks" / "Package.swift"]:
    if not manifest.exists():
        continue
    for line_number, line in enumerate(manifest.read_text().splitlines(), 1):
        if ".package(" not in line or "path:" in line:
            continue
        match = re.search(r'url:\s*"([^"]+)",\s*exact:\s*"([0-9]+\.[0-9]+\.[0-9]+)"\s*\)', line)
        if not match:
            problems.append(f"{manifest}:{line_number}: a dependency not pinned with exact: \"X.Y.Z\": {line.strip()}")
            continue
        identity = match.group(1).rstrip("/").removesuffix(".git").rsplit("/", 1)[-1].lower()
        pins[identity] = match.group(2)

resolved_path = root / "Package.resolved"
if not resolved_path.exists():
    problems.append(f"{resolved_path}: missing; run `swift build` (or `swift package resolve`) first")
else:
    resolved = json.loads(resolved_path.read_text())
    for pin in resolved.get("pins", []):
        identity, version = pin["identity"].lower(), pin.get("state", {}).get("version")
        if identity not in pins:
            problems.append(f"{resolved_path}: {identity} {version} was resolved but Package.swift does not pin it")
        elif version != pins[identity]:
            problems.append(f"{resolved_path}: {identity} resolved at {version}, pinned at {pins[identity]}")

if problems:
    print("check-pins: " + "\ncheck-pins: ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"check-pins: {len(pins)} dependencies pinned exactly, and the build resolved each at its pin")

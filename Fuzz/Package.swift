// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets, in their own package so that the main build and CI stay lean (like Benchmarks/).
// Build and run one with Scripts/fuzz.sh TARGET SECONDS; the sanitizer flags come from that script
// (`-Xswiftc -sanitize=fuzzer,address`), which instruments these targets and the Perimeter modules alike.
//   gpx-fuzz        GPXTrack.load(path:) on arbitrary bytes
//   scenario-fuzz   ScenarioLoader.load(path:) on arbitrary YAML/JSON bytes, and what loads is run
//   regions-fuzz    RegionFile.load(path:) on arbitrary GeoJSON bytes
//   engine-fuzz     Simulation.run on random regions and tracks, checking SEMANTICS §4, §5, §7 invariants
//   fixtable-fuzz   FixTableReader on arbitrary bytes as CSV and as JSON Lines, checking SEMANTICS §1
let package = Package(
    name: "PerimeterFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Perimeter", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "gpx-fuzz",
            dependencies: ["FuzzSupport", .product(name: "GPX", package: "Perimeter")]
        ),
        .executableTarget(
            name: "scenario-fuzz",
            dependencies: ["FuzzSupport", .product(name: "ScenarioFormat", package: "Perimeter"),
                           .product(name: "Geofencing", package: "Perimeter"), .product(name: "Time", package: "Perimeter")]
        ),
        .executableTarget(
            name: "regions-fuzz",
            dependencies: ["FuzzSupport", .product(name: "ScenarioFormat", package: "Perimeter")]
        ),
        .executableTarget(
            name: "engine-fuzz",
            dependencies: [
                "FuzzSupport",
                .product(name: "Geofencing", package: "Perimeter"),
                .product(name: "Geodesy", package: "Perimeter"),
                .product(name: "Time", package: "Perimeter"),
            ]
        ),
        .executableTarget(
            name: "fixtable-fuzz",
            dependencies: ["FuzzSupport", .product(name: "FixTables", package: "Perimeter"),
                           .product(name: "Time", package: "Perimeter")]
        ),
    ]
)

// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so that the main build and CI stay lean (as in swift-nio).
//   Scripts/gpx-benchmark.sh                              GPX reader vs libxml2's SAX2 in C and xmllint
//   swift run -c release engine-benchmark [devices] [s]   engine samples/s from 100 to 100,000 regions
//   swift run -c release sink-benchmark [events]          each sink beside a plain buffered write
//   swift run -c release fix-table-benchmark [devices] [s] fix tables (CSV, JSON Lines), 1 thread and all, beside wc -l
//   swift run -c release montecarlo-benchmark [runs]      Monte Carlo runs/s on 1 and 2 threads
//   swift run -c release calibrate-benchmark [runs]       calibrate: 2 parameters, 40 walks, 8 stores, beside one batch
//   swift run -c release recorded-benchmark [drivers] [s] recorded tracks: the truth's cost, the phones' (SEMANTICS §9)
//   swift run -c release fleet-benchmark FOLDER [rounds]  a GPX fleet (Scripts/gpx-fleet.py): 2 threads ÷ 1, run ÷ inspect
//   swift run -c release load-benchmark [N...]            a scenario of N GPX files loaded: 32,000 ÷ 2,000 files
//   python3 Scripts/check-thresholds.py [--update]        instructions per unit (callgrind) against thresholds.json
let package = Package(
    name: "PerimeterBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Perimeter", path: ".."),
        // SQLite's C API, for the floor under the SQLite sink (the same package and version as the main build's).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The one function callgrind counts inside (`measured`), shared by every benchmark.
        .target(name: "BenchmarkSupport"),
        .executableTarget(
            name: "gpx-benchmark",
            dependencies: ["BenchmarkSupport", .product(name: "GPX", package: "Perimeter")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
        .executableTarget(
            name: "sink-benchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "EventSinks", package: "Perimeter"),
                .product(name: "EventSinksSQLite", package: "Perimeter"),
                .product(name: "Geofencing", package: "Perimeter"),
                .product(name: "Geodesy", package: "Perimeter"),
                .product(name: "Draws", package: "Perimeter"),
                .product(name: "Time", package: "Perimeter"),
                .product(name: "WireFormat", package: "Perimeter"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "fix-table-benchmark",
            dependencies: ["BenchmarkSupport", .product(name: "FixTables", package: "Perimeter")]
        ),
        .executableTarget(
            name: "montecarlo-benchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Runs", package: "Perimeter"),
                .product(name: "Analysis", package: "Perimeter"),
                .product(name: "Geofencing", package: "Perimeter"),
            ]
        ),
        .executableTarget(
            name: "calibrate-benchmark",
            dependencies: [
                .product(name: "Calibration", package: "Perimeter"),
                .product(name: "Runs", package: "Perimeter"),
                .product(name: "Geofencing", package: "Perimeter"),
                .product(name: "WireFormat", package: "Perimeter"),
            ]
        ),
        .executableTarget(
            name: "recorded-benchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Geofencing", package: "Perimeter"),
                .product(name: "Geodesy", package: "Perimeter"),
                .product(name: "Time", package: "Perimeter"),
            ]
        ),
        .executableTarget(
            name: "fleet-benchmark",
            dependencies: [
                .product(name: "EventSinks", package: "Perimeter"),
                .product(name: "GPX", package: "Perimeter"),
                .product(name: "Geofencing", package: "Perimeter"),
                .product(name: "Runs", package: "Perimeter"),
            ]
        ),
        .executableTarget(
            name: "load-benchmark",
            dependencies: ["BenchmarkSupport", .product(name: "ScenarioFormat", package: "Perimeter")]
        ),
        .executableTarget(
            name: "engine-benchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Geofencing", package: "Perimeter"),
                .product(name: "Geodesy", package: "Perimeter"),
                .product(name: "Draws", package: "Perimeter"),
                .product(name: "Time", package: "Perimeter"),
            ]
        ),
    ]
)

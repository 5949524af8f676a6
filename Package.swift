// swift-tools-version:6.0
import PackageDescription

// The tree reads like the pipeline (docs/ARCHITECTURE.md draws it):
//
//   NumberText ─▶ Time; Draws ─▶ Geodesy; Parallel           the small things, one implementation each: time,
//     ─▶ ReadableText, TextEscaping, FileSystem              draws and hashes, geometry, a map over the cores, text
//     ─▶ GPX, FixTables, Geofencing (the engine), TrackSynthesis   tracks in, events out
//     ─▶ WireFormat                                          events as JSON Lines and CSV, written and read
//     ─▶ EventSinks ─▶ EventSinksSQLite, EventSinksHTTP      where events go (GRDB and libcurl only there)
//     ─▶ Documents ─▶ ScenarioFormat ─▶ Runs ─▶ Analysis ─▶ Regression ─▶ perimeter   YAML and JSON documents
//                                                           (Yams only there), scenario files, running them
//                                                           (once, or as a Monte Carlo batch), comparing, checking
//
// Dependencies point downstream only: readers of event logs (Regression, deliver) import WireFormat, not
// the sinks; libxml2 stays behind CLibXML2 and never leaves GPX.
let package = Package(
    name: "Perimeter",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "perimeter", targets: ["perimeter"]),
        .library(name: "NumberText", targets: ["NumberText"]),
        .library(name: "Time", targets: ["Time"]),
        .library(name: "Draws", targets: ["Draws"]),
        .library(name: "Parallel", targets: ["Parallel"]),
        .library(name: "Geodesy", targets: ["Geodesy"]),
        .library(name: "ReadableText", targets: ["ReadableText"]),
        .library(name: "TextEscaping", targets: ["TextEscaping"]),
        .library(name: "FileSystem", targets: ["FileSystem"]),
        .library(name: "GPX", targets: ["GPX"]),
        .library(name: "FixTables", targets: ["FixTables"]),
        .library(name: "Geofencing", targets: ["Geofencing"]),
        .library(name: "WireFormat", targets: ["WireFormat"]),
        .library(name: "EventSinks", targets: ["EventSinks"]),
        .library(name: "EventSinksSQLite", targets: ["EventSinksSQLite"]),
        .library(name: "EventSinksHTTP", targets: ["EventSinksHTTP"]),
        .library(name: "Documents", targets: ["Documents"]),
        .library(name: "ScenarioFormat", targets: ["ScenarioFormat"]),
        .library(name: "TrackSynthesis", targets: ["TrackSynthesis"]),
        .library(name: "Runs", targets: ["Runs"]),
        .library(name: "Analysis", targets: ["Analysis"]),
        .library(name: "Regression", targets: ["Regression"]),
        .library(name: "Report", targets: ["Report"]),
        .library(name: "Calibration", targets: ["Calibration"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
    ],
    targets: [
        // The small things.
        .target(name: "NumberText"),
        .target(name: "Time", dependencies: ["NumberText"]),
        .target(name: "Draws"),
        .target(name: "Parallel"),
        .target(name: "Geodesy", dependencies: ["Draws", .product(name: "HeapModule", package: "swift-collections")]),
        .target(name: "ReadableText", dependencies: ["Geodesy", "Time"]),
        .target(name: "TextEscaping"),
        .target(
            name: "FileSystem", dependencies: ["TextEscaping", .product(name: "SystemPackage", package: "swift-system")]),

        // Tracks in, events out.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(
            name: "GPX",
            dependencies: ["Geodesy", "Time", "CLibXML2", "CZlib", "TextEscaping", "FileSystem", "ReadableText"]),
        .target(
            name: "FixTables",
            dependencies: [
                "Geodesy", "Draws", "Parallel", "Time", "NumberText", "ReadableText", "FileSystem", "TextEscaping",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(name: "Geofencing", dependencies: ["Geodesy", "Draws", "Parallel", "Time", "ReadableText"]),
        .target(name: "TrackSynthesis", dependencies: ["Geodesy", "Draws", "Time"]),

        // Events on the wire, and where they go.
        .target(
            name: "WireFormat",
            dependencies: [
                "Geodesy", "Draws", "Time", "NumberText", "Geofencing", "TextEscaping", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "EventSinks",
            dependencies: [
                "ReadableText", "Time", "Geofencing", "WireFormat", "TextEscaping", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "EventSinksSQLite",
            dependencies: [
                "Geofencing", "Time", "EventSinks", "WireFormat", "FileSystem",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // libcurl's multi interface, loaded at run time (dlopen: no headers needed to build).
        .target(name: "CCurlTransfer"),
        .target(
            name: "EventSinksHTTP",
            dependencies: ["CCurlTransfer", "Draws", "Geofencing", "EventSinks", "WireFormat", "TextEscaping", "FileSystem"]),

        // Scenario files, running them, checking them.
        // YAML and JSON documents with their places, the problem log and the scenario family's error.
        .target(
            name: "Documents",
            dependencies: [
                "Geodesy", "Time", "NumberText", "ReadableText", "FileSystem", "TextEscaping",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "ScenarioFormat",
            dependencies: [
                "Documents", "Geodesy", "Parallel", "Time", "NumberText", "ReadableText", "Geofencing", "GPX", "FixTables",
                "TrackSynthesis", "FileSystem", "TextEscaping",
            ]
        ),
        .target(
            name: "Runs",
            dependencies: [
                "Geodesy", "Parallel", "Time", "ReadableText", "Geofencing", "FixTables", "Documents", "ScenarioFormat",
                "EventSinks", "FileSystem",
            ]),
        .target(
            name: "Analysis",
            dependencies: [
                "Geodesy", "Time", "ReadableText", "Geofencing", "Documents", "ScenarioFormat", "Runs", "WireFormat",
                "TextEscaping", "FileSystem",
            ]
        ),
        .target(
            name: "Report",
            dependencies: [
                "Geodesy", "Time", "ReadableText", "Geofencing", "Documents", "ScenarioFormat", "Runs", "Analysis",
                "TextEscaping", "Calibration", .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .target(
            name: "Regression",
            dependencies: [
                "ReadableText", "Draws", "Time", "Geofencing", "ScenarioFormat", "Runs", "Analysis", "WireFormat",
                "TextEscaping", "FileSystem",
            ]
        ),
        // Fitting a profile to a field log, by simulation (docs/CALIBRATE.md).
        .target(
            name: "Calibration",
            dependencies: [
                "Geodesy", "Draws", "Time", "Geofencing", "ScenarioFormat", "Runs", "Analysis", "WireFormat", "TextEscaping",
                "FileSystem", "FixTables",
            ]
        ),
        .executableTarget(
            name: "perimeter",
            dependencies: [
                "Geodesy", "Time", "ReadableText", "GPX", "FixTables", "Geofencing", "WireFormat", "EventSinks",
                "EventSinksSQLite", "EventSinksHTTP", "Documents", "ScenarioFormat", "TrackSynthesis", "Runs", "Analysis",
                "Regression", "Report", "Calibration", "FileSystem", "TextEscaping",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests follow their code; only end-to-end tests (PerimeterTests) run the `perimeter` executable.
        .target(
            name: "TestSupport", dependencies: ["Geodesy", "Time", "Geofencing", "WireFormat"], path: "Tests/TestSupport"),
        .testTarget(name: "NumberTextTests", dependencies: ["NumberText", "Draws"]),
        .testTarget(name: "TimeTests", dependencies: ["Time", "Draws"]),
        .testTarget(name: "DrawsTests", dependencies: ["Draws"]),
        .testTarget(name: "ParallelTests", dependencies: ["Parallel"]),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "Draws"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ReadableTextTests", dependencies: ["ReadableText", "Time"]),
        .testTarget(name: "TextEscapingTests", dependencies: ["TextEscaping"]),
        .testTarget(
            name: "FileSystemTests",
            dependencies: ["FileSystem", "TestSupport", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(
            name: "GPXTests", dependencies: ["GPX", "Geodesy", "Draws", "Time", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FixTablesTests", dependencies: ["FixTables", "Draws", "Time", "FileSystem", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "Geodesy", "Draws", "Parallel", "Time"]),
        .testTarget(
            name: "TrackSynthesisTests",
            dependencies: ["TrackSynthesis", "GPX", "Geodesy", "Time", "ScenarioFormat", "TestSupport"]),
        .testTarget(
            name: "WireFormatTests",
            dependencies: ["WireFormat", "Geofencing", "Geodesy", "Draws", "Time", "TextEscaping", "TestSupport"]),
        .testTarget(
            name: "EventSinksTests",
            dependencies: [
                "EventSinks", "WireFormat", "FileSystem", "ReadableText", "Geodesy", "Time", "Geofencing", "TestSupport",
            ]
        ),
        .testTarget(
            name: "EventSinksSQLiteTests",
            dependencies: [
                "EventSinksSQLite", "Time", "EventSinks", "WireFormat", "FileSystem", "Geofencing", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "EventSinksHTTPTests",
            dependencies: ["EventSinksHTTP", "EventSinks", "WireFormat", "Geodesy", "Time", "Geofencing", "TestSupport"]),
        .testTarget(name: "DocumentsTests", dependencies: ["Documents", "Draws", "NumberText", "TestSupport"]),
        .testTarget(
            name: "ScenarioFormatTests",
            dependencies: [
                "ScenarioFormat", "Documents", "GPX", "Geodesy", "Draws", "Time", "Geofencing", "TrackSynthesis",
                "FileSystem", "FixTables", "TestSupport", .product(name: "Yams", package: "Yams"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RunsTests",
            dependencies: ["Runs", "Time", "EventSinks", "Documents", "ScenarioFormat", "Geofencing", "TestSupport"]),
        .testTarget(
            name: "ReportTests",
            dependencies: ["Report", "Calibration", "Runs", "ScenarioFormat", "Geofencing", "Geodesy", "TestSupport"]),
        .testTarget(
            name: "AnalysisTests",
            dependencies: [
                "Analysis", "Runs", "Documents", "ReadableText", "ScenarioFormat", "Geofencing", "Geodesy", "Draws", "Time",
                "TestSupport",
            ]),
        .testTarget(
            name: "RegressionTests",
            dependencies: [
                "Regression", "Time", "Runs", "ScenarioFormat", "WireFormat", "Geofencing", "ReadableText", "TextEscaping",
                "TestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CalibrationTests",
            dependencies: [
                "Calibration", "Runs", "ScenarioFormat", "Geofencing", "Geodesy", "Time", "WireFormat", "TestSupport",
                "FixTables",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PerimeterTests",
            dependencies: [
                "perimeter", "Draws", "Regression", "GPX", "Calibration", "WireFormat", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]
        ),
    ]
)

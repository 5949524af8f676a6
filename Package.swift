// swift-tools-version:6.0
import PackageDescription

// The tree reads like the pipeline (docs/ARCHITECTURE.md draws it):
//
//   NumberText ─▶ Geodesy ─▶ ReadableText, TextEscaping, FileSystem   the small things, one implementation each
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
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // The small things.
        .target(name: "NumberText"),
        .target(
            name: "Geodesy",
            dependencies: ["NumberText", .product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(name: "ReadableText", dependencies: ["Geodesy"]),
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
        .target(name: "GPX", dependencies: ["Geodesy", "CLibXML2", "CZlib", "TextEscaping", "FileSystem", "ReadableText"]),
        .target(
            name: "FixTables",
            dependencies: [
                "Geodesy", "NumberText", "ReadableText", "FileSystem", "TextEscaping",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(name: "Geofencing", dependencies: ["Geodesy", "ReadableText"]),
        .target(name: "TrackSynthesis", dependencies: ["Geodesy"]),

        // Events on the wire, and where they go.
        .target(
            name: "WireFormat",
            dependencies: [
                "Geodesy", "NumberText", "Geofencing", "TextEscaping", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "EventSinks",
            dependencies: [
                "Geodesy", "ReadableText", "Geofencing", "WireFormat", "TextEscaping", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "EventSinksSQLite",
            dependencies: [
                "Geodesy", "Geofencing", "EventSinks", "WireFormat", "FileSystem",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // libcurl's multi interface, loaded at run time (dlopen: no headers needed to build).
        .target(name: "CCurlTransfer"),
        .target(
            name: "EventSinksHTTP",
            dependencies: [
                "CCurlTransfer", "Geodesy", "Geofencing", "EventSinks", "WireFormat", "TextEscaping", "FileSystem",
            ]),

        // Scenario files, running them, checking them.
        // YAML and JSON documents with their places, the problem log and the scenario family's error.
        .target(
            name: "Documents",
            dependencies: [
                "Geodesy", "NumberText", "ReadableText", "FileSystem", "TextEscaping",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "ScenarioFormat",
            dependencies: [
                "Documents", "Geodesy", "NumberText", "ReadableText", "Geofencing", "GPX", "FixTables",
                "TrackSynthesis", "FileSystem", "TextEscaping",
            ]
        ),
        .target(
            name: "Runs",
            dependencies: [
                "Geodesy", "ReadableText", "Geofencing", "FixTables", "Documents", "ScenarioFormat", "EventSinks",
                "FileSystem",
            ]),
        .target(
            name: "Analysis",
            dependencies: [
                "Geodesy", "ReadableText", "Geofencing", "Documents", "ScenarioFormat", "Runs", "WireFormat", "TextEscaping",
            ]
        ),
        .target(
            name: "Report",
            dependencies: [
                "Geodesy", "ReadableText", "Geofencing", "Documents", "ScenarioFormat", "Runs", "Analysis", "TextEscaping",
                "Calibration", .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .target(
            name: "Regression",
            dependencies: [
                "Geodesy", "ReadableText", "Geofencing", "ScenarioFormat", "Runs", "Analysis", "WireFormat", "TextEscaping",
                "FileSystem",
            ]
        ),
        // Fitting a profile to a field log, by simulation (docs/CALIBRATE.md).
        .target(
            name: "Calibration",
            dependencies: [
                "Geodesy", "Geofencing", "Documents", "ScenarioFormat", "Runs", "Analysis", "WireFormat", "TextEscaping",
                "FileSystem", "FixTables",
            ]
        ),
        .executableTarget(
            name: "perimeter",
            dependencies: [
                "Geodesy", "ReadableText", "GPX", "FixTables", "Geofencing", "WireFormat", "EventSinks", "EventSinksSQLite",
                "EventSinksHTTP", "Documents", "ScenarioFormat", "TrackSynthesis", "Runs", "Analysis", "Regression",
                "Report",
                "Calibration", "FileSystem", "TextEscaping",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests follow their code; only end-to-end tests (PerimeterTests) run the `perimeter` executable.
        .target(name: "TestSupport", dependencies: ["Geodesy", "Geofencing", "WireFormat"], path: "Tests/TestSupport"),
        .testTarget(name: "NumberTextTests", dependencies: ["NumberText", "Geodesy"]),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ReadableTextTests", dependencies: ["ReadableText", "Geodesy"]),
        .testTarget(name: "TextEscapingTests", dependencies: ["TextEscaping"]),
        .testTarget(
            name: "FileSystemTests",
            dependencies: ["FileSystem", "TestSupport", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(name: "GPXTests", dependencies: ["GPX", "Geodesy", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FixTablesTests", dependencies: ["FixTables", "Geodesy", "FileSystem", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "Geodesy"]),
        .testTarget(
            name: "TrackSynthesisTests", dependencies: ["TrackSynthesis", "GPX", "Geodesy", "ScenarioFormat", "TestSupport"]),
        .testTarget(
            name: "WireFormatTests", dependencies: ["WireFormat", "Geofencing", "Geodesy", "TextEscaping", "TestSupport"]),
        .testTarget(
            name: "EventSinksTests",
            dependencies: ["EventSinks", "WireFormat", "FileSystem", "ReadableText", "Geodesy", "Geofencing", "TestSupport"]
        ),
        .testTarget(
            name: "EventSinksSQLiteTests",
            dependencies: [
                "EventSinksSQLite", "EventSinks", "WireFormat", "FileSystem", "Geodesy", "Geofencing", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "EventSinksHTTPTests",
            dependencies: ["EventSinksHTTP", "EventSinks", "WireFormat", "Geodesy", "Geofencing", "TestSupport"]),
        .testTarget(name: "DocumentsTests", dependencies: ["Documents", "NumberText", "Geodesy", "TestSupport"]),
        .testTarget(
            name: "ScenarioFormatTests",
            dependencies: [
                "ScenarioFormat", "Documents", "GPX", "Geodesy", "Geofencing", "TrackSynthesis", "FileSystem", "FixTables",
                "TestSupport", .product(name: "Yams", package: "Yams"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RunsTests",
            dependencies: ["Runs", "EventSinks", "Documents", "ScenarioFormat", "Geofencing", "Geodesy", "TestSupport"]),
        .testTarget(
            name: "ReportTests",
            dependencies: ["Report", "Calibration", "Runs", "ScenarioFormat", "Geofencing", "Geodesy", "TestSupport"]),
        .testTarget(
            name: "AnalysisTests",
            dependencies: [
                "Analysis", "Runs", "Documents", "ReadableText", "ScenarioFormat", "Geofencing", "Geodesy", "TestSupport",
            ]),
        .testTarget(
            name: "RegressionTests",
            dependencies: [
                "Regression", "Runs", "ScenarioFormat", "WireFormat", "Geofencing", "Geodesy", "ReadableText",
                "TextEscaping",
                "TestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CalibrationTests",
            dependencies: [
                "Calibration", "Runs", "Documents", "ScenarioFormat", "Geofencing", "Geodesy", "WireFormat", "TestSupport",
                "FixTables",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PerimeterTests",
            dependencies: [
                "perimeter", "Regression", "GPX", "Calibration", "Geodesy", "WireFormat", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]
        ),
    ]
)

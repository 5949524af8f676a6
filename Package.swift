// swift-tools-version:6.0
import PackageDescription

// The tree reads like the pipeline: Geodesy ─▶ GPX / Geofencing / TrackSynthesis ─▶ EventSinks / ScenarioFormat
// ─▶ Regression ─▶ perimeter.
// Dependencies point downstream only; libxml2 stays behind CLibXML2 and never leaves GPX.
let package = Package(
    name: "Perimeter",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "perimeter", targets: ["perimeter"]),
        .library(name: "Geodesy", targets: ["Geodesy"]),
        .library(name: "GPX", targets: ["GPX"]),
        .library(name: "Geofencing", targets: ["Geofencing"]),
        .library(name: "EventSinks", targets: ["EventSinks"]),
        .library(name: "ScenarioFormat", targets: ["ScenarioFormat"]),
        .library(name: "TrackSynthesis", targets: ["TrackSynthesis"]),
        .library(name: "Regression", targets: ["Regression"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "Geodesy",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "GPX", dependencies: ["Geodesy", "CLibXML2"]),
        .target(name: "Geofencing", dependencies: ["Geodesy"]),
        .target(name: "TrackSynthesis", dependencies: ["Geodesy"]),
        .target(
            name: "EventSinks",
            dependencies: ["Geofencing", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "ScenarioFormat",
            dependencies: ["Geodesy", "Geofencing", "GPX", "TrackSynthesis", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "Regression", dependencies: ["Geofencing", "EventSinks", "ScenarioFormat"]),
        .executableTarget(
            name: "perimeter",
            dependencies: [
                "Geodesy", "GPX", "Geofencing", "EventSinks", "ScenarioFormat", "TrackSynthesis", "Regression",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GPXTests", dependencies: ["GPX", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing"]),
        .testTarget(
            name: "ScenarioFormatTests",
            dependencies: ["ScenarioFormat", "GPX", "Geodesy", "Geofencing"],
            resources: [.copy("Fixtures")]
        ),
        // For tests only: the built `perimeter` run as a user would, and a loopback HTTP server.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "EventSinksTests",
            dependencies: ["EventSinks", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "TrackSynthesisTests",
            dependencies: ["TrackSynthesis", "ScenarioFormat", "GPX", "Geodesy", "perimeter", "TestSupport"]
        ),
        .testTarget(
            name: "PerimeterTests",
            dependencies: ["perimeter", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RegressionTests",
            dependencies: ["Regression", "ScenarioFormat", "EventSinks", "Geofencing", "Geodesy", "perimeter", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
    ]
)

// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so that the main build and CI stay lean (DESIGN.md).
// Run them with Scripts/gpx-benchmark.sh.
let package = Package(
    name: "PerimeterBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Perimeter", path: "..")],
    targets: [
        .executableTarget(
            name: "gpx-benchmark",
            dependencies: [.product(name: "GPX", package: "Perimeter")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
    ]
)

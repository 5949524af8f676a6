// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so that the main build and CI stay lean (as in swift-nio).
let package = Package(
    name: "PerimeterBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Perimeter", path: "..")],
    targets: [
        .executableTarget(
            name: "engine-benchmark",
            dependencies: [.product(name: "Geofencing", package: "Perimeter"), .product(name: "Geodesy", package: "Perimeter")]
        ),
    ]
)

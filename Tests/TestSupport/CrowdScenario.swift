import Foundation

/// A generated scenario with many events, for tests that need a run to outgrow a small disk or a pipe:
/// `devices` walkers pacing east and west at 10 m/s along a row of 20 cafés (circles of 80 m, 200 m
/// apart), each from its own starting point, under the `android` profile so that every crossing is an
/// event at once. The default (40 walkers for 20 minutes) gives about 7,500 events, 1.4 MB of JSON Lines,
/// in about a second. Its folders are world-readable.
public struct CrowdScenario: Sendable {
    /// The folder holding the scenario and its tracks.
    public let folder: URL
    /// The scenario file.
    public let file: String

    static let cafes = 20, spacing = 200.0
    static let latitude = 52.52, longitude = 13.40
    static let metresPerDegreeLongitude = 111_195.08 * cos(52.52 * .pi / 180)

    /// Writes the scenario and one GPX track per walker (a fix every 10 s, without times: `pace: 10`).
    public static func make(devices: Int = 40, minutes: Int = 20) throws -> CrowdScenario {
        let folder = try PerimeterProcess.temporaryFolder()
        let tracks = folder.appendingPathComponent("tracks")
        try FileManager.default.createDirectory(at: tracks, withIntermediateDirectories: true)
        var yaml = "name: A crowd along the cafés\nstart: 2024-05-01T09:00:00Z\nprofile: android\nregions:\n"
        for cafe in 0..<cafes {
            yaml +=
                "  - {id: cafe-\(cafe), circle: {lat: \(latitude), lon: \(longitude(at: Double(cafe) * spacing)), radius: 80}}\n"
        }
        yaml += "devices:\n"
        let length = Double(cafes - 1) * spacing
        for device in 0..<devices {
            var gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="CrowdScenario"><trk><trkseg>"# + "\n"
            for fix in 0...(minutes * 6) {
                // A triangle wave along the row, 100 m per fix, each walker 137 m further on than the last.
                let travelled = (Double(fix) * 100 + Double(device) * 137).truncatingRemainder(dividingBy: 2 * length)
                let x = travelled <= length ? travelled : 2 * length - travelled
                gpx += #"<trkpt lat="\#(latitude + Double(device % 5) * 0.00001)" lon="\#(longitude(at: x))"/>"# + "\n"
            }
            gpx += "</trkseg></trk></gpx>\n"
            try gpx.write(to: tracks.appendingPathComponent("walker-\(device).gpx"), atomically: false, encoding: .utf8)
            yaml += "  - {id: walker-\(device), track: tracks/walker-\(device).gpx, pace: 10}\n"
        }
        let file = folder.appendingPathComponent("crowd.yaml").path
        try yaml.write(toFile: file, atomically: false, encoding: .utf8)
        for path in [folder.path, tracks.path] {  // readable by the unprivileged user of permission tests
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        return CrowdScenario(folder: folder, file: file)
    }

    static func longitude(at metres: Double) -> Double { longitude + metres / metresPerDegreeLongitude }
}

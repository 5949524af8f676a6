import Foundation
import TestSupport
import Testing

@testable import GPX

/// `.gpx.gz` read as it streams (zlib), and files that are not GPX said for what they are.
@Suite("Compressed and mistaken tracks")
struct GzipTests {
    static let conformance = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/conformance/georust-gpx__garmin-activity.gpx")

    /// `command` run by sh in a fresh folder holding `track.gpx` (a copy of a real Garmin export).
    static func folder(running command: String) throws -> URL {
        let folder = try TemporaryFolders.make("gzip")
        try FileManager.default.copyItem(at: conformance, to: folder.appendingPathComponent("track.gpx"))
        try shell(command, in: folder)
        return folder
    }

    @Test(
        "A gzip reads as the plain file does, point for point",
        arguments: [
            "gzip -n -c track.gpx > out",  // one member
            "gzip -n -1 -c track.gpx > out",  // the fastest level
            // two members
            "head -c 100000 track.gpx > a && tail -c +100001 track.gpx > b && gzip -n -c a > out && gzip -n -c b >> out",
        ])
    func sameAsPlain(command: String) throws {
        let folder = try Self.folder(running: command)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try GPXTrack.load(path: folder.appendingPathComponent("track.gpx").path)
        let compressed = try GPXTrack.load(path: folder.appendingPathComponent("out").path)
        #expect(compressed.segments == plain.segments)
        #expect(plain.segments.reduce(0) { $0 + $1.count } == 988)
        #expect(compressed.timing == plain.timing && compressed.warnings.count == plain.warnings.count)
    }

    @Test(
        "What the first bytes say",
        arguments: [
            ("<?xml version=\"1.0\"?><gpx/>", nil),
            ("\u{FEFF}  \n<gpx/>", nil),
            ("{\"type\": \"FeatureCollection\"}", "this is JSON (GeoJSON?), not GPX"),
            ("\n  [1, 2]", "this is JSON (GeoJSON?), not GPX"),
            ("device,time,lat,lon\n", "this looks like CSV, not GPX"),
            ("device\ttime\tlat\tlon\n", "this looks like CSV, not GPX"),
            ("PK\u{3}\u{4}rest", "this is a zip archive, not GPX"),
            ("hello", nil),
        ] as [(String, String?)])
    func whatItIs(text: String, says: String?) {
        let found = Array(text.utf8).withUnsafeBytes { GPXReader.whatItIs($0) }
        #expect(found.map { says.map($0.hasPrefix) ?? false } ?? (says == nil), "\(found ?? "nil")")
    }
}

import Foundation
import GPX
import ScenarioFormat
import TestSupport
import Testing
import TrackSynthesis

/// Writes a synthesized track with `GPXWriter`, as `perimeter track synth` does.
func write(_ track: SyntheticTrack, name: String?, untimed: Bool = false, to path: String) throws {
    let writer = try GPXWriter(path: path)
    if untimed {
        for fix in track.fixes { try writer.waypoint(fix.coordinate) }
    } else {
        try writer.beginTrack(name: name)
        for segment in track.segments {
            try writer.beginSegment()
            for fix in segment { try writer.trackPoint(fix.coordinate, time: fix.time) }
            writer.endSegment()
        }
    }
    try writer.finish()
}

@Suite("Synthesized tracks as GPX")
struct GPXOutputTests {
    @Test("the GPX reads back through GPXTrack.load with the same points, segments and times")
    func roundTrip() throws {
        let journey = try JourneyLoader.load(path: try JourneyFiles.write(JourneyFiles.example))
        let track = journey.synthesize()
        #expect(track.segments.count == 3)
        let path = try PerimeterProcess.temporaryFolder().appendingPathComponent("out.gpx").path
        try write(track, name: journey.name, to: path)
        let loaded = try GPXTrack.load(path: path)
        #expect(loaded.kind == .trackPoint && loaded.timing == .timed && loaded.warnings.isEmpty)
        #expect(loaded.segments.map(\.count) == track.segments.map(\.count))
        for (written, read) in zip(track.fixes, loaded.segments.flatMap { $0 }) {
            #expect(read.time == written.time)
            #expect(read.coordinate.latitude == Double(GPXWriter.fixed7(written.coordinate.latitude)))
            #expect(read.coordinate.longitude == Double(GPXWriter.fixed7(written.coordinate.longitude)))
            #expect(read.coordinate.distance(to: written.coordinate) < 0.01)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<name>Nevsky &amp; &lt;back&gt; &quot;quoted&quot;</name>"))
        #expect(text.contains("<time>2024-05-01T09:00:00.000Z</time>"))
    }

    @Test("untimed: one <wpt> per interval, read back as an untimed waypoint track")
    func untimed() throws {
        let journey = Journey(start: may1, origin: equator, steps: [.move(to: east(100), speed: 10)])
        let path = try PerimeterProcess.temporaryFolder().appendingPathComponent("wpt.gpx").path
        try write(journey.synthesize(), name: nil, untimed: true, to: path)
        let loaded = try GPXTrack.load(path: path)
        #expect(loaded.kind == .waypoint && loaded.timing == .untimed)
        #expect(loaded.segments.map(\.count) == [11])
        #expect(abs(loaded.segments[0][5].coordinate.longitude - east(50).longitude) < 1e-7)
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("<time>"))
    }

    @Test(
        "fixed7",
        arguments: [
            (59.9343, "59.9343000"), (-121.7767850, "-121.7767850"), (0, "0.0000000"),
            (-0.00000001, "0.0000000"), (0.00000005, "0.0000001"), (179.99999999, "180.0000000"),
        ])
    func fixed7(value: Double, text: String) { #expect(GPXWriter.fixed7(value) == text) }
}

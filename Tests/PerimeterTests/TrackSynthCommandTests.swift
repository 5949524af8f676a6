import Foundation
import GPX
import TestSupport
import Testing

@Suite("perimeter track synth")
struct TrackSynthCommandTests {
    @Test("the same journey gives byte-identical GPX; another seed a different one")
    func byteIdentical() throws {
        let journey = try JourneyFiles.write(JourneyFiles.example)
        let folder = URL(fileURLWithPath: journey).deletingLastPathComponent()
        let a = folder.appendingPathComponent("a.gpx").path, b = folder.appendingPathComponent("b.gpx").path
        let first = try PerimeterProcess.run(["track", "synth", journey, "-o", a])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("fixes in 3 segments"))
        #expect(try PerimeterProcess.run(["track", "synth", journey, "--output", b]).status == 0)
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let reseeded = try JourneyFiles.write(JourneyFiles.example.replacingOccurrences(of: "seed: 7", with: "seed: 8"))
        #expect(try PerimeterProcess.run(["track", "synth", reseeded, "-o", b]).status == 0)
        #expect(FileManager.default.contents(atPath: a) != FileManager.default.contents(atPath: b))
        // Standard output gives the same bytes.
        let stdout = try PerimeterProcess.run(["track", "synth", journey, "-o", "-"])
        #expect(Data(stdout.stdout.utf8) == FileManager.default.contents(atPath: a))
        // The track reads back with inspect.
        let inspect = try PerimeterProcess.run(["inspect", a])
        #expect(inspect.status == 0 && inspect.stdout.contains("<trkpt> in 3 segments"))
    }

    @Test("an invalid journey: exit 2, file:line:column: key path: message, nothing written")
    func invalid() throws {
        let journey = try JourneyFiles.write(
            "start: 2024-05-01T09:00:00Z\nroute:\n  - at: [59.9, 30.3]\n  - {to: [59.9, 30.4], sped: 3}\n")
        let out = URL(fileURLWithPath: journey).deletingLastPathComponent().appendingPathComponent("x.gpx").path
        let result = try PerimeterProcess.run(["track", "synth", journey, "-o", out])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                error: \(journey):4:24: route[1].sped: unknown key "sped"; did you mean "speed"? The keys allowed here are: at, to, speed, stop, lost.

                """)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("--untimed writes <wpt>s without times, and refuses a fix loss")
    func untimed() throws {
        let journey = try JourneyFiles.write(
            "start: 2024-05-01T09:00:00Z\nroute:\n  - at: [59.9, 30.3]\n  - {to: [59.9, 30.301], speed: 5}\n")
        let out = URL(fileURLWithPath: journey).deletingLastPathComponent().appendingPathComponent("w.gpx").path
        #expect(try PerimeterProcess.run(["track", "synth", journey, "-o", out, "--untimed"]).status == 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.components(separatedBy: "<wpt ").count - 1 == 12)  // 55.8 m at 5 m/s: 0…11 s
        #expect(!text.contains("<time>") && !text.contains("<trk>"))
        let lost = try JourneyFiles.write(JourneyFiles.example)
        let refused = try PerimeterProcess.run(["track", "synth", lost, "-o", out, "--untimed"])
        #expect(refused.status == 2 && refused.stderr.contains("--untimed cannot express a fix loss"))
    }

    @Test("a journey name with a control character still gives a GPX that reads back")
    func controlCharacterInName() throws {
        let folder = try TemporaryFolders.make("synth")
        let journey = folder.appendingPathComponent("j.yaml").path, track = folder.appendingPathComponent("j.gpx").path
        try
            "name: \"Bell\\u0007 walk\"\nstart: 2024-05-01T09:00:00Z\nroute:\n  - at: [59.93, 30.33]\n  - {to: [59.931, 30.33], speed: 10}\n"
            .write(toFile: journey, atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["track", "synth", journey, "-o", track])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try GPXTrack.load(path: track).segments.flatMap { $0 }.count == 12)
    }
}

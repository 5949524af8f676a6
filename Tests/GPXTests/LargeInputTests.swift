import Foundation
import Testing
import GPX

/// Inputs of tens of megabytes. Serialized, and the memory test first, so that peak RSS measures the
/// reader and not another test's buffers (the other suites only read small files).
@Suite("Large inputs", .serialized)
struct LargeInputTests {
    @Test("memory stays flat while streaming a file many times the chunk size")
    func boundedMemory() throws {
        if let report = ProcessInfo.processInfo.environment["PERIMETER_GPX_MEMORY_REPORT"] {
            // In the child process: measure, and let the parent judge.
            try String(try peakGrowthWhileStreaming()).write(toFile: report, atomically: true, encoding: .utf8)
            return
        }
        // Peak RSS is per process and would count every test running beside this one, so the test binary
        // runs again with only this test, and that child measures the reader alone.
        let report = temporaryFile("")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "boundedMemory"]
        child.environment = ProcessInfo.processInfo.environment.merging(["PERIMETER_GPX_MEMORY_REPORT": report]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        let growth = Int(try String(contentsOfFile: report, encoding: .utf8))
        #expect(growth.map { $0 < 8 << 20 } == true, "peak grew by \(growth.map(String.init) ?? "?") bytes")
    }

    /// Streams a generated 200k-point file (about 36 MB) with `GPXReader`; the growth of peak RSS, in bytes.
    private func peakGrowthWhileStreaming() throws -> Int {
        // 200k points, about 36 MB, written in small pieces so that the peak before reading stays low:
        // a reader holding the file would raise it by that much.
        let path = temporaryFile("")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.write(Data("<?xml version=\"1.0\"?>\n<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n".utf8))
        for block in 0..<200 {
            var text = ""
            for i in 0..<1000 {
                text += "<trkpt lat=\"\(block % 90).\(i)\" lon=\"1.5\"><ele>1</ele><time>2024-01-01T00:00:00Z</time><extensions><speed>1</speed></extensions><desc>padding padding padding padding padding</desc></trkpt>\n"
            }
            handle.write(Data(text.utf8))
        }
        handle.write(Data("</trkseg></trk></gpx>\n".utf8))
        try handle.close()
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int > 30_000_000)
        let before = peakResidentBytes() ?? 0
        let reader = try GPXReader(path: path)
        var points = 0
        while let item = try reader.next() { if case .point = item { points += 1 } }
        let after = peakResidentBytes() ?? 0
        try? FileManager.default.removeItem(atPath: path)
        guard points == 200_000 else { throw GPXError(file: path, line: 0, column: 0, message: "read \(points) points") }
        return after - before
    }

    @Test("a huge text node outside a point's fields streams through in bounded memory")
    func hugeTextNode() throws {
        let filler = String(repeating: "lorem ipsum ", count: 1_000_000)  // 12 MB, past libxml2's 10 MB node cap
        let path = temporaryFile(gpx("<metadata><desc>\(filler)</desc></metadata>\n<wpt lat=\"1\" lon=\"2\"/>"))
        let track = try GPXTrack.load(path: path)
        #expect(track.segments[0].count == 1)
        #expect(track.segments[0][0].line == 4)
    }

    @Test("a huge <time> text is refused without being kept")
    func hugeTime() {
        let filler = String(repeating: "9", count: 12_000_000)
        let path = temporaryFile(gpx("<wpt lat=\"1\" lon=\"2\"><time>\(filler)</time></wpt>"))
        guard case .failure(let error) = loadResult(path) else { Issue.record("loaded"); return }
        #expect(error.message.contains("text of more than 256 bytes"))
        #expect(error.line == 3)
    }

    @Test("a huge attribute value is refused by libxml2's limit")
    func hugeAttribute() {
        let filler = String(repeating: "1", count: 11_000_000)
        let path = temporaryFile(gpx("<wpt lat=\"1\" lon=\"2\" name=\"\(filler)\"/>"))
        guard case .failure(let error) = loadResult(path) else { Issue.record("loaded"); return }
        #expect(error.message.contains("malformed XML"))
        #expect(error.line == 3)
    }
}

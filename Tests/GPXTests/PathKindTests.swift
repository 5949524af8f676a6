import Foundation
import GPX
import Testing

/// A path that names something other than a GPX file, and the sentence it must give (without a place).
struct PathKindCase: CustomTestStringConvertible, Sendable {
    var id: String
    /// Makes the thing in `folder` and returns its path.
    var make: @Sendable (_ folder: String) throws -> String
    var message: String
    var testDescription: String { id }
}

@Suite("Paths that are not GPX files")
struct PathKindTests {
    static let cases: [PathKindCase] = [
        .init(id: "missing", make: { $0 + "/nothing.gpx" }, message: "cannot open the file: no such file."),
        .init(
            id: "folder",
            make: { folder in
                try FileManager.default.createDirectory(atPath: folder + "/tracks.gpx", withIntermediateDirectories: false)
                return folder + "/tracks.gpx"
            }, message: "is a directory, not a GPX file."),
        // A FIFO that nobody writes to: opening it for reading would wait forever.
        .init(
            id: "fifo",
            make: { folder in
                guard mkfifo(folder + "/live.gpx", 0o644) == 0 else { throw POSIXError(.EEXIST) }
                return folder + "/live.gpx"
            }, message: "is a named pipe (FIFO), not a file"),
        .init(id: "device", make: { _ in "/dev/null" }, message: "is a device, not a GPX file."),
    ]

    @Test("each gives its sentence at once, without blocking", arguments: cases)
    func refused(_ c: PathKindCase) throws {
        let folder = (temporaryFile("") as NSString).deletingLastPathComponent
        let path = try c.make(folder)
        let clock = ContinuousClock.now
        guard case .failure(let error) = loadResult(path) else { Issue.record("\(path) loaded"); return }
        #expect(ContinuousClock.now - clock < .seconds(5), "waited on \(path)")
        #expect(error.line == 0 && error.column == 0)
        #expect(error.message.contains(c.message), "\(error.message)")
        #expect(error.description == "\(path): \(error.message)")
    }

    /// What `next()` gives for a file that a writer changes after the reader opened it.
    static let changes: [(id: String, change: @Sendable (String) throws -> Void, message: String)] = [
        (
            "appended",
            { path in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("<!-- more points to come -->\n".utf8))
                try handle.close()
            }, "the file changed while it was read ("
        ),
        (
            "truncated",
            { path in
                guard truncate(path, 100) == 0 else { throw POSIXError(.EIO) }
            }, "the file changed while it was read ("
        ),
    ]

    @Test(
        "a file changed while it is read gives an error, not a track cut short",
        arguments: changes.indices)
    func changedWhileRead(_ index: Int) throws {
        let (id, change, message) = Self.changes[index]
        // Larger than one chunk, so that the change lands while the reader is in the middle of the file.
        let points = (0..<2_000).map { "<wpt lat=\"1.\($0)\" lon=\"2\"><name>point \($0)</name></wpt>" }
        let path = temporaryFile(gpx(points.joined(separator: "\n")))
        let reader = try GPXReader(path: path)
        #expect(try reader.next() != nil)
        try change(path)
        var failure: GPXError?
        do throws(GPXError) { while try reader.next() != nil {} } catch { failure = error }
        #expect(failure?.message.hasPrefix(message) == true, "\(id): \(failure.map(\.message) ?? "no error")")
        #expect(failure?.line == 0)
    }
}

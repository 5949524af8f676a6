import FileSystem
import Foundation
import TestSupport
import Testing

/// What is at a path, each kind with its sentence; nothing here is opened, so a FIFO never blocks.
@Suite("File checks")
struct FileCheckTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let make: @Sendable (String) throws -> String
        let unreachable: String?
        let notRegular: String?
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(
            id: "regular file",
            make: { folder in
                let path = folder + "/a.gpx"
                try "x".write(toFile: path, atomically: false, encoding: .utf8)
                return path
            }, unreachable: nil, notRegular: nil),
        Case(id: "missing", make: { $0 + "/nothing.gpx" }, unreachable: "no such file: PATH", notRegular: nil),
        Case(
            id: "through a file",
            make: { folder in
                try "x".write(toFile: folder + "/f", atomically: false, encoding: .utf8)
                return folder + "/f/a.gpx"
            }, unreachable: "PATH cannot be reached: a part of its path is not a folder", notRegular: nil),
        Case(id: "folder", make: { $0 }, unreachable: nil, notRegular: "PATH is a directory, not a file"),
        Case(
            id: "FIFO",
            make: { folder in
                let path = folder + "/live.gpx"
                guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
                return path
            }, unreachable: nil,
            notRegular:
                "PATH is a named pipe (FIFO), not a file: it is read from a regular file (a pipe can block until someone writes to it, and be read only once); save it to a file first"
        ),
        Case(id: "device", make: { _ in "/dev/null" }, unreachable: nil, notRegular: "PATH is a device, not a file"),
    ]

    @Test(arguments: cases)
    func kinds(c: Case) throws {
        let path = try c.make(try temporaryDirectory())
        #expect(FileCheck.unreachable(path) == c.unreachable?.replacingOccurrences(of: "PATH", with: path))
        #expect(FileCheck.notRegularFile(path) == c.notRegular?.replacingOccurrences(of: "PATH", with: path))
        #expect(FileCheck.isRegularFile(path) == (c.id == "regular file"))
        #expect(
            FileCheck.problemReading(path) == (c.unreachable ?? c.notRegular)?.replacingOccurrences(of: "PATH", with: path))
    }

    @Test(
        "the noun of what was expected",
        arguments: [
            (0o040755 as UInt32, "is a directory, not a GPX file"), (0o020666, "is a device, not a GPX file"),
            (0o140777, "is a socket, not a GPX file"), (0o100644, nil),
        ] as [(UInt32, String?)])
    func noun(mode: UInt32, sentence: String?) {
        #expect(FileCheck.notRegular(mode: mode, expected: "GPX file") == sentence)
    }
}

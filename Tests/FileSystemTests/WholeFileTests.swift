import FileSystem
import Foundation
import TestSupport
import Testing

@Suite("Whole-file reads")
struct WholeFileTests {
    @Test func readsEveryByte() throws {
        let path = try temporaryDirectory() + "/a.bin"
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try WholeFile.read(path) == bytes)
    }

    @Test func anEmptyFileIsNoBytes() throws {
        let path = try temporaryDirectory() + "/empty"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(try WholeFile.read(path) == [])
    }

    @Test func aFileOverTheCapIsRefusedByItsSize() throws {
        let path = try temporaryDirectory() + "/big"
        try Data(repeating: 7, count: 4097).write(to: URL(fileURLWithPath: path))
        #expect(throws: WholeFile.Failure.tooLarge(size: 4097, limit: 4096)) { try WholeFile.read(path, limit: 4096) }
        #expect(try WholeFile.read(path, limit: 4097).count == 4097)
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = try temporaryDirectory() + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let error = #expect(throws: WholeFile.Failure.self) { try WholeFile.read(path) }
        #expect(error?.description.hasPrefix("\(path) is a named pipe (FIFO)") == true)
    }

    @Test func aFolderOrNothingIsRefusedWithFileCheckSentence() throws {
        let folder = try temporaryDirectory()
        #expect(throws: WholeFile.Failure.unreadable("\(folder) is a directory, not a file")) { try WholeFile.read(folder) }
        #expect(throws: WholeFile.Failure.unreadable("no such file: \(folder)/x")) { try WholeFile.read(folder + "/x") }
    }
}

import FileSystem
import Foundation
import TestSupport
import Testing

/// Whether a path written relative to a folder stays in it, as the system resolves it: the rule for a
/// scenario's own sinks. The folder holds `in/`, a link `up` to the folder above, a link `file` to a
/// file above, a link `loop` to `in/`, and a dangling link `gone`.
@Suite("A path inside its folder")
struct ContainmentTests {
    static let cases: [(path: String, escape: String?)] = [
        ("e.jsonl", nil), ("in/e.jsonl", nil), ("in/../e.jsonl", nil), ("./in/./e.jsonl", nil),
        ("new/e.jsonl", nil), ("loop/e.jsonl", nil), ("gone", "link ABOVE/missing"),
        ("/tmp/e.jsonl", "absolute"), ("../e.jsonl", "upward"), ("in/../../e.jsonl", "upward"), ("..", "upward"),
        ("up/e.jsonl", "link ABOVE/e.jsonl"), ("file", "link ABOVE/target"), ("in/../up/x/e.jsonl", "link ABOVE/x/e.jsonl"),
    ]

    @Test("absolute paths, .. and symbolic links leading out", arguments: cases)
    func escape(path: String, escape: String?) throws {
        let above = try TemporaryFolders.make("containment")
        let folder = above.appendingPathComponent("project")
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        try "x".write(to: above.appendingPathComponent("target"), atomically: true, encoding: .utf8)
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("file").path, withDestinationPath: "../target")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: "in")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("gone").path, withDestinationPath: "../missing")
        let real = above.resolvingSymlinksInPath().path
        let found: String? =
            switch FileCheck.escape(of: path, from: folder.path) {
            case nil: nil
            case .absolute: "absolute"
            case .upward: "upward"
            case let .link(target): "link " + target.replacingOccurrences(of: real, with: "ABOVE")
            }
        #expect(found == escape)
    }
}

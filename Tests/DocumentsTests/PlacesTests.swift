import Documents
import Foundation
import TestSupport
import Testing

/// One step down a document: a mapping's key or a list's index.
enum Step: Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    var description: String {
        switch self {
        case let .key(key): return key
        case let .index(index): return "[\(index)]"
        }
    }
}

/// A node reached by `steps` from the root of `text`, and where it is, computed by hand (lines and
/// columns from 1, columns in characters).
struct PlaceCase: Sendable, CustomTestStringConvertible {
    var label: String
    var text: String
    var steps: [Step]
    var keyPath: String
    var line: Int
    var column: Int
    var testDescription: String { label }
}

/// A document read whole (YAML through `YAMLDocument.compose`, JSON through `JSONReader`), with its log.
struct ReadDocument {
    var root: PlacedNode?
    var log: ProblemLog

    /// `text` written to a file of its own, composed as YAML (JSON is YAML too).
    static func yaml(_ text: String, what: String = "a test document") throws -> ReadDocument {
        try yaml(bytes: Array(text.utf8), what: what)
    }

    static func yaml(bytes: [UInt8], what: String = "a test document") throws -> ReadDocument {
        let path = try DocumentFiles.write(bytes)
        let log = ProblemLog()
        let root = YAMLDocument.compose(path, what: what, diagnostics: log).map {
            PlacedNode(node: $0, path: "", file: path, diagnostics: log, isOwnText: true)
        }
        return ReadDocument(root: root, log: log)
    }

    /// `bytes` read by `JSONReader`: the root, or the syntax error's place and message.
    static func json(_ bytes: [UInt8]) -> Result<DocumentNode?, JSONReader.SyntaxError> {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            do throws(JSONReader.SyntaxError) {
                return .success(try reader.document())
            } catch {
                return .failure(error)
            }
        }
    }

    /// The node `steps` lead to, each step through `entry` or `list`.
    static func walk(_ node: PlacedNode?, _ steps: [Step]) -> PlacedNode? {
        steps.reduce(node) { node, step in
            switch step {
            case let .key(key): return node?.entry(key)
            case let .index(index):
                guard let list = node?.list("a list"), index < list.count else { return nil }
                return list[index]
            }
        }
    }
}

/// Files for these tests, each in a folder of its own (`TemporaryFolders`: removed when the tests end).
enum DocumentFiles {
    static func write(_ bytes: [UInt8], name: String = "document.yaml") throws -> String {
        let path = try TemporaryFolders.make("documents").appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Where a node is: its key path, line and column, the same for YAML and for JSON read straight from
/// its bytes, as every error message of a scenario, region file, journey or profile file gives them.
@Suite("Documents: key paths, lines and columns")
struct PlacesTests {
    static let yamlCases: [PlaceCase] = [
        PlaceCase(
            label: "a flow mapping's value in a block list",
            text: "name: x\nregions:\n  - circle: {lat: 1, lon: 2, radius: 50m}\n",
            steps: [.key("regions"), .index(0), .key("circle"), .key("radius")],
            keyPath: "regions[0].circle.radius", line: 3, column: 38),
        PlaceCase(
            label: "a list in a list",
            text: "route:\n  - at: [59.9, 30.3]\n",
            steps: [.key("route"), .index(0), .key("at"), .index(1)],
            keyPath: "route[0].at[1]", line: 2, column: 16),
        PlaceCase(
            label: "the second of a block list's mappings",
            text: "devices:\n  - id: a\n  - id: b\n",
            steps: [.key("devices"), .index(1), .key("id")],
            keyPath: "devices[1].id", line: 3, column: 9),
        PlaceCase(
            label: "the root", text: "tick: 1\n", steps: [], keyPath: "", line: 1, column: 1),
        PlaceCase(
            label: "JSON composed as YAML",
            text: "{\n  \"features\": [\n    {\"id\": \"x\"}\n  ]\n}\n",
            steps: [.key("features"), .index(0), .key("id")],
            keyPath: "features[0].id", line: 3, column: 12),
    ]

    @Test("YAML: each node's key path, line and column", arguments: yamlCases)
    func yamlPlaces(_ c: PlaceCase) throws {
        let document = try ReadDocument.yaml(c.text)
        let node = try #require(ReadDocument.walk(document.root, c.steps))
        #expect(node.path == c.keyPath)
        #expect(node.line == c.line && node.column == c.column, "\(node.line):\(node.column)")
        #expect(document.log.errors.isEmpty)
    }

    /// Keys are text (a loader reads `1` and `"1"` alike), so two keys of one text are one key given twice,
    /// however each is written; keys of different texts are different keys, `~` and `null` too.
    @Test(
        "YAML: a key given twice is refused whatever its quotes",
        arguments: [
            ("1: a\n\"1\": b\n", true), ("true: a\n'true': b\n", true), ("a: 1\n\"a\": 2\n", true),
            ("~: a\nnull: b\n", false), ("1: a\n1.0: b\n", false), ("a: 1\nb: 1\n", false),
        ])
    func yamlDuplicateKeys(text: String, refused: Bool) throws {
        let document = try ReadDocument.yaml(text)
        let messages = document.log.errors.map(\.message)
        #expect(messages.contains { $0.hasPrefix("a key appears more than once in one mapping") } == refused, "\(messages)")
        #expect((document.root == nil) == refused)
    }

    static let jsonCases: [PlaceCase] = [
        PlaceCase(
            label: "a value in a list in an object",
            text: #"{"a": [1, {"b": true}]}"#,
            steps: [.key("a"), .index(1), .key("b")], keyPath: "a[1].b", line: 1, column: 17),
        PlaceCase(
            label: "lines counted at each newline",
            text: "{\n  \"features\": [\n    {\"id\": \"x\"}\n  ]\n}\n",
            steps: [.key("features"), .index(0), .key("id")], keyPath: "features[0].id", line: 3, column: 12),
        PlaceCase(
            label: "columns in characters, not bytes",
            text: #"{"café": 12}"#, steps: [.key("café")], keyPath: "café", line: 1, column: 10),
        PlaceCase(
            label: "a byte order mark is skipped and not counted",
            text: "\u{FEFF}" + #"{"a": 1}"#, steps: [.key("a")], keyPath: "a", line: 1, column: 7),
    ]

    @Test("JSON read from its bytes: each node's key path, line and column", arguments: jsonCases)
    func jsonPlaces(_ c: PlaceCase) throws {
        let root = try #require(try ReadDocument.json(Array(c.text.utf8)).get())
        let log = ProblemLog()
        let node = try #require(
            ReadDocument.walk(PlacedNode(node: root, path: "", file: "f.json", diagnostics: log), c.steps))
        #expect(node.path == c.keyPath)
        #expect(node.line == c.line && node.column == c.column, "\(node.line):\(node.column)")
    }

    /// A JSON syntax error: where it is and what it says.
    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        var label: String
        var text: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { label }
    }

    static let syntaxCases: [SyntaxCase] = [
        SyntaxCase(
            label: "a key given twice is placed at its first",
            text: "{\"a\": 1,\n \"a\": 2}", line: 1, column: 2,
            message: #"a key appears more than once in one mapping: "a" (first given here); each key may be given once"#),
        SyntaxCase(
            label: "a value missing at the end", text: #"{"a": "#, line: 1, column: 7,
            message: "JSON syntax error: expected a value, got the end of the file"),
        SyntaxCase(
            label: "text after the document", text: "[1]\n x", line: 2, column: 2,
            message: "JSON syntax error: expected the end of the file after the document's value, got 'x'"),
        SyntaxCase(
            label: "257 lists deep is one too many", text: String(repeating: "[", count: 257), line: 1, column: 257,
            message: "JSON syntax error: objects and lists nested deeper than 256 levels are refused"),
    ]

    @Test("JSON syntax errors at their line and column", arguments: syntaxCases)
    func jsonSyntax(_ c: SyntaxCase) throws {
        let result = ReadDocument.json(Array(c.text.utf8))
        guard case let .failure(error) = result else {
            Issue.record("read without an error: \(result)")
            return
        }
        #expect(Int(error.mark.line) == c.line && Int(error.mark.column) == c.column, "\(error.mark)")
        #expect(error.message == c.message)
    }

    @Test("256 lists deep is read")
    func deepestNesting() throws {
        let text = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(try ReadDocument.json(Array(text.utf8)).get() != nil)
    }
}

import FileSystem
import Yams

/// A YAML (or JSON) file read whole and composed into Yams's node tree, every problem recorded with its
/// file, line and column: scenarios and journeys. Region files are JSON, read by `JSONReader`. A tree
/// whose aliases stand for more nodes than the file's budget (`YAMLAliasBudget`) is refused.
package enum YAMLDocument {
    /// The largest YAML or JSON file read: 128 MB. Yams composes the whole document as a tree of nodes,
    /// about 30 times the file's size.
    package static let maximumSize: Int64 = 128 << 20

    /// A file's root node, or nil with errors recorded (unreadable file, YAML or JSON syntax, empty file).
    package static func compose(_ path: String, what: String, diagnostics: ProblemLog) -> DocumentNode? {
        func fail(_ line: Int, _ column: Int, _ message: String) {
            diagnostics.error(ScenarioError(file: path, keyPath: "", line: line, column: column, message: message))
        }
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path, limit: maximumSize)
        } catch let .tooLarge(size, _) {
            fail(
                0, 0,
                """
                cannot read \(what): the file is \(size >> 20) MB; YAML and JSON files over \(maximumSize >> 20) MB are \
                refused, as their document tree would take about 30 times their size in memory. Keep regions in \
                GeoJSON files and long tracks in GPX or fix tables (read as streams)
                """)
            return nil
        } catch {
            fail(0, 0, "cannot read \(what): \(error)")
            return nil
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            fail(0, 0, "cannot read \(what): the file is not UTF-8 text")
            return nil
        }
        do {
            // Yams.compose, with the parser kept while the aliases are counted: a node's anchor is weak,
            // held by the parser that made it. The basic resolver: no tag is read here (a scalar means
            // what its loader reads in its text, `DocumentNode`), and the default one matched every key
            // against seven regular expressions (it took more than the parse), and saw `1:` and `"1":` as
            // two keys where a loader sees one.
            let parser = try Yams.Parser(yaml: text, resolver: .basic)
            guard let root = try parser.singleRoot() else {
                fail(0, 0, "the file is empty; expected \(what)")
                return nil
            }
            do {
                try withExtendedLifetime(parser) { () throws(YAMLAliasBudget.Overrun) in
                    try YAMLAliasBudget.check(root, budget: YAMLAliasBudget.nodes(forFileOf: bytes.count))
                }
            } catch {
                diagnostics.error(
                    ScenarioError(
                        file: path, keyPath: error.path, line: error.line, column: error.column,
                        message: error.message))
                return nil
            }
            return DocumentNode(root)
        } catch let error as YamlError {
            let (line, column, message) = describe(error)
            fail(line, column, message)
        } catch {
            fail(0, 0, "cannot parse \(what): \(error)")
        }
        return nil
    }

    /// A YAML error's place and a sentence, without Yams's multi-line snippet.
    private static func describe(_ error: YamlError) -> (Int, Int, String) {
        func sentence(_ kind: String, _ context: YamlError.Context?, _ problem: String) -> String {
            var out = "\(kind) syntax error: \(problem)"
            if let context { out += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return out
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            return (mark.line, mark.column, sentence("YAML", context, problem))
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
            return (
                context.mark.line, context.mark.column,
                "a key appears more than once in one mapping: \(keys) (first given here); each key may be given once"
            )
        case let .reader(problem, _, _, _):
            return (0, 0, "the file cannot be read as text: \(problem)")
        default:
            return (0, 0, "cannot parse the file: \(error)")
        }
    }
}

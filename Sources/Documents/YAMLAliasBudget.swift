import ReadableText
import Yams

/// The nodes a YAML document reaches through its aliases, counted against a budget before anything
/// reads them: Yams resolves `*name` to the node `&name` marks (shared, not copied), but every reader
/// that walks the tree meets that node again at each alias, and a file of a million `- *e` lines (7 MB)
/// would be read as a million expectations, a nest of aliases (a YAML "billion laughs") as 10¹⁰ nodes.
///
/// Each alias counts the nodes of what it stands for, its own aliases expanded (sizes are kept by
/// anchor, so that the count costs O(the document's nodes) however deep aliases nest). The budget is
/// `minimumNodes`, or one node per `bytesPerNode` bytes of the file if that is more: a file of aliases
/// is read as at most a file of its size written out would be.
struct YAMLAliasBudget {
    /// Nodes that aliases may always stand for: room for any scenario written by hand.
    static let minimumNodes = 100_000
    /// Bytes of the file per node an alias may stand for (a scenario written out has one node in about
    /// five bytes).
    static let bytesPerNode = 8

    /// Where the budget ran out: the alias's key path, the node it stands for and its size, and the total.
    struct Overrun: Error {
        var path: String
        var anchor: String
        var line: Int
        var column: Int
        var nodes: Int
        var total: Int
        var budget: Int
    }

    /// The budget for a file of `bytes` bytes, in nodes.
    static func nodes(forFileOf bytes: Int) -> Int { max(minimumNodes, bytes / bytesPerNode) }

    let budget: Int
    /// Nodes reached through aliases so far.
    private var aliased = 0
    /// The size of each anchored node walked, aliases in it expanded, by its anchor (one object per `&`).
    private var sizes: [ObjectIdentifier: Int] = [:]

    /// Walks `root` in document order; throws where the nodes reached through aliases pass `budget`.
    /// O(the document's nodes), recursion as deep as the document's nesting (which libyaml limits).
    static func check(_ root: Node, budget: Int) throws(Overrun) {
        var walk = YAMLAliasBudget(budget: budget)
        _ = try walk.size(of: root)
    }

    /// The nodes `node` stands for, its aliases expanded; an anchored node met again is an alias. The
    /// key path of an overrun is made as it passes up, step by step.
    private mutating func size(of node: Node) throws(Overrun) -> Int {
        if let anchor = node.anchor, let known = sizes[ObjectIdentifier(anchor)] {
            aliased += known
            if aliased > budget {
                throw Overrun(
                    path: "", anchor: anchor.rawValue, line: node.mark?.line ?? 0,
                    column: node.mark?.column ?? 0, nodes: known, total: aliased, budget: budget)
            }
            return known
        }
        var total = 1
        switch node {
        case let .mapping(mapping):
            for (key, value) in mapping {
                total += try size(of: key)
                do { total += try size(of: value) } catch { throw error.under(key.string ?? "?") }
            }
        case let .sequence(sequence):
            for (index, element) in sequence.enumerated() {
                do { total += try size(of: element) } catch { throw error.under("[\(index)]") }
            }
        case .scalar, .alias:
            break
        }
        if let anchor = node.anchor { sizes[ObjectIdentifier(anchor)] = total }
        return total
    }
}

extension YAMLAliasBudget.Overrun {
    /// This overrun with `step` (a key, or `[index]`) before its key path.
    func under(_ step: String) -> Self {
        var overrun = self
        overrun.path = step + (path.isEmpty || path.hasPrefix("[") ? "" : ".") + path
        return overrun
    }

    /// The sentence for people.
    var message: String {
        let grouped = { (n: Int) in Readable.grouped(Int64(n)) }
        return "this alias (*\(anchor), standing for the \(grouped(nodes)) node\(nodes == 1 ? "" : "s") at line \(line), "
            + "column \(column)) brings what the file's aliases stand for to \(grouped(total)) nodes, past its budget of "
            + "\(grouped(budget)) (one node per \(YAMLAliasBudget.bytesPerNode) bytes of the file, at least "
            + "\(grouped(YAMLAliasBudget.minimumNodes))): aliases are never expanded past it. Write out what they stand "
            + "for, or use fewer of them"
    }
}

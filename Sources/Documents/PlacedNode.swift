import FileSystem
import Geodesy
import NumberText
import ReadableText
import TextEscaping
import Time

/// A node of a scenario, region file or journey with its place: the file and the key path.
///
/// Every typed read either returns a value or records one `ScenarioError` at this node and returns nil,
/// so the loader goes on and reports every problem.
package struct PlacedNode {
    package let node: DocumentNode
    /// Where the node is: the path to its parent and its own step (an object for the parent is made only
    /// when a node has children looked at); its text is made only when a message needs it.
    private let parent: KeyPathLink?
    private let step: KeyPathStep
    /// The file and its problem log, shared by every node of the document (one reference to count).
    private let document: DocumentPlace

    /// A node at `path` (`""` for the document's root). `isOwnText`: the document is the text the command
    /// was given (a scenario, a journey), whose values a message quotes by up to 40 characters; the values
    /// of a file it names (a profile, a region file) are quoted by `TerminalText.excerpt`, so that a
    /// secrets file read as the wrong kind shows only its start.
    package init(node: DocumentNode, path: String, file: String, diagnostics: ProblemLog, isOwnText: Bool = false) {
        self.init(
            node: node, parent: nil, step: .key(path),
            document: DocumentPlace(file: file, diagnostics: diagnostics, isOwnText: isOwnText))
    }

    private init(node: DocumentNode, parent: KeyPathLink?, step: KeyPathStep, document: DocumentPlace) {
        switch node {
        case .yaml, .positions: self.node = node.expanded
        default: self.node = node
        }
        self.parent = parent
        self.step = step
        self.document = document
    }

    /// This node, its problems recorded in `log` from now on: a part read into a log of its own (a
    /// GeoJSON feature that may be skipped) keeps its places for what the whole load finds later (a
    /// region id used twice).
    package func reporting(to log: ProblemLog) -> PlacedNode {
        PlacedNode(
            node: node, parent: parent, step: step,
            document: DocumentPlace(file: file, diagnostics: log, isOwnText: document.isOwnText))
    }

    /// This node's place, as the parent of its children: one object for all the children made from it.
    private var link: KeyPathLink { KeyPathLink(parent: parent, step: step) }

    package var file: String { document.file }
    package var diagnostics: ProblemLog { document.diagnostics }

    /// The key path, e.g. `regions[1].circle.radius`; empty for the root.
    package var path: String { KeyPathLink.text(parent, step) }
    package var line: Int { Int(node.mark.line) }
    package var column: Int { Int(node.mark.column) }
    /// Where this node is, for a problem found after the load.
    package var keyedPlace: KeyedPlace {
        KeyedPlace(place: SourcePlace(file: file, line: line, column: column), keyPath: path)
    }

    package func child(_ key: String, _ node: DocumentNode) -> PlacedNode {
        PlacedNode(node: node, parent: link, step: .key(key), document: document)
    }

    package func element(_ index: Int, _ node: DocumentNode) -> PlacedNode {
        PlacedNode(node: node, parent: link, step: .index(index), document: document)
    }

    /// Records an error at this node.
    package func fail(_ message: String) {
        diagnostics.error(ScenarioError(file: file, keyPath: path, line: line, column: column, message: message))
    }

    /// Records a warning at this node: `FILE:LINE:COLUMN: KEYPATH: MESSAGE`.
    package func warn(_ message: String) {
        diagnostics.warning("\(place): \(path.isEmpty ? "" : path + ": ")\(message)")
    }

    /// Records "expected WHAT, got VALUE" at this node.
    package func expected(_ what: String) { fail("expected \(what), got \(got)") }

    /// This node as a person would name it in a message.
    package var got: String {
        switch node {
        case let .scalar(scalar):
            if scalar.isNull { return "nothing (null)" }
            return quote(scalar.text.replacingOccurrences(of: "\"", with: "\\\""))
        case .mapping: return "a mapping"
        case let .sequence(sequence, _):
            let texts = sequence.compactMap(\.text)
            guard texts.count == sequence.count, (1...4).contains(texts.count) else { return "a list" }
            let joined = texts.joined(separator: ", ")
            guard document.isOwnText else { return TerminalText.excerpt("[" + joined + "]") }
            return "[" + TerminalText.visible(joined.count > 40 ? joined.prefix(40) + "…" : joined) + "]"
        case .alias: return "an alias"
        case .yaml, .positions: return "a node"  // never: a placed node is expanded
        }
    }

    /// A value of this node's document, quoted for a message: by up to 40 characters in the command's own
    /// text (`isOwnText`), else by `TerminalText.excerpt` (its start and length once over 16 characters).
    package func quote(_ text: String) -> String {
        document.isOwnText ? TerminalText.quoted(text, limit: 40) : TerminalText.excerpt(text)
    }

    package var isNull: Bool {
        guard case let .scalar(scalar) = node else { return false }
        return scalar.isNull
    }

    /// A JSON number's value, read once by the JSON reader (nil for any other node: YAML's numbers are
    /// read from their text). Equal to what the text reads as, with `ExactDecimal` and `Double(_:)`.
    package var jsonNumber: Double? {
        guard case let .scalar(scalar) = node else { return nil }
        return scalar.number
    }

    /// The text of a scalar, or nil (without an error) for anything else.
    package var scalarText: String? {
        guard case let .scalar(scalar) = node, !scalar.isNull else { return nil }
        return scalar.text
    }

    package var place: String { "\(file):\(line):\(column)" }

    /// Whether this is a mapping with the text key `key` (without reporting anything).
    package func mappingHasKey(_ key: String) -> Bool {
        guard case let .mapping(mapping, _) = node else { return false }
        return mapping.contains { $0.key.text == key }
    }

    /// The value of the text key `key` of a mapping, placed (without reporting anything); nil otherwise.
    package func entry(_ key: String) -> PlacedNode? {
        guard case let .mapping(mapping, _) = node, let value = mapping.first(where: { $0.key.text == key })?.value
        else { return nil }
        return child(key, value)
    }

    // MARK: Shapes

    /// A mapping whose keys are all in `allowed` (unless `foreignMembers`, for GeoJSON's RFC 7946 §6.1);
    /// unknown and non-text keys are reported with the allowed list. Nil, with an error, for a non-mapping.
    package func mapping(_ what: String, allowed: [String], foreignMembers: Bool = false) -> Fields? {
        guard case let .mapping(mapping, _) = node else {
            expected(what)
            return nil
        }
        var keys: [String] = []
        var values: [PlacedNode] = []
        keys.reserveCapacity(mapping.count)
        values.reserveCapacity(mapping.count)
        var misspelt: Set<String> = []
        let link = link
        for (keyNode, value) in mapping {
            let keyCursor = PlacedNode(node: keyNode, parent: parent, step: step, document: document)
            guard let key = keyCursor.scalarText else {
                keyCursor.fail(
                    "expected a key of text, got \(keyCursor.got); the keys allowed here are: \(allowed.joined(separator: ", "))"
                )
                continue
            }
            if !allowed.contains(key) {
                if !foreignMembers {
                    let child = child(key, keyNode)
                    var message = "unknown key \"\(TerminalText.visible(key))\""
                    if let guess = closestKey(to: key, in: allowed) {
                        message += "; did you mean \"\(guess)\"?"
                        misspelt.insert(guess)
                    } else {
                        message += "."
                    }
                    child.fail(message + " The keys allowed here are: \(allowed.joined(separator: ", ")).")
                }
                continue
            }
            keys.append(key)
            values.append(PlacedNode(node: value, parent: link, step: .key(key), document: document))
        }
        return Fields(cursor: self, keys: keys, values: values, misspelt: misspelt)
    }

    /// The elements of a list; nil, with an error, for anything else.
    package func list(_ what: String) -> [PlacedNode]? {
        guard case let .sequence(sequence, _) = node else {
            expected(what)
            return nil
        }
        let link = link
        return sequence.enumerated().map {
            PlacedNode(node: $0.element, parent: link, step: .index($0.offset), document: document)
        }
    }

    // MARK: Scalars

    /// Non-empty text: a string, or a number or other scalar taken as written.
    package func text(_ what: String) -> String? {
        guard let text = scalarText, !text.isEmpty else {
            expected(what)
            return nil
        }
        return text
    }

    package func duration(_ bound: Bound) -> TimeSpan? {
        if let text = scalarText, let span = ScenarioUnits.duration(text), bound.admits(span.microseconds) {
            return span
        }
        expected(
            "a duration\(bound.phrase) (a number of seconds or a string like \"20s\", \"5m\", \"2h\" or \"250ms\", exact to the microsecond)"
        )
        return nil
    }

    /// A distance in metres within `bound`, of at most `Earth.farthest` either way (half the Earth's
    /// circumference: 1e22 m crashed the readable distances); nil, with an error, for anything else.
    package func distance(_ bound: Bound) -> Meters? {
        let metres = jsonNumber.map { $0.isFinite ? $0 : nil } ?? scalarText.flatMap(ScenarioUnits.distance)
        guard let metres, bound.admits(metres) else {
            expected("a distance in metres\(bound.phrase) (a number or a string like \"300m\" or \"1.5km\")")
            return nil
        }
        guard metres.magnitude <= Earth.farthest else {
            expected(
                "a distance of at most \(Readable.distance(Earth.farthest))\(bound == .any ? " either way" : "") "
                    + "(half the Earth's circumference)")
            return nil
        }
        return metres
    }

    /// A whole number, written as one (`3`, not `3.0` or `"3"` with a unit).
    /// `true` or `false` (YAML 1.2's core schema: also `True`, `TRUE`, `False`, `FALSE`); nil, with an
    /// error saying it expected `what`, for anything else.
    package func boolean(_ what: String) -> Bool? {
        switch scalarText {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default:
            expected(what)
            return nil
        }
    }

    package func integer(_ bound: Bound, _ what: String = "an integer") -> Int64? {
        if let text = scalarText, let decimal = ExactDecimal(text), decimal.exponent >= 0 || !text.contains("."),
            let value = decimal.integer, bound.admits(value)
        {
            return value
        }
        expected("\(what)\(bound.phrase)")
        return nil
    }

    /// A plain number (degrees and the like), no unit.
    package func number(_ what: String, in range: ClosedRange<Double>? = nil) -> Double? {
        let value = jsonNumber ?? scalarText.flatMap { ExactDecimal($0) != nil ? Double($0) : nil }
        if let value, value.isFinite, range.map({ $0.contains(value) }) ?? true {
            return value
        }
        expected(what)
        return nil
    }

    /// One of an enumeration's raw values, spelt exactly.
    package func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> E? where E.RawValue == String {
        if let text = scalarText, let value = E(rawValue: text) { return value }
        let names = E.allCases.map(\.rawValue)
        expected("one of \(names.joined(separator: ", "))")
        return nil
    }
}

/// A mapping's known entries, in document order.
package struct Fields {
    package let cursor: PlacedNode
    /// The allowed keys given, in the mapping's order, and their values (`values[i]` under `keys[i]`).
    package let keys: [String]
    package let values: [PlacedNode]
    /// Allowed keys that an unknown key was reported as a likely misspelling of: not reported again as missing.
    package var misspelt: Set<String> = []

    /// The entry for `key`; nil when absent or null (an explicit `~` is the same as leaving the key out).
    package subscript(key: String) -> PlacedNode? {
        guard let value = given(key), !value.isNull else { return nil }
        return value
    }

    /// The entry for `key` as given, null or not; nil when absent.
    package func given(_ key: String) -> PlacedNode? {
        keys.firstIndex(of: key).map { values[$0] }
    }

    /// The entry for `key`, or nil with an error at the mapping saying it is missing and what it should be.
    package func required(_ key: String, _ what: String) -> PlacedNode? {
        if let value = self[key] { return value }
        if let present = given(key) {
            present.expected(what)
            return nil
        }
        if misspelt.contains(key) { return nil }
        let missing = cursor.child(key, cursor.node)
        missing.fail("missing; expected \(what)")
        return nil
    }
}

/// A range check on a number, with the words for it.
package enum Bound {
    case positive, nonNegative, any

    package func admits<N: Numeric & Comparable>(_ value: N) -> Bool {
        switch self {
        case .positive: return value > 0
        case .nonNegative: return value >= 0
        case .any: return true
        }
    }

    package var phrase: String {
        switch self {
        case .positive: return " greater than 0"
        case .nonNegative: return " of 0 or more"
        case .any: return ""
        }
    }
}

/// The allowed key closest to a misspelt one (`Suggestion.closest`).
package func closestKey(to key: String, in allowed: [String]) -> String? { Suggestion.closest(to: key, in: allowed) }

/// The file a document was read from and the log its problems go to.
final class DocumentPlace {
    let file: String
    let diagnostics: ProblemLog
    /// The document is the command's own text, a scenario or a journey (`PlacedNode.quote`).
    let isOwnText: Bool

    init(file: String, diagnostics: ProblemLog, isOwnText: Bool) {
        self.file = file
        self.diagnostics = diagnostics
        self.isOwnText = isOwnText
    }
}

/// One step of a key path: a mapping's key or a list's index.
enum KeyPathStep: Sendable {
    case key(String)
    case index(Int)
}

/// A node's place as a parent: its step, linked to its own parent. Spelt out (`features[12].geometry`)
/// only for a message. O(depth) to spell.
final class KeyPathLink: Sendable {
    let parent: KeyPathLink?
    let step: KeyPathStep

    init(parent: KeyPathLink?, step: KeyPathStep) {
        self.parent = parent
        self.step = step
    }

    /// The path of `step` below `parent`, e.g. `regions[1].circle`.
    static func text(_ parent: KeyPathLink?, _ step: KeyPathStep) -> String {
        let above = parent.map { text($0.parent, $0.step) } ?? ""
        switch step {
        case let .index(index): return "\(above)[\(index)]"
        case let .key(key):
            let key = TerminalText.visible(key)
            return above.isEmpty ? key : "\(above).\(key)"
        }
    }
}

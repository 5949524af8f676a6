import Yams

/// A part of a scenario kept as written, with its place: today the `expect:` list, whose meaning
/// `perimeter check` defines. Plain values only, so that a `Scenario` stays `Sendable`.
public struct ScenarioValue: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        /// `~`, `null` or nothing.
        case null
        /// A scalar's text as written; `quoted` when it was in quotes (so `"1"` is text, `1` a number).
        case scalar(String, quoted: Bool)
        case list([ScenarioValue])
        /// Entries in document order.
        case mapping([Entry])
    }

    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: ScenarioValue
    }

    public var content: Content
    public var file: String
    /// E.g. `expect[2].count`.
    public var keyPath: String
    public var line: Int
    public var column: Int

    init(_ cursor: Cursor) {
        file = cursor.file
        keyPath = cursor.path
        line = cursor.line
        column = cursor.column
        switch cursor.node {
        case let .scalar(scalar):
            content = cursor.isNull ? .null
                : .scalar(scalar.string, quoted: scalar.style == .singleQuoted || scalar.style == .doubleQuoted)
        case let .sequence(sequence):
            content = .list(sequence.enumerated().map { ScenarioValue(cursor.element($0.offset, $0.element)) })
        case let .mapping(mapping):
            content = .mapping(mapping.map { key, value in
                let name = key.string ?? "\(key)"
                return Entry(key: name, value: ScenarioValue(cursor.child(name, value)))
            })
        case .alias:
            content = .null
        }
    }

    /// A `ScenarioError` at this value, for the code that gives it a meaning.
    public func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, keyPath: keyPath, line: line, column: column, message: message)
    }
}

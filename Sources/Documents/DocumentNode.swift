import Foundation
import Yams

/// A node of a scenario, region file or journey as the loaders read it, with its place in the text:
/// YAML composed by Yams (`init(_:)`), or JSON read directly (`JSONReader`, region files). The loaders'
/// typed reads (`PlacedNode`) see the same tree either way.
package enum DocumentNode {
    case scalar(Scalar)
    case mapping([(key: DocumentNode, value: DocumentNode)], Mark)
    case sequence([DocumentNode], Mark)
    /// A YAML alias (`*name`), which the loaders do not follow.
    case alias(Mark)
    /// A YAML node not looked at yet: `expanded` turns it into the cases above one level at a time, as the
    /// loader walks down, so that aliases nested deep (a YAML "billion laughs") are never expanded whole.
    case yaml(Yams.Node)
    /// A JSON list of valid GeoJSON positions, read straight into coordinates (`JSONReader+Positions.swift`);
    /// `expanded` reads its text again into the nodes above, which only a message needs.
    case positions(PackedPositions)

    /// A scalar's text and what it is.
    package struct Scalar {
        /// As written for a number or a plain YAML scalar; unescaped for a string.
        package var text: String
        /// YAML's plain `null`, `~`, `Null`, `NULL` or nothing, or JSON's `null`; never a quoted string.
        package var isNull: Bool
        /// A JSON number's value (read from its text as `Double(text)` would); nil for anything else.
        package var number: Double?
        package var mark: Mark

        package init(text: String, isNull: Bool, number: Double?, mark: Mark) {
            self.text = text
            self.isNull = isNull
            self.number = number
            self.mark = mark
        }
    }

    package typealias Mark = DocumentMark

    package var mark: Mark { expanded.ownMark }

    private var ownMark: Mark {
        switch self {
        case let .scalar(scalar): return scalar.mark
        case let .mapping(_, mark), let .sequence(_, mark), let .alias(mark): return mark
        case .yaml: return .unknown
        case let .positions(positions): return positions.mark
        }
    }

    /// The scalar's text, or nil for anything else.
    package var text: String? {
        if case let .scalar(scalar) = expanded { return scalar.text }
        return nil
    }

    /// A tree composed by Yams, read lazily (`expanded`).
    package init(_ node: Yams.Node) { self = .yaml(node) }

    /// This node with a YAML node's own level read (its children left as they are; a plain scalar is
    /// null as `NSNull.construct(from:)` says), or a packed list of positions as the nodes it stands for.
    /// O(children), or O(the list's text).
    package var expanded: DocumentNode {
        if case let .positions(positions) = self { return positions.nodes }
        guard case let .yaml(node) = self else { return self }
        let mark = node.mark.map { Mark(line: Int32(clamping: $0.line), column: Int32(clamping: $0.column)) } ?? .unknown
        switch node {
        case let .scalar(scalar):
            return .scalar(
                Scalar(text: scalar.string, isNull: NSNull.construct(from: scalar) != nil, number: nil, mark: mark))
        case let .mapping(mapping):
            return .mapping(mapping.map { (DocumentNode.yaml($0.key), DocumentNode.yaml($0.value)) }, mark)
        case let .sequence(sequence):
            return .sequence(sequence.map(DocumentNode.yaml), mark)
        case .alias:
            return .alias(mark)
        }
    }
}

/// A place in a document: 1-based line and column (in Unicode scalars, as Yams counts them); 0 where
/// unknown. (A type of its own, not nested in `DocumentNode`: `PackedPositions`, a case's payload, keeps
/// one, and naming it through the enum it is part of made the compiler's lookups circular.)
package struct DocumentMark {
    package var line: Int32
    package var column: Int32

    package init(line: Int32, column: Int32) {
        self.line = line
        self.column = column
    }

    package static let unknown = DocumentMark(line: 0, column: 0)
}

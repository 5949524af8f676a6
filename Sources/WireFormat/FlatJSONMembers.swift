/// One member of a flat JSON object as read from a line, with the column of its key: for readers of
/// logs that are not perimeter's own events (`calibrate`'s field logs), which name the place of a problem.
public struct FlatJSONMember: Equatable, Sendable {
    public var key: String
    public var value: FlatJSONValue
    /// The 1-based column (byte) of the key's opening quote.
    public var column: Int
}

extension JSONLines {
    /// The members of one flat JSON object (strict RFC 8259, nested values refused: `FlatJSONParser`), in
    /// the line's order, each with its key's column. A syntax error carries its column. O(bytes).
    public static func members(line: some StringProtocol) throws(WireFormatError) -> [FlatJSONMember] {
        var parser = FlatJSONParser(Array(line.utf8))
        let members = try parser.object()
        return zip(members, parser.keyColumns).map { FlatJSONMember(key: $0.0, value: $0.1, column: $1) }
    }
}

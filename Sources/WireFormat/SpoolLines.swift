import TextEscaping

/// The lines of an HTTP sink's spool file: each event's JSON Lines object (as `jsonl:` writes it) with
/// one more member last, the `Idempotency-Key` of the batch it belongs to:
///
/// ```json
/// {"time":"2016-01-10T12:01:57.000Z",…,"distance":-229.24665915420525,"idempotencyKey":"9c…e1-3"}
/// ```
///
/// A batch's lines are consecutive and share its key; `perimeter deliver` sends them again as that one
/// batch under that key, so that a server that deduplicates by key takes a batch it already processed
/// (but did not acknowledge in time) once. Lines without the member (a spool of an earlier version, a run
/// journal, any `jsonl:` file) are events with no batch yet: `deliver` batches them and makes their keys.
public enum SpoolLines {
    /// The member's name.
    public static let keyMember = "idempotencyKey"

    /// `eventLine` (a JSON Lines object, `{…}`) with `"idempotencyKey":KEY` added as its last member.
    /// O(length of the line).
    public static func line(_ eventLine: String, key: String) -> String {
        JSONText.appending(keyMember, JSONText.string(key), to: eventLine)
    }

    /// One spool line read back: the event and its batch's key (nil for a line without one).
    public static func decode(line: some StringProtocol) throws(WireFormatError) -> (event: WireEvent, key: String?) {
        var parser = FlatJSONParser(Array(line.utf8))
        var members = try parser.object()
        guard let index = members.firstIndex(where: { $0.0 == keyMember }) else {
            return (try WireEvent(members: members), nil)
        }
        guard case let .string(key) = members[index].1, !key.isEmpty else {
            throw WireFormatError(reason: "\"\(keyMember)\" must be a non-empty string (the batch's Idempotency-Key)")
        }
        members.remove(at: index)
        return (try WireEvent(members: members), key)
    }

    /// A whole spool file, as `JSONLines.decode(log:)` reads a log (errors name the line).
    public static func decode(log text: String) throws(WireFormatError) -> [(event: WireEvent, key: String?)] {
        var records: [(event: WireEvent, key: String?)] = []
        try JSONLines.forEachLine(of: text) { line throws(WireFormatError) in records.append(try decode(line: line)) }
        return records
    }
}

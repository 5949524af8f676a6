/// JSON text (RFC 8259) from values already written as JSON: the one writer of the JSON Perimeter prints
/// besides the event log's own per-event bytes (`WireFormat`'s `JSONLines`, which escape with the same
/// `JSONEscaping`): `inspect --json` of tracks, tables, fences and stays, `profile show --json`, `compare
/// --json`, Monte Carlo `--json`, calibrate's and the report's data, the run description, golden inputs,
/// HTTP bodies and spool lines. Strings are escaped once (`JSONEscaping`); numbers are `Double.description`
/// (`null` when not finite), or written by the caller where a writer rounds them (`Analysis` adds the event
/// log's times and seconds, SEMANTICS §7). Members and elements keep the order given. O(the text).
public enum JSONText {
    /// How a container is laid out: `compact` (`{"a":1,"b":[2]}`), `spaced` (`{"a": 1, "b": [2]}`), or
    /// `lines(depth:)`, one member or element a line indented by two spaces a level below `depth`, the
    /// closing bracket at `depth` (an empty container stays `{}` or `[]`).
    public enum Layout: Sendable, Hashable {
        case compact, spaced
        case lines(depth: Int)

        var colon: String { self == .compact ? ":" : ": " }
    }

    /// `null`.
    public static let null = "null"

    /// `text` as a JSON string, or `null`.
    public static func string(_ text: String?) -> String { text.map(JSONEscaping.string) ?? null }

    /// `true` or `false`.
    public static func bool(_ value: Bool) -> String { value ? "true" : "false" }

    /// An integer in decimal.
    public static func integer(_ value: some BinaryInteger) -> String { String(value) }

    /// A number as `Double.description` writes it (`12.5`, `1e-07`, `100.0`); `null` when it is not finite
    /// or absent (the event log's form, SEMANTICS §7).
    public static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return null }
        return value.description
    }

    /// `{"a":1,"b":"x"}` from members whose values are already JSON, in the order given.
    public static func object(_ members: KeyValuePairs<String, String>, layout: Layout = .compact) -> String {
        container("{", "}", members.map { JSONEscaping.string($0.key) + layout.colon + $0.value }, layout)
    }

    /// `{"a":1,"b":"x"}` from members whose values are already JSON, in the order given.
    public static func object(_ members: [(String, String)], layout: Layout = .compact) -> String {
        container("{", "}", members.map { JSONEscaping.string($0.0) + layout.colon + $0.1 }, layout)
    }

    /// `{"a":1,"b":"x"}` from members whose values are already JSON, in the order given; a member whose
    /// value is nil is left out.
    public static func object(_ members: [(String, String?)], layout: Layout = .compact) -> String {
        container(
            "{", "}", members.compactMap { key, value in value.map { JSONEscaping.string(key) + layout.colon + $0 } }, layout
        )
    }

    /// `[1,"x"]` from values already JSON.
    public static func array(_ values: [String], layout: Layout = .compact) -> String {
        container("[", "]", values, layout)
    }

    /// `object` (the text of a JSON object, `{…}`) with one more member last: `{…,"key":value}`. O(the
    /// object's length).
    public static func appending(_ key: String, _ value: String, to object: some StringProtocol) -> String {
        let body = object.dropLast()
        var out = String(body)
        if body.last != "{" { out += "," }
        out += JSONEscaping.string(key) + ":" + value + "}"
        return out
    }

    /// `json` made fit to stand inside an HTML `<script>` element: each `<` written `\u003c`, which a JSON
    /// reader takes back as the same character, so that no string in it can close the element. O(n).
    public static func inScript(_ json: String) -> String {
        guard json.utf8.contains(UInt8(ascii: "<")) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 64)
        for scalar in json.unicodeScalars {
            if scalar == "<" { out += "\\u003c" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `open`, the items laid out as `layout` says, `close`.
    private static func container(_ open: String, _ close: String, _ items: [String], _ layout: Layout) -> String {
        guard !items.isEmpty else { return open + close }
        var out = open
        out.reserveCapacity(items.reduce(8) { $0 + $1.utf8.count + 2 })
        switch layout {
        case .compact, .spaced:
            let comma = layout == .compact ? "," : ", "
            for (index, item) in items.enumerated() {
                if index > 0 { out += comma }
                out += item
            }
            out += close
        case let .lines(depth):
            let indent = String(repeating: "  ", count: depth + 1)
            for (index, item) in items.enumerated() {
                out += (index > 0 ? ",\n" : "\n") + indent + item
            }
            out += "\n" + String(repeating: "  ", count: depth) + close
        }
        return out
    }
}

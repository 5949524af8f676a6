/// Compact JSON text (RFC 8259, no spaces) from values already written as JSON: the one writer of the JSON
/// Perimeter prints besides the event log's own (`inspect --json` of tracks, tables and stays, `compare
/// --json`, Monte Carlo `--json`, calibrate's and the report's data). Strings are escaped once
/// (`JSONEscaping`); numbers, times and seconds are written by the caller (`Analysis` adds the event log's
/// forms, SEMANTICS §7). O(the text).
public enum JSONText {
    /// `text` as a JSON string, or `null`.
    public static func string(_ text: String?) -> String { text.map(JSONEscaping.string) ?? "null" }

    /// `{"a":1,"b":"x"}` from members whose values are already JSON, in the order given.
    public static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { "\(JSONEscaping.string($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }

    /// `{"a":1,"b":"x"}` from members whose values are already JSON, in the order given.
    public static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(JSONEscaping.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `[1,"x"]` from values already JSON.
    public static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }
}

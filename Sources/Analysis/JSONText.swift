import Geodesy
import TextEscaping
import WireFormat

/// The JSON values of the analysis reports (`compare --json`, Monte Carlo `--json`): strings escaped
/// once (`JSONEscaping`), times and seconds as the event log writes them (SEMANTICS §7), `null` for none.
public enum JSONText {
    public static func string(_ text: String?) -> String { text.map(JSONEscaping.string) ?? "null" }
    public static func time(_ time: Timestamp?) -> String { time.map { "\"\(EventFormatting.time($0))\"" } ?? "null" }
    public static func seconds(_ span: TimeSpan?) -> String { span.flatMap(EventFormatting.seconds) ?? "null" }
    public static func number(_ value: Double) -> String { EventFormatting.number(value) ?? "null" }

    /// `{"a":1,"b":"x"}` from members whose values are already JSON.
    public static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { "\(JSONEscaping.string($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }

    public static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(JSONEscaping.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    public static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }
}

import TextEscaping
import Time
import WireFormat

/// The JSON values of the analysis reports (`compare --json`, Monte Carlo `--json`) in the event log's
/// forms (SEMANTICS §7): times and seconds as the event log writes them, `null` for none.
extension JSONText {
    public static func time(_ time: Timestamp?) -> String { time.map { "\"\(EventFormatting.time($0))\"" } ?? "null" }
    public static func seconds(_ span: TimeSpan?) -> String { span.flatMap(EventFormatting.seconds) ?? "null" }
    public static func number(_ value: Double) -> String { EventFormatting.number(value) ?? "null" }
}

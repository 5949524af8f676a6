import TextEscaping
import Time

/// JSON values in the event log's forms (SEMANTICS §7), for the JSON written beside it (`compare --json`,
/// Monte Carlo `--json`, the run description): times as the event log writes them, durations in seconds
/// (`JSONText.number`), `null` for none.
extension JSONText {
    /// A time as a JSON string (`EventFormatting.time`), or `null`.
    public static func time(_ time: Timestamp?) -> String { time.map { "\"\(EventFormatting.time($0))\"" } ?? null }

    /// A duration in seconds, or `null`.
    public static func seconds(_ span: TimeSpan?) -> String { number(span?.seconds) }
}

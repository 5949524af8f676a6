/// An error a person fixes at a place in a file: the file, the line and column or a key path, and a full
/// sentence. The one shape of the readers' errors: `GPXError`, `FixTableError`, `ScenarioError`, the field
/// log's `ObservedLogError` and the event log's `EventLogFile.ReadError` adopt it, so that a caller can
/// report any of them alike (`FILE:LINE:COLUMN: KEY.PATH: MESSAGE`).
public protocol PlacedError: Error, CustomStringConvertible {
    /// The file, line and column; line 0 when the problem is the file as a whole (missing, unreadable).
    var place: SourcePlace { get }
    /// Where in a document (`regions[1].circle.radius`); empty when the reader has no key paths.
    var keyPath: String { get }
    /// What is wrong and what to do, as a sentence.
    var message: String { get }
}

extension PlacedError {
    public var keyPath: String { "" }
    public var file: String { place.file }
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int { place.line }
    /// 1-based; 0 when unknown.
    public var column: Int { place.column }

    /// `FILE:LINE:COLUMN: KEY.PATH: MESSAGE`, the place and key path left out when unknown. O(the text).
    public var description: String {
        place.description + ": " + (keyPath.isEmpty ? "" : keyPath + ": ") + message
    }
}

/// One problem in a scenario or GeoJSON region file, with its place: the file, the key path
/// (`regions[1].circle.radius`) and the 1-based line and column, and a sentence saying what was expected.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file the problem is in, as the loader was given it or resolved it.
    public var file: String
    /// Where in the document, e.g. `devices[0].track`; empty for the file as a whole.
    public var keyPath: String
    /// 1-based; 0 when there is no place in the text (a missing file, say).
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, keyPath: String, line: Int, column: Int, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: KEY.PATH: MESSAGE`; the place and key path are left out when unknown.
    public var description: String {
        var out = file
        if line > 0 { out += ":\(line):\(column)" }
        out += ": "
        if !keyPath.isEmpty { out += keyPath + ": " }
        return out + message
    }
}

/// A place in a scenario file where a later check may find a problem: a scenario's sinks are checked
/// where the kinds of sink are known (`Runs.ScenarioSinkPolicy`), after the load, at `sinks[i]`.
public struct SourcePlace: Hashable, Sendable {
    public var file: String
    public var keyPath: String
    /// 1-based; 0 when unknown.
    public var line: Int
    public var column: Int

    /// The problem `message` at this place.
    public func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, keyPath: keyPath, line: line, column: column, message: message)
    }
}

/// Every problem found in one load, in the order met: the loader goes on past a bad region or device,
/// so that `perimeter validate` can show them all at once.
public struct ScenarioErrors: Error, Sendable, CustomStringConvertible {
    /// Never empty.
    public var errors: [ScenarioError]

    public init(_ errors: [ScenarioError]) { self.errors = errors }

    /// One error per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Collects errors and warnings across the files of one load.
final class ProblemLog {
    private(set) var errors: [ScenarioError] = []
    private(set) var warnings: [String] = []

    func error(_ error: ScenarioError) { errors.append(error) }
    func warning(_ text: String) { warnings.append(text) }
    var hasErrors: Bool { !errors.isEmpty }
}

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
    /// The files the scenario reads (`ScenarioInput`), each once, in the order first read.
    private(set) var inputs: [ScenarioInput] = []
    /// Longitudes read as ±180 though a hair past it, per file: the warning's index and the count.
    private var roundedLongitudes: [String: (warning: Int, count: Int)] = [:]
    /// Where warnings go instead of `warnings`: a log of one part's errors (a GeoJSON feature that may be
    /// skipped) passes its warnings to the whole load's.
    private let warningsGoTo: ProblemLog?
    /// The fix tables read, with the devices each gave (`FixTableDevices.swift`), for warnings about
    /// their columns rather than the regions.
    var fixTables: [ReadFixTable] = []

    /// A log of its own, or one whose warnings go to `parent`.
    init(warningsTo parent: ProblemLog? = nil) { warningsGoTo = parent }

    func error(_ error: ScenarioError) { errors.append(error) }
    func warning(_ text: String) {
        if let warningsGoTo { warningsGoTo.warning(text) } else { warnings.append(text) }
    }
    var hasErrors: Bool { !errors.isEmpty }
    /// Notes that the scenario reads `input` (kept where the warnings go).
    func reads(_ input: ScenarioInput) {
        if let warningsGoTo { return warningsGoTo.reads(input) }
        if !inputs.contains(where: { $0.kind == input.kind && $0.written == input.written }) { inputs.append(input) }
    }

    /// Notes a longitude, as written, read as ±180 at `place` (`FILE:LINE:COLUMN: KEYPATH`): one warning
    /// per file, at its first such position, counting them all.
    func roundedLongitude(file: String, place: String, longitude: Double) {
        if let warningsGoTo { return warningsGoTo.roundedLongitude(file: file, place: place, longitude: longitude) }
        if let known = roundedLongitudes[file] {
            roundedLongitudes[file] = (known.warning, known.count + 1)
            let text = warnings[known.warning]
            let head = text[..<(text.range(of: " (and ")?.lowerBound ?? text.endIndex)]
            warnings[known.warning] = head + " (and \(known.count) more position\(known.count == 1 ? "" : "s") of this file)"
        } else {
            roundedLongitudes[file] = (warnings.count, 1)
            warnings.append("\(place): the longitude \(longitude) lies past ±180° by less than 1e-9° "
                + "(floating-point residue, as in Natural Earth's borders); it is read as \(longitude > 0 ? 180 : -180)")
        }
    }
}

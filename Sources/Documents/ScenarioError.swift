import FileSystem
import TextEscaping

/// One problem in a scenario, region, journey or profile file, with its place: the file, the 1-based
/// line and column, the key path (`regions[1].circle.radius`), and a sentence saying what was expected.
public struct ScenarioError: PlacedError, Hashable, Sendable {
    /// The file (as the loader was given it or resolved it), line and column; line 0 when there is no
    /// place in the text (a missing file, say).
    public var place: SourcePlace
    /// Where in the document, e.g. `devices[0].track`; empty for the file as a whole.
    public var keyPath: String
    public var message: String

    public init(place: SourcePlace, keyPath: String, message: String) {
        self.place = place
        self.keyPath = keyPath
        self.message = message
    }

    public init(file: String, keyPath: String, line: Int, column: Int, message: String) {
        self.init(place: SourcePlace(file: file, line: line, column: column), keyPath: keyPath, message: message)
    }

    public var file: String {
        get { place.file }
        set { place.file = newValue }
    }

    /// 1-based; 0 when there is no place in the text.
    public var line: Int {
        get { place.line }
        set { place.line = newValue }
    }

    public var column: Int {
        get { place.column }
        set { place.column = newValue }
    }
}

/// A place in a scenario file where a later check may find a problem: a scenario's sinks are checked
/// where the kinds of sink are known (`Runs.ScenarioSinkPolicy`), after the load, at `sinks[i]`.
public struct KeyedPlace: Hashable, Sendable {
    public var place: SourcePlace
    public var keyPath: String

    public init(place: SourcePlace, keyPath: String) {
        self.place = place
        self.keyPath = keyPath
    }

    /// The problem `message` at this place.
    public func error(_ message: String) -> ScenarioError {
        ScenarioError(place: place, keyPath: keyPath, message: message)
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

/// Collects errors and warnings across the files of one load, and the files it read.
package final class ProblemLog {
    package private(set) var errors: [ScenarioError] = []
    package private(set) var warnings: [String] = []
    /// The files the scenario reads (`ScenarioInput`), each once, in the order first read.
    package private(set) var inputs: [ScenarioInput] = []
    /// The kind and path as written of each of `inputs`, so that noting one is O(1), not O(inputs): a
    /// `tracks:` pattern of 100,000 files made the load quadratic (issue 49, H6).
    private var inputKeys: Set<InputKey> = []
    /// The kinds of the warnings that may repeat, by their index in `warnings`.
    private var repeatedKinds: [Int: RepeatedWarning] = [:]
    /// Longitudes read as ±180 though a hair past it, per file: the warning's index and the count.
    private var roundedLongitudes: [String: (warning: Int, count: Int)] = [:]
    /// Where warnings go instead of `warnings`: a log of one part's errors (a GeoJSON feature that may be
    /// skipped) passes its warnings to the whole load's.
    private let warningsGoTo: ProblemLog?

    /// A log of its own, or one whose warnings go to `parent`.
    package init(warningsTo parent: ProblemLog? = nil) { warningsGoTo = parent }

    package func error(_ error: ScenarioError) { errors.append(error) }
    package func warning(_ text: String) {
        if let warningsGoTo { warningsGoTo.warning(text) } else { warnings.append(text) }
    }
    /// The kind of each of `warnings` that may repeat (`WarningDigest`), nil for the others; as many.
    package var warningKinds: [RepeatedWarning?] {
        warningsGoTo?.warningKinds ?? (warnings.indices.map { repeatedKinds[$0] })
    }
    /// A warning that may come many times, with its kind, so that `WarningDigest` can sum them up.
    package func warning(_ text: String, repeated kind: RepeatedWarning) {
        if let warningsGoTo { return warningsGoTo.warning(text, repeated: kind) }
        repeatedKinds[warnings.count] = kind
        warnings.append(text)
    }
    package var hasErrors: Bool { !errors.isEmpty }

    /// The real folder the scenario's inputs are confined to (`ScenarioFormat.InputConfinement`), or nil
    /// when they are not. A log of one part's errors asks its parent's.
    package var inputRoot: String? {
        get { warningsGoTo?.inputRoot ?? ownInputRoot }
        set { ownInputRoot = newValue }
    }
    private var ownInputRoot: String?

    /// Why the scenario may not read `written` (as the file `naming` writes it, resolved beside it as
    /// `resolved`), as a sentence to follow `cannot read the track: ` or the like, or nil when it may
    /// (`FileCheck.outsideInputRoot`).
    package func refusal(reading written: String, resolved: String, naming: String) -> String? {
        guard let root = inputRoot,
            let why = FileCheck.outsideInputRoot(written, resolved: resolved, naming: naming, root: root)
        else { return nil }
        return "\(TerminalText.visible(written)) \(why); a scenario reads only files inside the repository or "
            + "folder that holds it. Pass --allow-inputs-outside if you trust it with that file"
    }
    /// Notes that the scenario reads `input` (kept where the warnings go), once per kind and path as
    /// written, where it was first noted. O(1) amortised.
    package func reads(_ input: ScenarioInput) {
        if let warningsGoTo { return warningsGoTo.reads(input) }
        if inputKeys.insert(InputKey(kind: input.kind, written: input.written)).inserted { inputs.append(input) }
    }

    /// What makes two of `inputs` the same: their kind and their path as written.
    private struct InputKey: Hashable {
        var kind: ScenarioInput.Kind
        var written: String
    }

    /// Notes a longitude, as written, read as ±180 at `place` (`FILE:LINE:COLUMN: KEYPATH`): one warning
    /// per file, at its first such position, counting them all.
    package func roundedLongitude(file: String, place: String, longitude: Double) {
        if let warningsGoTo { return warningsGoTo.roundedLongitude(file: file, place: place, longitude: longitude) }
        if let known = roundedLongitudes[file] {
            roundedLongitudes[file] = (known.warning, known.count + 1)
            let text = warnings[known.warning]
            let head = text[..<(text.range(of: " (and ")?.lowerBound ?? text.endIndex)]
            warnings[known.warning] = head + " (and \(known.count) more position\(known.count == 1 ? "" : "s") of this file)"
        } else {
            roundedLongitudes[file] = (warnings.count, 1)
            warnings.append(
                "\(place): the longitude \(longitude) lies past ±180° by less than 1e-9° "
                    + "(floating-point residue, as in Natural Earth's borders); it is read as \(longitude > 0 ? 180 : -180)")
        }
    }
}

import Draws
import Foundation
import ScenarioFormat
import TextEscaping

/// What a golden log was made from: the SHA-256 of the scenario file and of each file it reads (tracks,
/// fix tables, region files), and its profile. `check --update` writes it beside the log as
/// `NAME.events.inputs.json`; when a check fails, the diff's header says which of them changed since
/// (`since it was recorded: the scenario changed, track walk.gpx changed, profile ios → android`).
/// Reading the files is O(their bytes), in 1 MiB pieces.
public struct GoldenInputs: Hashable, Sendable {
    public struct File: Hashable, Sendable {
        /// `track`, `table`, `regions` or `profile` (`ScenarioInput.Kind`).
        public var kind: String
        /// As the scenario writes it, relative to its folder.
        public var path: String
        public var sha256: String
    }

    /// The scenario file's SHA-256.
    public var scenario: String
    public var profile: String
    public var files: [File]

    /// `Scenarios/lorrenzillos.events.jsonl` → `Scenarios/lorrenzillos.events.inputs.json`.
    public static func path(forGolden golden: String) -> String {
        (golden.hasSuffix(".jsonl") ? String(golden.dropLast(".jsonl".count)) : golden) + ".inputs.json"
    }

    /// The digests of the loaded `scenario`'s file and inputs as they are now; nil when one of them cannot
    /// be read any more (it changed under the check).
    public init?(of scenario: Scenario) {
        guard let digest = Self.sha256(ofFileAt: scenario.file) else { return nil }
        var files: [File] = []
        for input in scenario.inputs {
            guard let sha256 = Self.sha256(ofFileAt: input.resolved) else { return nil }
            files.append(File(kind: input.kind.rawValue, path: input.written, sha256: sha256))
        }
        self.init(scenario: digest, profile: scenario.simulation.profile.name, files: files)
    }

    public init(scenario: String, profile: String, files: [File]) {
        self.scenario = scenario
        self.profile = profile
        self.files = files
    }

    /// The sidecar's text: JSON with its keys in a fixed order, one file a line, so that a change reads
    /// well in a pull request's diff.
    public var json: String {
        let lines = files.map { file in
            JSONText.object(
                [
                    ("kind", JSONText.string(file.kind)), ("path", JSONText.string(file.path)),
                    ("sha256", JSONText.string(file.sha256)),
                ], layout: .spaced)
        }
        return JSONText.object(
            [
                ("scenario", JSONText.string(scenario)), ("profile", JSONText.string(profile)),
                ("files", JSONText.array(lines, layout: .lines(depth: 1))),
            ], layout: .lines(depth: 0)) + "\n"
    }

    /// A sidecar read back; nil when the text is not one.
    public init?(json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let scenario = object["scenario"] as? String, let profile = object["profile"] as? String,
            let list = object["files"] as? [[String: Any]]
        else { return nil }
        var files: [File] = []
        for entry in list {
            guard let kind = entry["kind"] as? String, let path = entry["path"] as? String,
                let sha256 = entry["sha256"] as? String
            else { return nil }
            files.append(File(kind: kind, path: path, sha256: sha256))
        }
        self.init(scenario: scenario, profile: profile, files: files)
    }

    /// What differs from `recorded`, in the order scenario, files (in this record's order, then those no
    /// longer read), profile: `the scenario changed`, `track walk.gpx changed`, `regions zones.geojson is
    /// new`, `table vans.csv is no longer read`, `profile ios → android`. Empty when nothing did.
    /// Paths, kinds and profiles come from a record anyone can edit: their controls are escaped.
    public func changes(since recorded: GoldenInputs) -> [String] {
        let (profile, recordedProfile) = (TerminalText.visible(profile), TerminalText.visible(recorded.profile))
        var out: [String] = []
        if scenario != recorded.scenario { out.append("the scenario changed") }
        let label = { (file: File) in TerminalText.visible(file.kind) + " " + TerminalText.visible(file.path) }
        let before = Dictionary(recorded.files.map { (label($0), $0.sha256) }, uniquingKeysWith: { a, _ in a })
        for file in files {
            let name = label(file)
            switch before[name] {
            case nil: out.append("\(name) is new")
            case file.sha256?: break
            default: out.append("\(name) changed")
            }
        }
        let now = Set(files.map(label))
        for file in recorded.files where !now.contains(label(file)) { out.append("\(label(file)) is no longer read") }
        if profile != recordedProfile { out.append("profile \(recordedProfile) → \(profile)") }
        return out
    }

    /// The SHA-256 of the file at `path`, read in 1 MiB pieces; nil when it cannot be read.
    static func sha256(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var digest = SHA256()
        do {
            // nil or empty at the end of the file.
            while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty { digest.combine(piece) }
        } catch {
            return nil
        }
        return digest.hex()
    }
}

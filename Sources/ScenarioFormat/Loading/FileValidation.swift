import FileSystem
import FixTables
import GPX
import Geofencing

/// `perimeter validate`: every problem of scenarios, journeys, region files and tracks, without running
/// them, each as a `FILE:LINE:COLUMN: …` sentence.
public enum FileValidation {
    /// What a file is, told by its extension (`.profile.yaml` for a profile file; for YAML, a top-level
    /// `route:` for a journey).
    public enum Kind: Sendable { case scenario, journey, profile, regions, track, fixTable }

    /// The kind of the file at `path`, or nil when it is none of them.
    public static func kind(of path: String) -> Kind? {
        if FileDiscovery.isProfileFile(path) { return .profile }
        switch FileDiscovery.fileExtension(of: path) {
        case "yaml", "yml", "json": return isJourney(path) ? .journey : .scenario
        case "geojson": return .regions
        case "gpx": return .track
        case "csv", "jsonl", "ndjson": return .fixTable
        default: return nil
        }
    }

    /// What Perimeter writes beside a scenario, which a folder's walk skips: golden event logs
    /// (`NAME.events.jsonl`) and what each was made from (`NAME.events.inputs.json`), golden outputs of
    /// `compare` and Monte Carlo runs (`NAME.compare.json`, `NAME.runs.json`).
    public static let outputSuffixes = [".events.jsonl", ".events.inputs.json", ".compare.json", ".runs.json"]

    /// The files named, folders expanded to the files `validate` can check (not Perimeter's own outputs);
    /// the paths where nothing can be reached, apart.
    public static func files(in paths: [String]) -> (files: [String], unreachable: [String]) {
        FileDiscovery.files(in: paths) { path in
            kind(of: path) != nil && !outputSuffixes.contains { path.hasSuffix($0) }
        }
    }

    /// What a later check of a loaded scenario says: problems (refused sinks, each with its place) and
    /// notes for people (what its sinks would do).
    public typealias ScenarioCheck = @Sendable (Scenario) -> (problems: [String], notes: [String])

    /// Every problem of one file, and its warnings; one load each. A scenario that loads is also given to
    /// `scenarioCheck` (`perimeter validate` checks its sinks there), whose notes are returned.
    /// `profiles` (`validate --profile`): a scenario's and a region file's fences are also checked under
    /// each, as `run --profile` would (the regions that can never get an enter, or an exit from its tracks).
    /// A scenario's warnings of a kind said many times are summed up in one line unless `allWarnings`.
    /// `idProperty` (`validate --id-property`) names the property a region file's features take their ids
    /// from, as a scenario's `idProperty:`.
    public static func check(
        _ file: String, inputs: InputConfinement = .anywhere, profiles: [Profile] = [], allWarnings: Bool = false,
        idProperty: String? = nil, scenarioCheck: ScenarioCheck = { _ in ([], []) }
    )
        -> (problems: [String], warnings: [String], notes: [String])
    {
        switch kind(of: file) {
        case .scenario:
            do {
                let scenario = try ScenarioLoader.load(path: file, inputs: inputs)
                let (problems, notes) = scenarioCheck(scenario)
                return (
                    problems, scenario.warnings(all: allWarnings) + profiles.flatMap(scenario.warnings(under:)), notes
                )
            } catch {
                return (error.errors.map(\.description), [], [])
            }
        case .profile:
            do { _ = try ProfileFile.resolve(file) } catch { return (error.errors.map(\.description), [], []) }
        case .journey:
            do { _ = try JourneyLoader.load(path: file) } catch { return (error.errors.map(\.description), [], []) }
        case .regions:
            var warnings: [String] = []
            do {
                let regions = try RegionFile.load(
                    path: file, idProperty: idProperty, option: "--id-property", warnings: &warnings)
                if !profiles.isEmpty {
                    warnings += FenceInspection(file: file, regions: regions, profiles: profiles).warnings
                }
            } catch {
                return (error.errors.map(\.description), [], [])
            }
            return ([], warnings, [])
        case .track:
            do { return ([], try GPXTrack.load(path: file).warnings.map { "\(file):\($0)" }, []) } catch {
                return ([error.description], [], [])
            }
        case .fixTable:
            do {
                let table = try FixTableReader(path: file).read()
                return (
                    [],
                    table.warnings.map(\.description)
                        + (table.dropped > table.warnings.count
                            ? ["\(file): \(table.dropped - table.warnings.count) more fixes dropped"] : []),
                    []
                )
            } catch {
                return ([error.description], [], [])
            }
        case nil:
            return (
                [
                    "\(file): not a scenario (.yaml, .yml, .json), region file (.geojson), track (.gpx) or fix table (.csv, .jsonl, .ndjson)."
                ], [], []
            )
        }
        return ([], [], [])
    }

    /// A journey has a top-level `route:` key, which no scenario has.
    static func isJourney(_ path: String) -> Bool {
        guard let bytes = try? WholeFile.read(path) else { return false }  // never opens a FIFO
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").contains {
            $0.hasPrefix("route:") || $0.hasPrefix("\"route\":")
        }
    }
}

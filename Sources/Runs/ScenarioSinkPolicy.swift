import Documents
import EventSinks
import FileSystem
import Foundation
import ScenarioFormat

/// What a scenario's own `sinks:` may do. A scenario file is data, often written by someone else (it
/// arrives in a pull request), so its sinks may print on standard output and write files inside its
/// folder, and no more unless the person running it says so:
/// - a file (`jsonl:`, `csv:`, `geojson:`, `sqlite:`, an HTTP sink's `spool=`) must stay inside the
///   scenario's folder, outside its dot-folders, through no symbolic link, be named with its kind's
///   extension, and be new or the sink's own earlier output: never the scenario, its inputs, a golden
///   log, events kept for later (a spool, a field log), an empty file or an executable (`fileRefusal`);
/// - a network sink (`http://…`, `https://…`) needs `--allow-scenario-network-sinks`;
/// - `auth-env=` is never taken from a scenario, even then: it would send any environment variable to
///   any server. A sink given with `--sink` on the command line is the safer way for both.
///
/// `run` refuses a scenario whose sinks break a rule (exit 2, each at its `sinks[i]`, nothing run);
/// `validate` reports the same, and what the accepted sinks would do. O(sinks × path components).
public struct ScenarioSinkPolicy: Sendable {
    /// Whether network sinks are allowed (`--allow-scenario-network-sinks`).
    public var allowsNetwork: Bool

    /// The flag that allows a scenario's network sinks, as messages and `--help` name it.
    public static let networkFlag = "--allow-scenario-network-sinks"

    public init(allowsNetwork: Bool = false) { self.allowsNetwork = allowsNetwork }

    /// A scenario's sinks, checked: the specs to open, what each would do (`sinks[1]: "jsonl:out.jsonl"
    /// writes Scenarios/out.jsonl`, for `validate`), and every refusal with its place.
    public struct Outcome: Sendable {
        public var specs: [SinkSpec] = []
        public var effects: [String] = []
        public var problems: [ScenarioError] = []
    }

    /// Checks the `sinks:` of `scenario` against this policy; sinks are parsed by `registry`.
    public func check(_ scenario: Scenario, registry: SinkRegistry) -> Outcome {
        var outcome = Outcome()
        for (index, text) in scenario.sinks.enumerated() {
            let place = scenario.sinkPlace(index)
            let quoted = "\"\(text)\""
            let spec: SinkSpec
            do {
                spec = try registry.spec(parsing: text)
            } catch {
                outcome.problems.append(place.error("\(quoted) is not a sink: \(error.reason)"))
                continue
            }
            let reach = registry.reach(of: spec)
            var problems: [String] = []
            for name in reach.environment {
                problems.append(
                    "\(quoted) takes auth-env= from the scenario file, which is never honoured: a scenario could "
                        + "send any environment variable (\(name)) to any server. If you trust \(reach.urls.joined()) with it, "
                        + "give the sink on the command line instead: --sink '\(text)'")
            }
            if !reach.urls.isEmpty && !allowsNetwork && reach.environment.isEmpty {
                problems.append(
                    "\(quoted) sends events to \(reach.urls.joined(separator: ", ")), and a scenario's sinks "
                        + "may not reach the network unless you allow it. The safer way is --sink URL on the command line; "
                        + "to use the scenario's own, pass \(Self.networkFlag)")
            }
            for path in reach.files {
                if let refusal = Self.fileRefusal(path, spec: spec, scenario: scenario, registry: registry) {
                    problems.append(
                        "\(quoted) writes \(path), \(refusal). A scenario's sinks make new files of their kind "
                            + "inside its folder, or replace their own earlier output; write another path there, or give "
                            + "the sink on the command line with --sink")
                }
            }
            if problems.isEmpty {
                outcome.specs.append(spec)
                outcome.effects.append("\(place.keyPath): \(quoted) " + Self.effects(reach, scenarioFile: scenario.file))
            } else {
                outcome.problems += problems.map { place.error($0 + ".") }
            }
        }
        return outcome
    }

    /// `writes Scenarios/out.jsonl`, `sends events to https://…`, `prints on standard output`.
    private static func effects(_ reach: SinkReach, scenarioFile: String) -> String {
        var parts =
            reach.urls.map { "sends events to \($0)" }
            + reach.files.map { "writes " + FileNames.resolve($0, besideFile: scenarioFile) }
        if reach.standardOutput { parts.append("prints on standard output") }
        return parts.joined(separator: ", ")
    }
}

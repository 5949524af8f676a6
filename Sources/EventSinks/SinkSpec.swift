import FileSystem
import Geofencing
import Time

/// A sink as written on the command line (`--sink`) or in a scenario's `sinks:` list: `console`,
/// `jsonl:PATH`, `https://…`. Parsed by a `SinkRegistry`, which knows the schemes; opened by it too.
public struct SinkSpec: Hashable, Sendable, CustomStringConvertible {
    /// The spec as written: `jsonl:out/events.jsonl`.
    public let text: String
    /// The scheme of its kind: `jsonl`, `console`, `https`.
    public let scheme: String
    /// The path after `scheme:` (up to the first `;`), `-` for a sink that writes to standard output,
    /// nil for a URL.
    public let path: String?
    /// `;kinds=enter,exit`: the kinds of event the sink receives; nil for every kind.
    public let kinds: Set<GeofenceEvent.Kind>?
    /// The spec as its kind reads it: `text` without the options every sink takes (`kinds=`). A URL
    /// sink reads its own options from it.
    public let kindText: String

    public init(
        text: String, scheme: String, path: String?, kinds: Set<GeofenceEvent.Kind>? = nil,
        kindText: String? = nil
    ) {
        self.text = text
        self.scheme = scheme
        self.path = path
        self.kinds = kinds
        self.kindText = kindText ?? text
    }

    public var description: String { text }

    /// Whether the sink writes to standard output.
    public var writesToStandardOutput: Bool { path == "-" }
}

/// A kind of sink, registered by scheme: how its spec is written and checked, and how it is opened.
/// Each sink declares its own (`JSONLinesSink.kind`); a registry lists them.
public struct SinkKind: Sendable {
    /// What follows the scheme.
    public enum Target: Sendable {
        /// Nothing: the spec is the scheme alone and the sink writes to standard output (`console`).
        case standardOutput
        /// `scheme:PATH`, `-` for standard output.
        case path
        /// A URL with one of the schemes (`https://…`): the whole spec is the sink's to read.
        case url
    }

    /// The schemes this kind answers to (`http` and `https` for one kind).
    public let schemes: [String]
    public let target: Target
    /// How the spec is written, for messages: `jsonl:PATH`, `http://… or https://…`.
    public let form: String
    /// A sentence on its options, for messages, or nil.
    public let note: String?
    /// Whether its sink keeps the runs of a Monte Carlo batch apart (`LifecycleSink.beginRun`: JSON Lines and
    /// CSV add a `run` field, SQLite a `runs` row per run); a batch refuses the others before it runs.
    public let tellsRunsApart: Bool
    /// Checks what a path or URL spec holds beyond its form (a URL's options), at parse time.
    let check: @Sendable (String) throws(SinkError) -> Void
    /// What a parsed spec would reach when opened (nil: what its target says, `SinkReach(target:spec:)`).
    let reach: (@Sendable (SinkSpec) -> SinkReach)?
    /// Opens the sink.
    let open: @Sendable (SinkSpec, SinkContext) throws(SinkError) -> any LifecycleSink
    /// Whether an existing file at a path holds this kind's output (`OutputRecognition`); nil: JSON
    /// Lines of events.
    let recognizes: (@Sendable (String) -> Bool)?
    /// The endings of the names its files have (`.jsonl`; an HTTP sink's spool's): a scenario's own sink
    /// writes only such names (`Runs.ScenarioSinkPolicy`), so that it never makes nor fills `env.sh`.
    /// Empty: a scenario's sink of this kind writes no file.
    public let fileExtensions: [String]

    public init(
        schemes: [String], target: Target, form: String, note: String? = nil, tellsRunsApart: Bool = false,
        check: @escaping @Sendable (String) throws(SinkError) -> Void = { _ throws(SinkError) in },
        reach: (@Sendable (SinkSpec) -> SinkReach)? = nil,
        recognizes: (@Sendable (String) -> Bool)? = nil, fileExtensions: [String] = [],
        open: @escaping @Sendable (SinkSpec, SinkContext) throws(SinkError) -> any LifecycleSink
    ) {
        self.schemes = schemes
        self.target = target
        self.form = form
        self.note = note
        self.tellsRunsApart = tellsRunsApart
        self.check = check
        self.reach = reach
        self.recognizes = recognizes
        self.fileExtensions = fileExtensions
        self.open = open
    }
}

/// What opening a sink would touch beyond the process: standard output, files, servers, environment
/// variables. What a scenario's own sinks may touch is limited (`ScenarioSinkPolicy`), and `validate`
/// says it.
public struct SinkReach: Hashable, Sendable {
    /// Whether it writes to standard output.
    public var standardOutput = false
    /// The files it writes, as written in the spec (relative to the folder the sink resolves against).
    public var files: [String] = []
    /// The URLs it sends events to.
    public var urls: [String] = []
    /// The environment variables it reads (an HTTP sink's `auth-env=`).
    public var environment: [String] = []

    public init(standardOutput: Bool = false, files: [String] = [], urls: [String] = [], environment: [String] = []) {
        self.standardOutput = standardOutput
        self.files = files
        self.urls = urls
        self.environment = environment
    }

    /// What a sink of `target` reaches from its spec alone: standard output, its path, or its URL (up
    /// to the first `;`).
    init(target: SinkKind.Target, spec: SinkSpec) {
        switch target {
        case .standardOutput: self.init(standardOutput: true)
        case .path:
            let toStandardOutput = spec.writesToStandardOutput
            self.init(standardOutput: toStandardOutput, files: toStandardOutput ? [] : spec.path.map { [$0] } ?? [])
        case .url: self.init(urls: [String(spec.kindText.prefix { $0 != ";" })])
        }
    }
}

/// What opening a sink may need beside its spec: the folder its relative path is resolved against, and
/// the description of the run (which the SQLite sink records).
public struct SinkContext: Sendable {
    /// The folder relative paths are resolved against (the scenario's), or nil for the working directory.
    public var directory: String?
    public var run: RunDescription
    /// Whether the run was interrupted (SIGINT, SIGTERM: an `Interruption`): a sink that waits on
    /// something outside (an HTTP sink on its server) asks it while waiting, and stops at once.
    public var isCancelled: @Sendable () -> Bool
    /// Whose clocks a sink for people (the console) shows times on (`--timezone`); nil for UTC. Files stay
    /// UTC (SEMANTICS §7).
    public var displayZone: LocalTimeZone?
    /// What people call the regions that have a name, by id, for a sink for people (the console).
    public var regionNames: [String: String]

    public init(
        directory: String? = nil, run: RunDescription = RunDescription(),
        isCancelled: @escaping @Sendable () -> Bool = { false }, displayZone: LocalTimeZone? = nil,
        regionNames: [String: String] = [:]
    ) {
        self.directory = directory
        self.run = run
        self.isCancelled = isCancelled
        self.displayZone = displayZone
        self.regionNames = regionNames
    }

    /// Whether the sinks are a scenario's own (their paths relative to its folder, `directory`): their
    /// files are then never written through a symbolic link, nor as a FIFO or device (`OutputFile`'s
    /// `refusingLinks`), even one swapped in after `Runs.ScenarioSinkPolicy` looked.
    public var refusesLinks: Bool { directory != nil }

    /// `path` resolved against `directory` (unchanged when absolute or `-`).
    public func resolve(_ path: String) -> String { FileNames.resolve(path, inFolder: directory) }
}

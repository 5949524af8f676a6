import FileSystem
import Foundation
import Geofencing
import TextEscaping

/// The kinds of sink a program knows, by scheme: parses specs and opens them. The core kinds (console,
/// JSON Lines, CSV, GeoJSON) need nothing beyond this module; a program adds the others it links
/// (`SinkRegistry.core.adding(SQLiteSink.kind, HTTPSink.kind)`), so that a new sink is one file and one
/// line.
public struct SinkRegistry: Sendable {
    /// In the order messages list them.
    public private(set) var kinds: [SinkKind]

    public init(_ kinds: [SinkKind]) { self.kinds = kinds }

    /// Console, JSON Lines, CSV, GeoJSON.
    public static let core = SinkRegistry([ConsoleSink.kind, JSONLinesSink.kind, CSVSink.kind, GeoJSONSink.kind])

    /// This registry with `more` kinds after its own.
    public func adding(_ more: SinkKind...) -> SinkRegistry { SinkRegistry(kinds + more) }

    /// The accepted forms, for messages: `console, jsonl:PATH, … (PATH - is standard output; …)`.
    public var acceptedForms: String {
        let notes = kinds.compactMap(\.note)
        return forms + " (PATH - is standard output" + notes.map { "; " + $0 }.joined() + ")"
    }

    /// Every kind's form, in order, for `--help`: `console, jsonl:PATH, csv:PATH, …`.
    public var forms: String { kinds.map(\.form).joined(separator: ", ") }

    /// The forms of the kinds that keep the runs of a Monte Carlo batch apart (`SinkKind.tellsRunsApart`),
    /// the last after "or": `jsonl:PATH, csv:PATH or sqlite:PATH`.
    public var formsTellingRunsApart: String {
        let forms = kinds.filter(\.tellsRunsApart).map(\.form)
        guard let last = forms.last else { return "" }
        return forms.count == 1 ? last : forms.dropLast().joined(separator: ", ") + " or " + last
    }

    private func kind(_ scheme: String) -> SinkKind? { kinds.first { $0.schemes.contains(scheme) } }

    /// Whether the sink of `spec` keeps the runs of a Monte Carlo batch apart (its kind's `tellsRunsApart`).
    public func tellsRunsApart(_ spec: SinkSpec) -> Bool { kind(spec.scheme)?.tellsRunsApart ?? false }

    /// Parses a spec; the error lists the accepted forms. Every sink takes options after a `;`
    /// (`csv:-;kinds=visit`, `https://host/path;batch=100;kinds=enter,exit`): `kinds=` is the registry's,
    /// a URL sink's own options are its kind's to check, and anything else is an error (a path cannot hold
    /// a `;`).
    public func spec(parsing text: String) throws(SinkError) -> SinkSpec {
        let (body, kinds) = try Self.commonOptions(of: text)
        if let kind = kind(body), kind.target == .standardOutput {
            return SinkSpec(text: text, scheme: body, path: "-", kinds: kinds, kindText: body)
        }
        if let separator = body.range(of: "://"), let kind = kind(String(body[..<separator.lowerBound])),
            kind.target == .url
        {
            try kind.check(body)  // a bad URL or option is bad input
            return SinkSpec(
                text: text, scheme: String(body[..<separator.lowerBound]), path: nil, kinds: kinds, kindText: body)
        }
        guard let colon = body.firstIndex(of: ":") else {
            throw SinkError(spec: text, reason: "unknown sink \"\(body)\"; expected \(acceptedForms)")
        }
        let scheme = String(body[..<colon])
        let path = String(body[body.index(after: colon)...])
        guard let kind = kind(scheme), kind.target != .url else {
            throw SinkError(spec: text, reason: "unknown sink type \"\(scheme)\"; expected \(acceptedForms)")
        }
        guard kind.target == .path else {
            throw SinkError(
                spec: text, reason: "the \(scheme) sink takes no path (it writes to standard output); write \"\(scheme)\"")
        }
        guard !path.isEmpty else {
            throw SinkError(
                spec: text, reason: "the \(scheme) sink needs a path after \"\(scheme):\" (- for standard output)")
        }
        try kind.check(path)
        return SinkSpec(text: text, scheme: scheme, path: path, kinds: kinds, kindText: body)
    }

    /// The options every sink takes, by name.
    public static let commonOptionNames = ["kinds"]

    /// `;key=value` parts after the first `;`.
    private static func options(of text: String) -> [String] {
        guard let first = text.firstIndex(of: ";") else { return [] }
        return text[text.index(after: first)...].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
    }

    /// The spec without `kinds=` (a URL keeps its other options for its kind to check; for a path or
    /// console spec any other option is an error), and the kinds asked for.
    private static func commonOptions(of text: String) throws(SinkError) -> (body: String, kinds: Set<GeofenceEvent.Kind>?) {
        guard let first = text.firstIndex(of: ";") else { return (text, nil) }
        let isURL = text[..<first].contains("://")
        var kept: [String] = []
        var kinds: Set<GeofenceEvent.Kind>?
        for option in options(of: text) {
            guard option.hasPrefix("kinds=") else {
                guard isURL else { throw SinkError(spec: text, reason: unknownOption(option)) }
                kept.append(option)
                continue
            }
            guard kinds == nil else { throw SinkError(spec: text, reason: "kinds= is given twice; give one list") }
            kinds = try parseKinds(String(option.dropFirst("kinds=".count)), spec: text)
        }
        let body = String(text[..<first]) + kept.map { ";" + $0 }.joined()
        return (body, kinds)
    }

    /// `enter,exit,dwell` as kinds; every name must be one.
    private static func parseKinds(_ list: String, spec: String) throws(SinkError) -> Set<GeofenceEvent.Kind> {
        // In the order SEMANTICS §7 lists them.
        let names = ["enter", "exit", "visit", "dwell", "monitor-start", "monitor-stop", "monitor-failed"]
        var kinds = Set<GeofenceEvent.Kind>()
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let kind = GeofenceEvent.Kind(name: name) else {
                var reason =
                    name.isEmpty
                    ? "kinds= needs event kinds separated by commas, without spaces"
                    : "unknown event kind \"\(name)\" in kinds="
                reason += Suggestion.closest(to: name, in: names).map { "; did you mean \"\($0)\"?" } ?? "."
                throw SinkError(spec: spec, reason: reason + " The kinds are \(names.joined(separator: ", ")).")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    private static func unknownOption(_ option: String) -> String {
        let key = String(option.prefix { $0 != "=" })
        let guess = Suggestion.closest(to: key, in: commonOptionNames).map { "; did you mean \($0)=?" } ?? "."
        return "unknown option \"\(option)\"\(guess) Every sink takes kinds=KIND,KIND,... after a ';' "
            + "(an HTTP sink also its own options); a path cannot hold a ';'."
    }

    /// What the sink of `spec` would reach when opened: standard output, files, URLs, environment
    /// variables (`SinkReach`).
    public func reach(of spec: SinkSpec) -> SinkReach {
        guard let kind = kind(spec.scheme) else { return SinkReach() }
        return kind.reach?(spec) ?? SinkReach(target: kind.target, spec: spec)
    }

    /// Whether the existing file at `path` holds output of the kind of `spec` (`OutputRecognition`):
    /// what a scenario's own sink may replace. A kind that says nothing is judged as JSON Lines.
    public func recognizes(_ spec: SinkSpec, fileAt path: String) -> Bool {
        (kind(spec.scheme)?.recognizes ?? OutputRecognition.isEventLines)(path)
    }

    /// The endings a file of the kind of `spec` has in its name (`SinkKind.fileExtensions`): `[".csv"]`.
    public func fileExtensions(of spec: SinkSpec) -> [String] { kind(spec.scheme)?.fileExtensions ?? [] }

    /// Opens the sink of `spec`: a file is created now (as a partial file beside the target) so that a
    /// bad path fails before the run starts, and replaces the target on `finish()`.
    public func makeSink(
        for spec: SinkSpec, context: SinkContext = SinkContext()
    ) throws(SinkError)
        -> any LifecycleSink
    {
        guard let kind = kind(spec.scheme) else {
            throw SinkError(spec: spec.text, reason: "unknown sink type \"\(spec.scheme)\"; expected \(acceptedForms)")
        }
        let sink = try kind.open(spec, context)
        guard let kinds = spec.kinds else { return sink }
        return KindFilterSink(sink, kinds: kinds)
    }

    /// Opens several sinks as one. Refuses two sinks writing to standard output, or to the same file
    /// (their bytes would interleave); if one cannot be opened, those already opened are cancelled.
    /// With a `journal`, every event is also kept in it for the sinks that fail (`FanOutSink`); it is
    /// opened only when some sink does not spool itself.
    public func makeSink(
        for specs: [SinkSpec], context: SinkContext = SinkContext(),
        journal: RunJournal? = nil
    ) throws(SinkError) -> any LifecycleSink {
        var seen: [String: SinkSpec] = [:]
        for spec in specs {
            guard let path = spec.path else { continue }
            let key = context.resolve(path)
            if let earlier = seen[key] {
                let place = key == "-" ? "standard output" : "\"\(key)\""
                throw SinkError(
                    spec: spec.text, path: key == "-" ? nil : key,
                    reason: "\(earlier) already writes to \(place); give each sink its own file")
            }
            seen[key] = spec
        }
        var sinks: [any LifecycleSink] = []
        for spec in specs {
            do {
                sinks.append(try makeSink(for: spec, context: context))
            } catch {
                for sink in sinks { sink.cancel() }
                throw error
            }
        }
        if sinks.count == 1 && (journal == nil || sinks[0].spoolsItself) { return sinks[0] }
        return FanOutSink(sinks, journal: journal)
    }
}

import FileSystem
import Foundation

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
        return kinds.map(\.form).joined(separator: ", ") + " (PATH - is standard output"
            + notes.map { "; " + $0 }.joined() + ")"
    }

    private func kind(_ scheme: String) -> SinkKind? { kinds.first { $0.schemes.contains(scheme) } }

    /// Parses a spec; the error lists the accepted forms.
    public func spec(parsing text: String) throws(SinkError) -> SinkSpec {
        if let kind = kind(text), kind.target == .standardOutput {
            return SinkSpec(text: text, scheme: text, path: "-")
        }
        if let separator = text.range(of: "://"), let kind = kind(String(text[..<separator.lowerBound])),
           kind.target == .url {
            try kind.check(text)  // a bad URL or option is bad input
            return SinkSpec(text: text, scheme: String(text[..<separator.lowerBound]), path: nil)
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw SinkError(spec: text, reason: "unknown sink \"\(text)\"; expected \(acceptedForms)")
        }
        let scheme = String(text[..<colon])
        let path = String(text[text.index(after: colon)...])
        guard let kind = kind(scheme), kind.target != .url else {
            throw SinkError(spec: text, reason: "unknown sink type \"\(scheme)\"; expected \(acceptedForms)")
        }
        guard kind.target == .path else {
            throw SinkError(spec: text, reason: "the \(scheme) sink takes no path (it writes to standard output); write \"\(scheme)\"")
        }
        guard !path.isEmpty else {
            throw SinkError(spec: text, reason: "the \(scheme) sink needs a path after \"\(scheme):\" (- for standard output)")
        }
        try kind.check(path)
        return SinkSpec(text: text, scheme: scheme, path: path)
    }

    /// Opens the sink of `spec`: a file is created now (as a partial file beside the target) so that a
    /// bad path fails before the run starts, and replaces the target on `finish()`.
    public func makeSink(for spec: SinkSpec, context: SinkContext = SinkContext()) throws(SinkError)
        -> any CancellableEventSink {
        guard let kind = kind(spec.scheme) else {
            throw SinkError(spec: spec.text, reason: "unknown sink type \"\(spec.scheme)\"; expected \(acceptedForms)")
        }
        return try kind.open(spec, context)
    }

    /// Opens several sinks as one. Refuses two sinks writing to standard output, or to the same file
    /// (their bytes would interleave); if one cannot be opened, those already opened are cancelled.
    /// With a `journal`, every event is also kept in it for the sinks that fail (`FanOutSink`); it is
    /// opened only when some sink does not spool itself.
    public func makeSink(for specs: [SinkSpec], context: SinkContext = SinkContext(),
                         journal: RunJournal? = nil) throws(SinkError) -> any CancellableEventSink {
        var seen: [String: SinkSpec] = [:]
        for spec in specs {
            guard let path = spec.path else { continue }
            let key = context.resolve(path)
            if let earlier = seen[key] {
                let place = key == "-" ? "standard output" : "\"\(key)\""
                throw SinkError(spec: spec.text, path: key == "-" ? nil : key,
                                reason: "\(earlier) already writes to \(place); give each sink its own file")
            }
            seen[key] = spec
        }
        var sinks: [any CancellableEventSink] = []
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

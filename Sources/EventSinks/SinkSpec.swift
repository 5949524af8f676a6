import Geofencing

/// Where events go, as written on the command line (`--sink`) or in a scenario's `sinks:` list
/// (DESIGN "Command line"): `console`, `jsonl:PATH`, `csv:PATH`, `geojson:PATH`, `sqlite:PATH`,
/// `http://…`, `https://…`. `-` as PATH is standard output. A relative PATH is resolved by
/// `makeSink(relativeTo:)` (the scenario file's directory, or the working directory for `--sink`).
public enum SinkSpec: Hashable, Sendable, CustomStringConvertible {
    case console
    case jsonLines(path: String)
    case csv(path: String)
    case geoJSON(path: String)
    /// A SQLite database, appended to (`SQLiteSink`).
    case sqlite(path: String)
    /// `URL[;key=value]...`: the whole spec as written (see `HTTPSinkConfiguration` for the options).
    case http(url: String)

    /// The accepted forms, for messages.
    public static let acceptedForms =
        "console, jsonl:PATH, csv:PATH, geojson:PATH, sqlite:PATH, http://… or https://… (PATH - is standard output; after a URL, options as ;key=value suffixes: batch=N, flush=SECONDS, timeout=SECONDS, retries=N, backoff=SECONDS, auth-env=NAME, spool=PATH)"

    /// Parses a spec; the error lists the accepted forms.
    public init(parsing text: String) throws(SinkError) {
        if text == "console" {
            self = .console
            return
        }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            _ = try HTTPSinkConfiguration(parsing: text)  // a bad URL or option is bad input
            self = .http(url: text)
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw SinkError(spec: text, reason: "unknown sink \"\(text)\"; expected \(Self.acceptedForms)")
        }
        let scheme = String(text[..<colon])
        let path = String(text[text.index(after: colon)...])
        let make: (String) -> SinkSpec
        switch scheme {
        case "jsonl": make = { .jsonLines(path: $0) }
        case "csv": make = { .csv(path: $0) }
        case "geojson": make = { .geoJSON(path: $0) }
        case "sqlite": make = { .sqlite(path: $0) }
        case "console":
            throw SinkError(spec: text, reason: "the console sink takes no path (it writes to standard output); write \"console\"")
        default:
            throw SinkError(spec: text, reason: "unknown sink type \"\(scheme)\"; expected \(Self.acceptedForms)")
        }
        guard !path.isEmpty else {
            throw SinkError(spec: text, reason: "the \(scheme) sink needs a path after \"\(scheme):\" (- for standard output)")
        }
        self = make(path)
    }

    /// The spec as written: `jsonl:out/events.jsonl`.
    public var description: String {
        switch self {
        case .console: return "console"
        case let .jsonLines(path): return "jsonl:" + path
        case let .csv(path): return "csv:" + path
        case let .geoJSON(path): return "geojson:" + path
        case let .sqlite(path): return "sqlite:" + path
        case let .http(url): return url
        }
    }

    /// The file path, `-` for standard output, nil for a URL.
    public var path: String? {
        switch self {
        case .console: return "-"
        case let .jsonLines(path), let .csv(path), let .geoJSON(path), let .sqlite(path): return path
        case .http: return nil
        }
    }

    /// Whether the sink writes to standard output.
    public var writesToStandardOutput: Bool { path == "-" }

    /// `path` resolved against `directory` (unchanged when absolute, `-`, or `directory` is nil).
    public static func resolve(_ path: String, relativeTo directory: String?) -> String {
        guard path != "-", !path.hasPrefix("/"), let directory, !directory.isEmpty, directory != "." else {
            return path
        }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// Opens the sink: a file is created now (as a partial file beside the target) so that a bad path
    /// fails before the run starts, and replaces the target on `finish()`. A SQLite database is opened
    /// (or created) now and gets a `runs` row described by `run`; it is appended to, not replaced.
    public func makeSink(relativeTo directory: String? = nil, run: RunDescription? = nil) throws(SinkError)
        -> any CancellableEventSink {
        let spec = description
        switch self {
        case .console:
            return ConsoleSink(output: try OutputFile(path: "-", spec: spec))
        case let .jsonLines(path):
            return JSONLinesSink(output: try OutputFile(path: Self.resolve(path, relativeTo: directory), spec: spec))
        case let .csv(path):
            return CSVSink(output: try OutputFile(path: Self.resolve(path, relativeTo: directory), spec: spec))
        case let .geoJSON(path):
            return GeoJSONSink(output: try OutputFile(path: Self.resolve(path, relativeTo: directory), spec: spec))
        case let .http(url):
            return try HTTPSink(spec: url, directory: directory)
        case let .sqlite(path):
            return try SQLiteSink(path: Self.resolve(path, relativeTo: directory), run: run ?? RunDescription(), spec: spec)
        }
    }

    /// Opens several sinks as one. Refuses two sinks writing to standard output, or to the same file
    /// (their bytes would interleave); if one cannot be opened, those already opened are cancelled.
    /// With a `journal`, every event is also kept in it for the sinks that fail (`FanOutSink`); it is
    /// opened only when some sink does not spool itself.
    public static func makeSink(for specs: [SinkSpec], relativeTo directory: String? = nil,
                                run: RunDescription? = nil,
                                journal: RunJournal? = nil) throws(SinkError) -> any CancellableEventSink {
        var seen: [String: SinkSpec] = [:]
        for spec in specs {
            guard let path = spec.path else { continue }
            let key = resolve(path, relativeTo: directory)
            if let earlier = seen[key] {
                let place = key == "-" ? "standard output" : "\"\(key)\""
                throw SinkError(spec: spec.description, path: key == "-" ? nil : key,
                                reason: "\(earlier) already writes to \(place); give each sink its own file")
            }
            seen[key] = spec
        }
        var sinks: [any CancellableEventSink] = []
        for spec in specs {
            do {
                sinks.append(try spec.makeSink(relativeTo: directory, run: run))
            } catch {
                for sink in sinks { sink.cancel() }
                throw error
            }
        }
        if sinks.count == 1 && (journal == nil || sinks[0].spoolsItself) { return sinks[0] }
        return FanOutSink(sinks, journal: journal)
    }
}

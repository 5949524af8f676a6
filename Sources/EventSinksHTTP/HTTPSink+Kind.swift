import EventSinks
import Foundation
import TextEscaping

extension HTTPSink {
    /// `{"events":[…]}`.
    static func body(_ lines: [String]) -> Data {
        Data(JSONText.object([("events", JSONText.array(lines))]).utf8)
    }

    static func randomPrefix() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// Whether `HTTPSink.cancel()` was called, for the poster's thread.
final class Abandonment: @unchecked Sendable {
    // Safety: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = false
    var happened: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func mark() { lock.lock(); value = true; lock.unlock() }
}

extension SinkError {
    /// Whether the error comes from an HTTP sink (its spec is a URL): its message is complete (how
    /// many events were delivered, how many spooled and where) and is printed as is.
    public var isFromHTTPSink: Bool { spec.hasPrefix("http://") || spec.hasPrefix("https://") }
}

extension HTTPSink {
    /// `http://…` or `https://…`, with `;key=value` options (`HTTPSinkConfiguration`).
    public static let kind = SinkKind(
        schemes: ["http", "https"], target: .url, form: "http://… or https://…",
        note:
            "after a URL, options as ;key=value suffixes: batch=N, flush=SECONDS, timeout=SECONDS, retries=N, backoff=SECONDS, auth-env=NAME, spool=PATH, kinds=KIND,KIND,... (as every sink)",
        check: { text throws(SinkError) in _ = try HTTPSinkConfiguration(parsing: text) },
        reach: { spec in
            guard let configuration = try? HTTPSinkConfiguration(parsing: spec.kindText) else { return SinkReach() }
            return SinkReach(
                files: configuration.spoolPath.map { [$0] } ?? [], urls: [configuration.url.absoluteString],
                environment: configuration.authorizationVariable.map { [$0] } ?? [])
        }, recognizes: OutputRecognition.isSpool, fileExtensions: [".jsonl"]
    ) { spec, context throws(SinkError) in
        try HTTPSink(spec: spec.kindText, directory: context.directory, isCancelled: context.isCancelled)
    }
}

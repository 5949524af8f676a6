import EventSinks
import Foundation

/// How an HTTP sink delivers: parsed from its spec, `URL[;key=value]...`.
///
/// The URL runs to the first `;`; each `;key=value` after it is an option (the URL's own query, if any,
/// is part of the URL and sent as is):
///
/// ```
/// http://127.0.0.1:8080/events
/// https://hooks.example.com/perimeter?tenant=7;batch=100;flush=0.5;timeout=5;retries=8;auth-env=PERIMETER_TOKEN
/// ```
///
/// | option          | meaning                                                          | default |
/// |-----------------|------------------------------------------------------------------|---------|
/// | `batch=N`       | events per POST (1…100000)                                       | 500     |
/// | `flush=SECONDS` | longest time an event waits in an open batch before it is sent   | 1       |
/// | `timeout=SECONDS` | per request                                                    | 10      |
/// | `retries=N`     | retries of a batch after its first attempt (0…1000)              | 5       |
/// | `backoff=SECONDS` | base of the exponential backoff (factor 2, full jitter)        | 0.2     |
/// | `auth-env=NAME` | the `Authorization` header's value is read from the environment variable NAME | none |
/// | `spool=PATH`    | where undelivered events are kept (JSON Lines)                   | `perimeter-spool-<UTC time>-<pid>.jsonl` |
///
/// A secret is never written in the spec: `auth-env` names a variable, read when the sink is opened
/// (a missing variable is an error then).
public struct HTTPSinkConfiguration: Hashable, Sendable {
    /// The spec as written (for messages).
    public var spec: String
    /// The endpoint, without the options.
    public var url: URL
    /// Events per POST.
    public var batchSize = 500
    /// The longest time (seconds) an event waits in an open batch before the batch is sent.
    public var flushInterval: Double = 1
    /// Per request (seconds).
    public var timeout: Double = 10
    /// Retries of a batch after its first attempt.
    public var retries = 5
    /// Backoff before retry k (0-based): a uniform random delay in 0…min(cap, base × factor^k).
    public var backoffBase: Double = 0.2
    public var backoffFactor: Double = 2
    public var backoffCap: Double = 10
    /// A server's `Retry-After` (seconds) is honoured up to this many seconds.
    public var retryAfterCap: Double = 60
    /// The environment variable holding the `Authorization` header's value.
    public var authorizationVariable: String?
    /// The `Authorization` header's value (read from `authorizationVariable` by `resolvingAuthorization`).
    public var authorization: String?
    /// The spool file as given with `spool=` (nil: `perimeter-spool-<UTC time>-<pid>.jsonl` in the
    /// working directory).
    public var spoolPath: String?
    /// Sealed batches waiting for delivery before `send` blocks (memory stays bounded).
    public var maxPendingBatches = 4
    /// Seeds the backoff jitter (nil: seeded from the system's random source).
    public var jitterSeed: UInt64?
    /// The first part of every batch's `Idempotency-Key` (`<keyPrefix>-<batch index>`): random per run
    /// unless set.
    public var keyPrefix: String?

    /// The most events `batch=` allows in one batch.
    public static let largestBatch = 100_000

    /// The option names, for messages.
    public static let optionNames = ["batch", "flush", "timeout", "retries", "backoff", "auth-env", "spool"]

    /// A configuration with the defaults for `url`.
    public init(url: URL, spec: String? = nil) {
        self.url = url
        self.spec = spec ?? url.absoluteString
    }

    /// Parses `URL[;key=value]...`. Errors name the option and say what is accepted.
    public init(parsing text: String) throws(SinkError) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let address = parts[0]
        func fail(_ reason: String) -> SinkError { SinkError(spec: text, reason: reason) }
        guard address.hasPrefix("http://") || address.hasPrefix("https://"),
            let url = URL(string: address), let host = url.host, !host.isEmpty
        else {
            throw fail(
                "\"\(address)\" is not an http:// or https:// URL with a host (write http://HOST[:PORT]/PATH[;key=value]...)"
            )
        }
        self.init(url: url, spec: text)
        var seen: Set<String> = []
        for option in parts.dropFirst() {
            guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
                throw fail(
                    "the option \"\(option)\" is not key=value; the options are \(Self.optionNames.joined(separator: ", "))")
            }
            let key = String(option[..<equals])
            let value = String(option[option.index(after: equals)...])
            guard Self.optionNames.contains(key) else {
                throw fail("unknown option \"\(key)\"; the options are \(Self.optionNames.joined(separator: ", "))")
            }
            guard seen.insert(key).inserted else { throw fail("the option \"\(key)\" is given twice") }
            func integer(_ range: ClosedRange<Int>) throws(SinkError) -> Int {
                guard let n = Int(value), range.contains(n) else {
                    throw fail("\(key)=\(value): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                return n
            }
            func seconds(_ range: ClosedRange<Double>) throws(SinkError) -> Double {
                guard let s = Double(value), s.isFinite, range.contains(s) else {
                    throw fail(
                        "\(key)=\(value): expected seconds from \(Self.seconds(range.lowerBound)) to \(Self.seconds(range.upperBound))"
                    )
                }
                return s
            }
            switch key {
            case "batch": batchSize = try integer(1...Self.largestBatch)
            case "flush": flushInterval = try seconds(0...3600)
            case "timeout":
                timeout = try seconds(0.001...3600)
            case "retries": retries = try integer(0...1000)
            case "backoff": backoffBase = try seconds(0...60)
            case "auth-env":
                guard !value.isEmpty, !value.contains("=") else {
                    throw fail("auth-env=\(value): expected the name of an environment variable")
                }
                authorizationVariable = value
            default:  // spool
                guard !value.isEmpty else { throw fail("spool=: expected a file path") }
                spoolPath = value
            }
        }
    }

    /// The spec without its `spool=` option: what `perimeter deliver` is told to send a spool to. Given
    /// the spool it reads as its own `spool=`, a failed retry would append what is left to its input,
    /// doubling it at every try (G4 of issue 37).
    public var specWithoutSpool: String {
        spec.split(separator: ";", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset == 0 || !$0.element.hasPrefix("spool=") }.map(\.element).joined(separator: ";")
    }

    /// `3600`, `0.001`: seconds for messages.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// Reads the `Authorization` value from `environment` when `auth-env` is set; a missing or empty
    /// variable is an error.
    public func resolvingAuthorization(
        from environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SinkError) -> HTTPSinkConfiguration {
        guard let name = authorizationVariable else { return self }
        guard let value = environment[name], !value.isEmpty else {
            throw SinkError(
                spec: spec,
                reason:
                    "auth-env=\(name): the environment variable \(name) is not set (it holds the Authorization header's value); set it, or remove the option"
            )
        }
        var copy = self
        copy.authorization = value
        return copy
    }

    /// The default spool file name: `perimeter-spool-20161001T120000Z-4242.jsonl`.
    public static func defaultSpoolName(
        at date: Date = Date(), pid: Int32 = ProcessInfo.processInfo.processIdentifier
    ) -> String {
        OutputFile.uniqueName(stem: "perimeter-spool", at: date, pid: pid)
    }
}

import CCurlTransfer
import Draws
import EventSinks
import Foundation
import TextEscaping

/// POSTs one batch with the retry rules of an HTTP sink, synchronously (on the sink's delivery thread).
///
/// Retried, with exponential backoff and full jitter (a uniform delay in 0…min(cap, base × factorⁿ)
/// before retry n): connection errors, timeouts, 5xx, 408 and 429. A `Retry-After: SECONDS` on a
/// retried answer replaces the backoff (capped). Any other answer outside 2xx fails the batch at once.
/// Every attempt of a batch carries the same `Idempotency-Key`.
///
/// Waiting costs no processor time: a request is waited on in poll(2) through libcurl's multi
/// interface (`CCurlTransfer`), and a backoff on a condition. Both wake every `checkInterval` seconds
/// to ask `isCancelled`: when it says so (SIGINT, SIGTERM, or the sink cancelled), the transfer is
/// aborted and `post` returns `.cancelled` at once. (FoundationNetworking's URLSession kept a core busy
/// while a server was silent: its write readiness source stayed armed after the request was sent.)
final class HTTPPoster: @unchecked Sendable {
    // Safety: used from one thread at a time (the delivery thread).
    let configuration: HTTPSinkConfiguration
    private let transfer: OpaquePointer
    private let cancellation: Cancellation
    private var random: SplitMix64
    /// The delays slept before retries, for tests.
    private(set) var sleeps: [Double] = []
    /// How often a wait wakes to ask `isCancelled`, in seconds.
    static let checkInterval = 0.05

    enum Attempt: Equatable {
        case delivered
        case retry(reason: String, retryAfter: Double?)
        case fatal(reason: String)
        case cancelled
    }

    /// What became of a batch.
    enum Outcome: Equatable {
        case delivered
        /// Why not, as a sentence.
        case failed(String)
        /// `isCancelled` said so before the batch was delivered.
        case cancelled
    }

    /// Opens a connection's worth of libcurl state; fails when libcurl cannot be loaded.
    init(configuration: HTTPSinkConfiguration, isCancelled: @escaping @Sendable () -> Bool) throws(SinkError) {
        self.configuration = configuration
        var message = [CChar](repeating: 0, count: 256)
        guard let transfer = perimeter_transfer_open(&message, message.count) else {
            throw SinkError(
                spec: configuration.spec,
                reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.transfer = transfer
        cancellation = Cancellation(isCancelled)
        var system = SystemRandomNumberGenerator()
        random = SplitMix64(seed: configuration.jitterSeed ?? system.next())
    }

    deinit { perimeter_transfer_close(transfer) }

    /// Sends `body` until it is delivered, a fatal answer comes, the retries are spent, or `isCancelled`.
    func post(_ body: Data, key: String) -> Outcome {
        var retry = 0
        while true {
            switch attempt(body, key: key) {
            case .delivered:
                return .delivered
            case .cancelled:
                return .cancelled
            case let .fatal(reason):
                return .failed(reason + (retry == 0 ? " (not retried)" : " (attempt \(retry + 1); not retried)"))
            case let .retry(reason, retryAfter):
                guard retry < configuration.retries else {
                    let attempts = retry + 1
                    return .failed(reason + " (gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"))")
                }
                let delay: Double
                if let retryAfter {
                    delay = min(max(retryAfter, 0), configuration.retryAfterCap)
                } else {
                    let ceiling = min(
                        configuration.backoffCap,
                        configuration.backoffBase * pow(configuration.backoffFactor, Double(retry)))
                    delay = ceiling > 0 ? random.nextUnit() * ceiling : 0
                }
                sleeps.append(delay)
                if cancellation.sleep(seconds: delay) { return .cancelled }
                retry += 1
            }
        }
    }

    /// One POST.
    func attempt(_ body: Data, key: String) -> Attempt {
        var headers = ["Content-Type: application/json", "Idempotency-Key: \(key)"]
        if let authorization = configuration.authorization { headers.append("Authorization: \(authorization)") }
        var result = perimeter_transfer_result()
        let timeoutMilliseconds = max(1, Int((configuration.timeout * 1000).rounded(.up)))
        let context = Unmanaged.passUnretained(cancellation).toOpaque()
        withCStrings(headers) { pointers in
            body.withUnsafeBytes { bytes in
                perimeter_transfer_post(
                    transfer, configuration.url.absoluteString, pointers, pointers.count,
                    bytes.baseAddress, bytes.count, timeoutMilliseconds,
                    Int(Self.checkInterval * 1000),
                    { context in
                        // C interop: libcurl passes back the context given, never null.
                        // swift-format-ignore: NeverForceUnwrap
                        Unmanaged<Cancellation>.fromOpaque(context!).takeUnretainedValue().isCancelled() ? 1 : 0
                    }, context, &result)
            }
        }
        let url = configuration.url.absoluteString
        switch result.outcome {
        case perimeter_transfer_cancelled:
            return .cancelled
        case perimeter_transfer_timed_out:
            return .retry(
                reason: "no answer within \(HTTPSinkConfiguration.seconds(configuration.timeout)) s", retryAfter: nil)
        case perimeter_transfer_answered:
            break
        default:
            let reason = "cannot reach \(url): \(Self.text(of: &result.message))"
            return Self.fatalCurlCodes.contains(result.curl_code)
                ? .fatal(reason: reason) : .retry(reason: reason, retryAfter: nil)
        }
        let status = result.status
        if (200..<300).contains(status) { return .delivered }
        let excerpt = withUnsafeBytes(of: &result.excerpt) { Data($0.prefix(result.excerpt_length)) }
        let answer =
            "the server answered \(status)\(Self.reasonPhrases[status].map { " " + $0 } ?? "")" + Self.excerpt(excerpt)
        if status == 408 || status == 429 || (500..<600).contains(status) {
            let retryAfter = Double(Self.text(of: &result.retry_after)).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            return .retry(reason: answer, retryAfter: retryAfter)
        }
        return .fatal(reason: answer)
    }

    /// libcurl's codes for a URL or TLS setup that no retry can mend: unsupported protocol, malformed
    /// URL, TLS handshake, client certificate, server certificate, CA file, certificate issuer.
    static let fatalCurlCodes: Set<Int32> = [1, 3, 35, 58, 60, 77, 83]

    /// The phrases of the statuses a server is likely to answer with, for messages.
    static let reasonPhrases: [Int: String] = [
        400: "bad request", 401: "unauthorized", 403: "forbidden", 404: "not found", 405: "method not allowed",
        408: "request timed out", 409: "conflict", 410: "no longer exists", 413: "request too large",
        415: "unsupported media type", 422: "unprocessable entity", 429: "too many requests",
        500: "internal server error", 501: "unimplemented", 502: "bad gateway", 503: "service unavailable",
        504: "gateway timed out",
    ]

    /// `: "first 200 characters of the body"`, or nothing.
    static func excerpt(_ data: Data?) -> String {
        guard let data, !data.isEmpty else { return "" }
        var text = String(decoding: data.prefix(200), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        text = String(text.unicodeScalars.map { $0.value < 0x20 ? " " : Character($0) })
        guard !text.isEmpty else { return "" }
        return ": " + JSONText.string(text)
    }

    /// A NUL-terminated C array field as a string.
    private static func text<T>(of field: inout T) -> String {
        withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// Asks whether to stop, and sleeps in slices so that a stop is seen within `HTTPPoster.checkInterval`.
private final class Cancellation: @unchecked Sendable {
    // Safety: immutable after init; the closure is @Sendable.
    let isCancelled: @Sendable () -> Bool
    private let condition = NSCondition()

    init(_ isCancelled: @escaping @Sendable () -> Bool) { self.isCancelled = isCancelled }

    /// Waits `seconds` (blocked on a condition, no processor time); true when cancelled meanwhile.
    func sleep(seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isCancelled() {
            let now = Date()
            guard now < end else { return false }
            _ = condition.wait(until: min(end, now.addingTimeInterval(HTTPPoster.checkInterval)))
        }
        return true
    }
}

/// Calls `body` with `strings` as an array of C strings that live for the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) })
}

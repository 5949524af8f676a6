import Dispatch
import EventSinks
import Foundation
import Geodesy
import TextEscaping
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs one batch with the retry rules of an HTTP sink, synchronously (on the sink's delivery thread).
///
/// Retried, with exponential backoff and full jitter (a uniform delay in 0…min(cap, base × factorⁿ)
/// before retry n): connection errors, timeouts, 5xx, 408 and 429. A `Retry-After: SECONDS` on a
/// retried answer replaces the backoff (capped). Any other answer outside 2xx fails the batch at once.
/// Every attempt of a batch carries the same `Idempotency-Key`.
final class HTTPPoster: @unchecked Sendable {
    // Safety: used from one thread at a time (the delivery thread); `session` is thread-safe.
    let configuration: HTTPSinkConfiguration
    private let session: URLSession
    private var random: SplitMix64
    /// The delays slept before retries, for tests.
    private(set) var sleeps: [Double] = []

    enum Attempt: Equatable {
        case delivered
        case retry(reason: String, retryAfter: Double?)
        case fatal(reason: String)
    }

    init(configuration: HTTPSinkConfiguration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.timeoutIntervalForResource = configuration.timeout
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        session = URLSession(configuration: sessionConfiguration)
        var system = SystemRandomNumberGenerator()
        random = SplitMix64(seed: configuration.jitterSeed ?? system.next())
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `body` until it is delivered, a fatal answer comes, or the retries are spent. Returns nil
    /// when delivered, else why not (a sentence).
    func post(_ body: Data, key: String) -> String? {
        var retry = 0
        while true {
            let attempt = self.attempt(body, key: key)
            switch attempt {
            case .delivered:
                return nil
            case let .fatal(reason):
                return reason + (retry == 0 ? " (not retried)" : " (attempt \(retry + 1); not retried)")
            case let .retry(reason, retryAfter):
                guard retry < configuration.retries else {
                    let attempts = retry + 1
                    return reason + " (gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"))"
                }
                let delay: Double
                if let retryAfter {
                    delay = min(max(retryAfter, 0), configuration.retryAfterCap)
                } else {
                    let ceiling = min(configuration.backoffCap,
                                      configuration.backoffBase * pow(configuration.backoffFactor, Double(retry)))
                    delay = ceiling > 0 ? random.nextUnit() * ceiling : 0
                }
                sleeps.append(delay)
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                retry += 1
            }
        }
    }

    /// One POST.
    func attempt(_ body: Data, key: String) -> Attempt {
        var request = URLRequest(url: configuration.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: configuration.timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
        if let authorization = configuration.authorization {
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
        }
        let done = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        let seconds = HTTPSinkConfiguration.seconds(configuration.timeout)
        // URLSession's timeout is an idle timeout; this bounds the whole request.
        if done.wait(timeout: .now() + configuration.timeout + 0.5) == .timedOut {
            task.cancel()
            _ = done.wait(timeout: .now() + 5)
            return .retry(reason: "no answer within \(seconds) s", retryAfter: nil)
        }
        let (data, response, error) = box.get()
        if let error {
            let code = (error as? URLError)?.code
            switch code {
            case .timedOut?:
                return .retry(reason: "no answer within \(seconds) s", retryAfter: nil)
            case .badURL?, .unsupportedURL?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
                 .serverCertificateHasUnknownRoot?, .serverCertificateNotYetValid?, .clientCertificateRejected?,
                 .clientCertificateRequired?, .secureConnectionFailed?:
                return .fatal(reason: "cannot reach \(configuration.url.absoluteString): \(error.localizedDescription)")
            default:
                return .retry(reason: "cannot reach \(configuration.url.absoluteString): \(error.localizedDescription)",
                              retryAfter: nil)
            }
        }
        guard let http = response as? HTTPURLResponse else {
            return .retry(reason: "no HTTP answer from \(configuration.url.absoluteString)", retryAfter: nil)
        }
        let status = http.statusCode
        if (200..<300).contains(status) { return .delivered }
        let answer = "the server answered \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))"
            + Self.excerpt(data)
        if status == 408 || status == 429 || (500..<600).contains(status) {
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            return .retry(reason: answer, retryAfter: retryAfter)
        }
        return .fatal(reason: answer)
    }

    /// `: "first 200 characters of the body"`, or nothing.
    static func excerpt(_ data: Data?) -> String {
        guard let data, !data.isEmpty else { return "" }
        var text = String(decoding: data.prefix(200), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        text = String(text.unicodeScalars.map { $0.value < 0x20 ? " " : Character($0) })
        guard !text.isEmpty else { return "" }
        return ": " + JSONEscaping.string(text)
    }
}

/// The completion handler's result, handed across threads.
private final class OutcomeBox: @unchecked Sendable {
    // Safety: written once by the completion handler before the semaphore is signalled, read after.
    private let lock = NSLock()
    private var data: Data?
    private var response: URLResponse?
    private var error: (any Error)?

    func set(data: Data?, response: URLResponse?, error: (any Error)?) {
        lock.lock(); defer { lock.unlock() }
        self.data = data
        self.response = response
        self.error = error
    }

    func get() -> (Data?, URLResponse?, (any Error)?) {
        lock.lock(); defer { lock.unlock() }
        return (data, response, error)
    }
}


import EventSinks
import Foundation
import TestSupport
import Testing
import WireFormat

@testable import EventSinksHTTP

@Suite struct HTTPSpecTests {
    struct Good: CustomTestStringConvertible, Sendable {
        let text: String
        let url: String
        var batch = 500, flush = 1.0, timeout = 10.0, retries = 5, backoff = 0.2
        var authEnv: String? = nil, spool: String? = nil
        var testDescription: String { text }
    }

    @Test(arguments: [
        Good(text: "http://127.0.0.1:8080/events", url: "http://127.0.0.1:8080/events"),
        Good(text: "https://hooks.example.com/p?tenant=7&x=1", url: "https://hooks.example.com/p?tenant=7&x=1"),
        Good(
            text:
                "http://localhost/e;batch=100;flush=0.5;timeout=2.5;retries=0;backoff=0;auth-env=PERIMETER_TOKEN;spool=out/left.jsonl",
            url: "http://localhost/e", batch: 100, flush: 0.5, timeout: 2.5, retries: 0, backoff: 0,
            authEnv: "PERIMETER_TOKEN", spool: "out/left.jsonl"),
        Good(text: "https://h.example/x?q=1;retries=12", url: "https://h.example/x?q=1", retries: 12),
        Good(text: "http://h:1/;flush=0;spool=a=b.jsonl", url: "http://h:1/", flush: 0, spool: "a=b.jsonl"),
    ])
    func parses(good: Good) throws {
        let configuration = try HTTPSinkConfiguration(parsing: good.text)
        #expect(configuration.url.absoluteString == good.url)
        #expect(configuration.spec == good.text)
        #expect(configuration.batchSize == good.batch)
        #expect(configuration.flushInterval == good.flush)
        #expect(configuration.timeout == good.timeout)
        #expect(configuration.retries == good.retries)
        #expect(configuration.backoffBase == good.backoff)
        #expect(configuration.authorizationVariable == good.authEnv)
        #expect(configuration.authorization == nil)
        #expect(configuration.spoolPath == good.spool)
        let spec = try registry.spec(parsing: good.text)
        #expect(spec == SinkSpec(text: good.text, scheme: good.text.hasPrefix("https") ? "https" : "http", path: nil))
        #expect(spec.description == good.text)
    }

    static let options = "batch, flush, timeout, retries, backoff, auth-env, spool"

    @Test(arguments: [
        (
            "http://",
            #""http://" is not an http:// or https:// URL with a host (write http://HOST[:PORT]/PATH[;key=value]...)"#
        ),
        ("http://h/x;batch=0", "batch=0: expected a whole number from 1 to 100000"),
        ("http://h/x;batch=ten", "batch=ten: expected a whole number from 1 to 100000"),
        ("http://h/x;retries=-1", "retries=-1: expected a whole number from 0 to 1000"),
        ("http://h/x;timeout=0", "timeout=0: expected seconds from 0.001 to 3600"),
        ("http://h/x;flush=nan", "flush=nan: expected seconds from 0 to 3600"),
        ("http://h/x;color=red", #"unknown option "color"; the options are "# + options),
        ("http://h/x;batch", #"the option "batch" is not key=value; the options are "# + options),
        ("http://h/x;", #"the option "" is not key=value; the options are "# + options),
        ("http://h/x;batch=1;batch=2", #"the option "batch" is given twice"#),
        ("http://h/x;auth-env=", "auth-env=: expected the name of an environment variable"),
        ("http://h/x;spool=", "spool=: expected a file path"),
    ])
    func refuses(text: String, reason: String) {
        let error = #expect(throws: SinkError.self) { try registry.spec(parsing: text) }
        #expect(error?.description == "sink \(text): \(reason)")
    }

    @Test func authorizationComesFromTheEnvironment() throws {
        let configuration = try HTTPSinkConfiguration(parsing: "http://h/x;auth-env=TOKEN")
        #expect(try configuration.resolvingAuthorization(from: ["TOKEN": "Bearer t"]).authorization == "Bearer t")
        #expect(throws: SinkError.self) { try configuration.resolvingAuthorization(from: [:]) }
        #expect(try HTTPSinkConfiguration(parsing: "http://h/x").resolvingAuthorization(from: [:]).authorization == nil)
    }

    @Test func theDefaultSpoolFileIsNamedByUTCTimeAndProcess() {
        let name = HTTPSinkConfiguration.defaultSpoolName(at: Date(timeIntervalSince1970: 1_452_427_205), pid: 4242)
        #expect(name == "perimeter-spool-20160110T120005Z-4242.jsonl")
    }

    @Test func backoffIsFullJitterBelowTheCapAndSeeded() throws {
        let port = try LoopbackServer.reservePort()
        var configuration = try HTTPSinkConfiguration(parsing: "http://127.0.0.1:\(port)/x;retries=6;backoff=0.004")
        configuration.backoffCap = 0.02
        configuration.jitterSeed = 99
        func sleeps() throws -> [Double] {
            let poster = try HTTPPoster(configuration: configuration, isCancelled: { false })
            guard case let .failed(problem) = poster.post(Data("{}".utf8), key: "k") else {
                Issue.record("delivered to nothing")
                return []
            }
            #expect(problem.contains("gave up after 7 attempts"))
            return poster.sleeps
        }
        let first = try sleeps()
        #expect(first.count == 6)
        for (k, delay) in first.enumerated() {
            #expect(delay >= 0 && delay <= min(0.02, 0.004 * pow(2, Double(k))))
        }
        #expect(try sleeps() == first)  // same seed, same delays
        #expect(Set(first).count > 1)
    }
}

private let registry = SinkRegistry.core.adding(HTTPSink.kind)

import Foundation
import Geofencing
import Testing
@testable import EventSinks

@Suite struct SinkSpecTests {
    struct Good: CustomTestStringConvertible, Sendable {
        let text: String
        let spec: SinkSpec
        var testDescription: String { text }
    }

    @Test(arguments: [
        Good(text: "console", spec: .console),
        Good(text: "jsonl:out/events.jsonl", spec: .jsonLines(path: "out/events.jsonl")),
        Good(text: "jsonl:-", spec: .jsonLines(path: "-")),
        Good(text: "csv:/tmp/e.csv", spec: .csv(path: "/tmp/e.csv")),
        Good(text: "geojson:map.geojson", spec: .geoJSON(path: "map.geojson")),
        Good(text: "jsonl:a:b.jsonl", spec: .jsonLines(path: "a:b.jsonl")),
        Good(text: "jsonl:with space.jsonl", spec: .jsonLines(path: "with space.jsonl")),
        Good(text: "sqlite:runs.sqlite", spec: .sqlite(path: "runs.sqlite")),
        Good(text: "http://localhost:8080/events", spec: .http(url: "http://localhost:8080/events")),
        Good(text: "https://example.com/hook", spec: .http(url: "https://example.com/hook")),
    ])
    func parses(good: Good) throws {
        let spec = try SinkSpec(parsing: good.text)
        #expect(spec == good.spec)
        #expect(spec.description == good.text)
    }

    static let forms = "console, jsonl:PATH, csv:PATH, geojson:PATH, sqlite:PATH, http://… or https://… (PATH - is standard output; after a URL, options as ;key=value suffixes: batch=N, flush=SECONDS, timeout=SECONDS, retries=N, backoff=SECONDS, auth-env=NAME, spool=PATH)"

    struct Bad: CustomTestStringConvertible, Sendable {
        let text: String
        let message: String
        var testDescription: String { text.isEmpty ? "(empty)" : text }
    }

    @Test(arguments: [
        Bad(text: "", message: #"sink : unknown sink ""; expected "# + forms),
        Bad(text: "stdout", message: #"sink stdout: unknown sink "stdout"; expected "# + forms),
        Bad(text: "json:e.json", message: #"sink json:e.json: unknown sink type "json"; expected "# + forms),
        Bad(text: "JSONL:e.jsonl", message: #"sink JSONL:e.jsonl: unknown sink type "JSONL"; expected "# + forms),
        Bad(text: "ftp://host/x", message: #"sink ftp://host/x: unknown sink type "ftp"; expected "# + forms),
        Bad(text: "jsonl:", message: #"sink jsonl:: the jsonl sink needs a path after "jsonl:" (- for standard output)"#),
        Bad(text: "csv:", message: #"sink csv:: the csv sink needs a path after "csv:" (- for standard output)"#),
        Bad(text: "console:-", message: #"sink console:-: the console sink takes no path (it writes to standard output); write "console""#),
    ])
    func refuses(bad: Bad) {
        let error = #expect(throws: SinkError.self) { try SinkSpec(parsing: bad.text) }
        #expect(error?.description == bad.message)
    }

    struct Resolution: CustomTestStringConvertible, Sendable {
        let path: String
        let directory: String?
        let resolved: String
        var testDescription: String { "\(path) in \(directory ?? "nil")" }
    }

    @Test(arguments: [
        Resolution(path: "e.jsonl", directory: "/s", resolved: "/s/e.jsonl"),
        Resolution(path: "out/e.jsonl", directory: "/s/", resolved: "/s/out/e.jsonl"),
        Resolution(path: "/abs/e.jsonl", directory: "/s", resolved: "/abs/e.jsonl"),
        Resolution(path: "-", directory: "/s", resolved: "-"),
        Resolution(path: "e.jsonl", directory: nil, resolved: "e.jsonl"),
        Resolution(path: "e.jsonl", directory: ".", resolved: "e.jsonl"),
    ])
    func resolvesPaths(r: Resolution) {
        #expect(SinkSpec.resolve(r.path, relativeTo: r.directory) == r.resolved)
    }

    @Test func makeSinkWritesRelativeToTheDirectory() throws {
        let directory = try temporaryDirectory()
        let sink = try SinkSpec(parsing: "csv:events.csv").makeSink(relativeTo: directory)
        try run(sink, [samples[0].event])
        #expect(try files(in: directory) == ["events.csv"])
        #expect(try contents(directory + "/events.csv") == CSVSink.header + CSVSink.encode(samples[0].event) + "\r\n")
    }

    @Test func severalSinksFanOut() throws {
        let directory = try temporaryDirectory()
        let specs = try ["jsonl:e.jsonl", "csv:e.csv", "geojson:e.geojson"].map(SinkSpec.init(parsing:))
        let sink = try SinkSpec.makeSink(for: specs, relativeTo: directory)
        #expect(sink is FanOutSink)
        try run(sink, samples.map(\.event))
        #expect(try files(in: directory) == ["e.csv", "e.geojson", "e.jsonl"])
        #expect(try JSONLinesSink.decode(log: contents(directory + "/e.jsonl")).count == samples.count)
    }

    @Test(arguments: [
        Bad(text: "console jsonl:-", message: "sink jsonl:-: console already writes to standard output; give each sink its own file"),
        Bad(text: "csv:- geojson:-", message: "sink geojson:-: csv:- already writes to standard output; give each sink its own file"),
        Bad(text: "jsonl:e.out csv:e.out", message: #"sink csv:e.out: jsonl:e.out already writes to "DIR/e.out"; give each sink its own file"#),
    ])
    func twoSinksOnOneOutputAreRefused(bad: Bad) throws {
        let directory = try temporaryDirectory()
        let specs = try bad.text.split(separator: " ").map { try SinkSpec(parsing: String($0)) }
        let error = #expect(throws: SinkError.self) { try SinkSpec.makeSink(for: specs, relativeTo: directory) }
        #expect(error?.description == bad.message.replacingOccurrences(of: "DIR", with: directory))
        #expect(try files(in: directory).isEmpty)
    }

    @Test func aSinkThatCannotOpenCancelsTheOthers() throws {
        let directory = try temporaryDirectory()
        let specs = try ["jsonl:ok.jsonl", "csv:missing/e.csv"].map(SinkSpec.init(parsing:))
        #expect(throws: SinkError.self) { try SinkSpec.makeSink(for: specs, relativeTo: directory) }
        #expect(try files(in: directory).isEmpty)
    }
}

import FileSystem
import Foundation
import Geofencing
import TestSupport
import Testing
import WireFormat

@testable import EventSinks

/// A sink a library user might add: counts events, writes the count to PATH. One file and one line.
private final class CountingSink: LifecycleSink {
    let output: OutputFile
    var count = 0
    init(output: OutputFile) { self.output = output }
    func send(_ event: GeofenceEvent) throws { count += 1 }
    func finish() throws {
        try output.write("\(count)\n")
        try output.commit()
    }
    func cancel() { output.discard() }

    static let kind = SinkKind(schemes: ["count"], target: .path, form: "count:PATH") { spec, context throws(SinkError) in
        CountingSink(output: try OutputFile(path: context.resolve(spec.path ?? "-"), spec: spec.text))
    }
}

private let registry = SinkRegistry.core

@Suite struct SinkRegistryTests {
    struct Good: CustomTestStringConvertible, Sendable {
        let text: String
        let scheme: String
        let path: String?
        var testDescription: String { text }
    }

    @Test(arguments: [
        Good(text: "console", scheme: "console", path: "-"),
        Good(text: "jsonl:out/events.jsonl", scheme: "jsonl", path: "out/events.jsonl"),
        Good(text: "jsonl:-", scheme: "jsonl", path: "-"),
        Good(text: "csv:/tmp/e.csv", scheme: "csv", path: "/tmp/e.csv"),
        Good(text: "geojson:map.geojson", scheme: "geojson", path: "map.geojson"),
        Good(text: "jsonl:a:b.jsonl", scheme: "jsonl", path: "a:b.jsonl"),
        Good(text: "jsonl:with space.jsonl", scheme: "jsonl", path: "with space.jsonl"),
    ])
    func parses(good: Good) throws {
        let spec = try registry.spec(parsing: good.text)
        #expect(spec == SinkSpec(text: good.text, scheme: good.scheme, path: good.path))
        #expect(spec.description == good.text)
    }

    @Test(
        "kinds= after any spec: the kinds, and the spec its kind reads without it",
        arguments: [
            ("csv:-;kinds=visit", "csv", "-", [GeofenceEvent.Kind.visit], "csv:-"),
            ("console;kinds=enter,exit,dwell", "console", "-", [.enter, .exit, .dwell], "console"),
            (
                "jsonl:out.jsonl;kinds=monitor-start,monitor-stop,monitor-failed", "jsonl", "out.jsonl",
                [.monitorStart, .monitorStop, .monitorFailed], "jsonl:out.jsonl"
            ),
        ])
    func kinds(text: String, scheme: String, path: String, kinds: [GeofenceEvent.Kind], kindText: String) throws {
        let spec = try registry.spec(parsing: text)
        #expect(spec.scheme == scheme)
        #expect(spec.path == path)
        #expect(spec.kinds == Set(kinds))
        #expect(spec.kindText == kindText)
        #expect(spec.text == text)
    }

    @Test func aKindFilterPassesOnlyItsKindsAndEverythingElse() throws {
        let folder = try temporaryDirectory()
        let sink = try registry.makeSink(for: registry.spec(parsing: "jsonl:\(folder)/e.jsonl;kinds=enter,dwell"))
        let filter = try #require(sink as? KindFilterSink)
        #expect(filter.base is JSONLinesSink)
        try run(sink, samples.map(\.event))
        let kinds = try contents(folder + "/e.jsonl").split(separator: "\n").map { try JSONLines.decode(line: $0).kind }
        let kept: Set<GeofenceEvent.Kind> = [.enter, .dwell]
        let expected = samples.map(\.event.kind).filter { kept.contains($0) }
        #expect(kinds == expected)
    }

    static let forms = "console, jsonl:PATH, csv:PATH, geojson:PATH (PATH - is standard output)"

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
        Bad(text: "sqlite:e.sqlite", message: #"sink sqlite:e.sqlite: unknown sink type "sqlite"; expected "# + forms),
        Bad(text: "jsonl:", message: #"sink jsonl:: the jsonl sink needs a path after "jsonl:" (- for standard output)"#),
        Bad(text: "csv:", message: #"sink csv:: the csv sink needs a path after "csv:" (- for standard output)"#),
        Bad(
            text: "console:-",
            message: #"sink console:-: the console sink takes no path (it writes to standard output); write "console""#),
    ])
    func refuses(bad: Bad) {
        let error = #expect(throws: SinkError.self) { try registry.spec(parsing: bad.text) }
        #expect(error?.description == bad.message)
    }

    @Test func aNewKindIsOneLine() throws {
        let registry = SinkRegistry.core.adding(CountingSink.kind)
        #expect(
            registry.acceptedForms == "console, jsonl:PATH, csv:PATH, geojson:PATH, count:PATH (PATH - is standard output)")
        let directory = try temporaryDirectory()
        let spec = try registry.spec(parsing: "count:n.txt")
        try run(registry.makeSink(for: spec, context: SinkContext(directory: directory)), samples.map(\.event))
        #expect(try contents(directory + "/n.txt") == "\(samples.count)\n")
        #expect(throws: SinkError.self) { try SinkRegistry.core.spec(parsing: "count:n.txt") }
    }

    /// A Monte Carlo batch asks a sink's kind whether it keeps runs apart (`tellsRunsApart`), before
    /// opening it; what the kind says is what its sink does: told of run 7 (`LifecycleSink.beginRun`),
    /// it writes the same event otherwise than a sink never told of a run. A new kind says no unless it
    /// says otherwise.
    @Test(arguments: [
        ("console", false), ("jsonl:e.jsonl", true), ("csv:e.csv", true), ("geojson:e.geojson", false),
        ("csv:e.csv;kinds=enter,exit,dwell,visit,monitor-start", true), ("count:e.txt", false),
    ])
    func whetherAKindTellsRunsApart(text: String, tells: Bool) throws {
        let registry = SinkRegistry.core.adding(CountingSink.kind)
        let spec = try registry.spec(parsing: text)
        #expect(registry.tellsRunsApart(spec) == tells)
        guard let path = spec.path, path != "-" else { return }  // the console writes to standard output
        func written(toldOfRun: Bool) throws -> String {
            let directory = try temporaryDirectory()
            let sink = try registry.makeSink(for: spec, context: SinkContext(directory: directory))
            if toldOfRun { try sink.beginRun(7, RunDescription()) }
            try run(sink, [samples[0].event])
            return try contents(directory + "/" + path)
        }
        #expect((try written(toldOfRun: true) != written(toldOfRun: false)) == tells)
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
        #expect(SinkContext(directory: r.directory).resolve(r.path) == r.resolved)
    }

    @Test func makeSinkWritesRelativeToTheDirectory() throws {
        let directory = try temporaryDirectory()
        let sink = try registry.makeSink(
            for: registry.spec(parsing: "csv:events.csv"), context: SinkContext(directory: directory))
        try run(sink, [samples[0].event])
        #expect(try files(in: directory) == ["events.csv"])
        #expect(try contents(directory + "/events.csv") == CSVRecords.header + CSVRecords.encode(samples[0].event) + "\r\n")
    }

    @Test func severalSinksFanOut() throws {
        let directory = try temporaryDirectory()
        let specs = try ["jsonl:e.jsonl", "csv:e.csv", "geojson:e.geojson"].map(registry.spec(parsing:))
        let sink = try registry.makeSink(for: specs, context: SinkContext(directory: directory))
        #expect(sink is FanOutSink)
        try run(sink, samples.map(\.event))
        #expect(try files(in: directory) == ["e.csv", "e.geojson", "e.jsonl"])
        #expect(try JSONLines.decode(log: contents(directory + "/e.jsonl")).count == samples.count)
    }

    @Test(arguments: [
        Bad(
            text: "console jsonl:-",
            message: "sink jsonl:-: console already writes to standard output; give each sink its own file"),
        Bad(
            text: "csv:- geojson:-",
            message: "sink geojson:-: csv:- already writes to standard output; give each sink its own file"),
        Bad(
            text: "jsonl:e.out csv:e.out",
            message: #"sink csv:e.out: jsonl:e.out already writes to "DIR/e.out"; give each sink its own file"#),
    ])
    func twoSinksOnOneOutputAreRefused(bad: Bad) throws {
        let directory = try temporaryDirectory()
        let specs = try bad.text.split(separator: " ").map { try registry.spec(parsing: String($0)) }
        let error = #expect(throws: SinkError.self) {
            try registry.makeSink(for: specs, context: SinkContext(directory: directory))
        }
        #expect(error?.description == bad.message.replacingOccurrences(of: "DIR", with: directory))
        #expect(try files(in: directory).isEmpty)
    }

    @Test func aSinkThatCannotOpenCancelsTheOthers() throws {
        let directory = try temporaryDirectory()
        let specs = try ["jsonl:ok.jsonl", "csv:missing/e.csv"].map(registry.spec(parsing:))
        #expect(throws: SinkError.self) { try registry.makeSink(for: specs, context: SinkContext(directory: directory)) }
        #expect(try files(in: directory).isEmpty)
    }
}

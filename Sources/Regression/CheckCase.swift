/// One thing `perimeter check` checked of a scenario: its golden log, or one of its expectations. Each is a
/// JUnit testcase of its own (`JUnitReport`) and, when it failed, a GitHub annotation at its line
/// (`GitHubAnnotations`).
public struct CheckCase: Sendable, Equatable {
    /// What was checked, named so that the name outlives edits elsewhere in the file (a JUnit testcase's
    /// name, which CI servers keep a history by): `golden log Scenarios/x.events.jsonl`; an expectation's
    /// `id:`; else its index and what it asks (`expect[1]: dwell "welcome" between 12:01:37 and 12:01:47`).
    /// No line number: that is in `place`.
    public var name: String
    /// Where it was written (`expect[1], line 17`), for the JUnit failure's text; empty for the golden log.
    public var place: String = ""
    /// The line of the scenario file it was written at; nil for the golden log.
    public var line: Int?
    /// Why it failed, one sentence; nil when it held.
    public var failure: String?
    /// The readable lines below the failure: a diff, the run's drawn misses.
    public var details: [String]

    public init(name: String, line: Int? = nil, failure: String? = nil, details: [String] = []) {
        self.name = name
        self.line = line
        self.failure = failure
        self.details = details
    }

    /// The name of an expectation's case: its `id`, else `expect[1]: enter of cafe at 12:01:57 ± 30 s`
    /// (`keyPath` and the statement; the statement alone for an expectation built in code), and for one
    /// measured over a batch ` over N runs`.
    static func expectation(keyPath: String, id: String?, statement: String, runs: Int? = nil) -> String {
        id ?? (keyPath.isEmpty ? statement : "\(keyPath): \(statement)") + (runs.map { " over \($0) runs" } ?? "")
    }
}

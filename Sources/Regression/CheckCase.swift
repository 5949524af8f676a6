/// One thing `perimeter check` checked of a scenario: its golden log, or one of its expectations. Each is a
/// JUnit testcase of its own (`JUnitReport`) and, when it failed, a GitHub annotation at its line
/// (`GitHubAnnotations`).
public struct CheckCase: Sendable, Equatable {
    /// What was checked, for people: `golden log Scenarios/x.events.jsonl`, or the expectation's place and
    /// what it asks (`expect[1], line 17: dwell "welcome" between 12:01:37 and 12:01:47`).
    public var name: String
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

    /// The name of an expectation's case: `expect[1], line 17: enter of cafe at 12:01:57 ± 30 s`.
    static func expectation(place: String, statement: String) -> String {
        place.isEmpty ? statement : "\(place): \(statement)"
    }
}

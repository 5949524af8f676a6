import Foundation
import TextEscaping

/// JUnit XML for CI servers, in the Apache Ant layout that Jenkins, GitLab and others read: one
/// `<testsuite name="perimeter check">` with one `<testcase>` per thing checked (`CheckResult.cases`: the
/// golden log, then each expectation, named `SCENARIO (PATH): expect[1], line 17: …`), or one per scenario
/// when it has none (bad input, a result built without them); a failed check is a `<failure>`, bad input
/// (or a golden log that could not be written) an `<error>`, each with the readable details as text. The scenarios' Monte Carlo measurements (`probability:` expectations: the
/// share of runs and their number), passed or not, go in the suite's `<system-out>`, one line each after
/// the scenario's name and path (the Ant schema allows no output inside a testcase).
public enum JUnitReport {
    /// The whole document. `timestamp` is when the check started (UTC; the Ant schema has no zone).
    public static func xml(
        _ results: [CheckResult], timestamp: Date = Date(),
        hostname: String = ProcessInfo.processInfo.hostName
    ) -> String {
        let cases = results.flatMap(testcases)
        let failures = cases.filter { $0.element == "failure" }.count
        let errors = cases.filter { $0.element == "error" }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuite name=\"perimeter check\" tests=\"\(cases.count)\" failures=\"\(failures)\""
            + " errors=\"\(errors)\" time=\"\(seconds(total))\""
            + " timestamp=\"\(antTimestamp(timestamp))\" hostname=\"\(attribute(hostname.isEmpty ? "localhost" : hostname))\">\n"
        out += "  <properties/>\n"
        for testcase in cases {
            out +=
                "  <testcase classname=\"perimeter.check\" name=\"\(attribute(testcase.name))\""
                + " time=\"\(seconds(testcase.seconds))\""
            guard let element = testcase.element else {
                out += "/>\n"
                continue
            }
            out += ">\n    <\(element) message=\"\(attribute(testcase.message))\" type=\"\(testcase.type)\">"
            out += text(testcase.text)
            out += "</\(element)>\n  </testcase>\n"
        }
        let measured = results.flatMap { result in result.measurements.map { "\(result.name) (\(result.path)): \($0)" } }
        out +=
            measured.isEmpty
            ? "  <system-out/>\n" : "  <system-out>" + text(measured.joined(separator: "\n")) + "</system-out>\n"
        out += "  <system-err/>\n</testsuite>\n"
        return out
    }

    /// One `<testcase>`: its name, time, and the element of its outcome (nil when it passed).
    struct Testcase {
        var name: String
        var seconds: Double
        var element: String?
        var message = ""
        var type = ""
        var text = ""
    }

    /// A result's testcases: one per case, the scenario's time shared among them; and the scenario's own
    /// when it has no case, or when what went wrong is no case's (bad input, a golden log not written, an
    /// empty run refused by `--update`).
    static func testcases(_ result: CheckResult) -> [Testcase] {
        let scenario = "\(result.name) (\(result.path))"
        let ownFailure =
            result.status == .badInput || result.status == .writeFailed
            || (result.status == .failed && !result.cases.contains { $0.failure != nil })
        var testcases: [Testcase] = []
        if result.cases.isEmpty || ownFailure {
            var testcase = Testcase(name: scenario, seconds: result.cases.isEmpty ? result.seconds : 0)
            switch result.status {
            case .passed: break
            case .failed: testcase.element = "failure"
            case .badInput, .writeFailed: testcase.element = "error"
            }
            testcase.type =
                result.status == .failed ? "perimeter.check" : (result.status == .badInput ? "bad input" : "write failed")
            testcase.message = result.headline
            testcase.text = result.details.joined(separator: "\n")
            testcases.append(testcase)
        }
        let share = result.seconds / Double(max(1, result.cases.count))
        for checked in result.cases {
            var testcase = Testcase(name: "\(scenario): \(checked.name)", seconds: share)
            if let failure = checked.failure {
                testcase.element = "failure"
                testcase.message = failure
                testcase.type = "perimeter.check"
                // The place (`expect[1], line 17`) is in the text, not the name, which outlives lines moving.
                let placed =
                    checked.place.isEmpty || failure.hasPrefix(checked.place) ? failure : "\(checked.place): \(failure)"
                testcase.text = ([placed] + checked.details).joined(separator: "\n")
            }
            testcases.append(testcase)
        }
        return testcases
    }

    /// `1.25`: seconds with up to three decimals.
    static func seconds(_ value: Double) -> String { String(format: "%.3f", max(0, value)) }

    /// `2026-11-22T03:04:05`, UTC, as the Ant schema's ISO 8601 pattern (no zone) wants.
    static func antTimestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    static func text(_ s: String) -> String { XMLEscaping.text(s) }
    static func attribute(_ s: String) -> String { XMLEscaping.attribute(s) }
}

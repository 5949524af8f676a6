import Foundation
import TextEscaping

/// JUnit XML for CI servers, in the Apache Ant layout that Jenkins, GitLab and others read: one
/// `<testsuite name="perimeter check">` with one `<testcase>` per scenario; a failed check is a
/// `<failure>`, bad input (or a golden log that could not be written) an `<error>`, each with the
/// readable details as text. The scenarios' Monte Carlo measurements (`probability:` expectations: the
/// share of runs and their number), passed or not, go in the suite's `<system-out>`, one line each after
/// the scenario's name and path (the Ant schema allows no output inside a testcase).
public enum JUnitReport {
    /// The whole document. `timestamp` is when the check started (UTC; the Ant schema has no zone).
    public static func xml(
        _ results: [CheckResult], timestamp: Date = Date(),
        hostname: String = ProcessInfo.processInfo.hostName
    ) -> String {
        let failures = results.filter { $0.status == .failed }.count
        let errors = results.filter { $0.status == .badInput || $0.status == .writeFailed }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuite name=\"perimeter check\" tests=\"\(results.count)\" failures=\"\(failures)\""
            + " errors=\"\(errors)\" time=\"\(seconds(total))\""
            + " timestamp=\"\(antTimestamp(timestamp))\" hostname=\"\(attribute(hostname.isEmpty ? "localhost" : hostname))\">\n"
        out += "  <properties/>\n"
        for result in results {
            out +=
                "  <testcase classname=\"perimeter.check\" name=\"\(attribute("\(result.name) (\(result.path))"))\""
                + " time=\"\(seconds(result.seconds))\""
            let element: String
            switch result.status {
            case .passed:
                out += "/>\n"
                continue
            case .failed: element = "failure"
            case .badInput, .writeFailed: element = "error"
            }
            let type =
                result.status == .failed ? "perimeter.check" : (result.status == .badInput ? "bad input" : "write failed")
            out += ">\n    <\(element) message=\"\(attribute(result.headline))\" type=\"\(type)\">"
            out += text(result.details.joined(separator: "\n"))
            out += "</\(element)>\n  </testcase>\n"
        }
        let measured = results.flatMap { result in result.measurements.map { "\(result.name) (\(result.path)): \($0)" } }
        out +=
            measured.isEmpty
            ? "  <system-out/>\n" : "  <system-out>" + text(measured.joined(separator: "\n")) + "</system-out>\n"
        out += "  <system-err/>\n</testsuite>\n"
        return out
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

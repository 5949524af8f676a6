/// GitHub Actions workflow commands for `perimeter check --format github`: each failed case an
/// `::error file=PATH,line=N,title=…::message` line, which GitHub shows on the scenario's line in the
/// pull request; bad input an error at the problem's own file, line and column; each warning a
/// `::warning` line. Escaped as GitHub's toolkit escapes them (`%`, CR, LF in the message; also `:` and
/// `,` in the properties). O(the result's lines).
public enum GitHubAnnotations {
    /// The annotation lines of one scenario's result; none when it passed without warnings.
    public static func lines(_ result: CheckResult) -> [String] {
        var out = result.warnings.map { command("warning", placed($0, default: result.path)) }
        let title = "perimeter check: \(result.name)"
        switch result.status {
        case .passed: break
        case .badInput, .writeFailed:
            let placedDetails = result.details.map { placed($0, default: result.path) }
            out += placedDetails.map { command("error", $0, title: title) }
            if placedDetails.isEmpty { out.append(command("error", (result.path, nil, nil, result.headline), title: title)) }
        case .failed:
            let failed = result.cases.filter { $0.failure != nil }
            for checked in failed {
                out.append(command("error", (result.path, checked.line, nil, checked.failure ?? ""), title: title))
            }
            if failed.isEmpty { out.append(command("error", (result.path, nil, nil, result.headline), title: title)) }
        }
        return out
    }

    /// A message of the form `FILE:LINE:COLUMN: text` (or `FILE:LINE: text`) split into its place and
    /// text; anything else is placed at `path`.
    static func placed(_ message: String, default path: String) -> (String, Int?, Int?, String) {
        let parts = message.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        if parts.count >= 3, let line = Int(parts[1]), !parts[0].isEmpty {
            if parts.count == 4, let column = Int(parts[2]) {
                return (String(parts[0]), line, column, String(parts[3]).trimmingLeadingSpace)
            }
            let rest = parts.dropFirst(2).joined(separator: ":")
            return (String(parts[0]), line, nil, rest.trimmingLeadingSpace)
        }
        return (path, nil, nil, message)
    }

    /// `::error file=F,line=L,col=C,title=T::message`.
    static func command(_ kind: String, _ place: (String, Int?, Int?, String), title: String? = nil) -> String {
        var properties = ["file=" + property(place.0)]
        if let line = place.1 { properties.append("line=\(line)") }
        if let column = place.2 { properties.append("col=\(column)") }
        if let title { properties.append("title=" + property(title)) }
        return "::\(kind) \(properties.joined(separator: ","))::\(data(place.3))"
    }

    /// A message escaped: `%`, CR and LF.
    static func data(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A property's value escaped: as `data`, and `:` and `,`.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

extension String {
    fileprivate var trimmingLeadingSpace: String { String(drop { $0 == " " }) }
}

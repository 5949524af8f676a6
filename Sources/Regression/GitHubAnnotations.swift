import TextEscaping

/// GitHub Actions workflow commands for `perimeter check --format github`: each failed case an
/// `::error file=PATH,line=N,title=…::message` line, which GitHub shows on the scenario's line in the
/// pull request; bad input an error at the problem's own file, line and column; each warning a
/// `::warning` line. Escaped as GitHub's toolkit escapes them (`%`, CR, LF in the message; also `:` and
/// `,` in the properties), and every other control, `##[` and a leading `::` as `TerminalText` escapes
/// them: these lines are written as they are, the only lines of Perimeter's that start with `::`. A
/// message's place is taken only from a file the scenario is, read or was refused at (`CheckResult.files`),
/// the longest that starts it: a file named `README.md:7:3: x.yaml` is annotated at its own lines, not
/// README.md's. O(the result's lines × its files).
public enum GitHubAnnotations {
    /// The annotation lines of one scenario's result; none when it passed without warnings.
    public static func lines(_ result: CheckResult) -> [String] {
        let files = ([result.path] + result.files).flatMap { [$0, TerminalText.visible($0)] }
        func placed(_ message: String) -> (String, Int?, Int?, String) {
            Self.placed(message, in: files, default: result.path)
        }
        var out = result.warnings.map { command("warning", placed($0)) }
        let title = "perimeter check: \(result.name)"
        switch result.status {
        case .passed: break
        case .badInput, .writeFailed:
            let placedDetails = result.details.map { placed($0) }
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

    /// A message of the form `FILE:LINE:COLUMN: text`, `FILE:LINE: text` or `FILE: text`, FILE the longest
    /// of `files` that starts it, split into its place and text; anything else is placed at `path`.
    static func placed(_ message: String, in files: [String], default path: String) -> (String, Int?, Int?, String) {
        let file = files.filter { message.hasPrefix($0 + ":") }.max { $0.count < $1.count }
        guard let file else { return (path, nil, nil, message) }
        let rest = message.dropFirst(file.count + 1)
        let parts = rest.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count >= 2, let line = Int(parts[0]) {
            if parts.count == 3, let column = Int(parts[1]) {
                return (file, line, column, String(parts[2]).trimmingLeadingSpace)
            }
            return (file, line, nil, parts.dropFirst().joined(separator: ":").trimmingLeadingSpace)
        }
        return (file, nil, nil, String(rest).trimmingLeadingSpace)
    }

    /// `::error file=F,line=L,col=C,title=T::message`.
    static func command(_ kind: String, _ place: (String, Int?, Int?, String), title: String? = nil) -> String {
        var properties = ["file=" + property(place.0)]
        if let line = place.1 { properties.append("line=\(line)") }
        if let column = place.2 { properties.append("col=\(column)") }
        if let title { properties.append("title=" + property(title)) }
        return "::\(kind) \(properties.joined(separator: ","))::\(data(place.3))"
    }

    /// A message escaped: every control, `##[` and a leading `::` as `TerminalText.visible` escapes them
    /// (a line end in an id is shown `\n`, not turned into a second line of the annotation), then `%`, CR
    /// and LF as GitHub's toolkit escapes them.
    static func data(_ text: String) -> String {
        var out = ""
        for character in TerminalText.visible(text).unicodeScalars {
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

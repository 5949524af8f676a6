import ArgumentParser
import Geofencing
import TextEscaping

/// `perimeter profile …`: the device profiles. `profile show NAME|FILE` prints a profile's resolved
/// settings and where each came from; `profile list` the built-ins.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Shows device profiles: the built-ins and profile files.",
        subcommands: [Show.self, List.self]
    )

    /// `perimeter profile show NAME|FILE [--json]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Prints a profile's settings, each with its unit and where its value came from.",
            discussion: """
                NAME is a built-in profile (\(Profile.builtInNames.joined(separator: ", "))); FILE a profile file \
                (NAME.profile.yaml): a base (a built-in, or another profile file relative to it) and any of the \
                monitor: block's fields, each with its unit. Each field's value came from a built-in (with the \
                published measurement or document it reproduces) or from a line of a profile file.
                """
        )

        @Argument(help: ArgumentHelp("A built-in profile's name or a profile file.", valueName: "name-or-file"))
        var profile: String

        @Flag(help: "Print the profile as one JSON object.")
        var json = false

        func run() throws {
            let shown = try resolvedProfile(profile)
            print(json ? ProfileTable.json(shown) : TerminalText.message(ProfileTable.text(shown)))
        }
    }

    /// `perimeter profile list [--json]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Lists the built-in profiles, each with what it reproduces.")

        @Flag(help: "Print one JSON object per profile, one per line.")
        var json = false

        func run() throws {
            for profile in Profile.builtIns {
                if json {
                    print(
                        JSONText.object(
                            [("name", JSONText.string(profile.name)), ("source", JSONText.string(profile.source ?? ""))],
                            layout: .spaced))
                } else {
                    print(ProfileTable.padded(profile.name, to: ProfileTable.nameWidth) + "  " + (profile.source ?? ""))
                }
            }
        }
    }
}

/// A resolved profile as `profile show` prints it: a heading, then one row per field (field, value with
/// its unit and, when fitted, its 90 % interval, where it came from), or one JSON object.
enum ProfileTable {
    /// The widest built-in's name, for `profile list`.
    static var nameWidth: Int { Profile.builtInNames.map(\.count).max() ?? 0 }

    /// The table for people. A profile file's texts (its name, source, base paths, values) are input:
    /// each is shown with its controls escaped (`TerminalText.visible`), so that none forges a line.
    static func text(_ profile: Profile) -> String {
        let shown = TerminalText.visible
        var lines = [
            shown(profile.name) + (profile.file.map { " (\(shown($0)))" } ?? "")
                + (profile.appState.map { " — app state: " + $0 } ?? "")
        ]
        if !profile.bases.isEmpty { lines.append("base: " + profile.bases.map(shown).joined(separator: " → ")) }
        if let source = profile.source { lines.append("source: " + shown(source)) }
        lines.append("")
        // A fitted value shows its 90 % interval beside it (a fitted profile file's `intervals:`).
        let fields = profile.fields.map {
            (
                name: shown($0.name), value: shown($0.value) + ($0.interval.map { " (90 % interval \($0))" } ?? ""),
                origin: $0.origin
            )
        }
        let nameWidth = max(5, fields.map(\.name.count).max() ?? 0)
        let valueWidth = max(5, fields.map(\.value.count).max() ?? 0)
        lines.append(padded("field", to: nameWidth) + "  " + padded("value", to: valueWidth) + "  from")
        for field in fields {
            lines.append(
                padded(field.name, to: nameWidth) + "  " + padded(field.value, to: valueWidth) + "  "
                    + (field.origin.map { shown($0.description) } ?? "-"))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ profile: Profile) -> String {
        let fields = profile.fields.map { field in
            JSONText.object(
                [
                    ("field", JSONText.string(field.name)), ("value", JSONText.string(field.value)),
                    ("interval", field.interval.map(JSONText.string)), ("from", origin(field.origin)),
                ], layout: .spaced)
        }
        return JSONText.object(
            [
                ("name", JSONText.string(profile.name)), ("file", JSONText.string(profile.file)),
                ("bases", JSONText.array(profile.bases.map(JSONText.string), layout: .spaced)),
                ("source", JSONText.string(profile.source)), ("appState", JSONText.string(profile.appState)),
                ("fields", JSONText.array(fields, layout: .spaced)),
            ], layout: .spaced)
    }

    /// `{"profile": NAME, "source": TEXT}` or `{"file": PATH, "line": N}`.
    private static func origin(_ origin: ProfileOrigin?) -> String {
        switch origin {
        case let .builtIn(name, source)?:
            JSONText.object([("profile", JSONText.string(name)), ("source", JSONText.string(source))], layout: .spaced)
        case let .file(path, line)?:
            JSONText.object([("file", JSONText.string(path)), ("line", JSONText.integer(line))], layout: .spaced)
        case nil: JSONText.null
        }
    }

    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

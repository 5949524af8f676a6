import ArgumentParser

/// `--all-warnings`, for the commands that load scenarios: a kind of warning said many times (a GPX point
/// dropped in each of 40 tracks) is summed up in one line with its count and its first one
/// (`Documents.WarningDigest`) unless this asks for every one.
struct WarningOptions: ParsableArguments {
    @Flag(
        help:
            "List every warning: without it, a kind said more than 5 times (a GPX point dropped) is one line with its count and its first one."
    )
    var allWarnings = false
}

import FileSystem

/// What a read does with a row that has a problem (a value missing or unreadable, a field too many).
enum RowProblemPolicy: Sendable {
    /// Stops at the first: `perimeter stream` without `--skip-invalid`, which never runs past a bad row.
    case stop
    /// Reads on, keeping every problem, and refuses the table at its end with all of them.
    case collect
    /// Skips the row, counted, and reads on (`FixTableColumns.skipInvalid`).
    case skip

    /// A table read whole (`collect`, or `skip` when asked), or streamed (`stop`, or `skip`).
    init(_ names: FixTableColumns, streaming: Bool) {
        self = names.skipInvalid ? .skip : streaming ? .stop : .collect
    }
}

/// The problems of a table's rows, in file order: the first `ProblemList.shown` kept, every one counted.
/// Touched only on a row's failure path: a table with no bad row never adds to it. Memory: 20 errors.
struct RowProblems: Sendable {
    /// The first problems, in file order.
    private(set) var kept: [FixTableError] = []
    /// Every problem added.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Adds the next problem in file order. O(1).
    mutating func add(_ problem: FixTableError) {
        count += 1
        if kept.count < ProblemList.shown { kept.append(problem) }
    }

    /// Adds `other`'s problems, which follow these in the file, their lines shifted by `lineOffset`
    /// (a piece's lines count from its first). O(shown).
    mutating func append(_ other: RowProblems, lineOffset: Int) {
        for var problem in other.kept where kept.count < ProblemList.shown {
            problem.place.line += lineOffset
            kept.append(problem)
        }
        count += other.count
    }

    /// The kept problems at lines before `line` (a piece's count goes with them: it is the count of a
    /// piece that stops at `line`, whose later rows were not read). O(shown).
    func before(line: Int) -> RowProblems {
        var earlier = RowProblems()
        for problem in kept where problem.line < line { earlier.add(problem) }
        if earlier.count == kept.count { earlier.count = count }
        return earlier
    }

    /// The problems as one error (the first, carrying the others; nil when there are none), `ending`
    /// after them (a problem that stopped the read). `names` gives the advice on skipping.
    func error(ending: FixTableError? = nil, names: FixTableColumns) -> FixTableError? {
        var all = self
        if let ending { all.add(ending) }
        guard var first = all.kept.first else { return nil }
        guard all.count > 1 else { return first }
        first.otherProblems = Array(all.kept.dropFirst())
        first.problemCount = all.count
        first.skipAdvice = names.skipAdvice
        return first
    }

    /// The warning of the rows skipped for their problems: how many, and the first of them;
    /// nil when none was.
    func skippedWarning(file: String, names: FixTableColumns) -> String? {
        guard let first = kept.first else { return nil }
        let rows = count == 1 ? "1 row with a problem" : "\(count) rows with a problem"
        return "\(file): \(rows) skipped (\(names.skipSetting)); the first: \(first)"
    }
}

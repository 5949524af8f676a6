/// Many problems reported at once, the way every reader that gathers them writes them (a field log's,
/// a fix table's): the first `shown` one a line, in the order found, then how many more there are.
public enum ProblemList {
    /// How many problems are written out: 20.
    public static let shown = 20

    /// The first `shown` of `problems`, one a line, then `and N more problems` followed by `more` when
    /// `total` (every problem, counted where only the first were kept) is past `shown`. O(shown).
    public static func lines(_ problems: some Sequence<String>, total: Int, more: String = "") -> [String] {
        var lines = Array(problems.prefix(shown))
        let rest = total - min(total, shown)
        if rest > 0 { lines.append("and \(rest) more problem\(rest == 1 ? "" : "s")\(more)") }
        return lines
    }
}

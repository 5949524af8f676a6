/// "Did you mean …?" for a misspelt key, option or name: the one place that guesses.
public enum Suggestion {
    /// The candidate closest to `text`: the same letters in another case, else one at most a third of
    /// `text`'s length (1 or 2) edits away, a swap of two neighbouring letters counting as one edit
    /// (`cuont` → `count`); nil when none is that close. O(candidates × length²).
    public static func closest(to text: String, in candidates: [String]) -> String? {
        let lowered = Array(text.lowercased())
        if let same = candidates.first(where: { $0.lowercased() == text.lowercased() }) { return same }
        let scored = candidates.map { ($0, editDistance(Array($0.lowercased()), lowered)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, min(2, text.count / 3)) else { return nil }
        return best.0
    }

    /// Insertions, deletions, substitutions and transpositions of neighbours (optimal string alignment).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var twoBack = Array(repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], twoBack[j - 2] + 1)
                }
            }
            twoBack = previous
            previous = current
        }
        return previous[b.count]
    }
}

/// The one-to-one, order-preserving alignment of one key's reference times with its profile times, as
/// `perimeter compare` pairs them (README, "compare").
///
/// Of all alignments in which no two pairs cross in time and every pair is at most `window` apart, the one
/// of least cost Σ|Δt| + window × (unpaired events on either side); of those of equal cost, the one whose
/// paired profile indices, taken reference by reference (an unpaired reference event counting as after
/// every profile index), form the lexicographically smallest sequence: ties go to the earliest profile
/// event. Costs are whole microseconds, so equal means equal.
///
/// Two pointers cut the times into blocks at every gap wider than the window (no pair can span one, so the
/// blocks align independently); each block is aligned by dynamic programming in O(n_b · m_b) time and
/// memory. A fleet's keys are small blocks: O(n + m) overall.
public enum EventAlignment {
    /// For each reference time, the index of its paired profile time, or nil (missed). Both ascending.
    public static func align(reference: [Int64], profile: [Int64], window: Int64) -> [Int?] {
        var result = [Int?](repeating: nil, count: reference.count)
        var i = 0, j = 0
        while i < reference.count || j < profile.count {
            // One block: extend while the next time (of either side) is within the window of the last one.
            let (i0, j0) = (i, j)
            var last = Int64.min
            while i < reference.count || j < profile.count {
                let takeReference = j >= profile.count || (i < reference.count && reference[i] <= profile[j])
                let t = takeReference ? reference[i] : profile[j]
                if last != Int64.min && t - last > window { break }
                last = t
                if takeReference { i += 1 } else { j += 1 }
            }
            if i - i0 == 1 || j - j0 == 1 {
                alignOne(reference, i0..<i, profile, j0..<j, window: window, into: &result)
            } else if i > i0 && j > j0 {
                let block = alignBlock(Array(reference[i0..<i]), Array(profile[j0..<j]), window: window)
                for (k, match) in block.enumerated() { result[i0 + k] = match.map { j0 + $0 } }
            }
        }
        return result
    }

    /// A block with one time on a side: every alignment has at most one pair, and any pair (|Δt| ≤ window)
    /// costs less than none, so the nearest pair is taken; of equally near ones, the earliest reference
    /// time (a paired first reference precedes an unpaired one) with the earliest profile time. O(n + m).
    static func alignOne(
        _ reference: [Int64], _ rs: Range<Int>, _ profile: [Int64], _ ps: Range<Int>, window: Int64,
        into result: inout [Int?]
    ) {
        var best: (gap: Int64, i: Int, j: Int)?
        for i in rs {
            for j in ps {
                let gap = abs(reference[i] - profile[j])
                if gap <= window && best.map({ gap < $0.gap }) ?? true { best = (gap, i, j) }
            }
        }
        if let best { result[best.i] = best.j }
    }

    /// One block: suffix costs E[i][j] (of aligning reference[i...] with profile[j...]) backwards, then a
    /// walk forwards that takes, reference by reference, the smallest profile index an optimum allows.
    /// O(n · m).
    static func alignBlock(_ reference: [Int64], _ profile: [Int64], window: Int64) -> [Int?] {
        let n = reference.count, m = profile.count
        if n == 0 || m == 0 { return [Int?](repeating: nil, count: n) }
        // A cost per unpaired event above every possible Σ|Δt| orders alignments as any larger one does
        // (fewest unpaired first, then least Σ|Δt|): so a huge window cannot overflow the sums.
        let span = max(reference[n - 1], profile[m - 1]) - min(reference[0], profile[0])
        let (most, overflow) = span.multipliedReportingOverflow(by: Int64(min(n, m)))
        let unpaired = overflow ? window : min(window, most + 1)
        let width = m + 1
        var cost = [Int64](repeating: 0, count: (n + 1) * width)
        for j in 0...m { cost[n * width + j] = Int64(m - j) * unpaired }
        for i in stride(from: n - 1, through: 0, by: -1) {
            cost[i * width + m] = Int64(n - i) * unpaired
            for j in stride(from: m - 1, through: 0, by: -1) {
                var best = min(cost[(i + 1) * width + j], cost[i * width + j + 1]) + unpaired
                let gap = abs(reference[i] - profile[j])
                if gap <= window { best = min(best, cost[(i + 1) * width + j + 1] + gap) }
                cost[i * width + j] = best
            }
        }
        var result = [Int?](repeating: nil, count: n)
        var j = 0
        for i in 0..<n {
            let target = cost[i * width + j]
            var skipped: Int64 = 0
            var chosen: Int?
            for k in j..<m {
                let gap = abs(reference[i] - profile[k])
                if gap <= window && skipped + gap + cost[(i + 1) * width + k + 1] == target {
                    chosen = k
                    break
                }
                skipped += unpaired
                if profile[k] - reference[i] > window { break }
            }
            if let chosen {
                result[i] = chosen
                j = chosen + 1
            }
        }
        return result
    }
}

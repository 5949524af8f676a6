/// Percentiles by the nearest-rank method: the p-th percentile of n sorted values is the value of rank
/// ⌈p/100 · n⌉ (1-based), so that it is always one of the values. O(1) on a sorted array.
public enum NearestRank {
    /// The `percent`-th percentile (0 < percent ≤ 100) of `sorted`, ascending; nil when it is empty.
    public static func percentile<T>(_ percent: Int, of sorted: [T]) -> T? {
        guard !sorted.isEmpty else { return nil }
        let rank = (percent * sorted.count + 99) / 100  // ⌈percent · n / 100⌉ in integers
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }
}

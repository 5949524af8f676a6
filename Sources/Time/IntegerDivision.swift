/// Integer division rounded toward negative infinity: `floorDiv(-7, 2) == -4` (Swift's `/` gives -3).
/// For times before 1970 and ticks before a clock's start. O(1).
@inlinable
public func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// Integer division rounded toward positive infinity: `ceilDiv(7, 2) == 4`, `ceilDiv(-7, 2) == -3`. O(1).
@inlinable
public func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

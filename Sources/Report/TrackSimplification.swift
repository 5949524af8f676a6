/// Douglas–Peucker simplification of a polyline in map units: keeps the points that stray more than
/// `tolerance` from the line between the points kept around them, and always both ends. For drawing only
/// (a fleet's tracks would otherwise outweigh everything else in the page). O(n log n) typical, O(n²)
/// worst; iterative (no recursion depth to overflow on long tracks).
func simplified(_ points: [(x: Double, y: Double)], tolerance: Double) -> [(x: Double, y: Double)] {
    guard points.count > 2 else { return points }
    var keep = Array(repeating: false, count: points.count)
    keep[0] = true
    keep[points.count - 1] = true
    var stack = [(0, points.count - 1)]
    let squared = tolerance * tolerance
    while let (first, last) = stack.popLast() {
        guard last > first + 1 else { continue }
        let a = points[first], b = points[last]
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        var farthest = -1.0, index = first
        for i in (first + 1)..<last {
            let p = points[i]
            var distance: Double
            if length == 0 {
                distance = (p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)
            } else {
                let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
                let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
                distance = qx * qx + qy * qy
            }
            if distance > farthest {
                farthest = distance
                index = i
            }
        }
        if farthest > squared {
            keep[index] = true
            stack.append((first, index))
            stack.append((index, last))
        }
    }
    return points.indices.filter { keep[$0] }.map { points[$0] }
}

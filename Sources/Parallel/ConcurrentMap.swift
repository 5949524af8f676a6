import Dispatch
import Foundation

/// `body(i)` for every i in `0..<count`, on up to `threads` threads (default: one a core; 1: in order on
/// the calling thread), the results in index order: which thread ran what never shows in the output.
/// Each task writes only its own slot; the calling thread takes tasks too. Memory: the `count` results.
public func concurrentMap<Value>(
    _ count: Int, threads: Int = ProcessInfo.processInfo.activeProcessorCount, _ body: @Sendable (Int) -> Value
) -> [Value] {
    if threads <= 1 || count <= 1 { return (0..<count).map(body) }
    let slots = Slots<Value>(count: count)
    if threads >= ProcessInfo.processInfo.activeProcessorCount {
        DispatchQueue.concurrentPerform(iterations: count) { i in slots.store(i, body(i)) }
    } else {
        // Fewer threads than cores: `threads` workers (the calling thread one of them) take the next index.
        let next = IndexQueue()
        DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
            while let i = next.take(below: count) { slots.store(i, body(i)) }
        }
    }
    return slots.values()
}

/// The indices of `concurrentMap`'s tasks, handed out in order to whichever worker asks. O(1) a task.
private final class IndexQueue: @unchecked Sendable {
    // Safety: `next` is read and written only under `lock`.
    private let lock = NSLock()
    private var next = 0

    func take(below count: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// One slot per task of `concurrentMap`.
private final class Slots<Value>: @unchecked Sendable {
    // Safety: slot i is written once by task i during concurrentPerform, and read only after it
    // returned; the buffer itself is never resized.
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ i: Int, _ value: Value) { slots[i] = value }

    /// The results, moved out of their slots.
    func values() -> [Value] {
        // Invariant: concurrentPerform returned, so task i stored slot i.
        // swift-format-ignore: NeverForceUnwrap
        slots.indices.map { i in slots[i].take()! }
    }
}

import Foundation
import Parallel
import Testing

/// `concurrentMap` on any number of threads: the results in index order, each index run once, and one
/// thread running everything on the calling thread.
@Suite("concurrentMap")
struct ConcurrentMapTests {
    /// (tasks, threads): none, one, fewer threads than tasks, more, one thread, many.
    static let cases: [(count: Int, threads: Int)] = [(0, 2), (1, 4), (5, 1), (100, 2), (1000, 3), (37, 64)]

    @Test("Results in index order, each index once", arguments: cases)
    func inOrder(count: Int, threads: Int) {
        let runs = Counter()
        let squares = concurrentMap(count, threads: threads) { i in
            runs.add()
            return i * i
        }
        #expect(squares == (0..<count).map { $0 * $0 })
        #expect(runs.value == count)
    }

    @Test("One thread runs every task on the calling thread, in order")
    func oneThread() {
        let me = pthread_self()
        let order = Counter()
        let seen = concurrentMap(50, threads: 1) { i in
            (pthread_equal(pthread_self(), me) != 0, order.add() == i)
        }
        #expect(seen.allSatisfy { $0.0 && $0.1 })
    }

    /// A count shared by the tasks.
    final class Counter: @unchecked Sendable {
        // Safety: `count` is read and written only under `lock`.
        private let lock = NSLock()
        private var count = 0

        /// Adds one; returns the count before.
        @discardableResult func add() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count - 1
        }
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }
}

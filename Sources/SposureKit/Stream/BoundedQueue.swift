import FoundationEssentials
import Glibc

/// A first-in first-out queue with a fixed capacity, shared between threads.
///
/// A full queue blocks its producer and an empty one its consumer, so a slow
/// stage slows the whole pipe instead of growing memory. Closing it lets the
/// consumer drain what is left and then see the end.
public final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = Condition()
    private var ring: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false

    /// The most elements the queue holds.
    public let capacity: Int

    /// Called after every push that added something, outside the lock; lets a
    /// consumer blocked elsewhere (in `curl_multi_poll`) wake up.
    public var onPush: (@Sendable () -> Void)?

    /// A queue that holds at most `capacity` elements (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = Array(repeating: nil, count: self.capacity)
    }

    /// Appends `element`, waiting while the queue is full.
    /// Returns false, dropping it, when the queue was closed.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        push(contentsOf: CollectionOfOne(element))
    }

    /// Appends every element in order, waiting for room as needed.
    /// Returns false when the queue was closed before all were in.
    @discardableResult
    public func push<S: Sequence>(contentsOf elements: S) -> Bool where S.Element == Element {
        var iterator = elements.makeIterator()
        var next = iterator.next()
        while next != nil {
            condition.lock()
            while count == capacity && !closed { condition.wait() }
            if closed {
                condition.unlock()
                return false
            }
            while count < capacity, let element = next {
                append(element)
                next = iterator.next()
            }
            condition.broadcast()
            condition.unlock()
            onPush?()
        }
        return true
    }

    /// Appends `element` only if there is room now.
    public func tryPush(_ element: Element) -> Bool {
        condition.lock()
        guard count < capacity && !closed else {
            condition.unlock()
            return false
        }
        append(element)
        condition.broadcast()
        condition.unlock()
        onPush?()
        return true
    }

    /// Appends as many of `elements` (from the start) as there is room for now,
    /// under one lock; returns how many went in.
    public func tryPush(contentsOf elements: ArraySlice<Element>) -> Int {
        condition.lock()
        guard !closed else {
            condition.unlock()
            return 0
        }
        let n = Swift.min(capacity - count, elements.count)
        for element in elements.prefix(n) { append(element) }
        if n > 0 { condition.broadcast() }
        condition.unlock()
        if n > 0 { onPush?() }
        return n
    }

    /// Takes up to `max` elements, waiting until there is at least one.
    /// An empty result means the queue is closed and drained.
    public func popBatch(max: Int = .max) -> [Element] {
        condition.lock()
        while count == 0 && !closed { condition.wait() }
        let batch = take(max)
        condition.unlock()
        return batch
    }

    /// Takes up to `max` elements, waiting at most until `deadline` (seconds on
    /// the monotonic clock, see ``monotonicSeconds()``) for the first one.
    /// An empty result means the deadline passed, or the queue is closed and drained.
    public func popBatch(max: Int = .max, until deadline: Double) -> [Element] {
        condition.lock()
        while count == 0 && !closed {
            let left = deadline - monotonicSeconds()
            if left <= 0 { break }
            condition.wait(seconds: left)
        }
        let batch = take(max)
        condition.unlock()
        return batch
    }

    /// Takes up to `max` elements that are there now, without waiting.
    public func tryPopBatch(max: Int = .max) -> [Element] {
        condition.lock()
        let batch = take(max)
        condition.unlock()
        return batch
    }

    /// Takes one element, waiting for it; nil when closed and drained.
    public func pop() -> Element? { popBatch(max: 1).first }

    /// No more pushes; waiting producers return false, consumers drain what is left.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        onPush?()
    }

    /// True when closed and empty: nothing more will come out.
    public var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed && count == 0
    }

    /// The number of elements waiting.
    public var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    private func append(_ element: Element) {
        ring[(head + count) % capacity] = element
        count += 1
    }

    private func take(_ limit: Int) -> [Element] {
        let n = Swift.min(limit, count)
        guard n > 0 else { return [] }
        var batch: [Element] = []
        batch.reserveCapacity(n)
        for _ in 0..<n {
            batch.append(ring[head]!)
            ring[head] = nil
            head = (head + 1) % capacity
        }
        count -= n
        if count < capacity { condition.broadcast() }
        return batch
    }
}

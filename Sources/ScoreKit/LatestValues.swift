/// The last `capacity` values appended, oldest first: what a statistic over
/// recent rounds needs, in memory that does not grow with the history.
struct LatestValues<Element: Sendable>: Sendable {
    /// The most values kept.
    let capacity: Int
    private var storage: [Element] = []

    /// Keeps up to `capacity` values (none when it is 0 or less).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
        storage.reserveCapacity(2 * self.capacity)
    }

    /// Appends `value`, forgetting the oldest past `capacity`.
    mutating func append(_ value: Element) {
        guard capacity > 0 else { return }
        storage.append(value)
        // Drop in bulk once the array is twice full: amortised O(1) an append.
        if storage.count >= 2 * capacity { storage.removeFirst(storage.count - capacity) }
    }

    /// The values kept, oldest first.
    var values: ArraySlice<Element> { storage.suffix(capacity) }
}

/// Puts results that finish out of order back into input order.
///
/// Each item gets a sequence number when it is read; a result is held until
/// every earlier one has been handed on. Its size is bounded by how far ahead
/// the stage lets work run (the admission window), not by this type.
public struct ReorderBuffer<Element> {
    private var held: [Int: Element] = [:]
    /// The sequence number handed on next.
    public private(set) var next = 0

    /// An empty buffer starting at sequence number 0.
    public init() {}

    /// Holds the result for `sequence`.
    public mutating func put(_ sequence: Int, _ element: Element) {
        held[sequence] = element
    }

    /// Takes every result that is next in order.
    public mutating func takeReady() -> [Element] {
        var ready: [Element] = []
        while let element = held.removeValue(forKey: next) {
            ready.append(element)
            next += 1
        }
        return ready
    }

    /// Moves past the next sequence number, whose result was handed on directly.
    public mutating func skip() { next += 1 }

    /// How many results are held waiting for an earlier one.
    public var count: Int { held.count }
}

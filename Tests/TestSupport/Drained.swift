import Foundation

/// What a drainer thread read, handed over once: the tests that run a
/// process read its pipes on threads of their own, and wait for the bytes here.
public final class Drained: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    /// An empty drain, not yet handed over.
    public init() {}

    /// Hands `value` over.
    public func set(_ value: Data) {
        data = value
        done.signal()
    }

    /// Waits for what was handed over.
    public func wait() -> Data {
        done.wait()
        return data
    }
}

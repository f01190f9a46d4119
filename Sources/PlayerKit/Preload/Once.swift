import Synchronization

/// A flag that lets one caller through, once, whatever thread it is on.
final class Once: Sendable {
    private let done = Atomic<Bool>(false)

    /// True for the first call only.
    func first() -> Bool {
        !done.exchange(true, ordering: .relaxed)
    }
}

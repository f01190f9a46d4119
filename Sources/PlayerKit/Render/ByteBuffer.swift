/// Bytes written into memory of our own, grown as needed: the hot path of
/// the renderers, without `Array`'s checks on every byte. Copies of a writer
/// share its buffer, so keep one writer per buffer.
final class ByteBuffer: @unchecked Sendable {
    var base: UnsafeMutablePointer<UInt8>
    var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a file descriptor into numbered lines, with a cap on a line's length.
///
/// Blank lines are counted but not handed on, a trailing `\r` is dropped, a last
/// line without `\n` is still a line, and a line longer than the cap is handed on
/// as ``Line/tooLong(number:prefix:length:)`` without ever being held whole.
public struct LineReader {
    /// One line, or the start of one that was too long.
    public enum Line {
        /// A complete line, without its `\r\n` or `\n`; valid only during the call.
        case text(number: Int, bytes: UnsafeRawBufferPointer)
        /// A line over the cap: its first bytes and its full length.
        case tooLong(number: Int, prefix: [UInt8], length: Int)
    }

    /// How many bytes of an over-long line are kept to report it.
    public static let reportedPrefix = 256

    private let fd: Int32
    private let maxLineBytes: Int
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0  // first byte not yet handed on
    private var end = 0  // one past the last byte read
    private var lineNumber = 0
    private var discarding: (prefix: [UInt8], length: Int)?

    /// A reader of `fd`; lines longer than `maxLineBytes` are reported, not read whole.
    public init(fd: Int32, maxLineBytes: Int) {
        self.fd = fd
        self.maxLineBytes = max(16, maxLineBytes)
        buffer = .allocate(byteCount: min(max(64 << 10, self.maxLineBytes / 16), 1 << 20), alignment: 16)
    }

    /// Frees the buffer.
    public mutating func close() { buffer.deallocate() }

    /// Reads once (blocking) and hands every complete line to `body`.
    /// Returns false at end of input, after the last line; throws on a read error.
    public mutating func readChunk(_ body: (Line) -> Void) throws(FileError) -> Bool {
        if start > 0 && start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            makeRoom()
        }
        let count = Glibc.read(fd, buffer.baseAddress! + end, buffer.count - end)
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return true }
            throw FileError("read", path: "fd \(fd)", code: errno)
        }
        if count == 0 {
            finish(body)
            return false
        }
        let scanFrom = end
        end += count
        split(from: scanFrom, body)
        return true
    }

    private mutating func split(from scanFrom: Int, _ body: (Line) -> Void) {
        var scan = scanFrom
        let base = buffer.baseAddress!
        while scan < end, let hit = memchr(base + scan, 0x0A, end - scan) {
            let newline = base.distance(to: hit)
            emit(from: start, to: newline, body)
            start = newline + 1
            scan = start
        }
        // What remains is a partial line; too long means it is dropped as it comes.
        let partial = end - start
        if discarding != nil {
            discarding!.length += partial
            start = 0
            end = 0
        } else if partial > maxLineBytes {
            discarding = (Array(UnsafeRawBufferPointer(start: base + start, count: min(partial, Self.reportedPrefix))), partial)
            start = 0
            end = 0
        }
    }

    private mutating func emit(from lineStart: Int, to lineEnd: Int, _ body: (Line) -> Void) {
        lineNumber += 1
        var stop = lineEnd
        if let pending = discarding {
            discarding = nil
            body(.tooLong(number: lineNumber, prefix: pending.prefix, length: pending.length + (stop - lineStart)))
            return
        }
        let base = buffer.baseAddress!
        if stop > lineStart && base.load(fromByteOffset: stop - 1, as: UInt8.self) == 0x0D { stop -= 1 }
        if stop - lineStart > maxLineBytes {
            let prefix = Array(UnsafeRawBufferPointer(start: base + lineStart, count: Self.reportedPrefix))
            body(.tooLong(number: lineNumber, prefix: prefix, length: stop - lineStart))
            return
        }
        let bytes = UnsafeRawBufferPointer(start: base + lineStart, count: stop - lineStart)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        body(.text(number: lineNumber, bytes: bytes))
    }

    private mutating func finish(_ body: (Line) -> Void) {
        if start < end || discarding != nil {
            emit(from: start, to: end, body)
        }
        start = 0
        end = 0
    }

    /// Moves the partial line to the front, growing the buffer when it is full.
    private mutating func makeRoom() {
        let partial = end - start
        if start > 0 {
            let base = buffer.baseAddress!
            memmove(base, base + start, partial)
            start = 0
            end = partial
        }
        if end == buffer.count {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
            buffer.deallocate()
            buffer = bigger
        }
    }
}

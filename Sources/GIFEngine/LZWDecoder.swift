/// A GIF LZW decoder of our own, used only for image data giflib refuses.
///
/// giflib 5.2.1 rejects an LZW minimum code size above 8 (valid GIF allows up
/// to 11: the pygif suite's `max-codes` uses 11), and it reports an error,
/// without saying how many pixels it produced, when the data ends before the
/// image is full (pygif's `missing-pixels`, Wuffs' `pixel-data-not-enough`),
/// where browsers draw the pixels that did come. This decoder takes over for
/// such an image, from its first data byte; it reads sub-blocks itself, stops
/// at the end code or the end of the data with the pixels so far, and stops
/// with ``Status/invalidCode(_:)`` at a code that is not in the table.
final class LZWDecoder {
    /// Where decoding stands.
    enum Status: Equatable {
        /// More pixels may follow.
        case running
        /// The end code, or the end of the data, was reached.
        case finished
        /// A code that is neither a literal, the clear or end code, nor in the table.
        case invalidCode(Int)
    }

    /// The largest code a GIF may use (12 bits).
    static let maxCode = 4095

    private(set) var status = Status.running
    private let bytes: UnsafeRawBufferPointer
    private var position: Int
    private let end: Int
    private var blockRemaining = 0
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0

    private let minimumCodeSize: Int
    private let clearCode: Int
    private let endCode: Int
    private var codeSize: Int
    private var nextCode: Int
    private var previous = -1

    /// The string table: each code's prefix code, last pixel and first pixel.
    private let prefix: UnsafeMutablePointer<UInt16>
    private let suffix: UnsafeMutablePointer<UInt8>
    private let first: UnsafeMutablePointer<UInt8>
    /// Pixels decoded but not yet handed out, last one first.
    private let stack: UnsafeMutablePointer<UInt8>
    private var stackTop = 0

    /// A decoder for the sub-blocks in `bytes[dataOffset..<dataEnd]`, with the
    /// given minimum code size (0 to 11; nil for anything larger).
    init?(bytes: UnsafeRawBufferPointer, dataOffset: Int, dataEnd: Int, minimumCodeSize: Int) {
        guard (0...11).contains(minimumCodeSize), dataOffset >= 0, dataEnd <= bytes.count else { return nil }
        self.bytes = bytes
        position = dataOffset
        end = dataEnd
        self.minimumCodeSize = minimumCodeSize
        clearCode = 1 << minimumCodeSize
        endCode = clearCode + 1
        codeSize = minimumCodeSize + 1
        nextCode = endCode + 1
        prefix = .allocate(capacity: Self.maxCode + 1)
        suffix = .allocate(capacity: Self.maxCode + 1)
        first = .allocate(capacity: Self.maxCode + 1)
        stack = .allocate(capacity: Self.maxCode + 2)
        prefix.initialize(repeating: 0, count: Self.maxCode + 1)
        suffix.initialize(repeating: 0, count: Self.maxCode + 1)
        first.initialize(repeating: 0, count: Self.maxCode + 1)
        stack.initialize(repeating: 0, count: Self.maxCode + 2)
        for literal in 0..<clearCode { first[literal] = Self.pixel(literal) }
    }

    deinit {
        prefix.deallocate()
        suffix.deallocate()
        first.deallocate()
        stack.deallocate()
    }

    /// Writes up to `count` pixels (color indices) to `target`; returns how
    /// many. Fewer than `count` means decoding has stopped: see ``status``.
    func read(into target: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var written = 0
        while written < count {
            if stackTop > 0 {
                let take = min(stackTop, count - written)
                for _ in 0..<take {
                    stackTop -= 1
                    target[written] = stack[stackTop]
                    written += 1
                }
                continue
            }
            guard status == .running else { break }
            guard let code = readCode() else {
                status = .finished
                break
            }
            if code == clearCode {
                codeSize = minimumCodeSize + 1
                nextCode = endCode + 1
                previous = -1
                continue
            }
            if code == endCode {
                status = .finished
                break
            }
            if previous < 0 {
                // The first code after a clear must be a literal.
                guard code < clearCode else {
                    status = .invalidCode(code)
                    break
                }
                target[written] = Self.pixel(code)
                written += 1
                previous = code
                continue
            }
            guard code <= nextCode, code <= Self.maxCode else {
                status = .invalidCode(code)
                break
            }
            if nextCode <= Self.maxCode {
                // The new entry is the previous string plus the first pixel of
                // this one; when the code is the entry being made (KwKwK), that
                // first pixel is the previous string's own first pixel.
                let head = code < nextCode ? first[code] : first[previous]
                prefix[nextCode] = UInt16(previous)
                suffix[nextCode] = head
                first[nextCode] = first[previous]
                nextCode += 1
                if nextCode >= 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
            // A full table stays full until a clear (a "deferred clear"):
            // codes go on being read at 12 bits and nothing is added.
            // Entries point only to lower codes, so this walk ends within 4096 steps.
            var walk = code
            while walk > endCode {
                stack[stackTop] = suffix[walk]
                stackTop += 1
                walk = Int(prefix[walk])
            }
            stack[stackTop] = Self.pixel(walk)
            stackTop += 1
            previous = code
        }
        return written
    }

    /// A literal as a color index. Literals above 255 exist only with code
    /// sizes 9 to 11 and name no color in any table; they draw as index 255,
    /// which is past the end of every table smaller than 256 (opaque black).
    private static func pixel(_ literal: Int) -> UInt8 {
        UInt8(min(literal, 255))
    }

    /// The next code, or nil when the data ends (block terminator or end of range).
    private func readCode() -> Int? {
        while bitCount < codeSize {
            if blockRemaining == 0 {
                guard position < end else { return nil }
                let length = Int(bytes[position])
                position += 1
                if length == 0 { return nil }
                blockRemaining = length
            }
            guard position < end else { return nil }
            bitBuffer |= UInt64(bytes[position]) << UInt64(bitCount)
            position += 1
            blockRemaining -= 1
            bitCount += 8
        }
        let code = Int(bitBuffer & ((1 << UInt64(codeSize)) - 1))
        bitBuffer >>= UInt64(codeSize)
        bitCount -= codeSize
        return code
    }
}

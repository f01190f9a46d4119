/// Numbers the items a stage reads and hands their output lines to the output
/// queue in input order (or as they finish), never blocking the caller while
/// it has transfers to drive.
///
/// Each item read gets a sequence number; its result (any number of lines,
/// none included) is held until every earlier item's result has been handed
/// on. The window bounds how many items may be in the stage at once, read
/// but not yet written, which bounds the reorder buffer and the lines waiting
/// for room in the output queue.
///
/// A result may also be made at its turn (``emit(_:later:)``): the lines are
/// made only once every earlier result has been handed on, so work that must
/// see results in input order (dropping repeats across pages) runs in that order.
public final class OutputSequencer {
    /// A result held for its turn: its lines, or how to make them then.
    private enum Held {
        case lines([[UInt8]])
        case later(() -> [[UInt8]])

        func make() -> [[UInt8]] {
            switch self {
            case .lines(let lines): return lines
            case .later(let make): return make()
            }
        }
    }

    private let output: BoundedQueue<[UInt8]>
    private let ordered: Bool
    private let window: Int
    private var reorder = ReorderBuffer<Held>()
    private var pending: [[UInt8]] = []
    private var pendingStart = 0
    private var issued = 0
    private var released = 0

    /// A sequencer writing to `output`, keeping input order when `ordered`,
    /// with at most `window` items in the stage.
    public init(output: BoundedQueue<[UInt8]>, ordered: Bool, window: Int) {
        self.output = output
        self.ordered = ordered
        self.window = max(1, window)
    }

    /// The sequence number for the next item read.
    public func nextSequence() -> Int {
        defer { issued += 1 }
        return issued
    }

    /// At most this many items read that the next stage has not taken yet
    /// (issue 29 #10), counted by ``linesTaken`` (one line an item): nil, no such bound.
    public var ahead: (limit: Int, linesTaken: () -> Int)?

    /// How many more items may be read now.
    public var room: Int {
        let free = max(0, window - (issued - released) - (pending.count - pendingStart))
        guard let ahead else { return free }
        return min(free, max(0, ahead.limit - (issued - ahead.linesTaken())))
    }

    /// Items read whose result is not yet handed on (held or pending).
    public var inStage: Int { (issued - released) + (pending.count - pendingStart) }

    /// True when lines are waiting for room in the output queue.
    public var hasPending: Bool { pendingStart < pending.count }

    /// The result of item `sequence`: its lines (possibly none).
    public func emit(_ sequence: Int, _ lines: [[UInt8]]) {
        settle(sequence, .lines(lines))
    }

    /// The result of item `sequence`, made by `make` at its turn: once every
    /// earlier item's result has been handed on (at once when unordered).
    public func emit(_ sequence: Int, later make: @escaping () -> [[UInt8]]) {
        settle(sequence, .later(make))
    }

    private func settle(_ sequence: Int, _ result: Held) {
        if ordered && sequence == reorder.next && reorder.count == 0 {
            // Next in line, nothing held: no need to go through the reorder buffer.
            reorder.skip()
            pending.append(contentsOf: result.make())
            released += 1
        } else if ordered {
            reorder.put(sequence, result)
            for ready in reorder.takeReady() {
                pending.append(contentsOf: ready.make())
                released += 1
            }
        } else {
            pending.append(contentsOf: result.make())
            released += 1
        }
    }

    /// The result of item `sequence`: one line.
    public func emit(_ sequence: Int, _ line: [UInt8]) { emit(sequence, [line]) }

    /// Numbers each item of `batch` in order: a bad line becomes the record
    /// `badLine` writes of it (the stage's `bad_json` error) at its place, a
    /// record goes to `handle` with its number. Returns how many lines were bad.
    public func admit(_ batch: [InputItem], badLine: (BadLine) -> [UInt8], _ handle: (Int, InputRecord) -> Void) -> Int {
        var bad = 0
        for item in batch {
            let sequence = nextSequence()
            switch item {
            case .bad(let line):
                bad += 1
                emit(sequence, badLine(line))
            case .record(let input):
                handle(sequence, input)
            case .passThrough(_, let raw):
                emit(sequence, raw)
            }
        }
        return bad
    }

    /// Hands waiting lines to the output queue without blocking.
    public func deliver() {
        if pendingStart < pending.count {
            pendingStart += output.tryPush(contentsOf: pending[pendingStart...])
        }
        compact()
    }

    /// Hands one waiting line on, blocking for room; false when the output is closed.
    @discardableResult
    public func deliverOneWaiting() -> Bool {
        guard pendingStart < pending.count else { return true }
        let ok = output.push(pending[pendingStart])
        pendingStart += 1
        compact()
        if !ok { dropPending() }
        return ok
    }

    /// Hands every waiting line on, blocking as needed.
    public func flush() {
        if pendingStart < pending.count {
            output.push(contentsOf: pending[pendingStart...])
        }
        dropPending()
    }

    /// Forgets waiting lines (downstream is gone).
    public func dropPending() {
        pending.removeAll()
        pendingStart = 0
    }

    private func compact() {
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        } else if pendingStart > 1024 && pendingStart * 2 > pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
    }
}

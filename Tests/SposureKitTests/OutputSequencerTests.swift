import RecordKit
import Testing
@testable import SposureKit

/// The lines the sequencer handed to `queue`, as text.
private func drained(_ queue: BoundedQueue<[UInt8]>) -> [String] {
    queue.close()
    return queue.popBatch(max: 1000).map { String(decoding: $0, as: UTF8.self) }
}

private func line(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite struct OutputSequencerTests {
    @Test func handsResultsOnInInputOrderWhateverOrderTheyFinish() {
        let queue = BoundedQueue<[UInt8]>(capacity: 100)
        let sequencer = OutputSequencer(output: queue, ordered: true, window: 10)
        let (a, b, c) = (sequencer.nextSequence(), sequencer.nextSequence(), sequencer.nextSequence())
        sequencer.emit(c, line("c"))
        sequencer.emit(b, [line("b1"), line("b2")])
        sequencer.deliver()
        #expect(queue.tryPopBatch().isEmpty)
        sequencer.emit(a, [[UInt8]]())
        sequencer.deliver()
        #expect(drained(queue) == ["b1", "b2", "c"])
    }

    @Test func unorderedHandsEachOnAsItComes() {
        let queue = BoundedQueue<[UInt8]>(capacity: 100)
        let sequencer = OutputSequencer(output: queue, ordered: false, window: 10)
        let (a, b) = (sequencer.nextSequence(), sequencer.nextSequence())
        sequencer.emit(b, line("b"))
        sequencer.emit(a, line("a"))
        sequencer.deliver()
        #expect(drained(queue) == ["b", "a"])
    }

    @Test func makesALaterResultOnlyAtItsTurnAndInOrder() {
        let queue = BoundedQueue<[UInt8]>(capacity: 100)
        let sequencer = OutputSequencer(output: queue, ordered: true, window: 10)
        var made: [String] = []
        let (a, b, c) = (sequencer.nextSequence(), sequencer.nextSequence(), sequencer.nextSequence())
        sequencer.emit(c) { made.append("c"); return [line("c")] }
        sequencer.emit(b) { made.append("b"); return [line("b")] }
        #expect(made.isEmpty)
        sequencer.emit(a, line("a"))
        #expect(made == ["b", "c"])
        sequencer.deliver()
        #expect(drained(queue) == ["a", "b", "c"])
    }

    @Test func theWindowBoundsWhatIsReadButNotWritten() {
        let queue = BoundedQueue<[UInt8]>(capacity: 2)
        let sequencer = OutputSequencer(output: queue, ordered: true, window: 3)
        #expect(sequencer.room == 3)
        let first = sequencer.nextSequence()
        _ = sequencer.nextSequence()
        #expect(sequencer.room == 1)
        sequencer.emit(first, [line("1"), line("2"), line("3")])
        // Released, but of its three lines one waits for room in a queue of
        // two, and counts against the window with the item still in the stage.
        sequencer.deliver()
        #expect(sequencer.hasPending)
        #expect(sequencer.room == 1)
        _ = queue.popBatch(max: 2)
        sequencer.deliver()
        #expect(!sequencer.hasPending)
        #expect(sequencer.room == 2)
    }

    @Test func admitNumbersBadLinesAndPassThroughsAtTheirPlace() {
        let queue = BoundedQueue<[UInt8]>(capacity: 100)
        let sequencer = OutputSequencer(output: queue, ordered: true, window: 10)
        let stage = Stage(name: "seq-test", options: StageOptions())
        var handled: [Int] = []
        let record = try! JSONRecord.parse(#"{"kind":"x"}"#)
        let bad = sequencer.admit([
            .passThrough(line: 1, raw: line("p")),
            .bad(BadLine(line: 2, bytes: Array("nope".utf8), reason: "not JSON")),
            .record(InputRecord(record: record, line: 3, raw: line(#"{"kind":"x"}"#))),
        ], badLine: stage.badLineRecord) { sequence, _ in handled.append(sequence) }
        #expect(bad == 1)
        #expect(handled == [2])
        sequencer.emit(2, line("x-result"))
        sequencer.deliver()
        let lines = drained(queue)
        #expect(lines.count == 3)
        #expect(lines[0] == "p")
        #expect(lines[1].hasPrefix(#"{"kind":"error","stage":"seq-test","code":"bad_json","line":2,"text":"nope""#))
        #expect(lines[2] == "x-result")
    }
}

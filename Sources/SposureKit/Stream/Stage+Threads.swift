import Dispatch
import FoundationEssentials
import Glibc

// The stage's reader and writer threads (see the diagram in Stage.swift).
extension Stage {

    func readInput() {
        var reader = LineReader(fd: inputFD, maxLineBytes: options.maxLine.bytes)
        defer { reader.close() }
        var batch: [InputItem] = []
        var failedStrict = false
        var more = true
        var drainUntil: Double?
        var drained = 0
        while more && !failedStrict {
            if let until = drainUntil {
                // Draining after a signal or stopReading(): what upstream still writes, until
                // it closes stdin, the time is up, or enough lines came (each
                // one is held until the stage writes them all).
                let left = Int((until - monotonicSeconds()) * 1000)
                guard left > 0, drained < Self.drainLineLimit, waitForInput(milliseconds: left) else { break }
            } else if readerStops || !waitForInput(milliseconds: -1) {
                guard readerDrains else { break }
                drainUntil = monotonicSeconds() + Self.drainLimit
                continue
            }
            do {
                more = try reader.readChunk { line in
                    guard !failedStrict else { return }
                    switch line {
                    case .text(let number, let bytes):
                        if let kinds = parsedKinds, case .object(let kind) = JSONScan.scan(bytes), !kinds.contains(kind ?? "") {
                            batch.append(.passThrough(line: number, raw: Array(bytes)))
                            return
                        }
                        do {
                            let record = try JSONRecord.parse(bytes)
                            batch.append(.record(InputRecord(record: record, line: number, raw: Array(bytes))))
                        } catch {
                            failedStrict = reportBad(BadLine(line: number, bytes: bytes, reason: "not a JSON object (\(error))"), into: &batch)
                        }
                    case .tooLong(let number, let prefix, let length):
                        let reason = "line is \(length) bytes, longer than --max-line \(options.maxLine.bytes)"
                        failedStrict = reportBad(BadLine(line: number, bytes: prefix, reason: reason), into: &batch)
                    }
                }
            } catch {
                diagnostics.error("cannot read stdin: \(error.why)")
                requestStop(.fatal)
                break
            }
            if !batch.isEmpty {
                lock.lock()
                linesSeen = batch.last!.line
                lock.unlock()
                if drainUntil != nil { drained += batch.count }
                // Nobody takes what comes after a stop closed the queue.
                if !input.push(contentsOf: batch) { break }
                batch.removeAll(keepingCapacity: true)
            }
        }
        lock.lock()
        inputEnded = true
        strictFailure = failedStrict
        lock.unlock()
        input.close()
    }

    /// Waits until stdin can be read without blocking (data, its end, or an
    /// error), `milliseconds` at most (-1: until then or a stop); false when
    /// it cannot be read now. Waits in slices so that a stop is seen.
    func waitForInput(milliseconds: Int) -> Bool {
        var waited = 0
        while true {
            let slice = milliseconds < 0 ? 200 : min(200, milliseconds - waited)
            var ready = Glibc.pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
            let n = poll(&ready, 1, Int32(slice))
            if n > 0 { return true }
            if n < 0 && errno != EINTR { return true }  // let read(2) report it
            waited += slice
            if milliseconds >= 0 && waited >= milliseconds { return false }
            if milliseconds < 0 && readerStops { return false }
        }
    }

    /// Reports a bad line; with `--strict` it ends the input and returns true.
    func reportBad(_ bad: BadLine, into batch: inout [InputItem]) -> Bool {
        if options.strict {
            diagnostics.error("stdin:\(bad.line): \(bad.reason) (--strict: stopping)")
            return true
        }
        diagnostics.warning("stdin:\(bad.line): \(bad.reason)")
        batch.append(.bad(bad))
        return false
    }

    func writeOutput() {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        let paced = pacesOutput && outputIsPipe
        // One page: the pipe holds the line being taken, not a hundred more.
        // (A pipe that cannot be made smaller is still paced, by FIONREAD.)
        if paced { _ = fcntl(outputFD, Self.setPipeSize, Int32(getpagesize())) }
        while true {
            let batch = output.popBatch(max: paced ? 1 : 4096)
            if batch.isEmpty { break }
            buffer.removeAll(keepingCapacity: true)
            for line in batch {
                buffer.append(contentsOf: line)
                buffer.append(0x0A)
            }
            if let mirrorFD { _ = writeAll(buffer, to: mirrorFD) }
            var failure = writeAll(buffer)
            if failure == nil && paced && !waitUntilTaken() { failure = EPIPE }
            if failure == nil {
                lock.withLock { taken += batch.count }
                onLinesTaken?()
            }
            if let failure {
                if failure == EPIPE {
                    requestStop(.downstreamClosed)
                } else {
                    diagnostics.error("cannot write stdout: \(String(cString: strerror(failure)))")
                    requestStop(.fatal)
                    output.close()
                }
                // Nobody reads what comes after; let producers see the queue closed.
                while !output.popBatch().isEmpty {}
                break
            }
        }
        writerDone.signal()
    }

    /// `fcntl`'s F_SETPIPE_SZ and `ioctl`'s FIONREAD (Linux), which Glibc's module does not name.
    static let setPipeSize: Int32 = 1031
    static let bytesUnread: UInt = 0x541B

    /// Waits until the pipe on stdout is empty: the reader downstream has
    /// taken every line written. False when it is gone. A stop ends the
    /// wait (what is written is flushed; the reader may never take it).
    func waitUntilTaken() -> Bool {
        while true {
            var ready = Glibc.pollfd(fd: outputFD, events: Int16(POLLOUT), revents: 0)
            let n = poll(&ready, 1, 200)
            if n > 0 && (ready.revents & Int16(POLLERR | POLLHUP)) != 0 { return false }
            if n < 0 && errno != EINTR { return true }
            if stopReason != nil { return true }
            var unread: Int32 = 0
            if n > 0 {
                // POLLOUT on a one-page pipe means empty; a bigger one is asked.
                guard ioctl(outputFD, Self.bytesUnread, &unread) == 0 else { return true }
                if unread == 0 { return true }
                usleep(1000)
            }
        }
    }

    /// Writes all of `bytes` to stdout, or to `fd`; returns the errno of a failure.
    func writeAll(_ bytes: [UInt8], to fd: Int32? = nil) -> Int32? {
        SposureKit.writeAll(fd ?? outputFD, bytes)
    }
}

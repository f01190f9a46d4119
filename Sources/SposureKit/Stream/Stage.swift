import Dispatch
import FoundationEssentials
import Glibc

//  The stage contract, implemented once for every tool:
//
//  stdin ──reader──▶ [input: BoundedQueue<InputItem>] ──▶ the tool's worker(s)
//                                                              │
//  stdout ◀──writer── [output: BoundedQueue<line>] ◀───────────┘
//
//  signals ──trap thread──▶ requestStop ──▶ onStop (wakes the workers)
//            (or the tool's handlers: ``signals``, a SignalPolicy)
//  EPIPE on stdout ─────────▶ requestStop(.downstreamClosed)
//
//  The reader numbers lines, parses them with jansson and turns a line that is
//  not a JSON object into a `.bad` item at its place in the stream. The writer
//  writes whole lines, as many as are ready in one write(2); paced
//  (``pacesOutput``, fetch-images into a pipe), one line at a time into a
//  one-page pipe, the next once the reader downstream has taken it
//  (poll POLLOUT, FIONREAD 0), counted in ``linesTaken``.

/// Why a stage stops before its input ends.
public enum StopReason: Sendable, Equatable {
    /// SIGINT, SIGTERM or SIGHUP: flush what is complete, exit 128 + signal.
    case signal(Int32)
    /// stdout was closed (`| head`): stop quietly, exit 0.
    case downstreamClosed
    /// A fatal error already reported: exit 2.
    case fatal
}

/// The running stage: its queues, threads, diagnostics and exit.
public final class Stage: @unchecked Sendable {
    /// The tool's name, the prefix of its messages and the `stage` of its error records.
    public let name: String
    /// The options common to every stage.
    public let options: StageOptions
    /// The serial path to stderr.
    public let diagnostics: Diagnostics
    /// Items read from stdin, in order.
    public let input: BoundedQueue<InputItem>
    /// Lines (without `\n`) to write to stdout, in order.
    public let output: BoundedQueue<[UInt8]>
    /// Called once, on the thread that asked, when a stop is requested.
    public var onStop: (@Sendable () -> Void)?
    /// The kinds the stage handles; records of other kinds are checked (a fast
    /// scan) but not parsed, and arrive as ``InputItem/passThrough(line:raw:)``.
    /// nil: every record is parsed. Set before ``start(trapSignals:reading:)``.
    public var parsedKinds: Set<String>?
    /// A second descriptor that gets every line written (`gif-play --events FILE`); set before ``start(trapSignals:reading:)``.
    public var mirrorFD: Int32?
    /// On a signal (or ``stopReading()``), the reader goes on taking the
    /// lines already waiting on stdin (up to ``drainLimit`` seconds) instead
    /// of leaving them unread, so the stage can give each its record
    /// (`interrupted`, or the failure that stopped it); the input queue is
    /// then closed by the reader, not by the stop. Set before ``start(trapSignals:reading:)``.
    public var drainsInputOnStop = false
    /// Paced output (issue 29 #10): when stdout is a pipe, it is made one
    /// page (`F_SETPIPE_SZ`) and each line is written alone, the next only
    /// once the reader downstream has taken it, so what the stage has made
    /// waits here, counted (``linesTaken``), not in a pipe buffer. Set
    /// before ``start(trapSignals:reading:)``.
    public var pacesOutput = false
    /// When stdin is a pipe, make it one page (`F_SETPIPE_SZ`) at the start:
    /// a stage that reads only as it needs (gif-play) then holds the stage
    /// before it back by backpressure a few records away, not 64 KiB, even
    /// through a `tee` that saves the stream (issue 29 #10). Set before ``start(trapSignals:reading:)``.
    public var shrinksInputPipe = false
    /// Called on the writer thread each time lines are taken downstream (paced), or written (not a pipe).
    public var onLinesTaken: (@Sendable () -> Void)?
    /// Whether stdout is a pipe (or a FIFO): only then does pacing wait.
    public var outputIsPipe: Bool {
        var status = Glibc.stat()
        return fstat(outputFD, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }
    /// The lines the reader downstream has taken (paced), else written.
    public var linesTaken: Int { lock.withLock { taken } }
    var taken = 0

    /// The longest the reader drains stdin after a signal (or ``stopReading()``), in seconds: until
    /// upstream closes it (a pipeline's Ctrl-C stops every stage, and each
    /// flushes what it had), never longer than this.
    public static let drainLimit = 2.0
    /// The most lines the reader drains after a signal (or ``stopReading()``).
    public static let drainLineLimit = 10_000

    let inputFD: Int32
    let outputFD: Int32
    let lock = Lock()
    private var stop: StopReason?
    private var readingStopped = false
    var strictFailure = false
    var linesSeen = 0
    var inputEnded = false
    let writerDone = DispatchSemaphore(value: 0)

    /// A stage named `name` over the given descriptors (stdin, stdout, stderr
    /// by default); `inputBuffer`, when given, is the input queue's capacity
    /// instead of the options' buffer.
    public init(name: String, options: StageOptions, inputBuffer: Int? = nil, inputFD: Int32 = 0, outputFD: Int32 = 1,
                errorFD: Int32 = 2) {
        self.name = name
        self.options = options
        self.inputFD = inputFD
        self.outputFD = outputFD
        diagnostics = Diagnostics(tool: name, quiet: options.quiet, verbose: options.verbose, fd: errorFD)
        input = BoundedQueue(capacity: inputBuffer ?? options.buffer)
        output = BoundedQueue(capacity: options.buffer)
    }

    /// What the signal trap does; set before ``start(trapSignals:reading:)``.
    /// The standard policy: the first ending signal stops the stage.
    public var signals = SignalPolicy()

    /// Installs the signal trap with ``signals`` (unless `trapSignals` is
    /// false, for tests) and starts the writer thread, and the reader unless
    /// `reading` is false (a stage that makes records rather than reads them).
    /// Threads the tool starts itself start after this, so that they too
    /// have the signals blocked.
    public func start(trapSignals: Bool = true, reading: Bool = true) {
        if trapSignals {
            let policy = signals
            SignalTrap.install(extra: policy.other, beforeForcedExit: policy.beforeForcedExit) { [weak self] signal in
                if policy.other.contains(signal) {
                    policy.onOther?(signal)
                } else if let onEnd = policy.onEnd {
                    onEnd(signal)
                } else {
                    self?.requestStop(.signal(signal))
                }
            }
        }
        if reading {
            var status = Glibc.stat()
            if shrinksInputPipe && fstat(inputFD, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO {
                // Fails (EBUSY) when more than a page is waiting already: then it stays as it is.
                _ = fcntl(inputFD, Self.setPipeSize, Int32(getpagesize()))
            }
            if isatty(inputFD) == 1 {
                diagnostics.note("reading records from the terminal; end with Ctrl-D (see --help)")
            }
            Threads.start("reader") { [self] in readInput() }
        } else {
            input.close()
        }
        Threads.start("writer") { [self] in writeOutput() }
    }

    /// Asks every thread to stop; the first reason wins.
    public func requestStop(_ reason: StopReason) {
        lock.lock()
        let first = stop == nil
        if first { stop = reason }
        lock.unlock()
        if first {
            if reason == .downstreamClosed { output.close() }
            onStop?()
            napping.lock()
            napping.broadcast()
            napping.unlock()
        }
    }

    private let napping = Condition()

    /// Stops the reader as a signal does (it drains stdin first when
    /// ``drainsInputOnStop``, then closes the input queue), without stopping
    /// the stage: for a stop of the stage's own, such as a refused API key,
    /// after which every line read still gets its record.
    public func stopReading() {
        lock.withLock { readingStopped = true }
    }

    /// Whether the reader is to stop: a stop of the stage, or ``stopReading()``.
    var readerStops: Bool { lock.withLock { stop != nil || readingStopped } }

    /// Whether a reader that stops drains stdin first.
    var readerDrains: Bool {
        guard drainsInputOnStop else { return false }
        return lock.withLock {
            if case .signal = stop { return true }
            return stop == nil && readingStopped
        }
    }

    /// Waits `seconds`, or less when a stop is requested or stdout is closed
    /// (noticed even while nothing is written). Returns false when stopping.
    public func nap(_ seconds: Double) -> Bool {
        let end = monotonicSeconds() + seconds
        while stopReason == nil {
            if noticeClosedOutput() { break }
            let left = end - monotonicSeconds()
            if left <= 0 { return true }
            napping.lock()
            if stopReason == nil { napping.wait(seconds: min(left, 0.2)) }
            napping.unlock()
        }
        return false
    }

    /// Stops the stage (`.downstreamClosed`) when stdout is a pipe whose
    /// reader is gone, seen without writing; returns true when stopping.
    @discardableResult
    public func noticeClosedOutput() -> Bool {
        var pollfd = Glibc.pollfd(fd: outputFD, events: 0, revents: 0)
        if poll(&pollfd, 1, 0) > 0 && (pollfd.revents & Int16(POLLERR | POLLHUP)) != 0 {
            requestStop(.downstreamClosed)
        }
        return stopReason != nil
    }

    /// Why the stage is stopping, if it is.
    public var stopReason: StopReason? {
        lock.lock()
        defer { lock.unlock() }
        return stop
    }

    /// How many input lines have been read (blank ones included), and whether stdin has ended.
    public var inputProgress: (lines: Int, ended: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (linesSeen, inputEnded)
    }

    /// Writes everything queued, then exits: 128 + signal after a signal, 0 when
    /// downstream closed, 2 after a fatal error or a `--strict` bad line, 1 when
    /// `failed` (some records became errors), else 0.
    public func finish(failed: Bool) -> Never {
        exit(drain(failed: failed))
    }

    /// Closes the output, waits until the writer has written it all, and
    /// returns the exit status ``finish(failed:)`` would exit with.
    public func drain(failed: Bool) -> Int32 {
        output.close()
        writerDone.wait()
        diagnostics.clearProgress()
        // A signal that has arrived decides, even if its handler has not
        // recorded the stop yet (a busy machine can get here first).
        let pending = SignalTrap.arrived()
        lock.lock()
        let reason = stop ?? pending.map { StopReason.signal($0) }
        let strict = strictFailure
        lock.unlock()
        switch reason {
        case .signal(let signal): return 128 + signal
        case .downstreamClosed: return 0
        case .fatal: return 2
        case nil: return strict ? 2 : failed ? 1 : 0
        }
    }
}

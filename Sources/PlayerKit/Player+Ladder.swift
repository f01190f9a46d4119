import RecordKit
import FoundationEssentials
import Glibc
import LadderKit
import SposureKit

// A ladder round (issue 15), around the round itself:
//
//   session start ─▶ the first GIF's record comes (q, Esc, Ctrl-C end it meanwhile)
//     └ it carries "ladder": the safety notice until accepted (<data>/notice-accepted),
//       then the questions before (distress now, how likely) ─▶ rating event
//   the round (the hold prompt, holds, GIFs; a digit rates the GIF on screen)
//   session end ─▶ on a ladder round that was held: the questions after
//     (peak, distress now, happened) ─▶ rating event
//
// A round without "ladder" asks nothing, and its events are what they were.

extension Player {
    /// The time on the monotonic clock, whatever clock the round keeps: a
    /// modal screen (the notice, a question) waits for a person.
    private var realNow: Int { elapsedMilliseconds(since: started) }

    /// Before the round: waits for the first GIF; on a ladder round shows
    /// the notice and asks the questions before. Returns an end when the
    /// round ends here, nothing played.
    func beforeTheRound() -> EndReason? {
        let (record, end) = waitForFirstRecord()
        if let end { return end }
        // New GIFs first: what the last rounds of this rung (or query) showed.
        if let record { feed.recent = recentGIFs(for: record) }
        // Off-topic clips under other ids: known by the hashes their marks keep.
        machine.clips.marked = offTopicClips()
        // A ladder round as score sees one: a ladder and its rung.
        guard let record, let name = LadderTag(record: record)?.ladder else { return nil }
        isLadderRound = true
        tracker.set(held: false)  // a hold before the notice and questions is not the round's
        if let end = notice() { return end }
        expectation = record.string(ImageRecord.Field.expectation) ?? (try? LadderLibrary().load(name))?.ladder.expectation
        switch configuration.ratings {
        case .off: return nil
        case .script: if let before = ratingScript?.before { rate(before) }
        case .ask: return ask(.before)
        }
        return nil
    }

    /// After the round ended for `reason`: on a ladder round that was held,
    /// the questions after (not after an interruption).
    func afterTheRound(_ reason: EndReason) {
        guard isLadderRound, machine.everHeld, reason != .interrupted, stage.stopReason == nil else { return }
        switch configuration.ratings {
        case .off: break
        case .script: if let after = ratingScript?.after { rate(after) }
        case .ask: _ = ask(.after)
        }
        screen.flush()
    }

    /// Writes the answers given (nothing when every question was skipped).
    private func rate(_ rating: RoundEvent.Rating) {
        guard rating.suds != nil || rating.expectPct != nil || rating.peak != nil || rating.happened != nil else { return }
        stage.output.push(RoundEvent.rating(rating).record.serialized())
    }

    /// Whether a person can answer on the terminal.
    private var canAsk: Bool { terminal?.canRead == true && !configuration.virtualClock }

    /// The first GIF's record, nil when the input ended without one; or an
    /// end: q, Esc, Ctrl-C or a signal while it was coming. A person's
    /// hold meanwhile is kept for the round.
    private func waitForFirstRecord() -> (JSONRecord?, EndReason?) {
        guard canAsk else {
            // Headless, or a virtual clock: wait for it (a stop closes the gif buffer).
            return (feed.peekFirst(until: nil), nil)
        }
        let began = monotonicSeconds()
        var told = false
        while true {
            if stage.stopReason != nil || terminal?.hungUp == true { return (nil, .interrupted) }
            if let record = feed.peekFirst(until: monotonicSeconds()) { return (record, nil) }
            if !told && monotonicSeconds() - began > 0.3 {
                // A slow network: say what is happening rather than show nothing.
                told = true
                screen.message("loading the first GIF… (q to quit)")
                screen.flush()
            }
            if feed.isFinished { return (nil, nil) }
            if told && takeRedraw() {
                // `fg` after Ctrl-Z: the terminal was set up again, blank.
                screen.message("loading the first GIF… (q to quit)")
                screen.flush()
            }
            let (events, time) = modalEvents(waitMs: 20)
            for event in events {
                if case .key(let code, let kind) = event, kind != .release, let key = StopKey(code: code),
                   let end = stopped(by: key) { return (nil, end) }
                if configuration.hold.isByPerson { _ = tracker.handle(event, at: time) }
            }
            _ = tracker.tick(at: time)
        }
    }

    /// The safety notice, until accepted: any key or click accepts it
    /// (kept in the data folder); q, Esc or Ctrl-C end without playing.
    /// Without a terminal to read a key from it cannot be accepted here:
    /// the notice goes to stderr and nothing plays, unless `--accept-notice`.
    private func notice() -> EndReason? {
        let folder = configuration.dataFolder ?? Folders.data()
        if configuration.acceptNotice || SafetyNotice.isAccepted(dataFolder: folder) { return nil }
        guard terminal?.canRead == true else {
            stage.requestStop(.fatal)  // nothing plays: exit 2
            stage.diagnostics.error("a ladder round shows a safety notice first and waits for a key, and there is no "
                + "terminal to show it on: play a ladder round on a terminal to read and accept it, or pass "
                + "--accept-notice (scripts). The notice:")
            for line in SafetyNotice.lines.dropLast() where !line.isEmpty { stage.diagnostics.error(line) }
            return .quit
        }
        // On a small screen the notice is wrapped and shown a page at a time:
        // a key turns the page, and only a key on the last accepts it, so it
        // is never accepted unread.
        var drawn: (Int, Int, Int)?
        var page = 0
        while true {
            if stage.stopReason != nil || terminal?.hungUp == true { return .interrupted }
            let size = terminal?.size()
            let (columns, rows) = (size?.cols ?? screen.columns, size?.rows ?? screen.rows)
            let pages = SafetyNotice.pages(columns: columns, rows: rows)
            page = min(page, pages.count - 1)
            // After `fg` the terminal was set up again, blank: draw the notice again (item 8).
            if takeRedraw() { drawn = nil }
            if drawn == nil || drawn! != (columns, rows, page) {
                drawn = (columns, rows, page)
                let lines = pages[page]
                let width = lines.map(\.count).max() ?? 0
                let left = max(1, (columns - width) / 2 + 1), top = max(1, (rows - lines.count) / 2 + 1)
                screen.page(lines.enumerated().map { PageLine(row: top + $0.offset, column: left, text: $0.element) })
                screen.flush()
            }
            var turned = false
            for event in modalEvents(waitMs: 50).events {
                let next: Bool
                switch event {
                case .key(let code, let kind) where kind != .release:
                    // q, Ctrl-C and Ctrl-Z are what they always are; any other key turns the page or accepts.
                    if let key = StopKey(code: code) {
                        if let end = stopped(by: key) { return end }
                        continue
                    }
                    next = true
                case .mouse(_, _, _, true):
                    next = true
                default:
                    next = false
                }
                // Keys typed ahead do not read the page just turned to for the person.
                guard next, !turned else { continue }
                if page < pages.count - 1 { page += 1; turned = true } else { return accepted(in: folder) }
            }
        }
    }

    /// Asks the questions of `when` on the terminal and writes the answers
    /// given. Returns `quit` (q before the round: it ends without playing)
    /// or `interrupted` (Ctrl-C, a signal); after the round q only stops the questions.
    private func ask(_ when: RoundEvent.Rating.When) -> EndReason? {
        guard canAsk else { return nil }
        var form = RatingForm(when)
        var drawn: (Int, Int, Int)?
        defer { rate(form.rating) }
        var asked = 0
        while form.current != nil {
            if stage.stopReason != nil || terminal?.hungUp == true { return .interrupted }
            let size = terminal?.size()
            let (columns, rows) = (size?.cols ?? screen.columns, size?.rows ?? screen.rows)
            let page = form.page(columns: columns, rows: rows, expectation: expectation)
            // After `fg` the terminal was set up again, blank: ask the question again (item 8).
            if takeRedraw() { drawn = nil }
            if drawn == nil || drawn! != (columns, rows, asked) {
                drawn = (columns, rows, asked)
                screen.page(page.lines)
                screen.flush()
            }
            for event in modalEvents(waitMs: 50).events where form.current != nil {
                // The cells of the question asked now (keys typed ahead answer the next ones).
                let page = asked == drawn?.2 ? page : form.page(columns: columns, rows: rows, expectation: expectation)
                switch form.take(event, row: page.row, rowLine: page.rowLine) {
                case .next: asked += 1
                case .quit: return when == .before ? .quit : nil
                case .interrupt: return .interrupted
                case .suspend: terminal?.suspendForeground()
                case .ignored: break
                }
            }
        }
        tracker.set(held: false)  // keys and clicks of the questions are not a hold
        return nil
    }

    /// The events of a screen that waits for a key (the notice, the questions,
    /// the first GIF): what arrives within `waitMs` (less while an escape
    /// sequence is unfinished), and the time they were parsed at.
    private func modalEvents(waitMs: Int) -> (events: [InputEvent], at: Int) {
        if let bytes = terminal?.read(timeoutMs: parser.hasPending ? 10 : waitMs), !bytes.isEmpty { pendingInput += bytes }
        let time = realNow
        return (parsedEvents(at: time), time)
    }

    /// What a stop key ends on a screen that waits: `quit` (q, Esc) or
    /// `interrupted` (Ctrl-C); Ctrl-Z suspends here and ends nothing.
    private func stopped(by key: StopKey) -> EndReason? {
        switch key {
        case .quit: return .quit
        case .interrupt: return .interrupted
        case .suspend: terminal?.suspendForeground()
        }
        return nil
    }

    /// Keeps the notice's acceptance in `folder`; says so when it cannot (the
    /// notice then shows again next time). The round goes on either way.
    private func accepted(in folder: String) -> EndReason? {
        do {
            try SafetyNotice.accept(dataFolder: folder, at: Self.isoNow())
        } catch {
            stage.diagnostics.warning("the safety notice's acceptance is not kept (\(error)): it will be shown again next time")
        }
        return nil
    }
}

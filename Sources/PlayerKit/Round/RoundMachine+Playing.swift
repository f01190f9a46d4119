import RecordKit
extension RoundMachine {
    /// Plays from the last moment accounted for up to `time`: frames on their
    /// absolute schedule, GIF after GIF, exposure counted while held. Returns
    /// an end and its moment.
    public func advance(to time: Int) -> (EndReason, Int)? {
        advance(to: time, stopping: false)
    }

    /// ``advance(to:)``; `stopping`: the hold ends (or the round does) at
    /// `time`, so nothing starts at that very moment: no frame, no GIF, no stall.
    ///
    /// The loop steps the two halves of the round together: the
    /// ``GIFSequence`` says which frame is due when, the ``HoldClock``
    /// counts the time up to it as exposure or as a stall.
    func advance(to time: Int, stopping: Bool) -> (EndReason, Int)? {
        if let pendingEnd { return pendingEnd }
        guard clock.isHeld else { return nil }
        var drawAtEnd = false
        // A real clock draws the frame reached last, once, after the loop:
        // frames it passed on the way were due already. A virtual clock
        // draws and sends every frame.
        func show(_ gif: GIF, frame: Int) {
            if configuration.virtualClock {
                output(.draw(gif, frame: frame))
                output(.flush)
            } else {
                drawAtEnd = true
            }
        }
        while true {
            if !sequence.isPlaying {
                switch beginNextGIF(upTo: time, stopping: stopping) {
                case .inputEnded: return (.eof, clock.accountedUntil)
                case .notYet: return nil
                case .begun(let gif): show(gif, frame: 0)
                }
            }
            if sequence.awaitsFrame {
                guard sequence.nextFrameKnown else {
                    clock.waitForFrame(until: time)
                    break
                }
                // Decoded (or the frames ended): the next starts now, after the stall.
                if let stall = clock.frameArrived(at: time) { emit(stall) }
                sequence.frameKnown(at: clock.accountedUntil)
            }
            guard let due = sequence.frameEnd else { continue }
            let exposed = clock.expose(until: min(due, time))
            sequence.played(exposed.ms)
            if exposed.limitReached {
                let end = clock.accountedUntil
                // A limit that falls exactly on the GIF's end lets it finish.
                if end == due && sequence.isLastFrame { complete(at: due) }
                return (.timeLimit, end)
            }
            if due > time || (stopping && due == time && !sequence.isLastFrame) { break }
            // The frame's time is up (it is accounted for up to `due`): the
            // next frame, the next loop, or the next GIF.
            if sequence.awaitNextFrame() {
                // Decoding is behind: not waiting for it here keeps input
                // read (a release is seen when it happens) and the wait off
                // the exposure. (A virtual clock waits: time stands still.)
                clock.waitForFrame(until: time)
                break
            }
            switch sequence.nextFrame(after: due, time: time) {
            case .over: complete(at: due)
            case .draw(let gif, let frame): show(gif, frame: frame)
            case .skip: break
            }
        }
        if drawAtEnd, let shown = sequence.onScreen { output(.draw(shown.gif, frame: shown.frame)) }
        updateStatus()
        return nil
    }

    /// What looking for the next GIF came to.
    private enum NextGIF {
        /// It came on screen.
        case begun(GIF)
        /// None by `time`: the wait is a stall, or it waits for the next hold.
        case notYet
        /// The input ended, every GIF played.
        case inputEnded
    }

    /// Nothing on screen, held: the GIF held back, else the next from the
    /// feed (its lines written first), begins if it can by `time`.
    private func beginNextGIF(upTo time: Int, stopping: Bool) -> NextGIF {
        guard let (gif, at) = nextGIF() else {
            sequence.noteNoneReady()
            if sequence.inputEnded { return .inputEnded }
            clock.waitForFeed(until: time, stopping: stopping)
            updateStatus()
            return .notYet
        }
        guard let (start, stall) = clock.begin(availableAt: at, upTo: time, stopping: stopping) else {
            sequence.holdBack(gif, at: at)
            return .notYet
        }
        if let stall { emit(stall) }
        sequence.begin(gif, at: start)
        clips.add(gif)
        // The picture only: the status line stays drawn across GIFs.
        output(.clearPicture)
        return .begun(gif)
    }

    /// The GIF held back, else the next from the feed (its lines written
    /// first) that is not a clip shown already this round: each one that is
    /// is passed over at once, before it is shown (no exposure, no blank
    /// screen), as a `skipped` event at the moment it would have begun.
    private func nextGIF() -> (GIF, Int)? {
        while let (gif, at) = sequence.next(lines: { output(.lines($0)) }) {
            guard sequence.waiting == nil else { return (gif, at) }
            let reason: String, like: String
            if let shown = clips.sameClip(as: gif) {
                (reason, like) = (RoundEvent.Skipped.sameClip, shown)
            } else if let marked = clips.markedOffTopic(gif) {
                (reason, like) = (RoundEvent.Skipped.offTopic, marked)
            } else {
                return (gif, at)
            }
            emit(.skipped(RoundEvent.Skipped(reason: reason, id: gif.id, provider: gif.provider, like: like,
                                             atMs: max(at, clock.accountedUntil), hash: gif.clipHash?.first.gradient.hex,
                                             hashDCT: gif.clipHash?.first.cosine.hex)))
            gif.discard()
        }
        return nil
    }

    /// The GIF on screen has played through at `time`: off the screen, then counted.
    private func complete(at time: Int) {
        if let shown = sequence.takeOff(at: time, completed: true) { emit(shown) }
    }
}

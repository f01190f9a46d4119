import SposureKit

/// Carries out what the round hands out: events and passed-through lines to
/// the stage's output queue, pictures, the prompt, the pause and the status
/// line to the screen (which redraws the status line when its text changed
/// or something wiped it).
final class PlayerOutput {
    private let stage: Stage
    private let screen: Screen

    /// Writes to `stage`'s output, draws on `screen`.
    init(stage: Stage, screen: Screen) {
        self.stage = stage
        self.screen = screen
    }

    /// Carries out `item`.
    func apply(_ item: RoundOutput<PreparedGIF>) {
        switch item {
        case .event(let event):
            stage.output.push(event.record.serialized())
        case .lines(let lines):
            for line in lines { stage.output.push(line) }
        case .clear:
            screen.clear()
        case .clearPicture:
            screen.clearPicture()
        case .draw(let gif, let frame):
            screen.draw(gif, frame: frame)
        case .flush:
            screen.flush()
        case .status(let status):
            // The screen knows what its last row shows: a clear, a message or
            // a frame not written (Ctrl-Z) makes it draw the line again. (A
            // text kept here too hid the line after a clear until it changed.)
            screen.status(status.text)
        case .prompt:
            screen.message("hold the mouse button or SPACE to begin · x skips an off-topic GIF · q quits")
        case .paused:
            screen.message("paused: hold to go on · x: off-topic · q quits")
        }
    }
}

import SposureKit

/// Carries out what the round hands out: events and passed-through lines to
/// the stage's output queue, pictures, the prompt and the pause to the
/// screen, and the status line when its text changed.
final class PlayerOutput {
    private let stage: Stage
    private let screen: Screen
    private var lastStatusText = ""

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
        case .draw(let gif, let frame):
            screen.draw(gif, frame: frame)
        case .flush:
            screen.flush()
        case .status(let status):
            let text = status.text
            guard text != lastStatusText else { return }
            lastStatusText = text
            screen.status(text)
        case .prompt:
            screen.message("hold the mouse button or SPACE to begin · q quits")
        case .paused:
            screen.message("paused: hold to go on · q quits")
        }
    }

    /// The screen was drawn anew: the status line goes out again even if unchanged.
    func forgetStatus() {
        lastStatusText = ""
    }
}

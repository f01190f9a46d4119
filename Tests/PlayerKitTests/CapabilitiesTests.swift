import GIFEngine
import PlayerKit
import Testing

@Suite struct CapabilitiesTests {
    @Test func autoPicksKittyThenITermThenSixelThenTruecolorThen256() {
        var answers = Capabilities()
        #expect(answers.renderer(environment: [:]) == .palette)
        #expect(answers.renderer(environment: ["COLORTERM": "truecolor"]) == .truecolor)
        #expect(answers.renderer(environment: ["COLORTERM": "24BIT"]) == .truecolor)
        answers.sixel = true
        #expect(answers.renderer(environment: ["COLORTERM": "truecolor"]) == .sixel)
        #expect(answers.renderer(environment: ["TERM_PROGRAM": "vscode"]) == .iterm, "VS Code with images on answers sixel")
        #expect(answers.renderer(environment: ["TERM_PROGRAM": "iTerm.app"]) == .iterm)
        answers.kittyGraphics = true
        #expect(answers.renderer(environment: [:]) == .kitty)
        answers.name = "WezTerm 20240203-110809-5046fc22"
        #expect(answers.renderer(environment: [:]) == .iterm, "WezTerm's kitty graphics are partial: its iTerm2 images are not")
    }

    @Test func insideTmuxKittyNeedsPassthroughAndSaysHowOnce() {
        var answers = Capabilities()
        answers.tmux = Capabilities.Tmux(version: "3.3a", outerTerm: "xterm-kitty", passthrough: true)
        let on = answers.choose(environment: ["COLORTERM": "truecolor"])
        #expect(on.renderer == .kitty)
        #expect(on.advice == nil)
        #expect(answers.graphics().tmuxPlaceholders)
        #expect(!answers.graphics().kittyFiles)
        answers.tmux?.passthrough = false
        let off = answers.choose(environment: ["COLORTERM": "truecolor"])
        #expect(off.renderer == .truecolor)
        #expect(off.advice == "kitty graphics inside tmux need passthrough: run `tmux set -g allow-passthrough on`, then start again (cells until then)")
        answers.tmux = Capabilities.Tmux(version: "3.2a", outerTerm: "xterm-kitty", passthrough: true)
        #expect(answers.choose(environment: [:]).renderer == .palette)
        #expect(answers.choose(environment: [:]).advice?.contains("tmux 3.3 or later") == true)
        // tmux 3.4 built with sixel answers with attribute 4.
        answers.tmux = Capabilities.Tmux(version: "3.4", outerTerm: "xterm-256color", passthrough: false)
        answers.sixel = true
        #expect(answers.choose(environment: [:]).renderer == .sixel)
    }

    @Test func tmuxVersionsCompare() {
        #expect(Capabilities.Tmux(version: "3.3a", outerTerm: "", passthrough: true).isAtLeast(3, 3))
        #expect(Capabilities.Tmux(version: "3.10", outerTerm: "", passthrough: true).isAtLeast(3, 3))
        #expect(!Capabilities.Tmux(version: "3.2", outerTerm: "", passthrough: true).isAtLeast(3, 3))
        #expect(Capabilities.Tmux(version: "next-3.6", outerTerm: "", passthrough: true).isAtLeast(3, 3))
    }

    @Test func passesSixelLimitsToTheRenderer() {
        var answers = Capabilities()
        answers.sixelColors = 1024
        answers.sixelMaxSize = CellSize(width: 800, height: 480)
        #expect(answers.graphics().sixelColors == 256)
        #expect(answers.graphics().sixelMaxSize == CellSize(width: 800, height: 480))
        answers.sixelColors = 16
        #expect(answers.graphics().sixelColors == 16)
    }
}

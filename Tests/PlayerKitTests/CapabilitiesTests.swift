import GIFEngine
@testable import PlayerKit
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
        // A kitty that did not say its version may be one before 0.28: cells, said once.
        let unknown = answers.choose(environment: ["COLORTERM": "truecolor"])
        #expect(unknown.renderer == .truecolor)
        #expect(unknown.advice?.contains("did not say its version") == true && unknown.advice?.contains("0.28") == true)
        answers.outerName = "kitty(0.35.2)"
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
        answers.outerName = nil
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

    // Issue 29 #3: inside tmux the kitty graphics query went out bare, and
    // tmux took the APC for the pane title ("Gi=32,s=1,v=1,a=q,t=t,…").
    @Test func insideTmuxTheProbeSendsNoBareAPC() {
        let outside = Capabilities.probeBytes(insideTmux: false, passthrough: false, file: "L3RtcA==")
        #expect(outside.contains("\u{1B}_Gi=31,") && outside.contains("\u{1B}_Gi=32,"))
        for passthrough in [false, true] {
            let bytes = Capabilities.probeBytes(insideTmux: true, passthrough: passthrough, file: nil)
            // Every ESC _ is inside a passthrough, its ESC doubled: never "ESC _" after anything but an ESC.
            let scalars = Array(bytes.unicodeScalars)
            let bare = scalars.indices.dropFirst().contains { scalars[$0] == "_" && scalars[$0 - 1] == "\u{1B}" && ($0 < 2 || scalars[$0 - 2] != "\u{1B}") }
            #expect(!bare, "a bare APC inside tmux (passthrough \(passthrough))")
            #expect(bytes.contains("Ptmux;") == passthrough)
        }
        let wrapped = Capabilities.probeBytes(insideTmux: true, passthrough: true, file: nil)
        #expect(wrapped.hasSuffix(Capabilities.tmuxWrapped("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[>0q\u{1B}[c")))
        #expect(Capabilities.tmuxWrapped("\u{1B}[c") == "\u{1B}Ptmux;\u{1B}\u{1B}[c\u{1B}\\")
    }

    // Issue 29 #2: XTVERSION through the passthrough names the terminal outside.
    @Test func insideTmuxTheTerminalOutsideNamesItselfThroughThePassthrough() {
        var answers = Capabilities()
        var parser = InputParser()
        for event in parser.feed(Array("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\".utf8)) {
            answers.take(event, insideTmux: true)
        }
        #expect(answers.name == "tmux 3.3a")
        #expect(answers.outerName == "kitty(0.26.5)")
        #expect(answers.outerKittyVersion == [0, 26, 5])
        var outside = Capabilities()
        outside.take(.terminalName("kitty(0.26.5)"))
        #expect(outside.name == "kitty(0.26.5)" && outside.outerName == nil)
    }

    // Issue 29 #2: placeholders need kitty 0.28; below it, cells, said once.
    @Test func kittyBefore028OutsideTmuxGetsCellsAndSaysWhy() {
        #expect(!Capabilities.kittyDrawsPlaceholders([0, 26, 5]))
        #expect(!Capabilities.kittyDrawsPlaceholders([0, 27]))
        #expect(Capabilities.kittyDrawsPlaceholders([0, 28, 0]))
        #expect(Capabilities.kittyDrawsPlaceholders([0, 28]))
        #expect(Capabilities.kittyDrawsPlaceholders([1, 0]))
        var answers = Capabilities()
        answers.tmux = Capabilities.Tmux(version: "3.3a", outerTerm: "xterm-kitty", outerType: "kitty(0.26.5)", passthrough: true)
        let old = answers.choose(environment: [:])
        #expect(old.renderer == .palette)
        #expect(old.advice?.contains("kitty 0.26.5") == true && old.advice?.contains("0.28") == true)
        #expect(old.why.contains("no Unicode placeholders"))
        answers.tmux?.features = ["RGB"]
        #expect(answers.choose(environment: [:]).renderer == .truecolor, "tmux passes 24-bit colour on")
        answers.outerName = "kitty(0.35.2)"  // its own answer outranks tmux's record
        #expect(answers.choose(environment: [:]).renderer == .kitty)
        #expect(answers.choose(environment: [:]).why.contains("kitty 0.35.2"))
    }

    // Issue 29 #5: xterm shows true colour without COLORTERM; it reads a 24-bit colour back.
    @Test func trueColourWhereAColourReadsBackWhole() {
        var answers = Capabilities()
        answers.take(.statusString("0;38:2::1:2:3m"))
        #expect(answers.directColor == true)
        let choice = answers.choose(environment: [:])
        #expect(choice.renderer == .truecolor && choice.why.contains("DECRQSS"))
        var palette = Capabilities()
        palette.take(.statusString("0;38;5;16m"))
        #expect(palette.directColor == false)
        #expect(palette.choose(environment: [:]).renderer == .palette)
        var termcap = Capabilities()
        termcap.take(.termcap(name: "RGB", value: "8/8/8"))
        #expect(termcap.choose(environment: [:]).renderer == .truecolor)
        termcap.take(.termcap(name: "RGB", value: nil))
        #expect(termcap.choose(environment: [:]).renderer == .palette)
    }

    // Issue 29 #7: a kitty that answered nothing fell back to cells without a word.
    @Test func aPixelTerminalThatKeptSilentIsSaidOnce() {
        #expect(Capabilities.pixelTerminalHint(["KITTY_WINDOW_ID": "1"]) == "KITTY_WINDOW_ID")
        #expect(Capabilities.pixelTerminalHint(["TERM": "xterm-kitty"]) == "TERM=xterm-kitty")
        #expect(Capabilities.pixelTerminalHint(["TERM": "xterm-256color"]) == nil)
        var answers = Capabilities()
        answers.pixelTerminalHint = "KITTY_WINDOW_ID"
        let silent = answers.choose(environment: ["COLORTERM": "truecolor"])
        #expect(silent.renderer == .truecolor)
        #expect(silent.advice?.contains("did not answer") == true)
        answers.answered = true
        #expect(answers.choose(environment: ["COLORTERM": "truecolor"]).advice == nil)
    }
}

import PlayerKit
import Testing

@Suite struct CapabilitiesTests {
    @Test func autoPicksKittyGraphicsThenSixelThenTruecolorThen256() {
        var answers = Capabilities()
        #expect(answers.renderer(environment: [:]) == .palette)
        #expect(answers.renderer(environment: ["COLORTERM": "truecolor"]) == .truecolor)
        #expect(answers.renderer(environment: ["COLORTERM": "24BIT"]) == .truecolor)
        answers.sixel = true
        #expect(answers.renderer(environment: ["COLORTERM": "truecolor"]) == .sixel)
        answers.kittyGraphics = true
        #expect(answers.renderer(environment: [:]) == .kitty)
    }
}

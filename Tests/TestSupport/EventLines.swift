// Event streams as gif-play writes them (docs/stream-format.md), for the tests.

/// Builds gif-play event lines.
public enum Event {
    public static func start(at: String? = "2026-11-21T10:00:00Z", clock: String = "real", onRelease: String = "end") -> String {
        let date = at.map { #""at":"\#($0)","# } ?? ""
        return #"{"kind":"session","event":"start",\#(date)"clock":"\#(clock)","hold":"mouse","renderer":"none","cols":80,"rows":24,"on_release":"\#(onRelease)"}"#
    }

    public static func hold(_ down: Int, _ up: Int) -> String {
        #"{"kind":"hold","down_ms":\#(down),"up_ms":\#(up)}"#
    }

    public static func shown(_ id: String, section: String? = "spiders", start: Int, end: Int, exposed: Int? = nil, completed: Bool = true) -> String {
        let tag = section.map { #""section":"\#($0)","query":"\#($0)","# } ?? ""
        return #"{"kind":"shown","id":"\#(id)",\#(tag)"start_ms":\#(start),"end_ms":\#(end),"exposed_ms":\#(exposed ?? end - start),"frames":24,"completed":\#(completed)}"#
    }

    public static func stall(_ start: Int, _ end: Int) -> String {
        #"{"kind":"stall","start_ms":\#(start),"end_ms":\#(end)}"#
    }

    public static func end(_ time: Int, reason: String = "released") -> String {
        #"{"kind":"session","event":"end","t_ms":\#(time),"reason":"\#(reason)"}"#
    }

    public static func error(_ code: String, stage: String = "fetch-images") -> String {
        #"{"kind":"error","id":"x","url":"https://media.example/x.gif","stage":"\#(stage)","code":"\#(code)","error":"it failed"}"#
    }

    /// The round of design.md: one hold of 8.6 s, five GIFs (four completed), one stall, one error.
    public static let normalRound: [String] = [
        start(),
        error("http_404"),
        shown("a", start: 1200, end: 3400),
        stall(3400, 3520),
        shown("b", start: 3520, end: 5520),
        shown("c", start: 5520, end: 7020),
        shown("d", start: 7020, end: 8520),
        shown("e", start: 8520, end: 9800, exposed: 1280, completed: false),
        hold(1200, 9800),
        end(9800),
    ]
}

/// The bytes of an NDJSON stream.
public func stream(_ lines: [String]) -> [UInt8] {
    Array(lines.map { $0 + "\n" }.joined().utf8)
}

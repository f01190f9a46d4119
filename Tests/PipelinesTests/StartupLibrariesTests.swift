import Foundation
import Testing
import TestSupport

/// The hot tools (started once a GIF, a round or a record stream) do not load
/// Foundation and its ICU tables, only FoundationEssentials: issue 16's
/// start-up goal. A module of theirs that imports Foundation again fails here.
@Suite struct StartupLibrariesTests {
    @Test(arguments: ["gif-play", "score", "fetch-images", "giphy-pages"])
    func loadsNoFoundationBeyondItsEssentials(_ tool: String) throws {
        // ld.so lists what it would load and exits, as ldd does.
        let result = try StageProcess.run(tool, arguments: ["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        let loaded = String(decoding: result.stdout, as: UTF8.self)
        try #require(loaded.contains("libswiftCore.so"), "no library list: \(result)")
        #expect(loaded.contains("libFoundationEssentials.so"))
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libicu"] {
            #expect(!loaded.contains(library), "\(tool) loads \(library)")
        }
    }
}

import ArgumentParser
import RecordKit
import SposureCLI
import FoundationEssentials
import Glibc
import GIFEngine
import PlayerKit
import SposureKit

/// `gif-play samples`: writes the demo's sample GIFs and the stream that names them.
struct Samples: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the offline demo's sample GIFs (drawn by code) and print a gif record for each.",
        discussion: """
            Writes a few animated GIFs, a few seconds each, into DIR and prints one "gif" \
            record per file with a file:// URL: a saved stream to feed to \
            `fetch-images --allow-file`, as pipelines/demo does:

              gif-play samples --out /tmp/samples > stream.ndjson
              fetch-images --allow-file < stream.ndjson | gif-play | score
            """)

    @Option(help: ArgumentHelp("The folder to write the GIFs into (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("Times the list repeats in the stream (a longer round).", valueName: "n"))
    var repeatCount = 1

    mutating func validate() throws {
        guard (1...100).contains(repeatCount) else { throw ValidationError("--repeat-count must be from 1 to 100.") }
    }

    func run() throws {
        let diagnostics = Diagnostics(tool: "gif-play samples")
        let folder = Paths.absolute(out)
        do {
            try Folders.make(folder, mode: 0o777)  // as mkdir -p: the umask decides
        } catch {
            diagnostics.error(error.description)
            throw ExitCode(2)
        }
        let written: [(name: String, title: String, path: String)]
        do { written = try SampleGIFs.write(to: folder) } catch {
            diagnostics.error(error.description)
            throw ExitCode(2)
        }
        var rank = 0
        for round in 0..<repeatCount {
            for sample in written {
                let record = JSONRecord()
                // Drawn here, from no API: nobody to credit (the status line
                // said "Powered by SAMPLE", from the cache key: issue 29 #9).
                record.set([(GIFRecord.Field.kind, GIFRecord.kind), (GIFRecord.Field.provider, ImageRecord.localProvider),
                            (GIFRecord.Field.id, repeatCount > 1 ? "\(sample.name)-\(round + 1)" : sample.name),
                            (GIFRecord.Field.title, sample.title), (GIFRecord.Field.query, "spiders"),
                            (GIFRecord.Field.section, "spiders"), (GIFRecord.Field.rank, rank),
                            (GIFRecord.Field.url, "file://" + sample.path), (GIFRecord.Field.cacheKey, "sample:\(sample.name)")])
                print(record.text)
                rank += 1
            }
        }
    }
}

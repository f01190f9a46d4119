import FoundationEssentials
import Glibc
import SposureKit

/// Reads queries one a line, as a person types them (`plan --queries-from`),
/// on a thread of its own, so the debounce can time them.
///
/// ```
/// FILE or stdin ──queries thread (LineReader)──▶ [lines] ──▶ PagePlanner (debounce)
/// ```
public enum QueryReader {
    /// Starts the thread reading `fd` into `lines`; it closes `lines` at the end.
    public static func start(fd: Int32, into lines: BoundedQueue<String>, diagnostics: Diagnostics) {
        Threads.start("queries") {
            var reader = LineReader(fd: fd, maxLineBytes: 4096)
            defer { reader.close() }
            var more = true
            while more {
                var batch: [String] = []
                do throws(FileError) {
                    more = try reader.readChunk { line in
                        if case .text(_, let bytes) = line { batch.append(String(decoding: bytes, as: UTF8.self)) }
                    }
                } catch {
                    diagnostics.error("cannot read queries: \(error.why)")
                    break
                }
                if !lines.push(contentsOf: batch) { break }
            }
            lines.close()
        }
    }
}

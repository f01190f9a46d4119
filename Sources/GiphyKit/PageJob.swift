import NetKit
import SposureKit

/// One page request of `giphy-pages list`: the page, its record as read, and its line on stdin.
final class PageJob: RequestJob {
    let page: PageRequest
    let record: JSONRecord
    let line: Int

    init(sequence: Int, page: PageRequest, record: JSONRecord, line: Int) {
        self.page = page
        self.record = record
        self.line = line
        super.init(sequence: sequence)
    }
}

import RecordKit
import Testing

/// The credit line a round's and the history's screens print: remote text,
/// so cleaned, and bounded however many authors and licences a round met.
struct PictureCreditTests {
    @Test func theLineGroupsByLicenceCleansTheNamesAndStaysShort() {
        var credits = (0..<5).map { PictureCredit(author: "Author \($0)", license: "CC BY-SA 4.0") }
        credits += (1...6).map { PictureCredit(author: "Other \($0)", license: "Licence \($0)") }
        credits.append(PictureCredit(author: "Evil\u{1B}]0;pwned\u{07} Name", license: "CC0"))
        #expect(PictureCredit.summary(credits) == "pictures by Author 0, Author 1, Author 2 and 2 more, CC BY-SA 4.0; "
            + "Other 1, Licence 1; Other 2, Licence 2; Other 3, Licence 3; 4 more under 4 other licences (Wikimedia Commons)")
        #expect(PictureCredit.summary([credits[11]], lead: "by ") == "by Evil Name, CC0 (Wikimedia Commons)")
        #expect(PictureCredit.summary([]) == nil)
    }
}

import Foundation
import LadderKit
import Testing

struct AvoidListTests {
    let hero = AvoidList(["spider-man"])

    @Test func aPhraseMatchesHoweverItsWordsAreJoined() {
        for text in ["Spider-Man swings", "spider man", "SPIDERMAN", "SpiderMan: Homecoming", "the spider–man", "#spiderman",
                     "Spider-Man's web", "spider_man"] {
            #expect(hero.match([text]) == "spider-man", "\(text)")
        }
        // Written run together, the entry matches the words apart too.
        #expect(AvoidList(["spiderman"]).match(["Spider Man"]) == "spiderman")
    }

    @Test func wordsMatchWholeNeverAsPartOfAnother() {
        #expect(hero.match(["spiders", "a spider", "man", "spidermanfan", "spider manor"]) == nil)
        #expect(AvoidList(["spider"]).match(["spiders on a wall", "spiderman"]) == nil)
        #expect(AvoidList(["marvel"]).match(["Marvel's heroes"]) == "marvel")
        #expect(AvoidList(["marvel"]).match(["marvellous"]) == nil)
    }

    @Test func lettersAndDigitsAndCapitalsStartWords() {
        #expect(AvoidList(["spiderman"]).match(["spiderman2"]) == "spiderman")
        #expect(AvoidList(["spider-man 2"]).match(["Spiderman2 trailer"]) == "spider-man 2")
        #expect(AvoidList(["man"]).match(["SpiderMan"]) == "man")
    }

    @Test func theFirstEntryOfTheListThatMatchesIsNamed() {
        let list = AvoidList(["venom movie", "marvel", "spider-man"])
        #expect(list.match(["Spider-Man", "tags: marvel"]) == "marvel")
        #expect(list.match(["", "Venom  Movie!"]) == "venom movie")
    }

    @Test func twoSpellingsOfTheSameWordsAreOneEntry() {
        var list = AvoidList(["spider-man", "Spider Man", "SPIDERMAN"])
        #expect(list.entries == ["spider-man"])
        let again = list.add("spider man")
        let new = list.add("marvel")
        #expect(!again && new)
        #expect(list.contains("Marvel") && !list.contains("marvels"))
        #expect(list.merged(with: AvoidList(["mcu", "spider man"])).entries == ["spider-man", "marvel", "mcu"])
    }

    @Test func badEntriesSayWhy() {
        #expect(AvoidList.problem("  ") == "an entry is empty")
        #expect(AvoidList.problem("!?-") == "\"!?-\" has no letter or digit to match")
        #expect(AvoidList.problem(String(repeating: "x", count: 51))?.hasSuffix("is 51 characters; an entry has at most 50") == true)
        #expect(AvoidList.problem("spider\u{1B}[2J")?.contains("control character U+001B") == true)
        #expect(AvoidList.problem("Pokémon") == nil)
    }

    @Test func aLadderAndItsRungsCarryAvoidListsCheckedByField() throws {
        let text = ladderJSON(extra: "\n  \"avoid\": [\"spider-man\", \"marvel\"],") { number in
            number == 2 ? "{\"query\": \"thing 2\", \"suds\": 20, \"avoid\": [\"web design\"]}" : "{\"query\": \"thing \(number)\", \"suds\": \(number * 10)}"
        }
        let ladder = try LadderFile.parse(text, file: "mine.json")
        #expect(ladder.avoid == ["spider-man", "marvel"])
        #expect(ladder.rungs[1].avoid == ["web design"])
        #expect(ladder.avoidList(rung: 2).entries == ["spider-man", "marvel", "web design"])
        #expect(ladder.avoidList(rung: 3).entries == ["spider-man", "marvel"])
    }

    @Test func badAvoidListsNameTheFileAndTheRung() {
        func ladderWith(_ avoid: String) -> String? { message(ladderJSON(extra: "\n  \"avoid\": \(avoid),")) }
        func rungWith(_ avoid: String) -> String? {
            message(ladderJSON { $0 == 3 ? "{\"query\": \"thing 3\", \"suds\": 30, \"avoid\": \(avoid)}" : "{\"query\": \"thing \($0)\", \"suds\": \($0 * 10)}" })
        }
        #expect(ladderWith("\"spider-man\"") == "mine.json: \"avoid\": must be an array of words or phrases, found \"spider-man\"")
        #expect(ladderWith("[\"ok\", 3]") == "mine.json: \"avoid\": entry 2 must be a string, found 3")
        #expect(rungWith("[\"\"]") == "mine.json: rung 3, \"avoid\": entry 1: an entry is empty")
        #expect(rungWith("[\"---\"]") == "mine.json: rung 3, \"avoid\": entry 1: \"---\" has no letter or digit to match")
        let many = "[" + (0...500).map { "\"w\($0)\"" }.joined(separator: ",") + "]"
        #expect(ladderWith(many) == "mine.json: \"avoid\": 501 entries; a list has at most 500")
        #expect(message(ladderJSON { $0 == 1 ? "{\"dir\": \"/tmp\", \"suds\": 10, \"avoid\": [\"x\"]}" : "{\"query\": \"thing \($0)\", \"suds\": \($0 * 10)}" })
                == "mine.json: rung 1, \"avoid\": a rung of your own GIFs (\"dir\") has nothing to avoid")
        #expect(message(ladderJSON(extra: "\n  \"rules\": {\"fresh_rounds\": 51},")) == "mine.json: rules, \"fresh_rounds\": 51 is outside 0–50")
    }

    @Test func everyBuiltInLadderAvoidsItsConfusions() throws {
        let expected: [String: [String]] = [
            "spiders": ["Spider-Man", "Spiderman swinging", "spider man", "Peter Parker", "Miles Morales", "Marvel", "Venom Movie"],
            "snakes": ["Solid Snake", "Metal Gear Solid", "Slytherin"], "clowns": ["Pennywise", "Joker", "It Chapter Two"],
            "flying": ["Superman", "superhero", "Iron Man", "Peter Pan"], "dogs": ["hot dog", "Snoop Dogg"],
            "insects": ["Bugs Bunny", "Ant-Man"], "heights": ["The Rock"], "needles": ["Space Needle"],
            "blood": ["True Blood", "Taylor Swift Bad Blood"], "deep-water": ["Aquaman", "SpongeBob", "Finding Nemo"],
        ]
        for name in BuiltInLadders.names {
            let ladder = try LadderFile.parse(try #require(BuiltInLadders.text(name)), file: "built-in \(name)")
            let list = AvoidList(ladder.avoid)
            for text in try #require(expected[name]) { #expect(list.match([text]) != nil, "\(name): \(text)") }
            // The ladder's own queries are never avoided.
            for (index, rung) in ladder.rungs.enumerated() {
                #expect(ladder.avoidList(rung: index + 1).match(rung.queries) == nil, "\(name): \(rung.label)")
            }
        }
    }
}

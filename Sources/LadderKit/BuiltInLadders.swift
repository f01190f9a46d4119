/// The ladders Sposure ships: ten common fears, each graded from symbolic to realistic.
///
/// Kept as the JSON text of a ladder file, so `score ladder NAME --copy` writes
/// exactly this for editing, and the same checks read them (a test reads all).
public enum BuiltInLadders {
    /// The names, in the order `score ladder` lists them.
    public static let names = ["spiders", "snakes", "dogs", "insects", "heights", "flying", "needles", "blood", "clowns", "deep-water"]

    /// The JSON text of the built-in ladder `name`, when there is one.
    public static func text(_ name: String) -> String? { texts[name] }

    private static let texts: [String: String] = [
        "spiders": """
            {
              "name": "spiders",
              "title": "Spiders: from cartoons to one on a hand",
              "expectation": "I will panic and have to look away",
              "rungs": [
                {"query": "cartoon spider", "suds": 5, "still": true},
                {"query": "cute cartoon spider", "suds": 10},
                {"query": "spider drawing", "suds": 20, "still": true},
                {"query": "spider web", "suds": 25},
                {"query": "small spider", "suds": 35, "still": true},
                {"query": "house spider", "suds": 45},
                {"query": "jumping spider", "suds": 55},
                {"query": "wolf spider", "suds": 65},
                {"query": "tarantula", "suds": 75},
                {"query": "huntsman spider", "suds": 85},
                {"query": "spider on hand", "suds": 95}
              ]
            }
            """,
        "snakes": """
            {
              "name": "snakes",
              "title": "Snakes: from cartoons to one held close",
              "expectation": "I will panic and have to look away",
              "rungs": [
                {"query": "cartoon snake", "suds": 5, "still": true},
                {"query": "cute cartoon snake", "suds": 10},
                {"query": "snake drawing", "suds": 20, "still": true},
                {"query": "snake skin", "suds": 25, "still": true},
                {"query": "garden snake", "suds": 35},
                {"query": "corn snake", "suds": 45},
                {"query": "python snake", "suds": 55},
                {"query": "snake slithering", "suds": 65},
                {"query": "cobra", "suds": 75},
                {"query": "snake strike", "suds": 85},
                {"query": "snake on arm", "suds": 95}
              ]
            }
            """,
        "dogs": """
            {
              "name": "dogs",
              "title": "Dogs: from cartoon puppies to a barking dog up close",
              "expectation": "A dog will lunge at me and I will panic",
              "rungs": [
                {"query": "cartoon puppy", "suds": 5, "still": true},
                {"query": "cartoon dog", "suds": 10},
                {"query": "puppy sleeping", "suds": 20},
                {"query": "small dog", "suds": 30},
                {"query": "dog wagging tail", "suds": 40},
                {"query": "big dog", "suds": 50},
                {"query": "dog running", "suds": 60},
                {"query": "dog barking", "suds": 70},
                {"query": "dog jumping on person", "suds": 80},
                {"query": "dog growling", "suds": 90}
              ]
            }
            """,
        "insects": """
            {
              "name": "insects",
              "title": "Insects: from cartoon bugs to a swarm",
              "expectation": "I will feel them crawling on me and have to stop",
              "rungs": [
                {"query": "cartoon bug", "suds": 5, "still": true},
                {"query": "cartoon bee", "suds": 10},
                {"query": "ladybug", "suds": 20},
                {"query": "butterfly", "suds": 25},
                {"query": "ant", "suds": 35},
                {"query": "beetle", "suds": 45},
                {"query": "grasshopper", "suds": 55},
                {"query": "cockroach", "suds": 65},
                {"query": "wasp", "suds": 75},
                {"query": "insect swarm", "suds": 85},
                {"query": "bugs crawling on hand", "suds": 95}
              ]
            }
            """,
        "heights": """
            {
              "name": "heights",
              "title": "Heights: from a step stool to a glass floor",
              "expectation": "I will get dizzy and feel I am falling",
              "rungs": [
                {"query": "cartoon mountain", "suds": 5, "still": true},
                {"query": "view from a balcony", "suds": 15, "still": true},
                {"query": "ladder climbing", "suds": 25},
                {"query": "rooftop view", "suds": 35},
                {"query": "skyscraper view", "suds": 45},
                {"query": "cliff edge", "suds": 55},
                {"query": "glass bridge", "suds": 65},
                {"query": "rock climbing", "suds": 75},
                {"query": "skydiving", "suds": 85},
                {"query": "walking on skyscraper edge", "suds": 95}
              ]
            }
            """,
        "flying": """
            {
              "name": "flying",
              "title": "Flying: from a toy plane to turbulence",
              "expectation": "The plane will crash and I will lose control",
              "rungs": [
                {"query": "cartoon airplane", "suds": 5, "still": true},
                {"query": "paper airplane", "suds": 10},
                {"query": "airport", "suds": 20},
                {"query": "airplane taking off", "suds": 30},
                {"query": "airplane window view", "suds": 40},
                {"query": "airplane cabin", "suds": 50},
                {"query": "airplane landing", "suds": 60},
                {"query": "clouds from plane", "suds": 65},
                {"query": "airplane turbulence", "suds": 80},
                {"query": "plane shaking turbulence", "suds": 90}
              ]
            }
            """,
        "needles": """
            {
              "name": "needles",
              "title": "Needles: from a drawing to an injection (sit down; see the notice)",
              "expectation": "I will faint or have to look away",
              "rungs": [
                {"query": "cartoon syringe", "suds": 5, "still": true},
                {"query": "syringe drawing", "suds": 10, "still": true},
                {"query": "syringe", "suds": 20, "still": true},
                {"query": "vaccine vial", "suds": 25},
                {"query": "doctor with syringe", "suds": 35},
                {"query": "nurse vaccine", "suds": 45},
                {"query": "vaccine shot arm", "suds": 55},
                {"query": "flu shot", "suds": 65},
                {"query": "blood test", "suds": 75},
                {"query": "injection", "suds": 85},
                {"query": "iv needle", "suds": 95}
              ]
            }
            """,
        "blood": """
            {
              "name": "blood",
              "title": "Blood: from a red drop to a wound (sit down; see the notice)",
              "expectation": "I will faint or feel sick",
              "rungs": [
                {"query": "cartoon band aid", "suds": 5, "still": true},
                {"query": "red drop", "suds": 10, "still": true},
                {"query": "blood drop drawing", "suds": 20, "still": true},
                {"query": "paper cut", "suds": 30},
                {"query": "nosebleed cartoon", "suds": 40},
                {"query": "finger prick", "suds": 50},
                {"query": "blood donation", "suds": 60},
                {"query": "scraped knee", "suds": 70},
                {"query": "blood test tube", "suds": 80},
                {"query": "bleeding wound", "suds": 90}
              ]
            }
            """,
        "clowns": """
            {
              "name": "clowns",
              "title": "Clowns: from a circus poster to a clown up close",
              "expectation": "The clown will frighten me and I will have to stop",
              "rungs": [
                {"query": "cartoon clown", "suds": 5, "still": true},
                {"query": "clown nose", "suds": 10, "still": true},
                {"query": "circus", "suds": 20},
                {"query": "clown juggling", "suds": 30},
                {"query": "clown face paint", "suds": 40},
                {"query": "clown makeup", "suds": 50},
                {"query": "clown laughing", "suds": 60},
                {"query": "clown close up", "suds": 70},
                {"query": "creepy clown", "suds": 80},
                {"query": "scary clown", "suds": 90}
              ]
            }
            """,
        "deep-water": """
            {
              "name": "deep-water",
              "title": "Deep water: from a pool to the open ocean",
              "expectation": "I will feel I am drowning and panic",
              "rungs": [
                {"query": "cartoon ocean", "suds": 5, "still": true},
                {"query": "swimming pool", "suds": 10},
                {"query": "lake", "suds": 20},
                {"query": "diving board", "suds": 30},
                {"query": "underwater", "suds": 40},
                {"query": "ocean waves", "suds": 50},
                {"query": "deep sea", "suds": 60},
                {"query": "open ocean", "suds": 70},
                {"query": "scuba diving deep", "suds": 80},
                {"query": "deep ocean abyss", "suds": 90}
              ]
            }
            """,
    ]
}

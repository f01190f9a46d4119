extension Score.LadderCommand {
    /// The help's discussion: what the command does, its output, its exit statuses.
    static let discussion = """
        Without NAME: the ladders there are (built-in, and your own in \
        $SPOSURE_CONFIG/ladders, else $XDG_CONFIG_HOME/sposure/ladders, else \
        ~/.config/sposure/ladders); on a terminal each with where you stand on it: \
        its rung, your rounds and the next round's rung, or not started and the \
        command to start it (JSON: one "ladders" record, the names and their files).

        With NAME: the ladder as a table, one row a rung: what it shows, the expected \
        SUDS (subjective units of distress, 0–100: a rung of SUDS 40 is a 4 on your \
        0–10 ratings), rounds played on it, the best exposure, the last distress after \
        a round (0–10), when it was mastered and when its re-test is due; ▶ marks the \
        rung the next `giphy-pages plan --ladder NAME` plays (a due re-test first). \
        Text on a terminal, else one JSON "ladder" record; --format overrides. The \
        rules are in docs/ladders.md.

        Below the table: the GIFs you marked off-topic on this ladder (the x key in \
        gif-play; `giphy-pages list` never lists them again) and the words their titles \
        repeat (not the ladder's own, nor those it avoids already), so you can spot one \
        to avoid. The JSON record has them as "marks" (each mark's record) and \
        "mark_words" ({"word": titles holding it}).

        --copy writes the built-in ladder to your folder (NAME.json) and prints its \
        path; your copy then replaces the built-in everywhere. --avoid WORD (repeatable) \
        adds WORD to your copy's ladder-wide "avoid" list, making the copy first when \
        there is none (the built-in stays as it is), and says what it did. A bad ladder \
        file is one message naming the file, the field and what is wrong, and exit 64.

        Examples:
          score ladder
          score ladder spiders
          score ladder spiders --copy && $EDITOR ~/.config/sposure/ladders/spiders.json
          score ladder spiders --avoid "spider-man" --avoid marvel
        """
}

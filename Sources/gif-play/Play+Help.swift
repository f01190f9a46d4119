extension Play {
    /// The help's discussion: what the command does, its output, its exit statuses.
    static let discussion = """
        Reads "image" records on stdin (from fetch-images, or a saved stream), or plays \
        the files named as arguments. The screen and keyboard are /dev/tty, so stdin \
        stays the image stream and stdout the event stream for `score`:

          … | fetch-images | gif-play | score
          gif-play spider.gif              (one file, to try it)

        Hold the left mouse button or SPACE: GIFs play one after another, each its \
        full length, while an exposure timer runs. Letting go ends the round \
        (--on-release end) or pauses it (--on-release pause); the window losing focus \
        lets go too. Ctrl-Z stops the player until `fg` without ending the round: the \
        hold ends there (the time stopped is not exposure), and after `fg` the round goes \
        on where it was once you hold again. q, Esc or Ctrl-C end it. \
        The next GIFs are decoded ahead (--buffer), so one starts the moment the last \
        ends; when none is ready while you hold, the status line says "loading more…" \
        (the next GIF is still coming; "loading…" for a frame still decoding) and a \
        "stall" event records it. The status line reads "exposure 12s · 3 GIFs · \
        spiders", its timer moving each second. While a GIF from an API is on screen, the status line \
        credits it as its provider asks: "Powered by GIPHY" or "Powered by KLIPY" (from the \
        record's provider, else its cache_key), then "· by NAME" when the record carries a \
        "creator" (cleaned of escapes, at most 40 characters).

        x marks the GIF on screen off-topic: it ends at once and the next plays (an \
        off_topic event; score keeps the mark, with the clip's hash). A GIF that is the \
        same clip as one already shown this round, or as one marked off-topic (the data \
        folder's ratings.ndjson), under another id (re-encoded, resized, cropped: \
        perceptual hashes of its first frames with detail, made while decoding) is passed \
        over before it is shown (a skipped event). GIFs shown in the last --seen-rounds rounds of the rung or \
        query (the data folder's seen.ndjson, which score keeps) play after new ones. Both \
        read the data folder only when --seen-rounds is above 0 (5 on a real clock, 0 on \
        a virtual one), so a replay plays its stream as it was.

        Pictures: GIF, JPEG, PNG and WebP (still or animated), told by their first bytes, \
        not their names. A still (a JPEG, a PNG, a WebP or GIF of one frame, or any \
        record with "still": true, as a ladder's rung of stills has) shows its first \
        frame once for --still-time (default 5s), then the next picture comes. A file \
        of none of the four formats is a not_gif error record; one that does not decode, \
        decode_failed; one past a limit, too_large. The stream goes on.

        Events (stdout, NDJSON): session start/end, hold, shown, stall, skipped, \
        off_topic; records that are not images (errors from upstream) pass through. When stdout is the terminal, \
        events are not printed there (--events FILE writes them): a line on stderr says \
        what the round came to (GIFs, exposure). See docs/stream-format.md.

        The picture: kitty graphics, the iTerm2 protocol or sixel wherever the terminal \
        answers for them (kitty 0.28+ inside tmux 3.3+ with allow-passthrough on), else \
        colour cells (24-bit where the terminal reads a 24-bit colour back, or \
        COLORTERM says so), shaped as the terminal's cells; one probe at start-up chooses. `gif-play --verbose spider.gif` \
        says what was chosen and why; docs/terminals.md has the table.

        Headless and replayable: --renderer none --clock virtual --hold always \
        (or script:FILE, NDJSON {"t_ms":…,"down":true|false}, and {"t_ms":…,"key":"x"} \
        for the x key) plays at full speed with \
        identical events every run. With a virtual clock an image record's "at_ms" is \
        when it arrives, so stalls replay too.

        Ladder rounds (the image records carry "ladder", from giphy-pages plan --ladder): \
        the first shows a safety notice and waits for a key (accepted once, kept in the \
        data folder; --accept-notice for scripts). Before the first hold it asks distress \
        now (0-9, t for 10) and how likely the feared outcome is (0-9 for 0-90 %, t for \
        100 %); after the round the peak distress, distress now and whether it happened \
        (y/n). One key or one click on a cell each; Esc skips one; --ratings off skips \
        all; --ratings script:FILE answers from a file. During play a digit rates the GIF \
        on screen (0 calm … 9 worst) without ending the hold. \
        With --approach on, or on a rung with "approach": true, a still (see --still-time) \
        instead comes slowly closer: a smooth zoom toward its middle from 1.0x to 1.5x, \
        12 frames over 5 s, drawn by the same renderer (the step toward the feared thing, \
        in pictures). \
        Letting go always blanks the picture at once. See docs/ladders.md.

        Exit status: 0 the round ended (released, quit, end of input, time limit); \
        2 a fatal error (no terminal, unreadable hold or ratings script, a ladder \
        round's notice not accepted with no terminal); 64 usage; 130/143 \
        interrupted (SIGINT or Ctrl-C, SIGTERM); 129 the terminal hung up.
        """
}

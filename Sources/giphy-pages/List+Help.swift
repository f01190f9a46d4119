import GiphyKit

extension GiphyPages.List {
    /// The help's discussion: what the command reads and writes, what it leaves out, its exit statuses.
    static let discussion = """
        Reads "page" records on stdin (from `giphy-pages plan`, or saved) and writes, \
        in page order, one "gif" record per result: {"kind":"gif","id":…,"title":…,\
        "query":…,"section":…,"rank":…,"rendition":"fixed_height","url":…,"width":…,\
        "height":…,"frames":…,"size":…,"cache_key":"giphy:<id>:<rendition>"}. Numbers \
        are numbers, though the API sends them as strings; media URLs are kept exactly \
        (with their ?cid=). A GIF seen before in the run is dropped. Other records pass \
        through unchanged.

        Each page names its API in "provider" (absent: giphy), so one run may list \
        both. Klipy's records also carry "provider":"klipy", its 16-digit ids as exact \
        strings, and cache_key "klipy:<id>:<size>"; once a Klipy page says has_next: \
        false, the later pages of its query cost no call. A page that comes back empty \
        ends its list for either API, whatever the API claims: its later pages become \
        list_ended error records without a call.

        Every good answer is kept in the API cache for --api-ttl (a page asked twice in \
        one run, as --follow does, is asked again). Every call spends the --rate \
        allowance kept in the data folder; when the next call is further away than \
        --max-wait, the page becomes a rate_limited error record that says when calls \
        are allowed again.

        429, 5xx and the API's empty "synthetic" answers are retried with backoff for up \
        to --max-wait, and no page takes longer than --max-time from its first call \
        (attempts and waits together: a stalled API's page becomes a timeout record); \
        what still fails becomes an error record that keeps the page's \
        fields, so `giphy-pages list --retry-errors < saved.ndjson` runs just the failed \
        pages again. A refused key (401/403) stops the run with one message.

        On a ladder's pages (giphy-pages plan --ladder), a GIF you already rated \
        well above the rung while playing that ladder (a digit key in gif-play: 3 or \
        more over the rung's SUDS / 10) is skipped before it is fetched; the count is \
        said on stderr (unless --quiet). The ratings are in the data folder, ratings.ndjson.

        Left out before any fetch, too: a GIF you marked off-topic (the x key in gif-play, \
        kept in ratings.ndjson), on any ladder or none, and a result whose title, slug, tags \
        or creator hold a word of the page's "avoid" (plan --avoid, a ladder's lists) or of \
        --avoid. After a page that left GIFs out (or held some back), one record says how many: \
        {"kind":"skipped","stage":"giphy-pages list","query":…,"section":…,"offset":…,\
        "avoided":N,"off_topic":N,"rated":N,"held":N,"dropped":N,"words":{"spider-man":N}}; \
        at the end one line on stderr sums them up.

        New GIFs first: a GIF shown in the last --fresh-rounds rounds on the same rung (or \
        the same query), as the data folder's seen.ndjson says, is held back (at most \
        \(FreshOrder.capacity)) and listed when the pages run out, the longest unseen first. \
        Each "gif" record carries "creator" when the API names one (Giphy does, Klipy does not).

        Wikimedia Commons (pages of "provider":"commons", no key) lists freely licensed \
        pictures, one request at a time: each record's url is a thumbnail --width pixels wide, \
        and it carries "mime", "author", "license", "license_url" and "page_url", the credit \
        the licences ask for (a file that names no licence becomes a no_license error record). \
        SVG, TIFF, PDF, video and audio files are left out before any fetch (counted in \
        "skipped" as "unplayable"). When Wikimedia's servers lag (maxlag), the page waits as \
        their Retry-After says, within --max-time.

        Examples:
          giphy-pages plan spiders | giphy-pages list | fetch-images
          giphy-pages list --rendition downsized < pages.ndjson > gifs.ndjson
          grep '"code"' gifs.ndjson | giphy-pages list --retry-errors
          giphy-pages plan --provider klipy spiders | giphy-pages list --rendition md
          giphy-pages plan --provider commons Araneae | giphy-pages list --width 320

        \(keysHelp)

        \(exitCodes)
        """
}

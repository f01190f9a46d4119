import GiphyKit

extension GiphyPages.Plan {
    /// The help's discussion: what the command does, its output, its exit statuses.
    static let discussion = """
        Three APIs (--provider; without it: Giphy when GIPHY_API_KEY is set, else Klipy \
        when KLIPY_API_KEY is set, else Wikimedia Commons, which needs no key):

        giphy: for each query, one call (limit=1) learns how many results there are; \
        then one "page" record per page goes to stdout: {"kind":"page","endpoint":"search",\
        "query":"spiders","section":"spiders","offset":0,"limit":50,"rating":"g",\
        "lang":"en","total":4210}. Pages stop at --max-results, at the total, and at the \
        API's offset cap (4999 for search, 499 for trending).

        klipy: no call here (Klipy says no total): pages numbered from 1, --limit results \
        each (at most 50), up to --max-results (default \(KlipyAPI.defaultPages) \
        pages): {"kind":"page","provider":"klipy","endpoint":"search","query":"spiders",\
        "section":"spiders","page":1,"per_page":50,"offset":0,"limit":50,"rating":"g",\
        "lang":"en"}. The lister stops asking once a page says has_next: false.

        commons: no call here either: pages by offset, --limit results each (at most 50), \
        up to --max-results (default \(CommonsAPI.defaultPages) pages) and the 10 000 results \
        its search serves: {"kind":"page","provider":"commons","endpoint":"search",\
        "query":"Araneae","section":"Araneae","offset":0,"limit":50,"rating":"g","lang":"en"}. \
        Its pictures are freely licensed photographs and drawings; it has no content rating \
        (--rating is not sent) and "trending" is its featured pictures. The lister stops \
        asking once an answer has no "continue".

        Each query is a section; sections come one after another, or --interleave'd \
        page by page.

        Examples:
          giphy-pages plan spiders snakes --interleave --max-results 200
          giphy-pages plan --provider klipy spiders --max-results 100
          giphy-pages plan --provider commons Araneae --max-results 100
          giphy-pages plan --trending --follow --interval 2m
          giphy-pages plan --no-ping --total 500 -q spiders     (no call at all)
          my-search-box | giphy-pages plan --queries-from - --debounce 300ms
          giphy-pages plan --ladder spiders              (the rung your history says)
          giphy-pages plan --ladder spiders --rung 3 --mix

        A ladder (docs/ladders.md; `score ladder` lists them, `score ladder NAME --copy` makes \
        your own copy to edit) plans one rung's queries; every page carries "ladder", "rung" \
        and "rung_suds" (and "retest", "mix", "still" when true), which list, fetch-images and \
        gif-play pass on to score. Without --rung, the rung comes from your history by the \
        ladder's rules (a due re-test first), as `score ladder NAME` shows; the choice is said \
        on stderr. A rung of your own GIFs ("dir") writes image records for them, no network. \
        A bad ladder file is one message and exit 64.

        --avoid WORD (repeatable) and a ladder's "avoid" lists (the ladder's and the rung's) \
        go on every page as "avoid":[…]: `list` leaves out, before any fetch, the results whose \
        title, slug, tags or creator hold one of the words (docs/ladders.md says how words match). \
        A ladder's "fresh_rounds" rule, when set, goes on every page as "fresh_rounds".

        \(keysHelp)

        \(exitCodes)
        """
}

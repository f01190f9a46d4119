# Shared by the pipelines: finding the stages, messages, the key check, and
# judging how a round's stages went. Sourced, not run.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { echo "${0##*/}: $*" >&2; }
# Says MESSAGE and exits with STATUS (default 1): die MESSAGE [STATUS].
die() { say "$1"; exit "${2:-1}"; }

# Prints the script's name and the tools' version: the one version of the
# build, as the stages answer --version (stage score finds the same build).
version() {
  local score
  score=$(stage score) || exit 1
  echo "${0##*/} $("$score" --version)"
}

# The path of a stage: $SPOSURE_BIN, .build/release, .build/debug, then PATH.
stage() {
  local tool=$1 dir
  for dir in "${SPOSURE_BIN:-}" "$here/.build/release" "$here/.build/debug"; do
    [[ -n $dir && -x $dir/$tool ]] && { echo "$dir/$tool"; return; }
  done
  if command -v "$tool" >/dev/null 2>&1; then command -v "$tool"; return; fi
  die "$tool is not built: run 'make build' (or set SPOSURE_BIN to the folder that holds it)"
}

# The key of the provider asked for (giphy or klipy), else of either one.
need_key() {
  case ${1:-} in
    giphy) [[ -n ${GIPHY_API_KEY:-} ]] && return ;;
    klipy) [[ -n ${KLIPY_API_KEY:-} ]] && return ;;
    *) [[ -n ${GIPHY_API_KEY:-} || -n ${KLIPY_API_KEY:-} ]] && return ;;
  esac
  die "GIPHY_API_KEY is not set, nor KLIPY_API_KEY. Get a free Giphy key at https://developers.giphy.com/dashboard/ (export GIPHY_API_KEY=your-key) or a Klipy key at https://klipy.com (export KLIPY_API_KEY=your-key); pipelines/demo plays offline without one (make demo)"
}

# Checks a --provider value.
check_provider() {
  [[ -z $1 || $1 == giphy || $1 == klipy ]] || die "--provider must be giphy or klipy (see --help)" 64
}

# True when a person is at a terminal to hold the button.
have_terminal() {
  [[ -t 1 || -t 2 ]] && { : </dev/tty; } 2>/dev/null
}

# Judges a round from each stage's exit status and returns the script's:
#
#   judge_round EVENTS "STAGE=STATUS"...     (in pipeline order, from PIPESTATUS)
#
# STAGE is giphy-pages plan, giphy-pages list, fetch-images, gif-play, score, or
# "save FILE" for a tee -p that saves a stage's output. EVENTS is the file that
# holds gif-play's events. A stage's exit 1 (giphy-pages, fetch-images: some
# records became error records) is part of a played round: the score counts
# those records as errors, and one line says so. Returns
#   0            the round was played and scored;
#   1            it could not be: one line says which stage and why (exit 2, a
#                signal, score finding no round, or not one GIF shown because an
#                earlier stage failed every record);
#   129/130/143  a stage was interrupted (hang-up, Ctrl-C or SIGINT, SIGTERM):
#                the score, when there is one, came first.
judge_round() {
  local events=$1 pair name status cause= interrupted= partial=()
  shift
  for pair in "$@"; do
    name=${pair%=*} status=${pair##*=}
    case $name:$status in
      *:0) ;;
      *:129|*:130|*:143) interrupted=${interrupted:-$status} ;;
      "giphy-pages plan:1"|"giphy-pages list:1"|"fetch-images:1") partial+=("$name") ;;
      # A stage whose reader has gone (the round ended first) stops there: a normal end.
      "giphy-pages plan:141"|"giphy-pages list:141"|"fetch-images:141") ;;
      score:1) cause=${cause:-"score found no round in gif-play's events"} ;;
      save\ *) cause=${cause:-"could not write ${name#save } (tee exit $status)"} ;;
      *)
        if ((status > 128)); then
          cause=${cause:-"$name was killed by SIG$(kill -l $((status - 128)) 2>/dev/null || echo $((status - 128)))"}
        else
          cause=${cause:-"$name failed (exit $status; its message is above)"}
        fi ;;
    esac
  done
  if [[ -n $cause ]]; then
    say "the round could not be played or scored: $cause"
    return 1
  fi
  [[ -n $interrupted ]] && return "$interrupted"
  if ((${#partial[@]})) && ! grep -q '"kind":"shown"' "$events" 2>/dev/null; then
    say "the round could not be played: no GIF was shown, and ${partial[0]} failed (exit 1: every record an error, or the key refused; see above and the score's errors)"
    return 1
  fi
  for name in ${partial[@]+"${partial[@]}"}; do
    case $name in
      fetch-images) say "some GIFs could not be fetched (fetch-images exit 1): the score counts them under errors" ;;
      *) say "some pages could not be listed ($name exit 1): the score counts them under errors" ;;
    esac
  done
  return 0
}

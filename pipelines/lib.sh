# Shared by the pipelines: finding the stages, messages, the key check.
# Sourced, not run.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { echo "${0##*/}: $*" >&2; }
die() { say "$*"; exit "${2:-1}"; }

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

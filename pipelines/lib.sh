# Shared by the pipelines: each script is a thin wrapper of a sposure
# subcommand, which owns the wiring of the stages (one implementation: process
# group, signals, the judging of each stage's exit status). Sourced, not run.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { echo "${0##*/}: $*" >&2; }
# Says MESSAGE and exits with STATUS (default 1): die MESSAGE [STATUS].
die() { say "$1"; exit "${2:-1}"; }

# The path of a tool: $SPOSURE_BIN, .build/release, .build/debug, then PATH.
stage() {
  local tool=$1 dir
  for dir in "${SPOSURE_BIN:-}" "$here/.build/release" "$here/.build/debug"; do
    [[ -n $dir && -x $dir/$tool ]] && { echo "$dir/$tool"; return; }
  done
  if command -v "$tool" >/dev/null 2>&1; then command -v "$tool"; return; fi
  die "$tool is not built: run 'make build' (or set SPOSURE_BIN to the folder that holds it)"
}

# Runs `sposure ARGS...` in this process's place, with the stages of
# $SPOSURE_BIN when it is set, else those beside the sposure found: the
# scripts always ran the stages of one build.
# --version is the script's own: its name and the tools' one version.
front_door() {
  local sposure arg
  sposure=$(stage sposure) || exit 1
  for arg in "$@"; do
    [[ $arg == --version ]] && { echo "${0##*/} $("$sposure" --version)"; exit 0; }
  done
  export SPOSURE_BIN=${SPOSURE_BIN:-${sposure%/*}}
  exec "$sposure" "$@"
}

# Shared settings for the tools/ scripts (sourced, not run).
# BUILD_ROOT: kernel tree, kernel objects, image and test outputs; ignored by git.
# CACHE_ROOT: ccache and the mkosi package cache, kept outside the repository
#             so that a fresh clone (CI) still reuses them.
: "${top:?}"
BUILD_ROOT=${RNG_HEALTH_BUILD:-$top/.build}
CACHE_ROOT=${RNG_HEALTH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rng-health}
export RNG_HEALTH_BUILD=$BUILD_ROOT RNG_HEALTH_CACHE=$CACHE_ROOT

log() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() { printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

# The one "inputs changed?" check: a stamp file holds the id (a hash) of
# the inputs its output was made from.
#   stamp_is FILE ID    true if FILE holds ID (false if it is missing)
#   stamp_set FILE ID   records ID in FILE
stamp_is() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }
stamp_set() { printf '%s\n' "$2" >"$1"; }

# Kernel and image builds never run at the same time (2 cores): both take
# this lock, held until the calling script exits.
build_lock() {
	mkdir -p "$CACHE_ROOT"
	exec 8>"$CACHE_ROOT/build.lock"
	flock 8
}

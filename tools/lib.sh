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

# The kernel builds' compiler cache (tools/kernel-build and the kernel
# tests' own O= directories), outside the repository so that a fresh clone
# reuses it. Depend mode (CCACHE_DEPEND): a miss is keyed on the compiler's
# own -MMD dependency file, so ccache does not run the preprocessor a second
# time; on a cold cache that was a third more time per object than gcc
# alone (30 kernel objects: gcc 33 s, ccache 46 s, depend mode 38 s), and
# warm, the hits are the same direct-mode hits. Reproducible build metadata
# (KBUILD_BUILD_USER/HOST; each caller sets KBUILD_BUILD_TIMESTAMP) keeps
# hits across clean builds.
kernel_ccache_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE_ROOT/ccache}
	export CCACHE_BASEDIR=$BUILD_ROOT/kernel CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
	export CCACHE_DEPEND=1
	export KBUILD_BUILD_USER=rng-health KBUILD_BUILD_HOST=rng-health
	mkdir -p "$CCACHE_DIR"
}

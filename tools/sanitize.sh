#!/usr/bin/env bash
# Memory-safety checks of the compiled core, each in its own virtual environment and build
# directory (never the development install):
#
#   tools/sanitize.sh asan       the whole test suite against a build with AddressSanitizer and
#                                UndefinedBehaviorSanitizer (CMake option GUANDAN_SANITIZE=ON)
#   tools/sanitize.sh valgrind   the native tests under valgrind --tool=memcheck (a plain build
#                                with debug information)
#   tools/sanitize.sh            both
#
# Exits non-zero on any sanitizer report, valgrind error or test failure. Extra arguments after
# the mode go to pytest. Where the environments live: GUANDAN_SAN_DIR (default /tmp/guandan-san).
#
# Running Python with an ASan-built extension: the ASan runtime must be loaded before anything
# else, so the interpreter runs with LD_PRELOAD of gcc's libasan (and libubsan); the
# interpreter's own allocations (never freed at exit, by design) are not leaks of ours, so leak
# detection is off (detect_leaks=0) — the leak check of the core is tools/leak_check.py.
set -euo pipefail

mode="${1:-all}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${GUANDAN_SAN_DIR:-/tmp/guandan-san}"
python="${PYTHON:-python3}"

# the tests that drive the native core (valgrind runs Python ~50x slower: not the whole suite,
# and not the tests that spend their time in the pure-Python reference or in long games of
# the search bot; the search's own native tests are in, and the thorough profiles of the
# hypothesis properties and the read-once races, which the quick part leaves out)
native_tests=(tests/core/test_batch.py tests/core/test_movegen.py tests/properties/test_errors.py
              tests/core/test_native.py::test_native_hands_are_checked tests/core/test_native.py::test_native_levels_and_beats_are_checked
              tests/core/test_native.py::test_native_words_and_buffers_are_checked tests/core/test_native.py::test_native_deal_states_are_checked
              tests/core/test_native.py::test_native_counts_policies_and_seeds_are_checked
              tests/bots/test_playout.py tests/game/test_perft.py
              tests/properties/test_build.py tests/properties/test_fuzz.py tests/properties/test_read_once.py tests/properties/test_doors.py
              tests/bots/test_search.py tests/bots/test_greedy_native.py tests/bots/test_native_policies.py
              -m "not slow or thorough or races" -k "not beats_greedy and not reference_perft")

setup() {  # setup NAME CMAKE_DEFINES... : a venv with the package built into it
    local name="$1"; shift
    local venv="$dir/$name-venv" build="$dir/$name-build"
    if [ ! -x "$venv/bin/python" ]; then
        "$python" -m venv "$venv"
        "$venv/bin/pip" install -q --upgrade pip
        "$venv/bin/pip" install -q scikit-build-core cython numpy
    fi
    "$venv/bin/pip" install -q --no-build-isolation "$root[test]" -Cbuild-dir="$build" \
        -Ccmake.build-type=RelWithDebInfo "$@"
    echo "$venv"
}

run_asan() {
    local venv
    venv="$(setup asan -Ccmake.define.GUANDAN_SANITIZE=ON)"
    # (grep -c reads all of nm's output: grep -q would stop early and, under pipefail, nm's
    # SIGPIPE would fail the check on a module that does hold ASan)
    if [ "$(nm -D "$venv"/lib/python3*/site-packages/guandan/core/_core*.so | grep -c __asan_init)" = 0 ]; then
        echo "sanitize: the extension is not built with ASan" >&2
        return 1
    fi
    local preload
    preload="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
    echo "== ASan + UBSan: the whole test suite"
    (cd "$root" && \
     LD_PRELOAD="$preload" \
     ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1" \
     UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
     "$venv/bin/python" -m pytest -p no:cacheprovider "$@")
    echo "== ASan + UBSan: the native fuzz harness on random inputs"
    mkdir -p "$dir/replay"
    "$venv/bin/python" -c "
import os, random
random.seed(1)
for i in range(3000):
    open(os.path.join('$dir/replay', str(i)), 'wb').write(random.randbytes(random.randrange(1, 800)))"
    (cd "$root" && LD_PRELOAD="$preload" ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" \
     UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
     "$venv/bin/python" tools/fuzz_native.py --replay "$dir/replay")
}

run_valgrind() {
    command -v valgrind >/dev/null || { echo "sanitize: valgrind is not installed (apt-get install valgrind)" >&2; return 1; }
    local venv
    venv="$(setup valgrind)"
    echo "== valgrind memcheck: ${native_tests[*]}"
    # PYTHONMALLOC=malloc: every Python allocation goes through malloc, so memcheck sees them all
    (cd "$root" && PYTHONMALLOC=malloc valgrind --tool=memcheck --error-exitcode=99 --track-origins=yes \
        --leak-check=no --num-callers=30 --suppressions="$root/tools/valgrind-python.supp" \
        "$venv/bin/python" -m pytest -p no:cacheprovider "${native_tests[@]}" "$@")
}

case "$mode" in
    asan) run_asan "$@" ;;
    valgrind) run_valgrind "$@" ;;
    all) run_asan "$@"; run_valgrind "$@" ;;
    *) echo "usage: tools/sanitize.sh [asan|valgrind|all] [pytest args...]" >&2; exit 2 ;;
esac

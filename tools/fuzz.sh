#!/usr/bin/env bash
# Fuzz the native entry points with atheris (tools/fuzz_native.py) against an extension built
# with clang, AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer coverage
# (CMake options GUANDAN_SANITIZE and GUANDAN_FUZZ), in its own venv and build directory.
#
#   tools/fuzz.sh [SECONDS] [libFuzzer args...]     default 900 s
#
# Needs clang and its runtime libraries (Debian: apt-get install clang libclang-rt-dev). atheris
# is built from source with that clang (pip's --no-binary): the prebuilt wheel runs, but does
# not ship the asan_with_fuzzer.so that a sanitized extension needs preloaded. The corpus is
# kept in $GUANDAN_FUZZ_DIR/corpus (default /tmp/guandan-fuzz) and grows from run to run; a
# finding is written as crash-*/timeout-*/oom-* in $GUANDAN_FUZZ_DIR/artifacts and replays with
#   LD_PRELOAD=... python tools/fuzz_native.py FILE        (or --replay FILE without atheris)
set -euo pipefail

seconds="${1:-900}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${GUANDAN_FUZZ_DIR:-/tmp/guandan-fuzz}"
venv="$dir/venv"
python="${PYTHON:-python3}"
clang="${CLANG_BIN:-$(command -v clang || true)}"
[ -n "$clang" ] || { echo "fuzz: clang is needed (apt-get install clang libclang-rt-dev)" >&2; exit 1; }

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    "$venv/bin/pip" install -q scikit-build-core cython numpy tqdm
fi
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
if [ ! -f "$site/asan_with_fuzzer.so" ]; then
    CLANG_BIN="$clang" "$venv/bin/pip" install -q --force-reinstall --no-binary atheris atheris
fi
CC="$clang" "$venv/bin/pip" install -q --no-build-isolation "$root" -Cbuild-dir="$dir/build" \
    -Ccmake.build-type=RelWithDebInfo -Ccmake.define.GUANDAN_SANITIZE=ON -Ccmake.define.GUANDAN_FUZZ=ON

mkdir -p "$dir/corpus" "$dir/artifacts"
cd "$dir/artifacts"
LD_PRELOAD="$site/asan_with_fuzzer.so" \
ASAN_OPTIONS="detect_leaks=0" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$venv/bin/python" "$root/tools/fuzz_native.py" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=30 \
    -print_final_stats=1 "$@" "$dir/corpus"

#!/usr/bin/env bash
# Packs the static perimeter binary for CI servers (README "Perimeter in your CI"):
#   perimeter-VERSION-OS-ARCH.tar.gz         a folder of the same name: perimeter, LICENSE, README.md
#   perimeter-VERSION-OS-ARCH.tar.gz.sha256  its SHA-256, as `sha256sum -c` reads it
# VERSION is what `perimeter --version` says, OS and ARCH what `uname -s` and `uname -m` say
# (perimeter-0.1.0-linux-x86_64.tar.gz). The archive is the same bytes for the same binary (sorted
# names, owner 0, the time of the last commit, gzip without a name or time); each run replaces both
# files, and a run that fails leaves the old ones (or none), never a half archive.
#
#   Scripts/package.sh [--binary PATH] [--output FOLDER] [--allow-swift-runtime]
#
# The binary must not load the Swift runtime from the machine (`ldd` shows no libswift*/libFoundation*):
# a CI server without Swift cannot start such a binary (exit 127). --allow-swift-runtime packs it anyway,
# with a warning, for machines that have the same Swift. The archive's README states the oldest glibc the
# binary runs on (the highest GLIBC_ symbol version it needs, from objdump).
#
# Without --binary it builds the static binary first (the Swift runtime linked in, about 3 minutes the
# first time): swift build -c release --static-swift-stdlib --product perimeter --scratch-path .build-static
# The files go to FOLDER (default: .build-static/dist). Exit 0, or 1 with a sentence saying what to do.
set -euo pipefail

fail() { echo "package.sh: $*" >&2; exit 1; }
usage="usage: Scripts/package.sh [--binary PATH] [--output FOLDER] [--allow-swift-runtime]"

root="$(cd "$(dirname "$0")/.." && pwd)"
binary=""
allow_runtime=0
output="$root/.build-static/dist"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) [ $# -ge 2 ] || fail "--binary needs the path of a perimeter executable; $usage"
                  binary="$2"; shift 2 ;;
        --output) [ $# -ge 2 ] || fail "--output needs a folder; $usage"
                  output="$2"; shift 2 ;;
        --allow-swift-runtime) allow_runtime=1; shift ;;
        -h|--help) echo "$usage"; exit 0 ;;
        *) fail "unknown argument '$1'; $usage" ;;
    esac
done

for tool in tar gzip sha256sum; do
    command -v "$tool" >/dev/null || fail "$tool is not installed; install it (coreutils, tar, gzip) and run again."
done

if [ -z "$binary" ]; then
    command -v swift >/dev/null || fail "swift is not installed; install Swift 6 or pass --binary PATH to a built perimeter."
    # The static Foundation links libcurl (the HTTP sink), which a plain build takes from the Swift runtime.
    [ -f /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -f /usr/include/aarch64-linux-gnu/curl/curl.h ] \
        || [ -f /usr/include/curl/curl.h ] \
        || fail "the static build links libcurl, whose headers are not installed; install libcurl4-openssl-dev (apt-get install -y libcurl4-openssl-dev) and run again."
    echo "package.sh: building the static binary (swift build -c release --static-swift-stdlib)" >&2
    # Its progress goes to standard error: standard output is the archive's path alone.
    (cd "$root" && swift build -c release --static-swift-stdlib --product perimeter --scratch-path .build-static) >&2 \
        || fail "the static build failed (its errors are above); fix them, or pass --binary PATH to a built perimeter."
    binary="$root/.build-static/release/perimeter"
fi
[ -f "$binary" ] || fail "$binary: no such file; build it (swift build -c release --static-swift-stdlib) or pass --binary PATH."
[ -x "$binary" ] || fail "$binary is not executable; pass --binary PATH to a built perimeter."

version="$("$binary" --version 2>/dev/null)" || fail "$binary --version failed; is it a perimeter executable?"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([.+-][0-9A-Za-z.+-]*)?$ ]] \
    || fail "$binary --version said '${version%%$'\n'*}', not a version such as 0.1.0; is it a perimeter executable?"
# A binary that loads the Swift runtime from the machine starts only where that Swift is installed.
built="It is built with the Swift runtime linked in: it needs no Swift installation."
if command -v ldd >/dev/null; then
    runtime="$(ldd "$binary" 2>/dev/null | awk '/libswift|libFoundation|libdispatch|libBlocksRuntime/ {print $1}' | sort -u)"
    if [ -n "$runtime" ]; then
        count=$(printf '%s\n' "$runtime" | wc -l)
        runtime="$(printf '%s\n' "$runtime" | grep -m1 libswiftCore || printf '%s\n' "$runtime" | head -n 1)"
        [ "$count" -le 1 ] || runtime="$runtime and $((count - 1)) more "
        built="It was built to load the Swift runtime from the machine: it runs only where the same Swift is installed."
        if [ "$allow_runtime" -eq 1 ]; then
            echo "package.sh: warning: $binary loads the Swift runtime from the machine (${runtime% }); it runs only where the same Swift is installed." >&2
        else
            fail "$binary loads the Swift runtime from the machine (${runtime% }): a CI server without Swift cannot start it (exit 127). Build it with the runtime linked in (swift build -c release --static-swift-stdlib --product perimeter), or pass --allow-swift-runtime to pack it for machines that have the same Swift."
        fi
    fi
fi
# The oldest glibc it runs on: the highest GLIBC_ symbol version it needs.
glibc=""
if command -v objdump >/dev/null; then
    glibc="$(objdump -T "$binary" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)"
fi
glibc_line="It needs glibc $glibc or later."
[ -n "$glibc" ] || glibc_line="Its glibc minimum is unknown (objdump was not installed when it was packed)."

os="$(uname -s | tr '[:upper:]' '[:lower:]')"
arch="$(uname -m)"
name="perimeter-$version-$os-$arch"

mkdir -p "$output" || fail "cannot make the folder $output; pass --output FOLDER where you can write."
output="$(cd "$output" && pwd)"
stage="$(mktemp -d "$output/.package.XXXXXX")" || fail "cannot write in $output; pass --output FOLDER where you can write."
trap 'rm -rf "$stage"' EXIT

mkdir "$stage/$name"
cp "$binary" "$stage/$name/perimeter"
chmod 755 "$stage/$name/perimeter"
licence=""
for candidate in LICENSE LICENSE.md LICENSE.txt COPYING; do
    if [ -f "$root/$candidate" ]; then licence="$candidate"; break; fi
done
if [ -n "$licence" ]; then
    cp "$root/$licence" "$stage/$name/$licence"
else
    echo "package.sh: warning: the repository has no licence file (LICENSE); the archive holds none. Add one before publishing it." >&2
fi
cat > "$stage/$name/README.md" <<EOF
# perimeter $version ($os $arch)

The Perimeter geofencing simulation engine's command line. $built It loads glibc, libstdc++, zlib, libxml2, SQLite and libcurl from the
machine (\`ldd perimeter\` lists them); a slim container may need
\`apt-get install -y libxml2 libsqlite3-0 libcurl4\`. $glibc_line

    ./perimeter --help
    ./perimeter check Scenarios/ --junit perimeter-junit.xml   # exit 0 passed, 1 a check failed, 2 bad input

The project's README, section "Perimeter in your CI", shows a CI job that downloads this archive,
checks its SHA-256 and runs \`perimeter check\`.
EOF

# The same bytes for the same inputs: a fixed time (the last commit's, else 0), sorted names, owner 0.
epoch="$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$stage" -cf - "$name" \
    | gzip -9 -n > "$stage/$name.tar.gz" || fail "cannot write the archive in $output; is the disk full?"
(cd "$stage" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256") || fail "cannot write the checksum in $output."
(cd "$stage" && sha256sum -c --quiet "$name.tar.gz.sha256") || fail "the archive's checksum does not match what was just written; is the disk failing?"

mv -f "$stage/$name.tar.gz" "$output/$name.tar.gz"
mv -f "$stage/$name.tar.gz.sha256" "$output/$name.tar.gz.sha256"
echo "$output/$name.tar.gz"

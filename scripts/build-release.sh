#!/usr/bin/env bash
# The release build of fixcast as the package ships it, for scripts/package-deb.sh and the benches
# (bench/line.sh, bench/run.sh), so that what is measured is what is installed. Prints the binary's path
# on stdout; the build's own output goes to stderr.
#
# A static Swift stdlib. -z relro: RELRO, as Debian's default hardening build flags give every package
# (`dpkg-buildflags --get LDFLAGS` is `-Wl,-z,relro`; `-z now`, "bindnow", is only in hardening=+all).
# Without `-z now` the loader binds lazily and `line` peaks at 11.7 MB instead of 12.5 (issue 22's target
# is 12 MB); libcurl, libgps, libmosquitto and libxml2 are opened with dlopen at first use in any case. Linked by
# the toolchain's lld with packed relative relocations (DT_RELR, glibc >= 2.36, so package-deb.sh asks
# libc6 >= 2.36): 6 kB of relocations instead of gold's 740 kB `.rela.dyn`, and a layout that leaves less
# of the binary resident at start: `fixcast line` peaks at 11.7 MB instead of 13.0 (bench/README.md).
#
# Hot code together: every function in a section of its own (Swift's -function-sections, clang's for the
# C shims; the static stdlib has them already), and the functions that run at each fix of the live screen
# laid out first, in the order of scripts/function-order.txt (written by `bench/instructions.py
# --write-order`). At one fix a second the caches are cold at every fix, and a fix's ~1,000 lines of code
# were spread over ~120 pages; together they fill ~50, and the live screen costs about a tenth less CPU
# (median of 16 A/B pairs; bench/README.md, "Hot code together"). A name the code no longer has is
# skipped (the layout only decays), so a stale file never fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=(swift build -c release --static-swift-stdlib --product fixcast -Xswiftc -use-ld=lld
    -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker pack-relative-relocs
    -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections
    -Xlinker "--symbol-ordering-file=$PWD/scripts/function-order.txt" -Xlinker --no-warn-symbol-ordering)
bin="$("${build[@]}" --show-bin-path)/fixcast"
# SwiftPM does not know the ordering file is an input: a newer one must relink.
if [[ -e "$bin" && scripts/function-order.txt -nt "$bin" ]]; then rm -f "$bin"; fi
"${build[@]}" >&2
echo "$bin"

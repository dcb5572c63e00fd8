#!/usr/bin/env bash
# The release build of fixcast as the package ships it, for scripts/package-deb.sh and the benches
# (bench/line.sh, bench/run.sh), so that what is measured is what is installed. Prints the binary's path
# on stdout; the build's own output goes to stderr.
#
# A static Swift stdlib. -z relro: RELRO, as Debian's default hardening build flags give every package
# (`dpkg-buildflags --get LDFLAGS` is `-Wl,-z,relro`; `-z now`, "bindnow", is only in hardening=+all).
# Without `-z now` the loader binds lazily and `line` peaks at 11.7 MB instead of 12.5 (issue 22's target
# is 12 MB); libcurl, libgps and libmosquitto are opened with dlopen at first use in any case. Linked by
# the toolchain's lld with packed relative relocations (DT_RELR, glibc >= 2.36, so package-deb.sh asks
# libc6 >= 2.36): 6 kB of relocations instead of gold's 740 kB `.rela.dyn`, and a layout that leaves less
# of the binary resident at start: `fixcast line` peaks at 11.7 MB instead of 13.0 (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
build=(swift build -c release --static-swift-stdlib --product fixcast -Xswiftc -use-ld=lld
    -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker pack-relative-relocs)
"${build[@]}" >&2
echo "$("${build[@]}" --show-bin-path)/fixcast"

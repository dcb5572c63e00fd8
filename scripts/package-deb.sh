#!/usr/bin/env bash
# Builds fixcast_<version>_<arch>.deb for this machine's Debian release with dpkg-deb (CONTRACT.md
# "Packaging"): the static-stdlib release binary, the bundled data, the system service, the
# configuration as a conffile, the man page and completions the binary makes from its --help, the
# copyright file with every data licence, and Depends computed by dpkg-shlibdeps plus the libraries
# the binary opens with dlopen (libgps, libcurl, libmosquitto, libxml2), found from their shlibs files.
#
#   scripts/package-deb.sh [OUT_DIR]      (default .build/package; prints the .deb's path last)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
out=${1:-.build/package}

die() { echo "package-deb: $*" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture dpkg-query objdump readelf strip gzip; do
    command -v "$tool" >/dev/null || die "$tool is missing; install dpkg-dev and binutils."
done

version=$(sed -n 's/^ *public static let version = "\(.*\)"$/\1/p' Sources/FixcastCore/Support/FixcastInfo.swift)
[ -n "$version" ] || die "cannot read the version from Sources/FixcastCore/Support/FixcastInfo.swift."
debversion="$version-1"
changelog_version=$(sed -n '1s/^fixcast (\(.*\)) .*/\1/p' packaging/changelog)
[ "$changelog_version" = "$debversion" ] ||
    die "packaging/changelog starts with $changelog_version, the binary is $version: add a changelog entry for $debversion."
arch=$(dpkg --print-architecture)
# Reproducible: every timestamp the package carries is the changelog entry's.
SOURCE_DATE_EPOCH=$(date -d "$(sed -n 's/^ -- .*>  //p' packaging/changelog | head -1)" +%s)
export SOURCE_DATE_EPOCH

echo "package-deb: building the release binary (static Swift stdlib)"
# scripts/build-release.sh says why it links as it does.
binary=$(scripts/build-release.sh)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
if [ -z "$unitdir" ]; then
    # Debian 13 moved units to /usr/lib; Debian 12 keeps them in /lib.
    if dpkg --compare-versions "$(cut -d. -f1 /etc/debian_version 2>/dev/null || echo 13)" ge 13 2>/dev/null; then
        unitdir=/usr/lib/systemd/system
    else
        unitdir=/lib/systemd/system
    fi
fi

install -d -m 755 "$root/usr/bin" "$root/usr/share/fixcast" "$root/usr/share/man/man1" "$root/usr/share/doc/fixcast" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/lintian/overrides" "$root/etc/fixcast" "$root$unitdir" \
    "$root/DEBIAN"
install -m 755 "$binary" "$root/usr/bin/fixcast"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/fixcast"
fixcast=$root/usr/bin/fixcast

# The tables fixcast maps (*.bin) and their README. places.tsv, the text places.bin is built from
# (scripts/build-places.py), stays in the source tree: nothing reads it at run time (OfflinePlaces
# maps places.bin), and it would add 4.6 MB.
for file in share/fixcast/*; do
    [ -f "$file" ] || continue
    case $file in *.tsv) continue ;; esac
    install -m 644 "$file" "$root/usr/share/fixcast/"
done

# The man page and the completions come from the binary itself (its --help texts and option tables).
"$fixcast" --man-page > "$stage/fixcast.1"
cmp -s "$stage/fixcast.1" docs/fixcast.1 || die "docs/fixcast.1 differs from the binary's man page; run scripts/update-manpage.sh."
gzip -9n < "$stage/fixcast.1" > "$root/usr/share/man/man1/fixcast.1.gz"
"$fixcast" completions bash > "$root/usr/share/bash-completion/completions/fixcast"
"$fixcast" completions zsh > "$root/usr/share/zsh/vendor-completions/_fixcast"
"$fixcast" completions fish > "$root/usr/share/fish/vendor_completions.d/fixcast.fish"

scripts/package-conffile.sh > "$root/etc/fixcast/config.toml"
install -m 644 packaging/fixcast.service "$root$unitdir/fixcast.service"
install -m 644 packaging/copyright "$root/usr/share/doc/fixcast/copyright"
gzip -9n < packaging/changelog > "$root/usr/share/doc/fixcast/changelog.Debian.gz"
install -m 644 packaging/lintian-overrides "$root/usr/share/lintian/overrides/fixcast"
chmod 644 "$root"/usr/share/man/man1/* "$root"/usr/share/doc/fixcast/* "$root"/etc/fixcast/config.toml \
    "$root"/usr/share/bash-completion/completions/* "$root"/usr/share/zsh/vendor-completions/* \
    "$root"/usr/share/fish/vendor_completions.d/*

install -m 755 packaging/postinst packaging/prerm packaging/postrm "$root/DEBIAN/"
echo /etc/fixcast/config.toml > "$root/DEBIAN/conffiles"
chmod 644 "$root/DEBIAN/conffiles"

# Depends, besides the libraries: adduser (postinst makes the user) and ca-certificates, since every
# default endpoint is HTTPS and libcurl4 only recommends it (a minimal image, or an install with
# --no-install-recommends, would have no CA to verify a server with, and every request would fail).
# dpkg-shlibdeps reads debian/control: a skeleton of one in a scratch source tree.
mkdir -p "$stage/src/debian"
printf 'Source: fixcast\n\nPackage: fixcast\nArchitecture: any\n' > "$stage/src/debian/control"
shlibs=$(cd "$stage/src" && dpkg-shlibdeps -O "$fixcast" | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no libraries for $fixcast."
# Packed relative relocations (the link above) need a loader that knows DT_RELR: the binary then asks
# for the version GLIBC_ABI_DT_RELR (glibc 2.36), but no symbol is bound to it, so dpkg-shlibdeps,
# which reads the imported symbols, stops at the newest of those (2.35). Raise libc6's floor to 2.36.
if readelf -V "$fixcast" | grep -qF GLIBC_ABI_DT_RELR; then
    shlibs=$(echo "$shlibs" | sed -E 's/libc6 \(>= 2\.(3[0-5]|[12][0-9]|[0-9])(\.[0-9]+)?\)/libc6 (>= 2.36)/')
    echo "$shlibs" | grep -qE 'libc6 \(>= 2\.(3[6-9]|[4-9][0-9])' || die "Depends does not ask libc6 >= 2.36, which DT_RELR needs: $shlibs"
fi

# libgps, libcurl, libmosquitto and libxml2 are opened with dlopen at first use (Sources/CGPS, CCurl,
# CMosquitto, CXML), so dpkg-shlibdeps does not see them. Each is found here as the binary's build found
# it: the SONAME of the development library whose headers it was compiled against, which the binary must
# name (the shims keep it explicit); then the package that ships that soname on this machine, and the
# dependency that package declares in its shlibs file (libgps28 (>= 3.22), libxml2 (>= 2.9.11) on
# Debian 12).
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
opened=()
for library in libgps libcurl libmosquitto libxml2; do
    dev=/usr/lib/$multiarch/$library.so
    [ -e "$dev" ] || die "$dev is missing; install the development package (scripts/install-deps.sh)."
    soname=$(objdump -p "$dev" | awk '$1 == "SONAME" { print $2 }')
    [ -n "$soname" ] || die "$dev has no SONAME."
    grep -qaF "$soname" "$fixcast" ||
        die "the binary does not open $soname, the SONAME of $dev it was built against: correct the soname in Sources/C*/."
    ! readelf -d "$fixcast" | grep -qF "[$soname]" || die "the binary links $soname; its shim should dlopen it."
    owner=$(dpkg-query -S "/usr/lib/$multiarch/$soname" 2>/dev/null | head -1 | cut -d: -f1)
    [ -n "$owner" ] || die "no installed package ships /usr/lib/$multiarch/$soname."
    name=${soname%%.so.*}
    major=${soname#*.so.}
    dependency=$(dpkg-query --control-show "$owner" shlibs 2>/dev/null |
        awk -v n="$name" -v v="$major" '$1 == n && $2 == v && NF >= 3 { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
    [ -n "$dependency" ] || die "$owner declares no shlibs dependency for $soname."
    opened+=("$dependency")
done
shlibs="$shlibs, $(IFS=,; echo "${opened[*]}" | sed 's/,/, /g')"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: fixcast
Version: $debversion
Architecture: $arch
Maintainer: fixcast authors <fixcast@users.noreply.github.com>
Installed-Size: $installed_size
Depends: adduser, ca-certificates, $shlibs
Recommends: gpsd
Section: utils
Priority: optional
Homepage: https://github.com/fixcast/fixcast
Description: local weather that follows your GPS
 fixcast follows a GPS receiver through gpsd, fetches the local weather when
 you have moved more than 5 km (and every 30 minutes while you stay), names the
 place you are in, shows the official weather alerts, and logs every reading,
 tagged with its position, in an SQLite store that exports to GPX, CSV and
 GeoJSON. It can publish readings to MQTT and Home Assistant.
 .
 The package runs it as a system service (fixcast.service, user fixcast, store
 in /var/lib/fixcast) and installs its man page and bash, zsh and fish
 completions.
CONTROL
chmod 644 "$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print0 | sort -z | sed -z 's|^\./||' |
    xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$root/DEBIAN/md5sums"
find "$root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$out"
deb="$out/fixcast_${debversion}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "package-deb: Depends: adduser, ca-certificates, $shlibs"
echo "$deb"

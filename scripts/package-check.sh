#!/usr/bin/env bash
# CI's package check (issue 22): builds the .deb, runs lintian (no error, no unexplained warning),
# installs it with apt, checks the binary, the service unit, the man page and the completions, then
# removes and purges it and checks that nothing is left. Needs root (or sudo): it installs the package
# on this machine. Each check prints one line; a check that cannot run here says SKIP and why.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
ok() { echo "package-check: ok    $*"; }
skip() { echo "package-check: SKIP  $*"; }
fail() { echo "package-check: FAIL  $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if dpkg -s fixcast >/dev/null 2>&1; then
    echo "package-check: fixcast is installed already; purging it first"
    as_root apt-get purge -y -qq fixcast >/dev/null
fi

deb=$(scripts/package-deb.sh "$work/out" | tail -1)
[ -f "$deb" ] || fail "scripts/package-deb.sh made no package"
ok "built $(basename "$deb")"
version=$(dpkg-deb -f "$deb" Version)
# libgps, libcurl, libmosquitto and libxml2 are opened with dlopen (dpkg-shlibdeps cannot see them):
# package-deb.sh adds them, and each must be there, as the package this machine ships its soname in.
depends=$(dpkg-deb -f "$deb" Depends)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for library in libgps libcurl libmosquitto libxml2; do
    soname=$(objdump -p "/usr/lib/$multiarch/$library.so" | awk '$1 == "SONAME" { print $2 }')
    owner=$(dpkg-query -S "/usr/lib/$multiarch/$soname" 2>/dev/null | head -1 | cut -d: -f1)
    [ -n "$owner" ] || fail "no installed package ships $soname"
    grep -qE "(^|, )$owner( |,|$)" <<<"$depends" || fail "Depends does not name $owner ($soname): $depends"
done
ok "Depends names the dlopen'd libraries: $depends"
upstream=${version%-*}

# lintian: an error or a warning fails; an accepted one is overridden in packaging/lintian-overrides
# with its reason (installed as /usr/share/lintian/overrides/fixcast). Overridden tags are shown (O:)
# with their reasons; the verdict is read from the tags (lintian's --fail-on counts shown overrides).
lintian --fail-on none --display-info --show-overrides "$deb" 2>&1 | grep -v '^running with root privileges' \
    > "$work/lintian.txt" || true
sed 's/^/    /' "$work/lintian.txt"
if grep -q '^[EW]: ' "$work/lintian.txt"; then
    fail "lintian reports errors or warnings (E: or W: above)"
fi
grep -q '^[IO]: \|^N: ' "$work/lintian.txt" || [ ! -s "$work/lintian.txt" ] || fail "lintian said something unexpected (above)"
ok "lintian: no error, no warning that is not overridden"

as_root apt-get install -y -qq "$(realpath "$deb")" >/dev/null
dpkg -s fixcast | grep -qx 'Status: install ok installed' || fail "apt-get install did not install fixcast"
ok "apt-get install ./$(basename "$deb")"
dpkg -L fixcast | sort > "$work/files.txt"

[ "$(command -v fixcast)" = /usr/bin/fixcast ] || fail "fixcast is not /usr/bin/fixcast on PATH"
first=$(fixcast --version | head -1)
[ "$first" = "fixcast $upstream" ] || fail "fixcast --version says \"$first\", not \"fixcast $upstream\""
for credit in GeoNames "MeteoAlarm (EUMETNET)" "Environment and Climate Change Canada" "Natural Earth"; do
    fixcast --version | grep -qF "$credit" || fail "fixcast --version does not credit $credit"
done
ok "fixcast --version: $first, with the data credits"

getent passwd fixcast >/dev/null || fail "the fixcast user was not created"
[ "$(getent passwd fixcast | cut -d: -f7)" = /usr/sbin/nologin ] || fail "the fixcast user has a login shell"
ok "system user fixcast (uid $(id -u fixcast), no login)"

[ -f /etc/fixcast/config.toml ] || fail "/etc/fixcast/config.toml is missing"
grep -qx /etc/fixcast/config.toml /var/lib/dpkg/info/fixcast.conffiles || fail "/etc/fixcast/config.toml is not a conffile"
fixcast trips --config /etc/fixcast/config.toml --db "$work/none.sqlite" >/dev/null ||
    fail "fixcast does not accept the packaged /etc/fixcast/config.toml"
ok "/etc/fixcast/config.toml: a conffile fixcast reads"

unit=$(grep '/fixcast\.service$' "$work/files.txt" | head -1)
[ -n "$unit" ] || fail "the package has no fixcast.service"
if command -v systemd-analyze >/dev/null; then
    if ! systemd-analyze verify "$unit" > "$work/verify.txt" 2>&1 || [ -s "$work/verify.txt" ]; then
        cat "$work/verify.txt" >&2
        fail "systemd-analyze verify $unit"
    fi
    ok "systemd-analyze verify $unit: nothing to say"
else
    skip "systemd-analyze is not installed: $unit not verified"
fi
grep -qx 'User=fixcast' "$unit" && grep -qx 'StateDirectory=fixcast' "$unit" || fail "$unit does not run as fixcast with StateDirectory=fixcast"
if [ -d /run/systemd/system ]; then
    systemctl is-enabled --quiet fixcast || fail "fixcast.service is not enabled"
    ok "fixcast.service is enabled"
else
    skip "systemd is not running here (PID 1 is $(ps -p 1 -o comm=)): the service cannot be started; run as it would"
fi
# As the service runs it: its user, the unit's environment (%S is /var/lib), the StateDirectory
# systemd would create. The store must land in /var/lib/fixcast.
as_root install -d -o fixcast -g fixcast -m 700 /var/lib/fixcast
mapfile -t unit_env < <(sed -n 's/^Environment=//p' "$unit" | sed 's|%S|/var/lib|g')
# A reading makes the store (reading commands such as status never create one); offline, at a fixed
# position, so nothing leaves the machine. Its exit status is not the point here.
as_root runuser -u fixcast -- env -i PATH=/usr/bin:/bin "${unit_env[@]}" /usr/bin/fixcast now --offline \
    --at 52.52,13.405 --json > /dev/null 2>&1 || true
as_root runuser -u fixcast -- env -i PATH=/usr/bin:/bin "${unit_env[@]}" /usr/bin/fixcast status --json \
    --gpsd 127.0.0.1:9 > "$work/status.json" 2>/dev/null || true
grep -qF '"path":"/var/lib/fixcast/fixcast.sqlite"' "$work/status.json" ||
    fail "the service's store is not /var/lib/fixcast/fixcast.sqlite: $(cat "$work/status.json")"
[ -f /var/lib/fixcast/fixcast.sqlite ] && [ "$(stat -c %U /var/lib/fixcast/fixcast.sqlite)" = fixcast ] ||
    fail "the fixcast user did not create its store in /var/lib/fixcast"
ok "the service's store: /var/lib/fixcast/fixcast.sqlite, owned by fixcast"

man -w fixcast | grep -q '/usr/share/man/man1/fixcast.1.gz' || fail "man does not find fixcast(1)"
warnings=$(man --warnings -E UTF-8 -l -Tutf8 -Z /usr/share/man/man1/fixcast.1.gz 2>&1 >/dev/null || echo "man failed")
[ -z "$warnings" ] || fail "man -l fixcast.1.gz: $warnings"
MANPAGER=cat MANWIDTH=80 man fixcast 2>/dev/null | grep -q 'fixcast completions' || fail "man fixcast shows no completions command"
ok "man fixcast renders without a warning"

# bash, through bash-completion's own loader as an interactive shell would.
if [ -f /usr/share/bash-completion/bash_completion ]; then
    loaded=$(bash --norc -c 'source /usr/share/bash-completion/bash_completion; __load_completion fixcast; complete -p fixcast')
else
    loaded=$(bash --norc -c 'source /usr/share/bash-completion/completions/fixcast; complete -p fixcast')
fi
[ "$loaded" = "complete -F _fixcast fixcast" ] || fail "bash: $loaded"
got=$(bash --norc -c 'source /usr/share/bash-completion/completions/fixcast
    COMP_WORDS=(fixcast export --format ""); COMP_CWORD=3; _fixcast; echo "${COMPREPLY[*]}"')
[ "$got" = "gpx csv geojson" ] || fail "bash completes export --format with \"$got\""
ok "bash completion loads and completes"

if command -v zsh >/dev/null; then
    got=$(HOME=$work zsh -fc "autoload -U compinit; compinit -u -d '$work/zcompdump'; print -r -- \$_comps[fixcast]" 2>&1)
    [ "$got" = _fixcast ] || fail "zsh: $got"
    ok "zsh finds _fixcast in its vendor-completions"
else
    fail "zsh is not installed (scripts/install-deps.sh installs it)"
fi
if command -v fish >/dev/null; then
    # Not --no-config: that also empties fish_complete_path, where the vendor completions are found.
    got=$(HOME=$work fish -c 'complete -C "fixcast ex"' 2>&1 | cut -f1)
    [ "$got" = export ] || fail "fish completes \"fixcast ex\" with \"$got\""
    ok "fish completes fixcast ex -> export"
else
    fail "fish is not installed (scripts/install-deps.sh installs it)"
fi

# remove: the configuration and the store stay.
as_root apt-get remove -y -qq fixcast >/dev/null
[ -f /etc/fixcast/config.toml ] || fail "apt-get remove deleted /etc/fixcast/config.toml"
[ -f /var/lib/fixcast/fixcast.sqlite ] || fail "apt-get remove deleted the store"
[ ! -e /usr/bin/fixcast ] || fail "apt-get remove left /usr/bin/fixcast"
ok "apt-get remove keeps /etc/fixcast and /var/lib/fixcast"

# purge: nothing is left.
as_root apt-get purge -y -qq fixcast >/dev/null
! dpkg -s fixcast >/dev/null 2>&1 || fail "fixcast is still known to dpkg after purge"
left=()
while read -r path; do
    [ -d "$path" ] && continue   # shared folders (/usr/share/man …) stay
    [ -e "$path" ] || [ -L "$path" ] && left+=("$path")
done < "$work/files.txt"
for path in /etc/fixcast /var/lib/fixcast /usr/share/fixcast /usr/share/doc/fixcast \
    /etc/systemd/system/multi-user.target.wants/fixcast.service /var/lib/systemd/deb-systemd-helper-enabled/fixcast.service \
    /var/lib/systemd/deb-systemd-helper-masked/fixcast.service; do
    [ -e "$path" ] || [ -L "$path" ] && left+=("$path")
done
[ ${#left[@]} -eq 0 ] || fail "apt-get purge left: ${left[*]}"
! getent passwd fixcast >/dev/null || fail "apt-get purge left the fixcast user"
! getent group fixcast >/dev/null || fail "apt-get purge left the fixcast group"
ok "apt-get purge leaves no file, no /etc/fixcast, no /var/lib/fixcast, no fixcast user or group"
echo "package-check: all checks passed for $(basename "$deb")"

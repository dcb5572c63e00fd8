#!/usr/bin/env bash
# CI's package check (issue 22): builds the .deb, runs lintian (no error, no unexplained warning),
# installs it with apt, checks the binary, the service unit, the man page and the completions, then
# removes and purges it and checks that nothing is left but the system user. Needs root (or sudo): it
# installs the package on this machine. Each check prints one line; a check that cannot run here says
# SKIP and why.
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
# adduser for postinst; ca-certificates because every default endpoint is HTTPS, and libcurl4 only
# recommends it (an install without recommends would verify no server).
for package in adduser ca-certificates; do
    grep -qE "(^|, )$package( |,|$)" <<<"$depends" || fail "Depends does not name $package: $depends"
done
ok "Depends names adduser and ca-certificates"
upstream=${version%-*}

# lintian: an error or a warning fails, and so does a lintian that did not finish. An accepted tag is
# overridden in packaging/lintian-overrides with its reason (installed as
# /usr/share/lintian/overrides/fixcast). The verdict is lintian's own exit status (lintian(1), EXIT
# STATUS): with --fail-on error,warning it is 2 when an E: or W: tag is shown, 1 on a run-time error
# (a check that could not run, a package it could not read), 0 otherwise. That run leaves overridden
# tags out: with --show-overrides, --fail-on counts an overridden tag at its own severity (Lintian's
# Pool.pm), and the accepted initial-upload-closes-no-bugs is a warning. A second run shows them (O:)
# with their reasons, and every override must still match a tag, so none is silently stale.
lintian_run() {   # lintian_run OUTPUT ARGS...: lintian's output (less its root notice) in OUTPUT; its status
    local out=$1 status=0
    shift
    lintian "$@" "$deb" > "$out.raw" 2>&1 || status=$?
    grep -v '^running with root privileges' "$out.raw" > "$out" || true
    return "$status"
}
# Each line lintian prints is a tag (E W I P X C O), or a note or reason (N); anything else is a
# message of its own (a Perl warning, "cannot run ... check") and fails even when the status is 0.
only_tags() { ! grep -vqE '^[EWIPXCO]: |^N: |^N:$|^$' "$1"; }
status=0
lintian_run "$work/lintian.txt" --fail-on error,warning --display-info || status=$?
sed 's/^/    /' "$work/lintian.txt"
case $status in
    0) ;;
    2) fail "lintian reports errors or warnings (E: or W: above)" ;;
    *) fail "lintian did not finish (exit status $status; its message is above)" ;;
esac
! grep -q '^[EW]: ' "$work/lintian.txt" || fail "lintian reports errors or warnings (E: or W: above) but exited 0"
only_tags "$work/lintian.txt" || fail "lintian said something that is not a tag (above)"
status=0
lintian_run "$work/lintian-overrides.txt" --fail-on none --show-overrides || status=$?
[ "$status" = 0 ] || { cat "$work/lintian-overrides.txt" >&2; fail "lintian --show-overrides did not finish (exit status $status)"; }
only_tags "$work/lintian-overrides.txt" || { cat "$work/lintian-overrides.txt" >&2; fail "lintian said something that is not a tag"; }
grep '^[NO]: ' "$work/lintian-overrides.txt" | sed 's/^/    /'
while read -r tag; do
    grep -qE "^O: fixcast: $tag( |$)" "$work/lintian-overrides.txt" ||
        fail "packaging/lintian-overrides overrides $tag, which lintian no longer reports: remove it"
done < <(sed -n 's/^fixcast: \([a-z0-9.+-]*\).*/\1/p' packaging/lintian-overrides)
ok "lintian: no error, no warning that is not overridden, every override in use"

as_root apt-get install -y -qq "$(realpath "$deb")" >/dev/null
dpkg -s fixcast | grep -qx 'Status: install ok installed' || fail "apt-get install did not install fixcast"
ok "apt-get install ./$(basename "$deb")"
dpkg -L fixcast | sort > "$work/files.txt"
grep -qx /usr/share/fixcast/places.bin "$work/files.txt" || fail "the package has no /usr/share/fixcast/places.bin"
! grep -q '\.tsv$' "$work/files.txt" || fail "the package ships $(grep '\.tsv$' "$work/files.txt" | tr '\n' ' '), which nothing reads"
ok "the bundled tables, without places.tsv (read by no one at run time)"

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

# postinst makes the service's data folder, so that `sudo -u fixcast fixcast ...` works before the
# first start and without systemd (the checks below use it as postinst left it).
[ -d /var/lib/fixcast ] || fail "postinst did not create /var/lib/fixcast"
[ "$(stat -c '%U:%G %a' /var/lib/fixcast)" = "fixcast:fixcast 700" ] ||
    fail "/var/lib/fixcast is $(stat -c '%U:%G %a' /var/lib/fixcast), not fixcast:fixcast 700"
ok "/var/lib/fixcast: fixcast:fixcast 700"

# The unit's EnvironmentFile: made by postinst, root's alone, holding no secret, and not a conffile.
[ -f /etc/fixcast/secrets ] || fail "postinst did not create /etc/fixcast/secrets"
[ "$(as_root stat -c '%U:%G %a' /etc/fixcast/secrets)" = "root:root 600" ] ||
    fail "/etc/fixcast/secrets is $(as_root stat -c '%U:%G %a' /etc/fixcast/secrets), not root:root 600"
! as_root grep -q '^[^#]' /etc/fixcast/secrets || fail "/etc/fixcast/secrets as installed sets something"
! grep -qx /etc/fixcast/secrets /var/lib/dpkg/info/fixcast.conffiles "$work/files.txt" ||
    fail "/etc/fixcast/secrets belongs to the package (dpkg would manage the admin's secrets)"
ok "/etc/fixcast/secrets: root:root 600, only comments, not the package's file"

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
grep -qx 'EnvironmentFile=-/etc/fixcast/secrets' "$unit" || fail "$unit does not read /etc/fixcast/secrets"
! grep -qE '^#? *Environment=FIXCAST_[A-Z_]*(KEY|PASSWORD)' "$unit" ||
    fail "$unit puts or advises a secret in Environment=, which systemctl show gives every user"
if [ -d /run/systemd/system ]; then
    systemctl is-enabled --quiet fixcast || fail "fixcast.service is not enabled"
    ok "fixcast.service is enabled"
else
    skip "systemd is not running here (PID 1 is $(ps -p 1 -o comm=)): the service cannot be started; run as it would"
fi
# As the service runs it: its user, the unit's environment (%S is /var/lib), in the data folder
# postinst made (checked above). The store must land in /var/lib/fixcast.
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

# A secret in /etc/fixcast/config.toml as the unit's comment says (chown root:fixcast, chmod 640): the
# service's user reads it, and fixcast takes it without a word (the file is readable only by its own
# group). The conffile is put back afterwards.
cp /etc/fixcast/config.toml "$work/config.toml.orig"
as_root sed -i 's/^# api_key = ""/api_key = "package-check-not-a-key"/' /etc/fixcast/config.toml
grep -q '^api_key = "package-check-not-a-key"' /etc/fixcast/config.toml || fail "no api_key line to set in /etc/fixcast/config.toml"
as_root chown root:fixcast /etc/fixcast/config.toml
as_root chmod 640 /etc/fixcast/config.toml
status=0
as_root runuser -u fixcast -- env -i PATH=/usr/bin:/bin "${unit_env[@]}" /usr/bin/fixcast trips \
    --config /etc/fixcast/config.toml --db /var/lib/fixcast/fixcast.sqlite > /dev/null 2> "$work/secret-config.txt" || status=$?
as_root install -m 644 -o root -g root "$work/config.toml.orig" /etc/fixcast/config.toml
[ "$status" = 0 ] && [ ! -s "$work/secret-config.txt" ] ||
    fail "fixcast as user fixcast with a root:fixcast 640 config holding a key: exit $status, $(cat "$work/secret-config.txt")"
ok "a key in /etc/fixcast/config.toml, root:fixcast 640: the service's user reads it, no warning"

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

# purge: nothing is left, also where config/fixcast.service's dynamic user kept the store before the
# package came (/var/lib/fixcast a symlink to /var/lib/private/fixcast): made so here.
[ ! -e /var/lib/private/fixcast ] ||
    fail "/var/lib/private/fixcast exists already (config/fixcast.service's store?): move it away, purge would delete it"
made_private=
if [ ! -d /var/lib/private ]; then
    as_root install -d -m 700 /var/lib/private
    made_private=yes
fi
as_root mv /var/lib/fixcast /var/lib/private/fixcast
as_root ln -s private/fixcast /var/lib/fixcast
as_root apt-get purge -y -qq fixcast >/dev/null
[ -z "$made_private" ] || as_root rmdir /var/lib/private 2>/dev/null || true
! dpkg -s fixcast >/dev/null 2>&1 || fail "fixcast is still known to dpkg after purge"
left=()
while read -r path; do
    [ -d "$path" ] && continue   # shared folders (/usr/share/man …) stay
    [ -e "$path" ] || [ -L "$path" ] && left+=("$path")
done < "$work/files.txt"
for path in /etc/fixcast /var/lib/fixcast /var/lib/private/fixcast /usr/share/fixcast /usr/share/doc/fixcast \
    /etc/systemd/system/multi-user.target.wants/fixcast.service /var/lib/systemd/deb-systemd-helper-enabled/fixcast.service \
    /var/lib/systemd/deb-systemd-helper-masked/fixcast.service; do
    [ -e "$path" ] || [ -L "$path" ] && left+=("$path")
done
[ ${#left[@]} -eq 0 ] || fail "apt-get purge left: ${left[*]}"
# The system user stays, as Debian packages' do (packaging/postrm says why).
getent passwd fixcast >/dev/null || fail "apt-get purge deleted the fixcast user (its uid could be handed out again)"
ok "apt-get purge leaves no file, no /etc/fixcast (secrets included), no /var/lib/fixcast nor /var/lib/private/fixcast; the fixcast user stays"
echo "package-check: all checks passed for $(basename "$deb")"

# deb.sh: the Debian package of this build, as a Debian user installs it (cmake/package.cmake).
# Makes it with cpack into a scratch folder, checks its control fields (dpkg-deb --field: Package,
# Version, Architecture, Depends), its control members (dpkg-deb -I: postinst and prerm
# executable, the ldconfig trigger) and its files (dpkg-deb --contents: library, drop-in and its
# two alternative names, command, headers, pkg-config and CMake files, man page, all root's, all
# under /usr), and that its pkg-config files find the headers and libraries where the package puts
# them. Then runs the package's own postinst and prerm (dpkg-deb -e) against a scratch root that
# already has an OpenBLAS-like alternative at OpenBLAS's priority (100): postinst configure
# registers the drop-in at its priority without selecting it, --set selects it (the links lead to
# the packaged drop-in, ldconfig keeps libtessel_blas.so.N on the real file, and the reference
# Level-1 tester, linked with -lblas, passes through the drop-in, whose CPU BLAS is not itself), a
# second configure keeps that choice, prerm upgrade keeps the alternative, prerm remove takes it
# out and auto mode is back on OpenBLAS.
#   bash deb.sh CPACK BUILD_DIR VERSION TRIPLET PRIORITY "NAMES" PROBLEM
# NAMES: the alternatives' names, "libblas liblapack"; PROBLEM: why this build makes no package
# (cmake/package.cmake), empty when it does.
# The machine's own alternatives are never touched: the scripts call update-alternatives by name
# and find first, on PATH, a wrapper that adds --root SCRATCH (links, /etc/alternatives, the
# administrative folder and the log all inside it; DPKG_ROOT, which dpkg itself sets under
# `dpkg --root`, says the same); and the test fails if this machine's links for NAMES, their
# administrative files or the alternatives log changed while it ran. (--altdir and --admindir
# alone are not enough: update-alternatives 1.21 still writes the link itself, here
# /usr/lib/TRIPLET/libblas.so.3, on the machine, pointing into the scratch altdir.) No root needed.
set -u
CPACK=$1 BUILD=$2 VERSION=$3 T=$4 PRIO=$5 NAMES=$6 PROBLEM=$7
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
[ -z "$PROBLEM" ] || skip "this build makes no Debian package: $PROBLEM"
for tool in dpkg dpkg-deb update-alternatives dpkg-shlibdeps; do
    command -v "$tool" > /dev/null ||
        skip "no $tool (dpkg-dev has dpkg-shlibdeps; make deps installs it)"
done
"$CPACK" --help | grep -Eq '^ +DEB +=' || skip "this cpack has no DEB generator"
UA=$(command -v update-alternatives)
UA_VERSION=$("$UA" --version | sed -n '1s/.* version \([0-9][0-9.]*\).*/\1/p')
dpkg --compare-versions "$UA_VERSION" ge 1.20.1 ||
    skip "update-alternatives $UA_VERSION has no --root (1.20.1 and later)"
W="$(mktemp -d "${TMPDIR:-/tmp}/tessel-deb-test.XXXXXX")"
trap 'rm -rf "$W"' EXIT
ARCH=$(dpkg --print-architecture)
SO=${VERSION%%.*} # the libraries' soversion: the major version (CMakeLists.txt)
L=/usr/lib/$T
OPENBLAS_PRIO=100 # libopenblas0-pthread's, the highest of Debian's BLASes

# the machine's own alternatives for NAMES, compared at the end
machine_state() {
    local n
    for n in $NAMES; do
        printf '%s %s %s\n' "$(readlink "$L/$n.so.3")" \
            "$(readlink "/etc/alternatives/$n.so.3-$T")" \
            "$(cksum < "/var/lib/dpkg/alternatives/$n.so.3-$T" 2> /dev/null)"
    done
    cksum < /var/log/alternatives.log 2> /dev/null
}
BEFORE=$(machine_state)

# ---- the package ----
"$CPACK" -G DEB --config "$BUILD/CPackConfig.cmake" -B "$W/pkg" > "$W/cpack.log" 2>&1 ||
    { cat "$W/cpack.log" >&2; fail "cpack -G DEB"; }
DEB="$W/pkg/tessel_${VERSION}_$ARCH.deb"
[ -f "$DEB" ] || { cat "$W/cpack.log" >&2; ls "$W/pkg" >&2; fail "no $(basename "$DEB")"; }

# ---- control fields ----
field() { dpkg-deb --field "$DEB" "$1"; }
[ "$(field Package)" = tessel ] || fail "Package: '$(field Package)', expected tessel"
[ "$(field Version)" = "$VERSION" ] || fail "Version: '$(field Version)', expected $VERSION"
[ "$(field Architecture)" = "$ARCH" ] ||
    fail "Architecture: '$(field Architecture)', expected $ARCH"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description | head -1)" ] || fail "no Description"
DEPENDS=$(field Depends)
# has_dep REGEX: one of the comma-separated relations of Depends matches REGEX (whole relation)
has_dep() { printf '%s\n' "$DEPENDS" | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -Eqx "$1"; }
has_dep 'libopenblas0 \| libblas3' || fail "Depends lacks 'libopenblas0 | libblas3': $DEPENDS"
has_dep 'libopenblas0 \| liblapack3' || fail "Depends lacks 'libopenblas0 | liblapack3': $DEPENDS"
has_dep 'ocl-icd-libopencl1( .*)?' ||
    fail "Depends lacks ocl-icd-libopencl1 (dpkg-shlibdeps): $DEPENDS"
has_dep 'libc6( .*)?' || fail "Depends lacks libc6 (dpkg-shlibdeps): $DEPENDS"

# ---- control members: the two scripts executable (dpkg-deb -I marks them *), the trigger ----
dpkg-deb -I "$DEB" > "$W/info" || fail "dpkg-deb -I"
for s in postinst prerm; do
    grep -Eq "^ +[0-9]+ bytes, +[0-9]+ lines +\* +$s " "$W/info" ||
        { cat "$W/info" >&2; fail "no executable $s in the control archive"; }
done
C="$W/control"
dpkg-deb -e "$DEB" "$C" || fail "dpkg-deb -e"
sed 's/#.*//' "$C/triggers" 2> /dev/null | grep -Eqx ' *activate-noawait ldconfig *' ||
    fail "no 'activate-noawait ldconfig' trigger"
for s in postinst prerm; do
    grep -q 'update-alternatives' "$C/$s" || fail "$s never calls update-alternatives"
    # the wrapper below must be what they run, and they have no test hooks
    ! sed 's/#.*//' "$C/$s" |
        grep -Eq '/update-alternatives|--root|--altdir|--admindir|--instdir' ||
        fail "$s calls update-alternatives by path or with its own folders"
done

# ---- files ----
dpkg-deb --contents "$DEB" > "$W/contents.raw" || fail "dpkg-deb --contents"
awk '{ if ($7 == "->") print $6 " -> " $8; else print $6 }' "$W/contents.raw" > "$W/contents"
has() { grep -Fxq -- "$1" "$W/contents" || fail "the package lacks $1"; }
has ./usr/bin/tessel
has ./usr/include/tessel.h
has ./usr/include/tessel_complex.h
has ./usr/include/tessel_cl.h
has ./usr/share/man/man1/tessel.1
has ".$L/libtessel.so.$VERSION"
has ".$L/libtessel.so.$SO -> libtessel.so.$VERSION"
has ".$L/libtessel_blas.so.$VERSION"
has ".$L/libtessel_blas.so.$SO -> libtessel_blas.so.$VERSION"
for n in $NAMES; do has ".$L/tessel/$n.so.3 -> ../libtessel_blas.so.$SO"; done
has ".$L/pkgconfig/tessel.pc"
has ".$L/pkgconfig/tessel-blas.pc"
has ".$L/cmake/tessel/tesselConfig.cmake"
awk '$2 != "root/root"' "$W/contents.raw" | grep -q . && fail "files not owned by root/root"
outside=$(grep -Ev '^\./($|usr/)' "$W/contents" | head -3)
[ -z "$outside" ] || fail "files outside /usr: $outside"

# ---- the scratch root: the package's files, and an OpenBLAS-like alternative already there ----
R="$W/root"
mkdir -p "$R/etc/alternatives" "$R/var/lib/dpkg/alternatives" "$R/var/log" "$W/bin"
dpkg-deb -x "$DEB" "$R" || fail "dpkg-deb -x"
# the pkg-config files lead to the package's headers and libraries
if command -v pkg-config > /dev/null; then
    pc() { env -u PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$R$L/pkgconfig" \
           pkg-config "$@"; }
    inc=$(pc --variable=includedir tessel) && lib=$(pc --variable=libdir tessel) &&
        blaslib=$(pc --variable=libdir tessel-blas) || fail "pkg-config on the package's .pc files"
    [ -f "$inc/tessel.h" ] || fail "tessel.pc: includedir $inc has no tessel.h"
    [ -e "$lib/libtessel.so" ] || fail "tessel.pc: libdir $lib has no libtessel.so"
    [ -e "$blaslib/libtessel_blas.so" ] ||
        fail "tessel-blas.pc: libdir $blaslib has no libtessel_blas.so"
fi
cat > "$W/bin/update-alternatives" << EOF
#!/bin/sh
echo "\$*" >> "$W/calls"
exec "$UA" --root "$R" "\$@"
EOF
chmod +x "$W/bin/update-alternatives"
ua() { "$W/bin/update-alternatives" "$@"; }
# run_script NAME ARGS...: the package's maintainer script, as dpkg runs it under --root
run_script() {
    local s=$1
    shift
    env -u DPKG_ADMINDIR PATH="$W/bin:$PATH" DPKG_ROOT="$R" DPKG_MAINTSCRIPT_PACKAGE=tessel \
        DPKG_MAINTSCRIPT_NAME="$s" sh "$C/$s" "$@" > "$W/$s.log" 2>&1 ||
        { local rc=$?; cat "$W/$s.log" >&2; fail "$s $* exited $rc"; }
}
# query NAME: update-alternatives --query in the scratch root, into $W/q
query() { ua --query "$1" > "$W/q" 2>&1 || { cat "$W/q" >&2; fail "--query $1"; }; }
qfield() { awk -v f="$1:" '$1 == f { print $2; exit }' "$W/q"; }
# qprio PATH: the priority of alternative PATH in $W/q, empty when it is not one
qprio() {
    awk -v p="$1" '$1 == "Alternative:" { a = $2 } $1 == "Priority:" && a == p { print $2 }' "$W/q"
}
# failq MESSAGE: fail, after the last --query's output
failq() { cat "$W/q" >&2; fail "$@"; }
# resolve PATH: the file that PATH of the scratch root leads to, every link followed inside it
resolve() {
    local p=$1 t i=0
    while [ -L "$R$p" ]; do
        t=$(readlink "$R$p")
        case $t in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
        i=$((i + 1))
        [ $i -lt 20 ] || fail "$1: too many links"
    done
    printf '%s\n' "$R$p"
}
DROPIN="$R$L/libtessel_blas.so.$VERSION"
for n in $NAMES; do
    mkdir -p "$R$L/openblas-pthread"
    : > "$R$L/openblas-pthread/$n.so.3"
    ua --install "$L/$n.so.3" "$n.so.3-$T" "$L/openblas-pthread/$n.so.3" $OPENBLAS_PRIO \
        > /dev/null || fail "registering the OpenBLAS-like $n.so.3"
done
: > "$W/calls"

# ---- postinst configure: registered at PRIORITY, OpenBLAS still chosen ----
run_script postinst configure
calls=$(wc -l < "$W/calls")
[ "$calls" -eq "$(echo "$NAMES" | wc -w)" ] ||
    fail "postinst called update-alternatives $calls times, expected one per name ($NAMES)"
for n in $NAMES; do
    alt="$n.so.3-$T" mine="$L/tessel/$n.so.3" theirs="$L/openblas-pthread/$n.so.3"
    query "$alt"
    [ "$(qprio "$mine")" = "$PRIO" ] || failq "$alt: $mine not at priority $PRIO"
    [ "$(qprio "$theirs")" = $OPENBLAS_PRIO ] || failq "$alt: OpenBLAS lost"
    [ "$(qfield Link)" = "$L/$n.so.3" ] || fail "$alt: link $(qfield Link), expected $L/$n.so.3"
    [ "$(qfield Status)" = auto ] && [ "$(qfield Value)" = "$theirs" ] ||
        failq "$alt: auto mode should keep OpenBLAS (its priority $OPENBLAS_PRIO, tessel's $PRIO)"
    [ "$(resolve "$L/$n.so.3")" = "$R$theirs" ] || fail "$L/$n.so.3 does not lead to OpenBLAS"
done

# ---- --set: the drop-in chosen, its links lead to the packaged file ----
for n in $NAMES; do
    alt="$n.so.3-$T" mine="$L/tessel/$n.so.3"
    ua --set "$alt" "$mine" > /dev/null || fail "--set $alt $mine"
    query "$alt"
    [ "$(qfield Status)" = manual ] && [ "$(qfield Value)" = "$mine" ] ||
        failq "$alt: --set did not select $mine"
    [ "$(resolve "$L/$n.so.3")" -ef "$DROPIN" ] ||
        fail "$L/$n.so.3 leads to $(resolve "$L/$n.so.3"), not the drop-in"
done
# The library folder as an installed system has it: a copy of the root's, whose libblas.so.3 and
# liblapack.so.3 lead straight to the copy's own tessel/ links (the root's go through
# /etc/alternatives, outside the copy; the loader and ldconfig see only where a chain ends).
cp -a "$R$L" "$W/libdir"
for n in $NAMES; do
    ln -sfn "$W/libdir/tessel/$n.so.3" "$W/libdir/$n.so.3"
done
# ldconfig, run on it, keeps the sonames on the real files (it would link libtessel_blas.so.N to
# libblas.so.3 if the drop-in were not beside the alternatives' links)
LDCONFIG=$(command -v ldconfig || ls /sbin/ldconfig /usr/sbin/ldconfig 2> /dev/null | head -1)
if [ -n "$LDCONFIG" ]; then
    ls "$W/libdir" > "$W/ls.before"
    "$LDCONFIG" -n "$W/libdir" > "$W/ldconfig.log" 2>&1 ||
        { cat "$W/ldconfig.log" >&2; fail "ldconfig -n"; }
    ls "$W/libdir" | diff "$W/ls.before" - > /dev/null ||
        fail "ldconfig added links: $(ls "$W/libdir")"
    for lib in libtessel libtessel_blas; do
        [ "$(readlink "$W/libdir/$lib.so.$SO")" = "$lib.so.$VERSION" ] ||
            fail "ldconfig links $lib.so.$SO to $(readlink "$W/libdir/$lib.so.$SO")"
    done
else
    echo "note: no ldconfig here; the soname links were not checked against it"
fi
# a program linked with -lblas (the reference Level-1 tester, libblas-test) loads the drop-in
# there, passes, and the drop-in's CPU BLAS is not the drop-in itself. In the sanitizer build the
# ASan runtime comes first, as in tests/dropin/preload.sh.
XBLAT1=/usr/lib/$T/blas/xblat1d
if [ -x "$XBLAT1" ]; then
    loaded=$(LD_LIBRARY_PATH="$W/libdir" ldd "$XBLAT1" | awk '$1 == "libblas.so.3" { print $3 }')
    [ "$loaded" = "$W/libdir/libblas.so.3" ] || fail "$XBLAT1 loads $loaded, not the drop-in"
    (
        [ -z "${TSL_ASAN_RUNTIME:-}" ] || export LD_PRELOAD="$TSL_ASAN_RUNTIME"
        LD_LIBRARY_PATH="$W/libdir" TESSEL_BLAS_ROUTE=cpu TESSEL_BLAS_VERBOSE=1 "$XBLAT1" \
            > "$W/xblat1.out" 2> "$W/xblat1.err"
    ) || { cat "$W/xblat1.out" "$W/xblat1.err" >&2; fail "$XBLAT1 through the drop-in"; }
    ! grep -q FAIL "$W/xblat1.out" && grep -q PASS "$W/xblat1.out" ||
        { cat "$W/xblat1.out" >&2; fail "$XBLAT1 through the drop-in did not pass"; }
    grep -Eq '^tessel-blas: +ddot +[1-9]' "$W/xblat1.err" ||
        { cat "$W/xblat1.err" >&2; fail "$XBLAT1's ddot did not reach the drop-in"; }
    cpu=$(sed -n 's/.*; CPU BLAS \(.*\) ([0-9]* threads)$/\1/p' "$W/xblat1.err" | head -1)
    [ -f "$cpu" ] || { cat "$W/xblat1.err" >&2; fail "the drop-in names no CPU BLAS file"; }
    ! [ "$cpu" -ef "$DROPIN" ] && ! [ "$cpu" -ef "$W/libdir/libtessel_blas.so.$VERSION" ] ||
        fail "the drop-in as libblas.so.3 took itself ($cpu) for the CPU BLAS"
else
    echo "note: no $XBLAT1 (libblas-test); the drop-in was not run as libblas.so.3"
fi

# ---- configure again (a reinstall, an upgrade): the user's choice stays ----
run_script postinst configure
for n in $NAMES; do
    query "$n.so.3-$T"
    [ "$(qfield Status)" = manual ] && [ "$(qfield Value)" = "$L/tessel/$n.so.3" ] ||
        failq "$n.so.3-$T: a second configure dropped the choice of tessel"
done

# ---- prerm upgrade keeps the alternatives; prerm remove takes them out, auto mode is back ----
run_script prerm upgrade "$VERSION"
for n in $NAMES; do
    query "$n.so.3-$T"
    [ "$(qprio "$L/tessel/$n.so.3")" = "$PRIO" ] || fail "$n.so.3-$T: prerm upgrade removed tessel"
done
run_script prerm remove
for n in $NAMES; do
    alt="$n.so.3-$T" theirs="$L/openblas-pthread/$n.so.3"
    query "$alt"
    [ -z "$(qprio "$L/tessel/$n.so.3")" ] || failq "$alt: prerm remove left tessel"
    [ "$(qfield Status)" = auto ] && [ "$(qfield Value)" = "$theirs" ] ||
        failq "$alt: after prerm remove, auto mode should be back on OpenBLAS"
    [ "$(resolve "$L/$n.so.3")" = "$R$theirs" ] || fail "$L/$n.so.3 does not lead to OpenBLAS"
done

[ "$(machine_state)" = "$BEFORE" ] ||
    fail "this machine's own alternatives for $NAMES changed while the test ran"
echo "ok: $(basename "$DEB"): $NAMES registered at priority $PRIO, below OpenBLAS's" \
     "$OPENBLAS_PRIO; selected with --set; removed by prerm"

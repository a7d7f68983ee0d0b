# package.sh: what a user of the C library does after `make install`. Installs this build into a
# temporary prefix with `cmake --install`, checks the installed files (library, header, pkg-config
# file, CMake package, man page, command), then builds README.md's example program, taken from
# README.md itself, both ways the README shows: its pkg-config command line, and its CMake project
# with find_package(tessel) and tessel::tessel. Runs each program on PoCL and checks its output;
# a CMake project asking for a version tessel is not must fail to configure.
#   bash package.sh CMAKE BUILD_DIR SOURCE_DIR C_COMPILER SANITIZE(ON|OFF)
# In a sanitizer build the installed library needs the sanitizer runtime: the examples are then
# compiled and linked with the same -fsanitize flags, appended to the README's commands.
set -u
CMAKE=$1 BUILD=$2 SRC=$3 CC_PATH=$4 SANITIZE=$5
W="$(mktemp -d "${TMPDIR:-/tmp}/tessel-package-test.XXXXXX")"
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
SAN=""
case "$SANITIZE" in ON | on | 1 | TRUE | true) SAN="-fsanitize=address,undefined" ;; esac
command -v pkg-config > /dev/null || { echo "SKIP: no pkg-config" >&2; exit 77; }
export TESSEL_DEVICE=pocl

# ---- install ----
P="$W/prefix"
"$CMAKE" --install "$BUILD" --prefix "$P" > "$W/install.log" 2>&1 ||
    { cat "$W/install.log"; fail "cmake --install"; }
LIB=$(dirname "$(find "$P" -name 'libtessel.so' | head -1)")
[ -d "$LIB" ] || fail "no libtessel.so installed"
for f in include/tessel.h include/tessel_complex.h include/tessel_cl.h bin/tessel share/man/man1/tessel.1; do
    [ -f "$P/$f" ] || fail "not installed: $f"
done
for f in libtessel.a pkgconfig/tessel.pc cmake/tessel/tesselConfig.cmake \
         cmake/tessel/tesselConfigVersion.cmake cmake/tessel/tesselTargets.cmake; do
    [ -f "$LIB/$f" ] || fail "not installed: ${LIB#"$P"/}/$f"
done

# ---- the README's pieces: the C example, the pkg-config command line, the CMake project ----
README="$SRC/README.md"
# block LANG N: the N-th (from 1) fenced block of that language after the "## The library" heading
block() {
    awk -v lang="$1" -v want="$2" '
        /^## / { inlib = ($0 == "## The library") }
        inlib && $0 == "```" lang { n++; if (n == want) { on = 1; next } }
        on && $0 == "```" { exit }
        on { print }' "$README"
}
block c 1 > "$W/example.c"
block cmake 1 > "$W/CMakeLists.txt"
PKG_LINE=$(block sh 1 | grep 'pkg-config')
grep -q 'tsl_sgemm' "$W/example.c" || fail "README.md: no C example under '## The library'"
grep -q 'find_package(tessel' "$W/CMakeLists.txt" ||
    fail "README.md: no CMake project with find_package(tessel)"
[ -n "$PKG_LINE" ] || fail "README.md: no pkg-config command line"
EXPECT="c[0] = 10"

# run_example DIR: the program prints exactly EXPECT on stdout and exits 0
run_example() {
    local out rc=0
    out=$(cd "$1" && LD_LIBRARY_PATH="$LIB" ./example 2> "$1/stderr") || rc=$?
    [ "$rc" -eq 0 ] || { cat "$1/stderr" >&2; fail "$1/example: exit code $rc"; }
    [ "$out" = "$EXPECT" ] || fail "$1/example printed '$out', expected '$EXPECT'"
}

# ---- pkg-config ----
mkdir -p "$W/pc" && cp "$W/example.c" "$W/pc/"
(cd "$W/pc" && PKG_CONFIG_PATH="$LIB/pkgconfig" bash -c "$PKG_LINE $SAN") > "$W/pc.log" 2>&1 ||
    { cat "$W/pc.log"; fail "README's pkg-config line: $PKG_LINE"; }
run_example "$W/pc"

# ---- CMake ----
mkdir -p "$W/cm" && cp "$W/example.c" "$W/CMakeLists.txt" "$W/cm/"
"$CMAKE" -S "$W/cm" -B "$W/cm/build" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC_PATH" \
    -DCMAKE_C_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" > "$W/cm.log" 2>&1 &&
    "$CMAKE" --build "$W/cm/build" >> "$W/cm.log" 2>&1 ||
    { cat "$W/cm.log"; fail "README's CMake project"; }
grep -q 'tessel::tessel' "$W/cm/CMakeLists.txt" ||
    fail "the CMake project should link tessel::tessel"
cp "$W/cm/build/example" "$W/cm/example"
run_example "$W/cm"

# ---- the drop-in BLAS: installed with its pkg-config file, and a program linked the README's way
[ -f "$LIB/libtessel_blas.so" ] || fail "not installed: libtessel_blas.so"
[ -f "$LIB/pkgconfig/tessel-blas.pc" ] || fail "not installed: pkgconfig/tessel-blas.pc"
mkdir -p "$W/blas"
cat > "$W/blas/prog.c" <<'C'
#include <stdio.h>
void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
int main(void)
{
    double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {0, 0, 0, 0}, one = 1, zero = 0;
    int n = 2;
    dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
    printf("%g %g %g %g\n", c[0], c[1], c[2], c[3]); /* column-major: 23 34 31 46 */
    return 0;
}
C
(cd "$W/blas" && PKG_CONFIG_PATH="$LIB/pkgconfig" bash -c \
    "cc prog.c -o prog \$(pkg-config --libs tessel-blas) $SAN") > "$W/blas.log" 2>&1 ||
    { cat "$W/blas.log"; fail "a program linked with pkg-config --libs tessel-blas"; }
out=$(cd "$W/blas" && LD_LIBRARY_PATH="$LIB" TESSEL_BLAS_ROUTE=cpu ./prog 2> "$W/blas/stderr") ||
    { cat "$W/blas/stderr" >&2; fail "the program linked with -ltessel_blas failed"; }
[ "$out" = "23 34 31 46" ] || fail "the program linked with -ltessel_blas printed '$out'"

# ---- a program that calls only LAPACK, linked the README's way: the linker must keep
# libtessel_blas although the program's own code names none of its symbols (a linker that drops
# unreferenced libraries, --as-needed, the default of many distributions; asked for explicitly,
# since a sanitizer build's runtime turns it off). Reference LAPACK by path, as a program linked
# with -llapack on a system whose liblapack.so.3 is the reference one. ----
REFLAPACK=/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3
if [ -f "$REFLAPACK" ]; then
    cat > "$W/blas/lapack.c" <<'C'
#include <stdio.h>
void dgesv_(const int *, const int *, double *, const int *, int *, double *, const int *, int *);
int main(void)
{
    double a[9] = {4, 1, 2, 1, 5, 1, 2, 1, 6}, b[3] = {7, 7, 9}; /* A symmetric: x = (1, 1, 1) */
    int n = 3, one = 1, ipiv[3], info;
    dgesv_(&n, &one, a, &n, ipiv, b, &n, &info);
    printf("%d %.6f %.6f %.6f\n", info, b[0], b[1], b[2]);
    return 0;
}
C
    (cd "$W/blas" && PKG_CONFIG_PATH="$LIB/pkgconfig" bash -c \
        "cc lapack.c -o lapack $SAN -Wl,--as-needed \$(pkg-config --libs tessel-blas) $REFLAPACK") \
        > "$W/lapack.log" 2>&1 || { cat "$W/lapack.log"; fail "a LAPACK program linked with pkg-config --libs tessel-blas"; }
    out=$(cd "$W/blas" && LD_LIBRARY_PATH="$LIB:$(dirname "$REFLAPACK")" TESSEL_BLAS_ROUTE=cpu \
          TESSEL_BLAS_VERBOSE=1 ./lapack 2> "$W/blas/lapack.err") ||
        { cat "$W/blas/lapack.err" >&2; fail "the LAPACK program linked with -ltessel_blas failed"; }
    [ "$out" = "0 1.000000 1.000000 1.000000" ] || fail "the LAPACK program printed '$out'"
    grep -Eq '^tessel-blas: +d(gesv|gemm|trsm)_? +[1-9]' "$W/blas/lapack.err" ||
        { cat "$W/blas/lapack.err" >&2; fail "dgesv_ did not reach libtessel_blas (the linker dropped it?)"; }
fi

# ---- the package refuses an incompatible version ----
mkdir -p "$W/v9"
sed 's/find_package(tessel [0-9.]*/find_package(tessel 9.0/' "$W/CMakeLists.txt" \
    > "$W/v9/CMakeLists.txt"
cp "$W/example.c" "$W/v9/"
if "$CMAKE" -S "$W/v9" -B "$W/v9/build" -DCMAKE_PREFIX_PATH="$P" > "$W/v9.log" 2>&1; then
    fail "find_package(tessel 9.0) should fail against this tessel (see $W/v9.log)"
fi
echo "ok: README's example built with pkg-config and with find_package(tessel): '$EXPECT' twice"

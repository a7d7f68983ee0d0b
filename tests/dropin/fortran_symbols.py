#!/usr/bin/env python3
"""fortran_symbols.py LIB REFERENCE [LAPACK]: fails unless libtessel_blas (LIB) exports exactly
the non-CBLAS symbols of the reference BLAS (REFERENCE, Debian's blas/libblas.so.3), the LAPACK
routines it serves (LAPACK_OWN below), OpenBLAS's cgemm3m_ and zgemm3m_ (EXTENSIONS) and the
LAPACK symbols it forwards (on x86-64: every name of
src/blas/lapack_forward.txt); with the reference LAPACK given, its own and its forwarded names
together must be exactly that LAPACK's functions (less the BLAS error protocol, which the BLAS
part has), so the list stays the reference's. Every Fortran
BLAS routine, lsame_, xerbla_, xerbla_array_, the *sub_ helpers, and the reference CBLAS's two
int globals RowMajorStrg and CBLAS_CallFromC as data of 4 bytes (its testers copy-relocate them);
plus a function cblas_xerbla. Nothing else may leak out (internal tsl__ names stay hidden);
cblas_* functions are the CBLAS tests' business. The sanitizer build's __odr_asan.* markers are
not ours to judge."""
import os
import platform
import subprocess
import sys

# The LAPACK symbols the drop-in defines itself (src/blas/fortran_lapack.c).
LAPACK_OWN = {p + r + "_" for p in "sd" for r in ("getrf", "getrs", "gesv", "potrf", "potrs", "posv",
                                                   "geqrf", "ormqr", "gels")}
LAPACK_OWN |= {"dsgesv_", "dsposv_"}
# OpenBLAS's extensions the drop-in exports too (src/blas/fortran_symbols.txt).
EXTENSIONS = {"cgemm3m_", "zgemm3m_"}
FORWARD_LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "blas",
                            "lapack_forward.txt")


def forwarded():
    with open(FORWARD_LIST) as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}


def exported(path):
    out = subprocess.run(["nm", "-D", "-S", "--defined-only", path], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:  # value size type name
            syms[f[3]] = (f[2], int(f[1], 16))
        elif len(f) == 3:  # value type name (no size)
            syms[f[2]] = (f[1], 0)
    return syms


def main():
    lib, ref = sys.argv[1:3]
    ours, theirs = exported(lib), exported(ref)
    keep = lambda s: not s.startswith("cblas_") and not s.startswith("__odr_asan")
    forward = forwarded() if platform.machine() in ("x86_64", "AMD64") else set()
    want = {s for s in theirs if keep(s)} | LAPACK_OWN | forward | EXTENSIONS
    have = {s for s in ours if keep(s)}
    errors = []
    if want - have:
        errors.append("missing: " + " ".join(sorted(want - have)))
    if have - want:
        errors.append("not in the reference: " + " ".join(sorted(have - want)))
    for s in ("RowMajorStrg", "CBLAS_CallFromC"):
        if s in ours and (ours[s][0] not in "BD" or ours[s][1] != 4):
            errors.append("%s is %s of %d bytes, want int data (B or D, 4)" % ((s,) + ours[s]))
    if len(sys.argv) > 3:
        lapack = {n for n, (t, _) in exported(sys.argv[3]).items() if t == "T"}
        lapack -= {"xerbla_", "xerbla_array_", "lsame_"}
        if LAPACK_OWN - lapack:
            errors.append("not in the reference LAPACK: " + " ".join(sorted(LAPACK_OWN - lapack)))
        listed = forwarded() | LAPACK_OWN
        if listed != lapack:
            errors.append("lapack_forward.txt and the drop-in's own routines differ from the "
                          "reference LAPACK: missing %s; extra %s"
                          % (" ".join(sorted(lapack - listed)) or "none",
                             " ".join(sorted(listed - lapack)) or "none"))
    if ours.get("cblas_xerbla", ("?",))[0] != "T":
        errors.append("cblas_xerbla is not an exported function")
    if errors:
        sys.exit("fortran_symbols: FAIL: %s" % "; ".join(errors))
    print("fortran_symbols: %d symbols: the reference BLAS's, %d extensions, %d LAPACK routines, "
          "%d forwarded" % (len(have) - len(LAPACK_OWN) - len(forward) - len(EXTENSIONS),
                            len(EXTENSIONS), len(LAPACK_OWN), len(forward)))


if __name__ == "__main__":
    main()

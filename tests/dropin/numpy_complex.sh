#!/usr/bin/env bash
# numpy_complex.sh: complex64 and complex128 products through numpy (matmul and dot: CBLAS's
# cblas_cgemm and cblas_zgemm) with whatever BLAS this process has (the caller preloads
# libtessel_blas.so), on odd shapes, C and Fortran orders, transposed and conjugated operands,
# against the product of the same numbers summed in long double (numpy's own loops, no BLAS).
# Debian's system python.
set -euo pipefail
/usr/bin/python3 - <<'PY'
import numpy as np

rng = np.random.default_rng(3)


def exact(a, b):
    """The product in long double: four real products of the parts."""
    ar, ai = a.real.astype(np.longdouble), a.imag.astype(np.longdouble)
    br, bi = b.real.astype(np.longdouble), b.imag.astype(np.longdouble)
    return ar @ br - ai @ bi, ar @ bi + ai @ br


worst = 0.0
for dt, eps in ((np.complex64, 2.0**-23), (np.complex128, 2.0**-52)):
    for m, k, n in ((7, 33, 5), (65, 127, 40), (40, 65, 33)):
        def rand(r, c):
            return (rng.uniform(-1, 1, (r, c)) + 1j * rng.uniform(-1, 1, (r, c))).astype(dt)
        a, b = rand(m, k), rand(k, n)
        at, bt = rand(k, m), rand(n, k)
        cases = (
            (a @ b, a, b),
            (np.dot(a, b), a, b),
            (np.asfortranarray(a) @ b, a, b),
            (at.T @ b, at.T, b),                 # a transposed view: TransA
            (a @ bt.T, a, bt.T),
            (a @ np.conj(bt).T, a, np.conj(bt).T),
        )
        for got, x, y in cases:
            re, im = exact(x, y)
            mag = np.abs(x.real).astype(np.longdouble) + np.abs(x.imag)
            bound = (mag @ (np.abs(y.real).astype(np.longdouble) + np.abs(y.imag)))
            err = (np.abs(got.real - re) + np.abs(got.imag - im)) / bound
            ratio = float(np.max(err)) / ((2 * k + 2) * eps)
            worst = max(worst, ratio)
            assert ratio <= 4, (np.dtype(dt).name, m, k, n, ratio)
print(f"numpy_complex: complex64 and complex128 products within tolerance (worst {worst:.3g} "
      "of the bound)")
PY

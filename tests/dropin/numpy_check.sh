#!/usr/bin/env bash
# numpy_check.sh: numpy's own tests of matmul/dot (core) and of numpy.linalg, then a direct check
# of float32 and float64 products of odd shapes against exact float64 sums of products, with
# whatever BLAS this process has (the caller preloads libtessel_blas.so). Debian's system python.
set -euo pipefail
py=/usr/bin/python3
tests=$($py -c 'import numpy, os; print(os.path.dirname(numpy.__file__))')
cd "$(mktemp -d)"
trap 'rm -rf "$PWD"' EXIT
# Left out: test_huge_vectordot's 2^31-element vectors, and numpy.linalg's "generalized" cases
# (the same checks repeated over stacks of matrices: four of the five minutes on PoCL under
# AddressSanitizer, each small call a device launch); gigabytes and repetitions through a CPU
# OpenCL device prove nothing more than the cases kept and the odd shapes below.
$py -m pytest -q -p no:cacheprovider "$tests/linalg/tests/test_linalg.py" -k "not generalized"
$py -m pytest -q -p no:cacheprovider "$tests/core/tests/test_multiarray.py" \
    -k "(matmul or dot or Dot or Matmul) and not huge"
$py - <<'PY'
import numpy as np
rng = np.random.default_rng(16)
worst = 0.0
for dt, tol in ((np.float32, 1e-4), (np.float64, 1e-12)):
    for m, k, n in ((1, 1, 1), (7, 33, 5), (65, 127, 200), (200, 65, 33), (129, 257, 131)):
        a = rng.uniform(-1, 1, (m, k)).astype(dt)
        b = rng.uniform(-1, 1, (k, n)).astype(dt)
        exact = np.array([[sum(float(a[i, p]) * float(b[p, j]) for p in range(k)) for j in range(n)]
                          for i in range(m)]) if m * n * k <= 20000 else a.astype(np.longdouble) @ b.astype(np.longdouble)
        for got in (a @ b, np.dot(a, b), (b.T @ a.T).T, np.asfortranarray(a) @ b):
            err = float(np.max(np.abs(got - exact)) / (k * np.max(np.abs(exact)) + 1e-300))
            worst = max(worst, err / tol)
            assert err <= tol, (dt.__name__, m, k, n, err)
        v = rng.uniform(-1, 1, k).astype(dt)
        assert np.allclose(a @ v, a.astype(np.float64) @ v.astype(np.float64), rtol=tol * k, atol=tol * k)
print(f"numpy_check: products of odd shapes within tolerance (worst {worst:.3g} of the bound)")
PY

#!/usr/bin/env bash
# cblas_exports.sh: fails unless libtessel_blas.so exports exactly the cblas_* functions of the
# reference CBLAS (Debian's blas/libblas.so.3, LAPACK 3.11), no more and no fewer, and its data
# symbols RowMajorStrg and CBLAS_CallFromC, which the reference's testers and error handlers use;
# plus OpenBLAS's cblas_cgemm3m and cblas_zgemm3m, the one extension it has (docs/dropin.md).
#   cblas_exports.sh LIB REFERENCE_LIB
set -euo pipefail
lib=$1 ref=$2
syms() {
  nm -D --defined-only "$1" | awk '{print $3}' |
    grep -E '^(cblas_|RowMajorStrg$|CBLAS_CallFromC$)' | sort
}
ours=$(syms "$lib")
theirs=$( (syms "$ref"; printf '%s\n' cblas_cgemm3m cblas_zgemm3m) | sort)
if [ "$ours" != "$theirs" ]; then
  echo "FAIL: the CBLAS exports differ (< only in $lib, > only in $ref):"
  diff <(echo "$ours") <(echo "$theirs") || true
  exit 1
fi
echo "PASS: $(echo "$ours" | wc -l) CBLAS symbols, the reference's set and cblas_[cz]gemm3m"

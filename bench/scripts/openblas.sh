#!/usr/bin/env bash
# The openblas suite: the OpenBLAS peer on this host's CPU, by core type. Debian's OpenBLAS
# (DYNAMIC_ARCH) falls back to generic Prescott kernels on a CPU it does not recognize (the GPU
# machine's virtualized Xeon); tessel's command then re-executes itself with the core the CPU's
# flags support (README.md, "The command"). This measures each choice side by side.
#   bash bench/scripts/openblas.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/openblas)
#   cores_CORE_PREC.csv   SGEMM / DGEMM n = 4096, 16 threads (all cores), median of 3, with
#                         CORE = auto (tessel's choice), SkylakeX, Cooperlake, Haswell set by
#                         hand, and Prescott (what OpenBLAS detects there); the openblas row's
#                         device column names the core that ran
# About 2 minutes (Prescott: 5 s a product). The GPU only runs the cheap naive row beside it.
set -euo pipefail
OPENBLAS_CORETYPE_SET=${OPENBLAS_CORETYPE-}
source "$(dirname "$0")/lib.sh" openblas "$@"
# lib.sh exported the core it plans; this suite sets each one itself
unset OPENBLAS_CORETYPE
[ -n "$OPENBLAS_CORETYPE_SET" ] && echo "note: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE_SET ignored: this suite sets it per case" >&2
for core in auto SkylakeX Cooperlake Haswell Prescott; do
  for p in single double; do
    if [ $core = auto ]; then
      tsl "cores_${core}_$p" gemm --device "$DEV" --variant naive --size 4096 --precision $p \
        --peers openblas --repeat 3 --warmup 1
    else
      run_case "cores_${core}_$p" env OPENBLAS_CORETYPE=$core "$T" gemm --device "$DEV" --variant naive \
        --size 4096 --precision $p --peers openblas --repeat 3 --warmup 1 --csv "$OUT/cores_${core}_$p.csv"
    fi
  done
done
bench_finish

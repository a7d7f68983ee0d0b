#!/usr/bin/env bash
# Result: bench/results/h200/memory-round2.
# Issue 3, second round on the GPU machine: the new variants (transpose `vector`, blas1 `wide`,
# gemv `multirow`, typed 16-byte loads in the vector kernels) beside nobank/vector, the copy row,
# CLBlast and cuBLAS, every row verified, one run per routine:
#   bash .device/setup.sh && bash bench/scripts/h200-memory-round2.sh "$OUT"
# Also keeps the PTX NVIDIA's compiler produced for them (the program binaries in the kernel
# cache) and counts 16-byte global loads, to see what the compiler made of each access.
set -uo pipefail
export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache-round2
source bench/scripts/lib.sh "${1:-bench-out}"
run transpose --device $d --variant all --size 8192 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/transpose.csv"
run transpose --device $d --variant all --rows 8191 --cols 8193 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/transpose_ragged.csv"
for r in 2 4 16 32; do
  run transpose --device $d --variant vector --wg-rows $r --size 8192 --copy --verify --repeat 20 --csv "$out/transpose_vec_wgrows$r.csv"
done
run transpose --device $d --variant vector --tile 16 --size 8192 --verify --repeat 20 --csv "$out/transpose_vec_tile16.csv"
run transpose --device $d --variant all --size 8192 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/transpose_again.csv"
run transpose --device $d --variant all --size 8192 --precision double --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/transpose_double.csv"
for op in axpy dot nrm2; do
  run blas1 --device $d --op $op --variant all --size 67108864 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/blas1_$op.csv"
done
for tr in n t; do
  run gemv --device $d --variant all -m 16384 -n 16384 --trans $tr --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/gemv_$tr.csv"
done
run poisson --device $d --variant all --grid 8192 --iters 200 --tol 0 --copy --repeat 5 --csv "$out/poisson_8192.csv"
mkdir -p "$out/ptx"
for f in "$TESSEL_CACHE_DIR"/*; do
  [ -f "$f" ] || continue
  name=$(grep -a -o -m1 '\.entry [a-z_0-9]*' "$f" | head -1 | awk '{print $2}')
  [ -n "$name" ] || continue
  case $name in transpose_vec|transpose_tiled|dot_wide|nrm2_wide|nrm2_vector|dot_vector|axpy_vector|gemv_n_vector|gemv_t_vector)
    cp "$f" "$out/ptx/$name.$(basename "$f" | cut -c1-8).ptx"
    printf '%-16s ld.global.v4 %3d  ld.global.f32 %3d  st.global.v4 %3d\n' "$name" \
      "$(grep -a -c 'ld.global.*v4' "$f")" "$(grep -a -c 'ld.global.*f32 ' "$f")" "$(grep -a -c 'st.global.*v4' "$f")" ;;
  esac
done | sort | tee "$out/ptx/summary.txt"
(cd "$out" && tar czf results.tgz *.csv env.txt commands.txt ptx)
python3 - "$out" <<'PY'
import csv, glob, os, sys
out = sys.argv[1]
for f in sorted(glob.glob(os.path.join(out, "*.csv"))):
    rows = list(csv.DictReader(open(f)))
    print(os.path.basename(f))
    for r in rows:
        print("  %-12s %-8s %6s %6s %9s GB/s %8s GF %s" % (r["variant"], r["precision"], r["m"], r["n"], r["gbps"], r["gflops"], r["status"]))
PY

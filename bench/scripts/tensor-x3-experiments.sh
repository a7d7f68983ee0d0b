#!/usr/bin/env bash
# Result: bench/results/h100/tensor-x3/x3tf32_experiments.txt. 3xTF32 kernel experiments in patched
# trees beside the tree as it was (base): E1, the remainders passed to mma.sync unrounded (kept:
# TF32_REM); E2, no fresh accumulator per k step (faster, 50x the error: not kept); E1 + E2.
#   bash .device/setup.sh && bash bench/scripts/tensor-x3-experiments.sh OUT
set -u
O=${1:?usage: tensor-x3-experiments.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
export OPENBLAS_CORETYPE=Cooperlake
mk() { # mk DIR FILE FROM TO [FILE FROM TO]...: a patched copy built in DIR/b
  local dir=$1; shift
  rm -rf "$dir" && mkdir -p "$dir" && cp -r src cli bench include cmake tests CMakeLists.txt Makefile "$dir"/
  while [ $# -ge 3 ]; do
    python3 - "$dir/$1" "$2" "$3" <<'PY' || { echo "mk: '$2' not in $1"; return 1; }
import sys
p, a, b = sys.argv[1:]
s = open(p).read()
if a not in s: sys.exit(1)
open(p, 'w').write(s.replace(a, b))
PY
    shift 3
  done
  (cmake -S "$dir" -B "$dir/b" -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
   cmake --build "$dir/b" -j "$(nproc)" --target tessel_cli > /dev/null 2>&1) || { echo "mk: build in $dir failed"; return 1; }
}
K=src/kernels/gemm_tiled2d_kernel.cl; M=src/kernels/gemm_mma.cl
E1A='#define SPLIT_A(fb, i, e) afs[fb][i][e] = TF32_OF(as_float(raw[e]) - as_float(af[fb][i][e]))'
E1A2='#define SPLIT_A(fb, i, e) afs[fb][i][e] = as_uint(as_float(raw[e]) - as_float(af[fb][i][e]))'
E1B='#define SPLIT_B(fb, j, q, x) bfs[fb][j][q] = TF32_OF((x) - as_float(bf[fb][j][q]))'
E1B2='#define SPLIT_B(fb, j, q, x) bfs[fb][j][q] = as_uint((x) - as_float(bf[fb][j][q]))'
E2='t_[e] = ZERO;'; E2b='t_[e] = acc[i][j][e];'; E2c='acc[i][j][e] += t_[e];'; E2d='acc[i][j][e] = t_[e];'
mk /tmp/e1 $K "$E1A" "$E1A2" $K "$E1B" "$E1B2" &
mk /tmp/e2 $M "$E2" "$E2b" $M "$E2c" "$E2d" &
mk /tmp/e12 $K "$E1A" "$E1A2" $K "$E1B" "$E1B2" $M "$E2" "$E2b" $M "$E2c" "$E2d" &
wait
{
for n in 4096 8192; do
  for b in base e1 e2 e12; do
    tb=$t; [ $b != base ] && tb=/tmp/$b/b/tessel
    [ -x $tb ] || { echo "$b: no binary"; continue; }
    printf "3xtf32 %s %5d " $b $n
    timeout 90 $tb gemm --device nvidia --math 3xtf32 --size $n --verify --repeat 5 --warmup 1 --csv - 2>&1 | tail -1 | cut -d, -f1-16 | tr '\n' ' '; echo
  done
done
timeout 90 $t gemm --device nvidia --size 4096 --verify --repeat 5 --warmup 1 --peers cublas --csv - 2>&1 | tail -2
} | tee $O/x3.txt

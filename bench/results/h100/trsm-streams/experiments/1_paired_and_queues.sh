#!/bin/bash
# session 7 experiment 1: what a paired-row leaf would take (emulated by dense GEMMs of the same
# per-group work), and whether NVIDIA's OpenCL runs kernels of two queues at once
O=/tmp/w; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
gcc -O2 bench/results/h100/trsm-streams/experiments/1_conc.c -o /tmp/conc -lOpenCL && /tmp/conc > $O/conc.txt 2>&1
X="VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
declare -A CF=( [t128]="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,$X" [t128x64]="MWG=128,NWG=64,KWG=8,MDIMC=16,NDIMC=8,$X" [t64x128]="MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=16,$X" [t64]="MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,$X" [tE]="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,$X" [t128x256]="MWG=128,NWG=256,KWG=8,MDIMC=16,NDIMC=16,$X")
c="--device nvidia"
R() { local tag=$1; shift; echo "$tag: $*" >> $O/commands.txt; timeout 200 $t "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
R upd_auto gemm -m 1024 -n 4096 -k 1024
for v in t128 t128x64 t64x128 t64 tE t128x256; do
  R upd_$v gemm -m 1024 -n 4096 -k 1024 --variant tiled2d:${CF[$v]}
done
# paired: each group runs two row tiles, k = (2 + rows) x tile height / ... (sum of a pair)
R pair_t128 gemm -m 512 -n 4096 -k 1152 --variant tiled2d:${CF[t128]}
R pair_t128x64 gemm -m 512 -n 4096 -k 1152 --variant tiled2d:${CF[t128x64]}
R pair_t64x128 gemm -m 512 -n 4096 -k 1088 --variant tiled2d:${CF[t64x128]}
R pair_t64 gemm -m 512 -n 4096 -k 1088 --variant tiled2d:${CF[t64]}
R pair_tE gemm -m 512 -n 4096 -k 1088 --variant tiled2d:${CF[tE]}
R pair_t128x256 gemm -m 512 -n 4096 -k 1152 --variant tiled2d:${CF[t128x256]}
R trmmleaf blas3 --op trmm -m 1024 -n 4096
R trsm4096 blas3 --op trsm -m 4096 -n 4096
R gemm4096 gemm --size 4096
# double: the ring configuration, 64 x 64 tiles
D="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,MMA=3,KSPLIT=0,DIRECT=2,PEEL=0,ASYNC=2,FPIPE=0,BT=0"
R d_upd gemm -m 1024 -n 4096 -k 1024 --precision double
R d_pair gemm -m 512 -n 4096 -k 1088 --precision double --variant tiled2d:$D
R d_trsm4096 blas3 --op trsm -m 4096 -n 4096 --precision double
R d_gemm4096 gemm --size 4096 --precision double
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 > /dev/null 2> $O/trace_s.err
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision double > /dev/null 2> $O/trace_d.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
for f in sorted(glob.glob(O+'/r_*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-16s %-10s %8.4f ms %8.0f GF %s"%(os.path.basename(f)[2:-4], r.get('variant','')[:10], float(r['kernel_ms']), float(r['gflops']), r['status']))
PY
cat $O/conc.txt
grep -E "trace: " $O/trace_s.err | tail -22 | cut -c1-100
cd /tmp && tar czf $OUT/res.tgz w

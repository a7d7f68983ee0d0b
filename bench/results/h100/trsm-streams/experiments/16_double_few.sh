#!/bin/bash
# session 7 experiment 15: a double "few" entry (the doubling's launches, small batches)
O=/tmp/w15; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
L='device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2 source=h100-session6-2026-11-26'
X="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=2,PEEL=0,FPIPE=0,BT=0"
declare -A CF=( [F1]="MWG=32,NWG=32,KWG=16,MDIMC=4,NDIMC=8,$X,MMA=3,ASYNC=2" [F2]="MWG=32,NWG=64,KWG=16,MDIMC=4,NDIMC=16,$X,MMA=3,ASYNC=2" [F3]="MWG=64,NWG=32,KWG=16,MDIMC=8,NDIMC=8,$X,MMA=3,ASYNC=2" )
for v in F1 F2 F3; do
  ( patched_tree /tmp/p$v src/tune/defaults.tuning "$L" "$L
device=nvidia_h100_80gb_hbm3 gemm double few tiled2d:${CF[$v]}" ) > $O/p$v.log 2>&1 &
done
wait; cat $O/p*.log
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for round in 1 2; do
for v in A F1 F2 F3; do
  if [ $v = A ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=/tmp/p$v/b/tessel; export TESSEL_CACHE_DIR=/tmp/p$v/kc; fi
  R ${v}_trsm4096d_$round $b blas3 --op trsm -m 4096 -n 4096 --precision double --verify
  R ${v}_trsm8192d_$round $b blas3 --op trsm -m 8192 -n 8192 --precision double
  R ${v}_trmm4096d_$round $b blas3 --op trmm -m 4096 -n 4096 --precision double
  for s in 4:512 8:256 16:128; do R ${v}_batch${s%%:*}x${s##*:}_$round $b gemm --batch ${s%%:*} --size ${s##*:} --precision double; done
  [ $round = 1 ] && { TESSEL_TRACE=2 $b blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision double --streams 1 > /dev/null 2> $O/trace_$v.err; }
done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os,re
O=sys.argv[1]
res={}
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]; v,what=tag.split('_',1)
    for r in csv.DictReader(open(f)):
        res.setdefault(what,{})[v]=(float(r['kernel_ms']),r['status'])
vs=["A","F1","F2","F3"]
print("%-18s"%"case"+"".join("%12s"%v for v in vs))
for what in sorted(res):
    print("%-18s"%what+"".join("%12s"%("%.4f%s"%(res[what][v][0], '' if res[what][v][1]=='ok' else '!') if v in res[what] else '-') for v in vs))
for v in vs:
    try: L=open(f'{O}/trace_{v}.err').read().split('\n')
    except: continue
    idx=[i for i,l in enumerate(L) if 'upload' in l]
    run=L[idx[-1]+1:] if idx else L
    cat={}
    for l in run:
        m=re.search(r'trace:\s+([\d.]+) us\s+(.*)',l)
        if not m or 'download' in l: continue
        us=float(m.group(1)); name=m.group(2)
        k='doubling' if 'batched' in name else 'inv' if 'l3_tri_inv' in name else 'copy' if 'l3_copy' in name else 'gemm'
        cat[k]=cat.get(k,0)+us
    print(v, " ".join(f"{k}={u:.0f}" for k,u in sorted(cat.items())), "total=%.0f"%sum(cat.values()))
PY
cd /tmp && tar czf $OUT/res.tgz w15

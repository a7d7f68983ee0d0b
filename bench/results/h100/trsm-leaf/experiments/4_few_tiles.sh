#!/bin/bash
O=/tmp/w; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
L='device=nvidia_h100_80gb_hbm3 gemm single any tiled2d:MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,APAD=4,KSPLIT=1 measured=128x4096x128'
X="VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
declare -A CF=( [B]="MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,$X" [C]="MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=16,$X" [D]="MWG=128,NWG=64,KWG=8,MDIMC=16,NDIMC=8,$X" [E]="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,$X" )
for v in B C D E; do
  ( patched_tree /tmp/p$v src/tune/defaults.tuning "$L" "$L
device=nvidia_h100_80gb_hbm3 gemm single small tiled2d:${CF[$v]}" ) > $O/p$v.log 2>&1 &
done
wait
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for v in A B C D E; do
  if [ $v = A ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=/tmp/p$v/b/tessel; export TESSEL_CACHE_DIR=/tmp/p$v/kc; fi
  [ -x $b ] || { echo "no $b"; continue; }
  R ${v}_trsm4096 $b blas3 --op trsm -m 4096 -n 4096 --verify
  R ${v}_trsm8192 $b blas3 --op trsm -m 8192 -n 8192
  R ${v}_trsm4096d $b blas3 --op trsm -m 4096 -n 4096 --precision double
  R ${v}_trmmleaf $b blas3 --op trmm -m 1024 -n 4096
  R ${v}_syrk4096 $b blas3 --op syrk -n 4096 -k 4096 --beta 0.5
  for s in 4:512 8:256 16:128 32:64; do R ${v}_batch${s%%:*}x${s##*:} $b gemm --batch ${s%%:*} --size ${s##*:}; done
  for n in 512 1024; do R ${v}_gemm$n $b gemm --size $n; done
  TESSEL_TRACE=2 $b blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 > /dev/null 2> $O/trace_$v.err
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os,re
O=sys.argv[1]
res={}
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]; v,what=tag.split('_',1)
    for r in csv.DictReader(open(f)):
        res.setdefault(what,{})[v]=(float(r['kernel_ms']),r['status'])
print("%-14s"%"case"+"".join("%12s"%v for v in "ABCDE"))
for what in sorted(res):
    print("%-14s"%what+"".join("%12s"%("%.4f%s"%(res[what][v][0], '' if res[what][v][1]=='ok' else '!') if v in res[what] else '-') for v in "ABCDE"))
for v in "ABCDE":
    try: L=open(f'{O}/trace_{v}.err').read().split('\n')
    except: continue
    idx=[i for i,l in enumerate(L) if 'upload' in l]
    run=L[idx[-1]+1:] if idx else L
    cat={}
    for l in run:
        m=re.search(r'trace:\s+([\d.]+) us\s+(.*)',l)
        if not m or 'download' in l: continue
        us=float(m.group(1)); name=m.group(2)
        k='doubling' if 'batched' in name else 'inv' if 'l3_tri_inv' in name else 'zero' if 'l3_scale' in name else 'copy' if 'l3_copy' in name else 'pack' if 'pack' in name else 'gemm '+name.split('(gemm_tiled2d)')[-1].strip()
        cat[k]=cat.get(k,0)+us
    print(v, " ".join(f"{k}={u:.0f}" for k,u in sorted(cat.items())), "total=%.0f"%sum(cat.values()))
PY
cd /tmp && tar czf $OUT/res.tgz w

# optimizations-speedup.gp: figure 'speedup' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-speedup.gp
if (!exists("outfile")) outfile = "optimizations-speedup.png"
set terminal pngcairo size 1100,700 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Speedup over the sequential host version, kernel time only (002's figure 11)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "speedup over the sequential host version (x)"
set logscale y 10
set format y "%g"
set yrange [0.4:7234.35]
set key outside right top vertical Left reverse
set xtics rotate by -40 left nomirror font ",11"
set grid noxtics ytics
set bmargin 8
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "#000000"
set label 2 "= 1: the sequential\nhost version" at graph 1.02, first 1 left font ",10"
set xtics ("original" 0, "multithread" 1, "float2" 2, "float4" 3, "float8" 4, "float16" 5, "optimized" 6, "original" 8, "local" 9, "optimized" 10, "original" 12, "unrolled" 13, "optimized" 14, "naive" 16, "tiled_16x16" 17, "regblock_4" 18, "tiled2d" 19)
set xrange [-1:20]
$d0 << EOD
0 13.4869 18.2073
1 2063.05 2785.12
2 2375.5 3206.93
3 2620.49 3537.66
4 2853.28 3851.93
5 2893.74 3906.55
6 2853.38 3852.06
EOD
$d1 << EOD
8 1167.04 1575.5
9 2145.47 2896.38
10 2258.99 3049.64
EOD
$d2 << EOD
12 779.689 1052.58
13 2221.88 2999.54
14 2111.8 2850.93
EOD
$d3 << EOD
16 17.4164 23.5121
17 20.4023 27.5431
18 20.2165 27.2923
19 111.706 150.803
EOD
plot \
  $d0 using 1:2:($1-0.4):($1+0.4):(1):2 with boxxyerror fs solid 0.75 lc rgb "#1f77b4" title "Pi", \
  $d0 using 1:3:(abs($2) >= 1000 ? sprintf("%.1fk", $2 / 1000) : sprintf(abs($2) < 1 ? "%.2g" : "%.3g", $2)) with labels font ",10" notitle, \
  $d1 using 1:2:($1-0.4):($1+0.4):(1):2 with boxxyerror fs solid 0.75 lc rgb "#d62728" title "N-body", \
  $d1 using 1:3:(abs($2) >= 1000 ? sprintf("%.1fk", $2 / 1000) : sprintf(abs($2) < 1 ? "%.2g" : "%.3g", $2)) with labels font ",10" notitle, \
  $d2 using 1:2:($1-0.4):($1+0.4):(1):2 with boxxyerror fs solid 0.75 lc rgb "#2ca02c" title "K-means", \
  $d2 using 1:3:(abs($2) >= 1000 ? sprintf("%.1fk", $2 / 1000) : sprintf(abs($2) < 1 ? "%.2g" : "%.3g", $2)) with labels font ",10" notitle, \
  $d3 using 1:2:($1-0.4):($1+0.4):(1):2 with boxxyerror fs solid 0.75 lc rgb "#ff7f0e" title "GEMM (against OpenBLAS)", \
  $d3 using 1:3:(abs($2) >= 1000 ? sprintf("%.1fk", $2 / 1000) : sprintf(abs($2) < 1 ? "%.2g" : "%.3g", $2)) with labels font ",10" notitle

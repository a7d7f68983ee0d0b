# optimizations-speedup.gp: figure 'speedup' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-speedup.gp
if (!exists("outfile")) outfile = "optimizations-speedup.png"
set terminal pngcairo size 1100,700 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Speedup over the sequential host version, kernel time only (002's figure 11)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-23, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "speedup over the sequential host version (x)"
set logscale y 10
set format y "%g"
set yrange [0.4:11001.9]
set key outside right top vertical Left reverse
set xtics rotate by -40 left nomirror font ",11"
set grid noxtics ytics
set bmargin 8
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "#000000"
set label 2 "= 1: the sequential\nhost version" at graph 1.02, first 1 left font ",10"
set xtics ("original" 0, "multithread" 1, "float2" 2, "float4" 3, "float8" 4, "float16" 5, "optimized" 6, "original" 8, "local" 9, "optimized" 10, "original" 12, "unrolled" 13, "optimized" 14, "naive" 16, "tiled_16x16" 17, "regblock_4" 18, "tiled2d" 19)
set xrange [-1:20]
$d0 << EOD
0 20.6094 27.8227
1 3141.27 4240.71
2 3616.93 4882.86
3 3987.48 5383.1
4 4338.44 5856.89
5 4400.77 5941.04
6 4337.66 5855.84
EOD
$d1 << EOD
8 1654.24 2233.22
9 3056.44 4126.19
10 3210.54 4334.23
EOD
$d2 << EOD
12 1203.79 1625.12
13 3426.74 4626.1
14 3261.15 4402.55
EOD
$d3 << EOD
16 29.4233 39.7215
17 34.4651 46.5279
18 34.2673 46.2609
19 194.834 263.026
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

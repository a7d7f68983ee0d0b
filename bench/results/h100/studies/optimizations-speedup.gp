# optimizations-speedup.gp: figure 'speedup' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-speedup.gp
if (!exists("outfile")) outfile = "optimizations-speedup.png"
set terminal pngcairo size 1100,700 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Speedup over the sequential host version, kernel time only (002's figure 11)\nNVIDIA H100 80GB HBM3, tessel 0.1.0, full mode, 2026-11-25, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "speedup over the sequential host version (x)"
set logscale y 10
set format y "%g"
set yrange [0.4:11049.1]
set key outside right top vertical Left reverse
set xtics rotate by -40 left nomirror font ",11"
set grid noxtics ytics
set bmargin 8
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "#000000"
set label 2 "= 1: the sequential\nhost version" at graph 1.02, first 1 left font ",10"
set xtics ("original" 0, "multithread" 1, "float2" 2, "float4" 3, "float8" 4, "float16" 5, "optimized" 6, "original" 8, "local" 9, "optimized" 10, "original" 12, "unrolled" 13, "optimized" 14, "naive" 16, "tiled_16x16" 17, "regblock_4" 18, "tiled2d" 19)
set xrange [-1:20]
$d0 << EOD
0 19.5584 26.4038
1 2980.12 4023.16
2 3427.97 4627.76
3 3774.13 5095.08
4 4112.12 5551.36
5 4172.19 5632.46
6 4113.02 5552.58
EOD
$d1 << EOD
8 1758.69 2374.23
9 3281.71 4430.31
10 3450.2 4657.77
EOD
$d2 << EOD
12 1550.82 2093.61
13 4419.63 5966.5
14 4193.77 5661.59
EOD
$d3 << EOD
16 6.74709 9.10857
17 7.90541 10.6723
18 7.35772 9.93292
19 59.301 80.0564
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

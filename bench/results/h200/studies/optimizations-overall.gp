# optimizations-overall.gp: figure 'overall' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-overall.gp
if (!exists("outfile")) outfile = "optimizations-overall.png"
set terminal pngcairo size 1100,700 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Overall speedup: compile, memory setup and read-back counted (002's figures 12, 16-19)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "overall speedup over the sequential host version (x)"
set logscale y 10
set format y "%g"
set yrange [0.28872:6644.08]
set key outside right top vertical Left reverse
set xtics rotate by -40 left nomirror font ",11"
set grid noxtics ytics
set bmargin 8
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "#000000"
set label 2 "= 1: the sequential\nhost version" at graph 1.02, first 1 left font ",10"
set xtics ("original" 0, "multithread" 1, "float2" 2, "float4" 3, "float8" 4, "float16" 5, "optimized" 6, "original" 8, "local" 9, "optimized" 10, "original" 12, "unrolled" 13, "optimized" 14, "naive" 16, "tiled_16x16" 17, "regblock_4" 18, "tiled2d" 19)
set xrange [-1:20]
$d0 << EOD
0 7.58203 10.2357
1 1962.46 2649.32
2 15.9189 21.4905
3 14.6752 19.8115
4 11.8651 16.0179
5 12.5873 16.9929
6 2657.63 3587.8
EOD
$d1 << EOD
8 136.367 184.095
9 140.301 189.406
10 130.397 176.036
EOD
$d2 << EOD
12 112.251 151.539
13 67.6384 91.3118
14 96.9625 130.899
EOD
$d3 << EOD
16 6.92187 9.34452
17 7.80262 10.5335
18 0.721801 0.534667
19 10.6743 14.4103
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

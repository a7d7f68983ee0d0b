# optimizations-overall.gp: figure 'overall' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-overall.gp
if (!exists("outfile")) outfile = "optimizations-overall.png"
set terminal pngcairo size 1100,700 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Overall speedup: compile, memory setup and read-back counted (002's figures 12, 16-19)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-23, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "overall speedup over the sequential host version (x)"
set logscale y 10
set format y "%g"
set yrange [0.080538:1513.08]
set key outside right top vertical Left reverse
set xtics rotate by -40 left nomirror font ",11"
set grid noxtics ytics
set bmargin 8
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "#000000"
set label 2 "= 1: the sequential\nhost version" at graph 1.02, first 1 left font ",10"
set xtics ("original" 0, "multithread" 1, "float2" 2, "float4" 3, "float8" 4, "float16" 5, "optimized" 6, "original" 8, "local" 9, "optimized" 10, "original" 12, "unrolled" 13, "optimized" 14, "naive" 16, "tiled_16x16" 17, "regblock_4" 18, "tiled2d" 19)
set xrange [-1:20]
$d0 << EOD
0 2.03813 2.75148
1 569.095 768.278
2 15.2368 20.5697
3 13.0706 17.6453
4 10.2604 13.8515
5 10.6277 14.3474
6 605.233 817.065
EOD
$d1 << EOD
8 116.702 157.548
9 155.814 210.349
10 122.515 165.395
EOD
$d2 << EOD
12 126.506 170.783
13 58.3956 78.8341
14 80.2181 108.294
EOD
$d3 << EOD
16 1.0857 1.4657
17 1.13566 1.53314
18 0.838107 0.62082
19 0.201345 0.149144
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

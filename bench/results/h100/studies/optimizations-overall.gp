# optimizations-overall.gp: figure 'overall' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-overall.gp
if (!exists("outfile")) outfile = "optimizations-overall.png"
set terminal pngcairo size 1100,700 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Overall speedup: compile, memory setup and read-back counted (002's figures 12, 16-19)\nNVIDIA H100 80GB HBM3, tessel 0.1.0, full mode, 2026-11-25, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "overall speedup over the sequential host version (x)"
set logscale y 10
set format y "%g"
set yrange [0.0526956:1308.78]
set key outside right top vertical Left reverse
set xtics rotate by -40 left nomirror font ",11"
set grid noxtics ytics
set bmargin 8
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "#000000"
set label 2 "= 1: the sequential\nhost version" at graph 1.02, first 1 left font ",10"
set xtics ("original" 0, "multithread" 1, "float2" 2, "float4" 3, "float8" 4, "float16" 5, "optimized" 6, "original" 8, "local" 9, "optimized" 10, "original" 12, "unrolled" 13, "optimized" 14, "naive" 16, "tiled_16x16" 17, "regblock_4" 18, "tiled2d" 19)
set xrange [-1:20]
$d0 << EOD
0 7.74128 10.4507
1 507.593 685.251
2 12.6409 17.0652
3 11.1028 14.9888
4 8.65829 11.6887
5 9.33042 12.5961
6 523.512 706.741
EOD
$d1 << EOD
8 113.966 153.854
9 162.211 218.985
10 133.415 180.11
EOD
$d2 << EOD
12 172.07 232.294
13 71.7574 96.8725
14 106.723 144.076
EOD
$d3 << EOD
16 0.168757 0.125005
17 1.51517 2.04548
18 0.131739 0.0975844
19 1.69091 2.28273
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

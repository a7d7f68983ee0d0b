# gemm-ladder-gflops.gp: figure 'gflops' of `tessel study gemm-ladder` (003), data inline.
# Redraw it in this folder with: gnuplot gemm-ladder-gflops.gp
if (!exists("outfile")) outfile = "gemm-ladder-gflops.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "The GEMM ladder against the peers (003's figures 1-6)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, double precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "GFLOP/s (2 n^3 / median kernel time)"
set xlabel "matrix size n (n x n x n)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (128, 256, 512, 1024, 2048, 4096)
set logscale y 10
set format y "%g"
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
128 245.914
256 1144.11
512 2362.32
1024 3331.04
2048 3069.07
4096 2079.39
EOD
$d1 << EOD
128 149.03
256 203.904
512 224.171
1024 228.796
2048 221.68
4096 176.828
EOD
$d2 << EOD
128 345.836
256 941.271
512 1203.96
1024 1285.11
2048 1252.55
4096 1230.63
EOD
$d3 << EOD
128 402.061
256 1489.45
512 2339.59
1024 2591.68
2048 2662.09
4096 2666.58
EOD
$d4 << EOD
128 458.294
256 2080.51
512 3048.74
1024 3372.39
2048 3492.42
4096 3503.95
EOD
$d5 << EOD
128 322.837
256 1597.22
512 4079.07
1024 4585.35
2048 4627.8
4096 4702.1
EOD
$d6 << EOD
128 194.758
256 890.51
512 3622.81
1024 4850.66
2048 3994.08
4096 4058.18
EOD
$d7 << EOD
128 154.112
256 667.883
512 2672.81
1024 4662.12
2048 4174.64
4096 4487.72
EOD
$d8 << EOD
128 207.392
256 974.966
512 4258.18
1024 17841
2048 20127.9
4096 20847.6
EOD
$d9 << EOD
128 68.2817
256 105.918
512 129.034
1024 131.214
2048 180.417
4096 221.403
EOD
$d10 << EOD
128 153.84
256 699.051
512 3125.41
1024 5290.83
2048 11023.1
4096 12230
EOD
$d11 << EOD
128 333.517
256 1323.96
512 15019.9
1024 42326.6
2048 57496.2
4096 60363.3
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "naive", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "tiled_2x2", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "tiled_4x4", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "tiled_8x8", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "tiled_16x16", \
  $d5 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#8c564b" pt 15 dt 1 title "tiled_32x32", \
  $d6 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#e377c2" pt 4 dt 1 title "regblock_2", \
  $d7 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#7f7f7f" pt 6 dt 1 title "regblock_4", \
  $d8 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#bcbd22" pt 8 dt 1 title "tiled2d", \
  $d9 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#17becf" pt 10 dt 1 title "openblas", \
  $d10 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#000000" pt 12 dt 1 title "clblast", \
  $d11 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#6baed6" pt 14 dt 1 title "cublas"

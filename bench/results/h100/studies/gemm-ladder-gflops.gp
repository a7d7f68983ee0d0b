# gemm-ladder-gflops.gp: figure 'gflops' of `tessel study gemm-ladder` (003), data inline.
# Redraw it in this folder with: gnuplot gemm-ladder-gflops.gp
if (!exists("outfile")) outfile = "gemm-ladder-gflops.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "The GEMM ladder against the peers (003's figures 1-6)\nNVIDIA H100 80GB HBM3, tessel 0.1.0, full mode, 2026-11-25, double precision"
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
128 231.576
256 1091.7
512 2347.78
1024 3320.66
2048 2109.57
4096 2076.39
EOD
$d1 << EOD
128 142.161
256 202.155
512 223.607
1024 228.651
2048 184.596
4096 184.768
EOD
$d2 << EOD
128 313.195
256 910.222
512 1197
1024 1280.43
2048 1263.45
4096 1252.1
EOD
$d3 << EOD
128 361.578
256 1437.39
512 2305.83
1024 2588.38
2048 2657.7
4096 2678.27
EOD
$d4 << EOD
128 368.698
256 1938.22
512 3001.83
1024 3353.93
2048 3483.04
4096 3513.44
EOD
$d5 << EOD
128 296.543
256 1510.92
512 3973.76
1024 4515.47
2048 4574.94
4096 4691.99
EOD
$d6 << EOD
128 185.918
256 868.386
512 3485.81
1024 4826.41
2048 4048.91
4096 3925.55
EOD
$d7 << EOD
128 149.115
256 644.088
512 2609.62
1024 4656.13
2048 3993.16
4096 4500.81
EOD
$d8 << EOD
128 207.721
256 1494.76
512 9664.29
1024 25658.1
2048 33844.2
4096 36837.4
EOD
$d9 << EOD
128 84.0702
256 87.1649
512 327.327
1024 391.813
2048 473.765
4096 507.913
EOD
$d10 << EOD
128 130.032
256 619.726
512 2402.24
1024 5005.14
2048 9768.39
4096 11847.5
EOD
$d11 << EOD
128 278.877
256 1768.26
512 11420.8
1024 37669.9
2048 55718
4096 59518.8
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

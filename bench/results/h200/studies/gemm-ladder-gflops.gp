# gemm-ladder-gflops.gp: figure 'gflops' of `tessel study gemm-ladder` (003), data inline.
# Redraw it in this folder with: gnuplot gemm-ladder-gflops.gp
if (!exists("outfile")) outfile = "gemm-ladder-gflops.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "The GEMM ladder against the peers (003's figures 1-6)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-23, double precision"
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
128 238.313
256 1122.67
512 2334.06
1024 3331.37
2048 3151.82
4096 2005.78
EOD
$d1 << EOD
128 147.024
256 202.174
512 223.965
1024 228.798
2048 220.761
4096 172.108
EOD
$d2 << EOD
128 328.09
256 923.856
512 1196.75
1024 1284.34
2048 1233.64
4096 1207.56
EOD
$d3 << EOD
128 381.023
256 1451.32
512 2322.11
1024 2588.33
2048 2659.79
4096 2665.62
EOD
$d4 << EOD
128 436.18
256 2020.38
512 3009.37
1024 3365.2
2048 3490.4
4096 3497.72
EOD
$d5 << EOD
128 315.077
256 1568.55
512 3992.67
1024 4575.19
2048 4625.09
4096 4682.38
EOD
$d6 << EOD
128 189.41
256 887.496
512 3568.86
1024 4819.48
2048 3886.92
4096 3925.67
EOD
$d7 << EOD
128 154.566
256 665.34
512 2647.08
1024 4630.43
2048 4063.02
4096 4337.81
EOD
$d8 << EOD
128 228.548
256 1718.98
512 9576.04
1024 19654.1
2048 23406.8
4096 23879.4
EOD
$d9 << EOD
128 73.4528
256 92.2919
512 107.285
1024 113.008
2048 114.03
4096 114.516
EOD
$d10 << EOD
128 115.38
256 677.375
512 2496.61
1024 5102.56
2048 10258.2
4096 12158
EOD
$d11 << EOD
128 316.599
256 1904.77
512 12372.6
1024 38173.4
2048 54490.8
4096 60585.1
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

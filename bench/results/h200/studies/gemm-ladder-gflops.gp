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
128 240.499
256 1079.34
512 2355.36
1024 3311.48
2048 3085.36
4096 2006.44
EOD
$d1 << EOD
128 144.751
256 200.608
512 223.333
1024 228.571
2048 221.157
4096 172.244
EOD
$d2 << EOD
128 320.078
256 902.001
512 1194.28
1024 1279.48
2048 1235.88
4096 1208.29
EOD
$d3 << EOD
128 391.845
256 1413.18
512 2309.32
1024 2572.8
2048 2659.29
4096 2663.48
EOD
$d4 << EOD
128 416.102
256 1899.59
512 2986.86
1024 3338.42
2048 3489.89
4096 3497.25
EOD
$d5 << EOD
128 315.836
256 1506.57
512 3986.03
1024 4533.31
2048 4617.93
4096 4682.71
EOD
$d6 << EOD
128 191.067
256 851.462
512 3545.48
1024 4825.55
2048 3864.97
4096 3928.25
EOD
$d7 << EOD
128 153.301
256 647.269
512 2634.2
1024 4600.91
2048 4042.23
4096 4340.45
EOD
$d8 << EOD
128 211.406
256 1001.98
512 4497.91
1024 19002.9
2048 17025.4
4096 17146.5
EOD
$d9 << EOD
128 61.4262
256 103.587
512 99.1169
1024 116.158
2048 115.004
4096 120.764
EOD
$d10 << EOD
128 124.121
256 712.348
512 1884.23
1024 5173.36
2048 10018.5
4096 12045.6
EOD
$d11 << EOD
128 254.509
256 2135.59
512 10551.7
1024 40585.9
2048 57026
4096 59831.4
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

# precision-gflops.gp: figure 'gflops' of `tessel study precision` (004), data inline.
# Redraw it in this folder with: gnuplot precision-gflops.gp
if (!exists("outfile")) outfile = "precision-gflops.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "float against double per work-group (004's figures 7-12)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "GFLOP/s (2 n^3 / median kernel time)"
set xlabel "matrix size n (n x n x n)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
set label 3 "half: not measured\n(tessel has no\nhalf-precision kernels)" at graph 1.03, graph 0.12 left font ",10" tc rgb "#a00000"
$d0 << EOD
256 2072.28
512 4205.87
1024 5100.81
2048 5418.4
4096 5395.98
EOD
$d1 << EOD
256 1142.86
512 2364.32
1024 3329.14
2048 3049.08
4096 2077.62
EOD
$d2 << EOD
256 936.229
512 1270.14
1024 1353.6
2048 1373.35
4096 1286.74
EOD
$d3 << EOD
256 920.207
512 1201.98
1024 1285.19
2048 1251.88
4096 1229.54
EOD
$d4 << EOD
256 1925.76
512 3534.28
1024 4088.02
2048 4243.3
4096 4254.36
EOD
$d5 << EOD
256 1444.32
512 2331.79
1024 2581.61
2048 2662.91
4096 2667.14
EOD
$d6 << EOD
256 2526.69
512 5012.61
1024 5991.6
2048 6348.36
4096 6370.4
EOD
$d7 << EOD
256 2018.43
512 3056.52
1024 3371.2
2048 3493.77
4096 3504.35
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "naive, float", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 2 title "naive, double", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "tiled_4x4, float", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 2 title "tiled_4x4, double", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "tiled_8x8, float", \
  $d5 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 2 title "tiled_8x8, double", \
  $d6 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "tiled_16x16, float", \
  $d7 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 2 title "tiled_16x16, double"

# precision-gflops.gp: figure 'gflops' of `tessel study precision` (004), data inline.
# Redraw it in this folder with: gnuplot precision-gflops.gp
if (!exists("outfile")) outfile = "precision-gflops.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "float, double and half storage per work-group (004's figures 7-12)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-23"
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
$d0 << EOD
256 1993.49
512 4076.1
1024 5049.2
2048 5399.54
4096 5397.45
EOD
$d1 << EOD
256 1092.27
512 2328.88
1024 3312.38
2048 3111.16
4096 2005.15
EOD
$d2 << EOD
256 1647.41
512 3557.51
1024 4380.9
2048 4666.49
4096 4691.28
EOD
$d3 << EOD
256 913.394
512 1260.12
1024 1351.84
2048 1372.43
4096 1254
EOD
$d4 << EOD
256 909.433
512 1198.54
1024 1284
2048 1231.43
4096 1207.05
EOD
$d5 << EOD
256 893.927
512 1252.03
1024 1350.32
2048 1373.04
4096 1321.04
EOD
$d6 << EOD
256 1880.85
512 3467.08
1024 4074.24
2048 4238.04
4096 4252.99
EOD
$d7 << EOD
256 1391.61
512 2301.4
1024 2589.68
2048 2658.63
4096 2666.43
EOD
$d8 << EOD
256 1929.3
512 3518.71
1024 4100.88
2048 4254.35
4096 4294.26
EOD
$d9 << EOD
256 2335.36
512 4837.72
1024 5981.18
2048 6340.71
4096 6360.4
EOD
$d10 << EOD
256 1938.22
512 3025.65
1024 3364.19
2048 3494.16
4096 3500.44
EOD
$d11 << EOD
256 1989.71
512 4638.43
1024 5918.15
2048 6349.59
4096 6401.74
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "naive, float", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 2 title "naive, double", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 3 title "naive, half", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "tiled_4x4, float", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 2 title "tiled_4x4, double", \
  $d5 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 3 title "tiled_4x4, half", \
  $d6 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "tiled_8x8, float", \
  $d7 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 2 title "tiled_8x8, double", \
  $d8 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 3 title "tiled_8x8, half", \
  $d9 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "tiled_16x16, float", \
  $d10 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 2 title "tiled_16x16, double", \
  $d11 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 3 title "tiled_16x16, half"

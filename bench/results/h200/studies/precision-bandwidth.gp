# precision-bandwidth.gp: figure 'bandwidth' of `tessel study precision` (004), data inline.
# Redraw it in this folder with: gnuplot precision-bandwidth.gp
if (!exists("outfile")) outfile = "precision-bandwidth.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Effective bandwidth, 004's formula Be = (Br + Bw) k / T\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-23"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "effective bandwidth Be (GB/s, 1e9 bytes)"
set xlabel "matrix size n (n x n x n)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
256 7989.54
512 16320.3
1024 20206.6
2048 21603.4
4096 21592.4
EOD
$d1 << EOD
256 8755.2
512 18649.2
1024 26512
2048 24895.3
4096 16043.2
EOD
$d2 << EOD
256 3301.25
512 7121.97
1024 8766.08
2048 9335.26
4096 9383.7
EOD
$d3 << EOD
256 3660.71
512 5045.4
1024 5410.01
2048 5491.08
4096 5016.63
EOD
$d4 << EOD
256 7289.67
512 9597.71
1024 10277
2048 9853.88
4096 9657.62
EOD
$d5 << EOD
256 1791.35
512 2506.51
1024 2701.96
2048 2746.75
4096 2642.39
EOD
$d6 << EOD
256 7538.11
512 13881.9
1024 16304.9
2048 16956.3
4096 17014.1
EOD
$d7 << EOD
256 11154.6
512 18429.2
1024 20727.5
2048 21274.3
4096 21334
EOD
$d8 << EOD
256 3866.14
512 7044.3
1024 8205.77
2048 8510.78
4096 8589.56
EOD
$d9 << EOD
256 9359.68
512 19369.8
1024 23936.4
2048 25369
4096 25444.8
EOD
$d10 << EOD
256 15536
512 24228.8
1024 26926.7
2048 27960.1
4096 28007
EOD
$d11 << EOD
256 3987.19
512 9285.93
1024 11842.1
2048 12702.3
4096 12805
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

# precision-bandwidth.gp: figure 'bandwidth' of `tessel study precision` (004), data inline.
# Redraw it in this folder with: gnuplot precision-bandwidth.gp
if (!exists("outfile")) outfile = "precision-bandwidth.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Effective bandwidth, 004's formula Be = (Br + Bw) k / T\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21"
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
set label 3 "half: not measured\n(tessel has no\nhalf-precision kernels)" at graph 1.03, graph 0.12 left font ",10" tc rgb "#a00000"
$d0 << EOD
256 8305.33
512 16839.9
1024 20413.2
2048 21678.8
4096 21586.6
EOD
$d1 << EOD
256 9160.75
512 18933
1024 26646.1
2048 24398.6
4096 16623
EOD
$d2 << EOD
256 3752.23
512 5085.5
1024 5417.04
2048 5494.72
4096 5147.58
EOD
$d3 << EOD
256 7376.04
512 9625.22
1024 10286.6
2048 10017.5
4096 9837.59
EOD
$d4 << EOD
256 7718.08
512 14150.9
1024 16360
2048 16977.4
4096 17019.5
EOD
$d5 << EOD
256 11577.1
512 18672.5
1024 20662.9
2048 21308.5
4096 21339.7
EOD
$d6 << EOD
256 10126.5
512 20070
1024 23978.1
2048 25399.6
4096 25484.7
EOD
$d7 << EOD
256 16179
512 24476
1024 26982.8
2048 27957
4096 28038.2
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

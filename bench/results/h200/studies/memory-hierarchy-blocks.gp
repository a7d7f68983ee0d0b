# memory-hierarchy-blocks.gp: figure 'blocks' of `tessel study memory-hierarchy` (000), data inline.
# Redraw it in this folder with: gnuplot memory-hierarchy-blocks.gp
if (!exists("outfile")) outfile = "memory-hierarchy-blocks.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Block-size sweep: every local-memory block against the global-memory kernel\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "kernel time (ms), median"
set xlabel "matrix size n (n x n times n x n, single precision)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096)
set logscale y 10
set format y "%g"
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
256 0.016096
512 0.064144
1024 0.420528
2048 3.17147
4096 25.466
EOD
$d1 << EOD
256 0.146704
512 1.05667
1024 8.2509
2048 65.7027
4096 749.799
EOD
$d2 << EOD
256 0.0356
512 0.211216
1024 1.5863
2048 12.5075
4096 106.801
EOD
$d3 << EOD
256 0.0172
512 0.07568
1024 0.525328
2048 4.04901
4096 32.3093
EOD
$d4 << EOD
256 0.013552
512 0.053328
1024 0.357696
2048 2.70626
4096 21.5762
EOD
$d5 << EOD
256 0.017296
512 0.048224
1024 0.329136
2048 2.55989
4096 20.7991
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "naive", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "tiled_2x2", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "tiled_4x4", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "tiled_8x8", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "tiled_16x16", \
  $d5 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#8c564b" pt 15 dt 1 title "tiled_32x32"

# memory-hierarchy-reduction.gp: figure 'reduction' of `tessel study memory-hierarchy` (000), data inline.
# Redraw it in this folder with: gnuplot memory-hierarchy-reduction.gp
if (!exists("outfile")) outfile = "memory-hierarchy-reduction.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Reduction in kernel time against the global-memory kernel\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "reduction in kernel time (%)"
set xlabel "matrix size n (n x n times n x n, single precision)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
set yrange [*:100]
set arrow 1 from graph 0, first 90 to graph 1, first 90 nohead dt 2 lw 1.5 lc rgb "#606060"
set label 2 "000: ~90 %" at graph 0.02, first 90 offset 0,-0.8 tc rgb "#606060"
set arrow 3 from graph 0, first 0 to graph 1, first 0 nohead lw 1.5 lc rgb "#000000"
$d0 << EOD
256 -811.431
512 -1547.34
1024 -1862.03
2048 -1971.68
4096 -2844.31
EOD
$d1 << EOD
256 -121.173
512 -229.284
1024 -277.216
2048 -294.375
4096 -319.387
EOD
$d2 << EOD
256 -6.85885
512 -17.9845
1024 -24.9211
2048 -27.6698
4096 -26.8723
EOD
$d3 << EOD
256 15.8052
512 16.8621
1024 14.9412
2048 14.6686
4096 15.2745
EOD
$d4 << EOD
256 -7.45527
512 24.8192
1024 21.7327
2048 19.2838
4096 18.326
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "tiled_2x2", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "tiled_4x4", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "tiled_8x8", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "tiled_16x16", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "tiled_32x32"

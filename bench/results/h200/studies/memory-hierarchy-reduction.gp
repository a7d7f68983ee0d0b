# memory-hierarchy-reduction.gp: figure 'reduction' of `tessel study memory-hierarchy` (000), data inline.
# Redraw it in this folder with: gnuplot memory-hierarchy-reduction.gp
if (!exists("outfile")) outfile = "memory-hierarchy-reduction.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Speedup of each local-memory block over the global-memory kernel\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "speedup over naive, t_naive / t  (reduction in time)"
set xlabel "matrix size n (n x n times n x n, single precision)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096)
set logscale y 10
set format y "%g"
set key outside right top vertical Left reverse spacing 1.2 width 2
set yrange [*<0.5:20]
set ytics ("0.01x  (-9900 %%)" 0.01, "0.02x  (-4900 %%)" 0.02, "0.05x  (-1900 %%)" 0.05, "0.1x  (-900 %%)" 0.1, "0.2x  (-400 %%)" 0.2, "0.5x  (-100 %%)" 0.5, "1x  (0 %%)" 1, "2x  (50 %%)" 2, "5x  (80 %%)" 5, "10x  (90 %%)" 10, "20x  (95 %%)" 20, "50x  (98 %%)" 50, "100x  (99 %%)" 100)
set arrow 1 from graph 0, first 10 to graph 1, first 10 nohead dt 2 lw 1.5 lc rgb "#606060"
set label 2 "000: about 90 % less time (10x) with 16x16 tiles" at graph 0.02, first 10 offset 0,0.7 tc rgb "#606060"
set arrow 3 from graph 0, first 1 to graph 1, first 1 nohead lw 1.5 lc rgb "#000000"
set label 4 "solid line at 1x: naive (global memory)" at graph 0.98, first 1.6 right
$d0 << EOD
256 0.109718
512 0.0607039
1024 0.0509675
2048 0.04827
4096 0.0339638
EOD
$d1 << EOD
256 0.452135
512 0.303689
1024 0.2651
2048 0.253565
4096 0.238443
EOD
$d2 << EOD
256 0.935814
512 0.847569
1024 0.800506
2048 0.78327
4096 0.788194
EOD
$d3 << EOD
256 1.18772
512 1.20282
1024 1.17566
2048 1.1719
4096 1.18028
EOD
$d4 << EOD
256 0.93062
512 1.33013
1024 1.27767
2048 1.23891
4096 1.22438
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "tiled_2x2", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "tiled_4x4", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "tiled_8x8", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "tiled_16x16", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "tiled_32x32"

# memory-hierarchy-time.gp: figure 'time' of `tessel study memory-hierarchy` (000), data inline.
# Redraw it in this folder with: gnuplot memory-hierarchy-time.gp
if (!exists("outfile")) outfile = "memory-hierarchy-time.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Global memory (naive) against 16x16 local-memory tiles (000, section XI)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
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
256 0.013552
512 0.053328
1024 0.357696
2048 2.70626
4096 21.5762
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "naive", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "tiled_16x16"

# poisson-sweeps.gp: figure 'sweeps' of `tessel study poisson` (003), data inline.
# Redraw it in this folder with: gnuplot poisson-sweeps.gp
if (!exists("outfile")) outfile = "poisson-sweeps.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Jacobi sweeps per second against grid size (003, section 2.2)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "Jacobi sweeps per second"
set xlabel "grid points per side N (N x N grid)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (513, 1025, 2049, 4097, 8193)
set logscale y 10
set format y "%g"
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
513 174463
1025 131557
2049 47964.9
4097 13960.7
8193 3664.87
EOD
$d1 << EOD
513 142524
1025 113585
2049 49178.7
4097 13478.7
8193 3734.73
EOD
$d2 << EOD
513 247327
1025 221066
2049 81530.2
4097 27706
8193 7782.95
EOD
$d3 << EOD
513 442050
1025 332170
2049 117951
4097 37360.6
8193 10224.1
EOD
$d4 << EOD
513 623119
1025 376509
2049 126294
4097 36234.8
8193 9458.77
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "naive", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "local", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "temporal_2", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "temporal_4", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "temporal_8"

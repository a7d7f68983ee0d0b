# poisson-bandwidth.gp: figure 'bandwidth' of `tessel study poisson` (003), data inline.
# Redraw it in this folder with: gnuplot poisson-bandwidth.gp
if (!exists("outfile")) outfile = "poisson-bandwidth.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Jacobi effective bandwidth against the device's copy bandwidth\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "effective bandwidth (GB/s)"
set xlabel "grid points per side N (N x N grid)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (513, 1025, 2049, 4097, 8193)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
513 621.369
1025 1893.78
2049 3154.17
4097 3888.98
8193 4206.93
EOD
$d1 << EOD
513 548.102
1025 1654.29
2049 2413.37
4097 2810.2
8193 2951.1
EOD
$d2 << EOD
513 447.759
1025 1428.3
2049 2474.44
4097 2713.19
8193 3007.36
EOD
$d3 << EOD
513 777.013
1025 2779.85
2049 4102.21
4097 5577.05
8193 6267.13
EOD
$d4 << EOD
513 1388.76
1025 4176.94
2049 5934.73
4097 7520.45
8193 8232.83
EOD
$d5 << EOD
513 1957.62
1025 4734.49
2049 6354.53
4097 7293.83
8193 7616.56
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "copy", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "naive", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "local", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "temporal_2", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "temporal_4", \
  $d5 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#8c564b" pt 15 dt 1 title "temporal_8"

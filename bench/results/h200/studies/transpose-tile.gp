# transpose-tile.gp: figure 'tile' of `tessel study transpose` (001), data inline.
# Redraw it in this folder with: gnuplot transpose-tile.gp
if (!exists("outfile")) outfile = "transpose-tile.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Bandwidth against tile edge\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "effective bandwidth (GB/s)"
set xlabel "tile edge (elements)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (4, 8, 16, 32)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
4 3634.58
8 3568.1
16 3615.78
32 3682.44
EOD
$d1 << EOD
4 210.96
8 823.3
16 840.121
32 489.217
EOD
$d2 << EOD
4 211.109
8 822.413
16 2673.23
32 1599.05
EOD
$d3 << EOD
4 211.018
8 822.171
16 2793.41
32 3051.51
EOD
$d4 << EOD
4 211.156
8 822.977
16 2351.07
32 2762.14
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "copy", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "naive", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "coalesced", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "nobank", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "diagonal"

# transpose-size.gp: figure 'size' of `tessel study transpose` (001), data inline.
# Redraw it in this folder with: gnuplot transpose-size.gp
if (!exists("outfile")) outfile = "transpose-size.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Transpose bandwidth against matrix size (001)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "effective bandwidth (GB/s)"
set xlabel "matrix size n (n x n floats)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (1024, 2048, 4096, 8192, 16384, 1536, 3072, 6144, 12288)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
1024 1468.59
2048 3466.37
4096 3739.91
8192 4146.62
16384 4274.72
EOD
$d1 << EOD
1536 2504.56
3072 3322.95
6144 4022.67
12288 4207.16
EOD
$d2 << EOD
1024 410.884
2048 458.594
4096 489.075
8192 508.578
16384 507.251
EOD
$d3 << EOD
1536 462.97
3072 484.754
6144 488.745
12288 510.58
EOD
$d4 << EOD
1024 751.129
2048 1329.84
4096 1593.28
8192 1705.96
16384 1740.94
EOD
$d5 << EOD
1536 1138.66
3072 1474.56
6144 1674.74
12288 1729.45
EOD
$d6 << EOD
1024 1216.45
2048 2563.76
4096 3110.35
8192 3298.71
16384 3338.5
EOD
$d7 << EOD
1536 1969.36
3072 2864.96
6144 3253.08
12288 3335.73
EOD
$d8 << EOD
1024 1042.32
2048 2126.93
4096 2770.35
8192 2955.82
16384 2963.45
EOD
$d9 << EOD
1536 1747.63
3072 2560.28
6144 2910.47
12288 2973.98
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "copy, power-of-two n", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 2 title "copy, other n", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "naive, power-of-two n", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 2 title "naive, other n", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "coalesced, power-of-two n", \
  $d5 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 2 title "coalesced, other n", \
  $d6 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "nobank, power-of-two n", \
  $d7 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 2 title "nobank, other n", \
  $d8 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "diagonal, power-of-two n", \
  $d9 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 2 title "diagonal, other n"

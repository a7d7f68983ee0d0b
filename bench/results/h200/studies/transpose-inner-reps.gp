# transpose-inner-reps.gp: figure 'inner-reps' of `tessel study transpose` (001), data inline.
# Redraw it in this folder with: gnuplot transpose-inner-reps.gp
if (!exists("outfile")) outfile = "transpose-inner-reps.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Bandwidth against in-kernel repetitions (001's loop)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "effective bandwidth (GB/s)"
set xlabel "inner repetitions per launch R"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 10
set xtics (1, 2, 5, 10, 20, 50, 100, 200)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
1 3637.73
2 3661.55
5 3658.35
10 3705.22
20 3633
50 3622.02
100 3628.29
200 3642.47
EOD
$d1 << EOD
1 488.59
2 534.323
5 532.13
10 534.848
20 534.18
50 534.259
100 533.114
200 533.127
EOD
$d2 << EOD
1 1585.15
2 1718.8
5 1757.59
10 1798.39
20 1808.98
50 1815.46
100 1817.32
200 1818.39
EOD
$d3 << EOD
1 3051.51
2 4183.84
5 4534.87
10 4776.3
20 4851.01
50 4891.83
100 4907.31
200 4914.56
EOD
$d4 << EOD
1 2789.69
2 3688.11
5 4333.41
10 4632.54
20 4777.52
50 4865.5
100 4893.17
200 4908.58
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "copy", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "naive", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "coalesced", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "nobank", \
  $d4 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#9467bd" pt 13 dt 1 title "diagonal"

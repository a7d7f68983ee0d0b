# optimizations-pi-global.gp: figure 'pi-global' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-pi-global.gp
if (!exists("outfile")) outfile = "optimizations-pi-global.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Pi: speedup against the total number of work-items (002's figures 6-10)\nNVIDIA H100 80GB HBM3, tessel 0.1.0, full mode, 2026-11-25, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "speedup over the sequential host version (x)"
set xlabel "total work-items (global size)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (1024, 4608, 30720, 131072, 270336, 1048576, 4194304)
set logscale y 10
set format y "%g"
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
1024 100.005
4608 449.08
30720 2253.08
131072 2824.07
270336 2973.15
1048576 2955.82
4194304 2949.81
EOD
$d1 << EOD
1024 178.511
4608 801.312
30720 3474.63
131072 3940.34
270336 4106.59
1048576 4037.4
4194304 3913.21
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "multithread", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "optimized"

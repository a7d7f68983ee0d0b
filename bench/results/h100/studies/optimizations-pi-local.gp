# optimizations-pi-local.gp: figure 'pi-local' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-pi-local.gp
if (!exists("outfile")) outfile = "optimizations-pi-local.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Pi: speedup against the work-group size (002's figures 6-10)\nNVIDIA H100 80GB HBM3, tessel 0.1.0, full mode, 2026-11-25, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "speedup over the sequential host version (x)"
set xlabel "work-items per work-group (local size)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (32, 64, 128, 256)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
32 2974.64
64 2964.5
128 2973.77
256 2999.72
EOD
$d1 << EOD
32 4093.51
64 4100.19
128 4105.7
256 4119.01
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "multithread", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "optimized"

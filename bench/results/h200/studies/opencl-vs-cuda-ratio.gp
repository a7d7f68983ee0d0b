# opencl-vs-cuda-ratio.gp: figure 'ratio' of `tessel study opencl-vs-cuda` (000), data inline.
# Redraw it in this folder with: gnuplot opencl-vs-cuda-ratio.gp
if (!exists("outfile")) outfile = "opencl-vs-cuda-ratio.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "CUDA against OpenCL per kernel: OpenCL time / CUDA time\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "OpenCL time / CUDA time (above 1: CUDA faster)"
set xlabel "matrix size n (n x n x n, single precision)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096)
set yrange [0:*]
set key outside right top vertical Left reverse spacing 1.2 width 2
set yrange [0:1.5<*]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "#000000"
set label 2 "1: the same time" at graph 0.98, first 1 right offset 0,-1.6
$d0 << EOD
256 0.973282
512 0.998269
1024 0.983761
2048 1.00424
4096 1.00475
EOD
$d1 << EOD
256 1.01722
512 1.19429
1024 1.24062
2048 1.24631
4096 1.23584
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "cuda_naive", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "cuda_tiled"

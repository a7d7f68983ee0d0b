# opencl-vs-cuda-time.gp: figure 'time' of `tessel study opencl-vs-cuda` (000), data inline.
# Redraw it in this folder with: gnuplot opencl-vs-cuda-time.gp
if (!exists("outfile")) outfile = "opencl-vs-cuda-time.png"
set terminal pngcairo size 1100,680 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "OpenCL against CUDA C twins of the same kernels (000, section XII)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "kernel time (ms), median"
set xlabel "matrix size n (n x n x n, single precision)"
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096)
set logscale y 10
set format y "%g"
set key outside right top vertical Left reverse spacing 1.2 width 2
$d0 << EOD
256 0.01632
512 0.064576
1024 0.421632
2048 3.17053
4096 25.4866
EOD
$d1 << EOD
256 0.016768
512 0.064688
1024 0.428592
2048 3.15714
4096 25.3661
EOD
$d2 << EOD
256 0.013232
512 0.053504
1024 0.357776
2048 2.70645
4096 21.5755
EOD
$d3 << EOD
256 0.013008
512 0.0448
1024 0.288384
2048 2.17157
4096 17.4581
EOD
plot \
  $d0 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#1f77b4" pt 7 dt 1 title "naive", \
  $d1 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#d62728" pt 5 dt 1 title "cuda_naive", \
  $d2 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#2ca02c" pt 9 dt 1 title "tiled_16x16", \
  $d3 using 1:2 with linespoints lw 2 ps 1.3 lc rgb "#ff7f0e" pt 11 dt 1 title "cuda_tiled"

# optimizations-breakdown.gp: figure 'breakdown' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-breakdown.gp
if (!exists("outfile")) outfile = "optimizations-breakdown.png"
set terminal pngcairo size 1200,1000 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Time breakdown per variant, in percent of its total (002's figures 13-15)\nNVIDIA H100 80GB HBM3, tessel 0.1.0, full mode, 2026-11-25, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "share of the total time (%)"
unset title
set multiplot layout 2,2 margins 0.08,0.98,0.08,0.85 spacing 0.09,0.13 title "Time breakdown per variant, in percent of its total (002's figures 13-15)\nNVIDIA H100 80GB HBM3, tessel 0.1.0, full mode, 2026-11-25, single precision" font ",13"
set style fill solid 0.8 border rgb "#404040"
set xtics rotate by -35 left nomirror font ",10"
set grid noxtics ytics
set key off
set yrange [0:115]
set ytics 0, 20, 100
set object 10 rect from screen 0.040, screen 0.912 to screen 0.060, screen 0.932 fc rgb "#1f77b4" fillstyle solid 0.8 border rgb "#404040"
set label 10 "compile (build)" at screen 0.067, screen 0.922 left font ",11"
set object 11 rect from screen 0.280, screen 0.912 to screen 0.300, screen 0.932 fc rgb "#d62728" fillstyle solid 0.8 border rgb "#404040"
set label 11 "memory setup (upload)" at screen 0.307, screen 0.922 left font ",11"
set object 12 rect from screen 0.520, screen 0.912 to screen 0.540, screen 0.932 fc rgb "#2ca02c" fillstyle solid 0.8 border rgb "#404040"
set label 12 "execution (kernel)" at screen 0.547, screen 0.922 left font ",11"
set object 13 rect from screen 0.760, screen 0.912 to screen 0.780, screen 0.932 fc rgb "#ff7f0e" fillstyle solid 0.8 border rgb "#404040"
set label 13 "read-back (download)" at screen 0.787, screen 0.922 left font ",11"
set title "Pi"
set xtics ("original" 0, "multithread" 1, "float2" 2, "float4" 3, "float8" 4, "float16" 5, "optimized" 6)
set xrange [-0.7:6.7]
$d0 << EOD
0 0 60.4191 60.4191 60.4191 60.4191 99.9994 99.9994 100 233.751
1 0 82.3022 82.3022 82.3022 82.3022 99.3349 99.3349 100 3.56492
2 0 99.615 99.615 99.615 99.615 99.9837 99.9837 100 143.149
3 0 99.6913 99.6913 99.6913 99.6913 99.9855 99.9855 100 162.98
4 0 99.7781 99.7781 99.7781 99.7781 99.9886 99.9886 100 208.994
5 0 99.764 99.764 99.764 99.764 99.9876 99.9876 100 193.939
6 0 86.584 86.584 86.584 86.584 99.3121 99.3121 100 3.45652
EOD
plot \
  $d0 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile (build)", \
  $d0 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d0 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d0 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)", \
  $d0 using 1:(107):($10 >= 1000 ? sprintf("%.1f s", $10 / 1000) : sprintf("%.3g ms", $10)) with labels font ",9" notitle
unset object 10
unset label 10
unset object 11
unset label 11
unset object 12
unset label 12
unset object 13
unset label 13
set title "N-body"
set xtics ("original" 0, "local" 1, "optimized" 2)
set xrange [-0.7:2.7]
$d1 << EOD
0 0 93.4287 93.4287 93.4797 93.4797 99.9599 99.9599 100 103.093
1 0 94.9397 94.9397 94.9997 94.9997 99.9426 99.9426 100 72.431
2 0 96.0368 96.0368 96.0859 96.0859 99.9528 99.9528 100 88.064
EOD
plot \
  $d1 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile (build)", \
  $d1 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d1 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d1 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)", \
  $d1 using 1:(107):($10 >= 1000 ? sprintf("%.1f s", $10 / 1000) : sprintf("%.3g ms", $10)) with labels font ",9" notitle
set title "K-means"
set xtics ("original" 0, "unrolled" 1, "optimized" 2)
set xrange [-0.7:2.7]
$d2 << EOD
0 0 84.8058 84.8058 88.5552 88.5552 99.6506 99.6506 100 94.4586
1 0 97.2539 97.2539 98.2748 98.2748 99.8984 99.8984 100 226.506
2 0 95.7371 95.7371 97.2953 97.2953 99.8401 99.8401 100 152.296
EOD
plot \
  $d2 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile (build)", \
  $d2 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d2 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d2 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)", \
  $d2 using 1:(107):($10 >= 1000 ? sprintf("%.1f s", $10 / 1000) : sprintf("%.3g ms", $10)) with labels font ",9" notitle
set title "GEMM (against OpenBLAS)"
set xtics ("naive" 0, "tiled_16x16" 1, "regblock_4" 2, "tiled2d" 3)
set xrange [-0.7:3.7]
$d3 << EOD
0 0 91.3996 91.3996 96.2686 96.2686 98.7698 98.7698 100 126.026
1 0 24.7951 24.7951 70.1638 70.1638 89.33 89.33 100 14.0365
2 0 93.7979 93.7979 97.269 97.269 99.0595 99.0595 100 161.439
3 0 41.2542 41.2542 84.3714 84.3714 87.2228 87.2228 100 12.5777
EOD
plot \
  $d3 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile (build)", \
  $d3 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d3 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d3 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)", \
  $d3 using 1:(107):($10 >= 1000 ? sprintf("%.1f s", $10 / 1000) : sprintf("%.3g ms", $10)) with labels font ",9" notitle
unset multiplot

# optimizations-breakdown.gp: figure 'breakdown' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-breakdown.gp
if (!exists("outfile")) outfile = "optimizations-breakdown.png"
set terminal pngcairo size 1200,1000 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Time breakdown per variant, in percent of its total (002's figures 13-15)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-23, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "share of the total time (%)"
unset title
set multiplot layout 2,2 margins 0.08,0.98,0.08,0.85 spacing 0.09,0.13 title "Time breakdown per variant, in percent of its total (002's figures 13-15)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-23, single precision" font ",13"
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
0 0 90.1105 90.1105 90.1105 90.1105 99.9998 99.9998 100 942.629
1 0 80.8415 80.8415 80.8415 80.8415 98.9583 98.9583 100 3.37589
2 0 99.5475 99.5475 99.5475 99.5475 99.9688 99.9688 100 126.09
3 0 99.6492 99.6492 99.6492 99.6492 99.977 99.977 100 146.987
4 0 99.743 99.743 99.743 99.743 99.9795 99.9795 100 187.244
5 0 99.7366 99.7366 99.7366 99.7366 99.9781 99.9781 100 180.773
6 0 84.8262 84.8262 84.8262 84.8262 98.7792 98.7792 100 3.17431
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
0 0 92.8548 92.8548 92.9014 92.9014 99.9561 99.9561 100 94.348
1 0 94.7821 94.7821 94.8436 94.8436 99.9415 99.9415 100 70.665
2 0 96.0893 96.0893 96.1376 96.1376 99.9536 99.9536 100 89.8715
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
0 0 86.8125 86.8125 89.1939 89.1939 99.7028 99.7028 100 100.478
1 0 97.096 97.096 98.1826 98.1826 99.8867 99.8867 100 217.672
2 0 95.9095 95.9095 97.3909 97.3909 99.8507 99.8507 100 158.457
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
0 0 88.8526 88.8526 94.9457 94.9457 98.6357 98.6357 100 85.983
1 0 90.2807 90.2807 95.1592 95.1592 98.4543 98.4543 100 82.2007
2 0 92.3722 92.3722 96.4791 96.4791 98.9249 98.9249 100 111.384
3 0 98.7822 98.7822 99.6368 99.6368 99.7402 99.7402 100 463.641
EOD
plot \
  $d3 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile (build)", \
  $d3 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d3 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d3 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)", \
  $d3 using 1:(107):($10 >= 1000 ? sprintf("%.1f s", $10 / 1000) : sprintf("%.3g ms", $10)) with labels font ",9" notitle
unset multiplot

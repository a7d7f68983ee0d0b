# optimizations-breakdown.gp: figure 'breakdown' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-breakdown.gp
if (!exists("outfile")) outfile = "optimizations-breakdown.png"
set terminal pngcairo size 1200,1000 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Time breakdown per variant (002's figures 13-15)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "time (ms)"
unset title
set multiplot layout 2,2 margins 0.08,0.98,0.08,0.85 spacing 0.09,0.13 title "Time breakdown per variant (002's figures 13-15)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision" font ",13"
set style fill solid 0.8 border rgb "#404040"
set xtics rotate by -35 left nomirror font ",10"
set grid noxtics ytics
set yrange [0:*]
set key off
set object 10 rect from screen 0.040, screen 0.912 to screen 0.060, screen 0.932 fc rgb "#1f77b4" fillstyle solid 0.8 border rgb "#404040"
set label 10 "compile / cache load" at screen 0.067, screen 0.922 left font ",11"
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
0 0 72.5861 72.5861 72.5861 72.5861 165.791 165.791 165.792
1 0 0 0 0 0 0.609312 0.609312 0.640544
2 0 78.4029 78.4029 78.4029 78.4029 78.9321 78.9321 78.9654
3 0 85.1443 85.1443 85.1443 85.1443 85.624 85.624 85.6572
4 0 105.471 105.471 105.471 105.471 105.912 105.912 105.944
5 0 99.4 99.4 99.4 99.4 99.8344 99.8344 99.8661
6 0 0 0 0 0 0.440544 0.440544 0.472992
EOD
plot \
  $d0 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile / cache load", \
  $d0 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d0 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d0 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)"
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
0 0 50.1476 50.1476 50.1912 50.1912 56.8374 56.8374 56.8788
1 0 51.5838 51.5838 51.6269 51.6269 55.2422 55.2422 55.2836
2 0 55.9642 55.9642 56.0076 56.0076 59.4411 59.4411 59.4825
EOD
plot \
  $d1 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile / cache load", \
  $d1 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d1 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d1 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)"
set title "K-means"
set xtics ("original" 0, "unrolled" 1, "optimized" 2)
set xrange [-0.7:2.7]
$d2 << EOD
0 0 61.3898 61.3898 62.5095 62.5095 73.0534 73.0534 73.238
1 0 116.728 116.728 117.65 117.65 121.35 121.35 121.544
2 0 79.7612 79.7612 80.6954 80.6954 84.5883 84.5883 84.7857
EOD
plot \
  $d2 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile / cache load", \
  $d2 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d2 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d2 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)"
set title "GEMM (against OpenBLAS)"
set xtics ("naive" 0, "tiled_16x16" 1, "regblock_4" 2, "tiled2d" 3)
set xrange [-0.7:3.7]
$d3 << EOD
0 0 0.198079 0.198079 3.88608 3.88608 7.05618 7.05618 7.9764
1 0 0.095904 0.095904 3.43152 3.43152 6.13766 6.13766 7.07603
2 0 69.6046 69.6046 72.8238 72.8238 75.5549 75.5549 76.4915
3 0 0.466922 0.466922 3.73492 3.73492 4.22918 4.22918 5.17238
EOD
plot \
  $d3 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile / cache load", \
  $d3 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d3 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d3 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)"
unset multiplot

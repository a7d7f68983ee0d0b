# optimizations-breakdown.gp: figure 'breakdown' of `tessel study optimizations` (002), data inline.
# Redraw it in this folder with: gnuplot optimizations-breakdown.gp
if (!exists("outfile")) outfile = "optimizations-breakdown.png"
set terminal pngcairo size 1200,1000 noenhanced font "DejaVu Sans,12"
set output outfile
set encoding utf8
set title "Time breakdown per variant, in percent of its total (002's figures 13-15)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision"
set grid lc rgb "#d0d0d0"
set border lw 1.2
set ylabel "share of the total time (%)"
unset title
set multiplot layout 2,2 margins 0.08,0.98,0.08,0.85 spacing 0.09,0.13 title "Time breakdown per variant, in percent of its total (002's figures 13-15)\nNVIDIA H200, tessel 0.1.0, full mode, 2026-11-21, single precision" font ",13"
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
0 0 43.7814 43.7814 43.7814 43.7814 99.9991 99.9991 100 165.792
1 0 0 0 0 0 95.1241 95.1241 100 0.640544
2 0 99.2877 99.2877 99.2877 99.2877 99.9578 99.9578 100 78.9654
3 0 99.4012 99.4012 99.4012 99.4012 99.9613 99.9613 100 85.6572
4 0 99.5535 99.5535 99.5535 99.5535 99.9693 99.9693 100 105.944
5 0 99.5333 99.5333 99.5333 99.5333 99.9682 99.9682 100 99.8661
6 0 0 0 0 0 93.1398 93.1398 100 0.472992
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
0 0 88.1658 88.1658 88.2423 88.2423 99.9272 99.9272 100 56.8788
1 0 93.3076 93.3076 93.3857 93.3857 99.9251 99.9251 100 55.2836
2 0 94.0851 94.0851 94.158 94.158 99.9304 99.9304 100 59.4825
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
0 0 83.8223 83.8223 85.3511 85.3511 99.748 99.748 100 73.238
1 0 96.0376 96.0376 96.7964 96.7964 99.8406 99.8406 100 121.544
2 0 94.0738 94.0738 95.1757 95.1757 99.7672 99.7672 100 84.7857
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
0 0 2.48331 2.48331 48.7197 48.7197 88.4632 88.4632 100 7.9764
1 0 1.35534 1.35534 48.495 48.495 86.7388 86.7388 100 7.07603
2 0 90.9965 90.9965 95.2051 95.2051 98.7755 98.7755 100 76.4915
3 0 9.02722 9.02722 72.209 72.209 81.7647 81.7647 100 5.17238
EOD
plot \
  $d3 using 1:3:($1-0.35):($1+0.35):2:3 with boxxyerror lc rgb "#1f77b4" title "compile (build)", \
  $d3 using 1:5:($1-0.35):($1+0.35):4:5 with boxxyerror lc rgb "#d62728" title "memory setup (upload)", \
  $d3 using 1:7:($1-0.35):($1+0.35):6:7 with boxxyerror lc rgb "#2ca02c" title "execution (kernel)", \
  $d3 using 1:9:($1-0.35):($1+0.35):8:9 with boxxyerror lc rgb "#ff7f0e" title "read-back (download)", \
  $d3 using 1:(107):($10 >= 1000 ? sprintf("%.1f s", $10 / 1000) : sprintf("%.3g ms", $10)) with labels font ",9" notitle
unset multiplot

/* plot.c: the gnuplot script of one study figure (study.h). Each script is self-contained: the
 * points sit in inline data blocks, so `gnuplot NAME-FIG.gp` in the output folder redraws the PNG
 * with no other file, and a reader can edit the script to restyle it. Three kinds of figure:
 * lines (y against x, a colour per series, a dash type per sweep), bars (grouped by sweep, from a
 * base such as speedup 1, so a slowdown hangs below the line) and stacked bars (one panel per
 * sweep, the time breakdown of 002's figures 13-15, in time or in percent of each bar's total).
 * Text is drawn without gnuplot's enhanced mode, so variant names such as tiled_16x16 print as
 * they are spelled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"

#define MAX_ITEMS 64
#define MAX_POINTS 256

/* Colours a reader can tell apart (Tableau 10, then black and a light blue), and point types. */
static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                      "#bcbd22", "#17becf", "#000000", "#6baed6"};
#define NCOLOURS (sizeof colours / sizeof colours[0])
static const int point_types[] = {7, 5, 9, 11, 13, 15, 4, 6, 8, 10, 12, 14};
static const int dash_types[] = {1, 2, 3, 4, 5};

typedef struct {
    char buf[1024];
    const char *v[MAX_ITEMS];
    size_t n;
} name_list;

static void split_list(const char *s, name_list *l)
{
    l->n = 0;
    if (!s) return;
    snprintf(l->buf, sizeof l->buf, "%s", s);
    for (char *p = l->buf; *p && l->n < MAX_ITEMS;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (*p) l->v[l->n++] = p;
        if (!comma) break;
        p = comma + 1;
    }
}

static int in_list(const name_list *l, const char *s)
{
    for (size_t i = 0; i < l->n; ++i)
        if (strcmp(l->v[i], s) == 0) return 1;
    return 0;
}

/* A gnuplot double-quoted string. */
static void gp_string(FILE *gp, const char *s)
{
    fputc('"', gp);
    for (; *s; ++s) {
        if (*s == '\n') {
            fputs("\\n", gp);
            continue;
        }
        if (*s == '"' || *s == '\\') fputc('\\', gp);
        fputc(*s, gp);
    }
    fputc('"', gp);
}

/* The series drawn: the figure's list, or every series of the figure's sweeps in order of first
 * appearance; minus the excluded ones. */
static void figure_series(const study_figure *f, const study_table *t, const name_list *sweeps,
                          name_list *out)
{
    name_list excl;
    split_list(f->exclude, &excl);
    if (f->series) {
        name_list all;
        split_list(f->series, &all);
        out->n = 0;
        size_t used = 0;
        for (size_t i = 0; i < all.n; ++i) {
            if (in_list(&excl, all.v[i])) continue;
            size_t len = strlen(all.v[i]) + 1;
            if (used + len > sizeof out->buf || out->n == MAX_ITEMS) break;
            memcpy(out->buf + used, all.v[i], len);
            out->v[out->n++] = out->buf + used;
            used += len;
        }
        return;
    }
    out->n = 0;
    size_t used = 0;
    for (size_t r = 0; r < t->nrows; ++r) {
        if (!in_list(sweeps, study_get(t, r, "sweep"))) continue;
        const char *s = study_get(t, r, "series");
        if (in_list(&excl, s) || in_list(out, s)) continue;
        size_t len = strlen(s) + 1;
        if (used + len > sizeof out->buf || out->n == MAX_ITEMS) break;
        memcpy(out->buf + used, s, len);
        out->v[out->n++] = out->buf + used;
        used += len;
    }
}

/* The series of one sweep for a bar figure: the figure's own list in its order, or else the
 * sweep's series in the order of its rows, so each group reads as its command listed them. */
static void sweep_series(const study_figure *f, const study_table *t, const char *sweep,
                         const name_list *series, name_list *out)
{
    out->n = 0;
    size_t used = 0;
    for (size_t i = 0; i < (f->series ? series->n : t->nrows); ++i) {
        const char *s = f->series ? series->v[i] : study_get(t, i, "series");
        if (!f->series && strcmp(study_get(t, i, "sweep"), sweep) != 0) continue;
        if (!in_list(series, s) || in_list(out, s)) continue;
        if (f->series && study_find(t, sweep, s, NAN) < 0) continue;
        size_t len = strlen(s) + 1;
        if (used + len > sizeof out->buf || out->n == MAX_ITEMS) break;
        memcpy(out->buf + used, s, len);
        out->v[out->n++] = out->buf + used;
        used += len;
    }
}

typedef struct {
    double x, y;
} point;

static int cmp_point(const void *a, const void *b)
{
    double x = ((const point *)a)->x, y = ((const point *)b)->x;
    return (x > y) - (x < y);
}

/* The finite points of (sweep, series) for column y, sorted by x; for log axes only the positive
 * ones. Returns the count. */
static size_t gather(const study_table *t, const char *sweep, const char *series, const char *y,
                     int logx, point *p)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows && n < MAX_POINTS; ++r) {
        if (strcmp(study_get(t, r, "sweep"), sweep) != 0 ||
            strcmp(study_get(t, r, "series"), series) != 0)
            continue;
        double xv = study_num(t, r, "x"), yv = study_num(t, r, y);
        if (!isfinite(xv) || !isfinite(yv) || (logx && xv <= 0)) continue;
        p[n].x = xv;
        p[n].y = yv;
        ++n;
    }
    qsort(p, n, sizeof *p, cmp_point);
    return n;
}

/* The value of y in the first row of (sweep, series), NaN if none or not finite. */
static double bar_value(const study_table *t, const char *sweep, const char *series, const char *y)
{
    long r = study_find(t, sweep, series, NAN);
    for (; r >= 0 && (size_t)r < t->nrows; ++r) {
        if (strcmp(study_get(t, (size_t)r, "sweep"), sweep) != 0 ||
            strcmp(study_get(t, (size_t)r, "series"), series) != 0)
            continue;
        double v = study_num(t, (size_t)r, y);
        if (isfinite(v)) return v;
    }
    return NAN;
}

static void header(FILE *gp, const study_def *s, const study_figure *f, const char *png,
                   const char *subtitle, int width, int height)
{
    fprintf(gp,
            "# %s-%s.gp: figure '%s' of `tessel study %s` (%s), data inline.\n"
            "# Redraw it in this folder with: gnuplot %s-%s.gp\n",
            s->name, f->name, f->name, s->name, s->source, s->name, f->name);
    fputs("if (!exists(\"outfile\")) outfile = ", gp);
    gp_string(gp, png);
    fprintf(gp,
            "\nset terminal pngcairo size %d,%d noenhanced font \"DejaVu Sans,12\"\n"
            "set output outfile\n"
            "set encoding utf8\n",
            width, height);
    char title[640];
    snprintf(title, sizeof title, "%s\n%s", f->title, subtitle);
    fputs("set title ", gp);
    gp_string(gp, title);
    fputs("\nset grid lc rgb \"#d0d0d0\"\nset border lw 1.2\n", gp);
    if (f->ylabel) {
        fputs("set ylabel ", gp);
        gp_string(gp, f->ylabel);
        fputc('\n', gp);
    }
}

/* Lines: one per (series, sweep) with points. */
static size_t plot_lines(FILE *gp, const study_def *s, const study_figure *f, const study_table *t,
                         const name_list *sweeps, const name_list *series, const char *png,
                         const char *subtitle, int write)
{
    name_list stitles;
    split_list(f->sweep_titles, &stitles);
    point p[MAX_POINTS];
    size_t total = 0;
    double ymin = INFINITY, ymax = -INFINITY;
    char missing[512] = "";
    for (size_t j = 0; j < series->n; ++j) {
        size_t found = 0;
        for (size_t i = 0; i < sweeps->n; ++i) {
            size_t n = gather(t, sweeps->v[i], series->v[j], f->y, f->logx, p);
            for (size_t k = 0; k < n; ++k) {
                if (p[k].y > 0 && p[k].y < ymin) ymin = p[k].y;
                if (p[k].y > ymax) ymax = p[k].y;
            }
            found += n;
        }
        if (!found) {
            size_t used = strlen(missing);
            snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", series->v[j]);
        }
        total += found;
    }
    if (!write || total == 0) return total;
    int logy = f->logy > 0 || (f->logy < 0 && ymin > 0 && ymax / ymin > 20.0);
    header(gp, s, f, png, subtitle, 1100, 680);
    fputs("set xlabel ", gp);
    gp_string(gp, f->xlabel ? f->xlabel : "x");
    fputc('\n', gp);
    /* The x range is the data's, padded a little so end points do not sit on the border; the
     * tics sit on the measured x values when there are few of them. */
    fputs("set autoscale xfix\nset offsets graph 0.04, graph 0.04, 0, 0\n", gp);
    if (f->logx) fprintf(gp, "set logscale x %d\n", f->logx);
    double xs[16];
    size_t nx = 0;
    int few = 1;
    for (size_t j = 0; j < series->n && few; ++j)
        for (size_t i = 0; i < sweeps->n && few; ++i) {
            size_t n = gather(t, sweeps->v[i], series->v[j], f->y, f->logx, p);
            for (size_t k = 0; k < n && few; ++k) {
                size_t q = 0;
                while (q < nx && xs[q] != p[k].x)
                    ++q;
                if (q == nx) {
                    if (nx == 16)
                        few = 0;
                    else
                        xs[nx++] = p[k].x;
                }
            }
        }
    if (few && nx > 0) {
        fputs("set xtics (", gp);
        for (size_t q = 0; q < nx; ++q)
            fprintf(gp, "%s%.9g", q ? ", " : "", xs[q]);
        fputs(")\n", gp);
    }
    if (logy)
        fputs("set logscale y 10\nset format y \"%g\"\n", gp);
    else if (ymin >= 0 && isfinite(ymin))
        fputs("set yrange [0:*]\n", gp); /* a linear axis of speeds starts at 0 */
    fputs("set key outside right top vertical Left reverse spacing 1.2 width 2\n", gp);
    if (missing[0]) {
        char text[640];
        snprintf(text, sizeof text, "not measured here:\n%s\n(see %s.md)", missing, s->name);
        fputs("set label 1 ", gp);
        gp_string(gp, text);
        fputs(" at graph 1.03, graph 0.12 left font \",10\" tc rgb \"#a00000\"\n", gp);
    }
    if (f->gp) fprintf(gp, "%s\n", f->gp);
    /* Data blocks, then one plot command. */
    size_t block = 0;
    for (size_t j = 0; j < series->n; ++j)
        for (size_t i = 0; i < sweeps->n; ++i) {
            size_t n = gather(t, sweeps->v[i], series->v[j], f->y, f->logx, p);
            if (!n) continue;
            fprintf(gp, "$d%zu << EOD\n", block++);
            for (size_t k = 0; k < n; ++k)
                fprintf(gp, "%.9g %.9g\n", p[k].x, p[k].y);
            fputs("EOD\n", gp);
        }
    fputs("plot \\\n", gp);
    block = 0;
    int first = 1;
    for (size_t j = 0; j < series->n; ++j)
        for (size_t i = 0; i < sweeps->n; ++i) {
            if (!gather(t, sweeps->v[i], series->v[j], f->y, f->logx, p)) continue;
            char title[256];
            if (sweeps->n > 1)
                snprintf(title, sizeof title, "%s, %s", series->v[j],
                         i < stitles.n ? stitles.v[i] : sweeps->v[i]);
            else
                snprintf(title, sizeof title, "%s", series->v[j]);
            fprintf(
                gp,
                "%s  $d%zu using 1:2 with linespoints lw 2 ps 1.3 lc rgb \"%s\" pt %d dt %d title ",
                first ? "" : ", \\\n", block++, colours[j % NCOLOURS],
                point_types[j % (sizeof point_types / sizeof point_types[0])],
                dash_types[i % (sizeof dash_types / sizeof dash_types[0])]);
            gp_string(gp, title);
            first = 0;
        }
    fputc('\n', gp);
    return total;
}

/* Bars: a group per sweep, a bar per series present in it, coloured by group, with the value
 * printed beyond the bar's end. */
static size_t plot_bars(FILE *gp, const study_def *s, const study_figure *f, const study_table *t,
                        const name_list *sweeps, const name_list *series, const char *png,
                        const char *subtitle, int write)
{
    name_list stitles, group;
    split_list(f->sweep_titles, &stitles);
    size_t total = 0;
    double ymin = INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < sweeps->n; ++i) {
        sweep_series(f, t, sweeps->v[i], series, &group);
        for (size_t j = 0; j < group.n; ++j) {
            double v = bar_value(t, sweeps->v[i], group.v[j], f->y);
            if (!isfinite(v) || (f->logy && v <= 0)) continue;
            ++total;
            if (v < ymin) ymin = v;
            if (v > ymax) ymax = v;
        }
    }
    if (!write || total == 0) return total;
    int logy = f->logy > 0 || (f->logy < 0 && ymin > 0 && ymax / ymin > 20.0);
    header(gp, s, f, png, subtitle, 1100, 700);
    if (f->xlabel) {
        fputs("set xlabel ", gp);
        gp_string(gp, f->xlabel);
        fputc('\n', gp);
    }
    double lo = fmin(ymin, f->bar_base), hi = fmax(ymax, f->bar_base);
    if (logy)
        fprintf(gp, "set logscale y 10\nset format y \"%%g\"\nset yrange [%.6g:%.6g]\n", lo / 2.5,
                hi * 2.5);
    else
        fprintf(gp, "set yrange [%.6g:%.6g]\n", lo < 0 ? lo * 1.15 : 0.0, hi * 1.15);
    fputs("set key outside right top vertical Left reverse\n"
          "set xtics rotate by -40 left nomirror font \",11\"\n"
          "set grid noxtics ytics\n"
          "set bmargin 8\n",
          gp);
    if (f->gp) fprintf(gp, "%s\n", f->gp);
    /* x positions: bars one apart, a gap of one between groups; the tic labels are the series. */
    double x = 0;
    fputs("set xtics (", gp);
    int first = 1;
    for (size_t i = 0; i < sweeps->n; ++i) {
        sweep_series(f, t, sweeps->v[i], series, &group);
        for (size_t j = 0; j < group.n; ++j) {
            if (!isfinite(bar_value(t, sweeps->v[i], group.v[j], f->y))) continue;
            fputs(first ? "" : ", ", gp);
            gp_string(gp, group.v[j]);
            fprintf(gp, " %g", x);
            x += 1;
            first = 0;
        }
        x += 1;
    }
    fprintf(gp, ")\nset xrange [-1:%g]\n", x - 1);
    x = 0;
    size_t block = 0;
    for (size_t i = 0; i < sweeps->n; ++i) {
        sweep_series(f, t, sweeps->v[i], series, &group);
        int any = 0;
        for (size_t j = 0; j < group.n; ++j) {
            double v = bar_value(t, sweeps->v[i], group.v[j], f->y);
            if (!isfinite(v)) continue;
            if (!any) fprintf(gp, "$d%zu << EOD\n", block);
            any = 1;
            /* the label sits just beyond the bar's end, on the side away from the base */
            int up = v >= f->bar_base;
            double label = logy ? (up ? v * 1.35 : v / 1.35) : v + (up ? 1 : -1) * 0.04 * (hi - lo);
            fprintf(gp, "%g %.6g %.6g\n", x, v, label);
            x += 1;
        }
        if (any) {
            fputs("EOD\n", gp);
            ++block;
        }
        x += 1;
    }
    fputs("plot \\\n", gp);
    block = 0;
    for (size_t i = 0; i < sweeps->n; ++i) {
        sweep_series(f, t, sweeps->v[i], series, &group);
        int any = 0;
        for (size_t j = 0; j < group.n; ++j)
            if (isfinite(bar_value(t, sweeps->v[i], group.v[j], f->y))) any = 1;
        if (!any) continue;
        fprintf(gp,
                "%s  $d%zu using 1:2:($1-0.4):($1+0.4):(%.6g):2 with boxxyerror fs solid 0.75 "
                "lc rgb \"%s\" title ",
                block ? ", \\\n" : "", block, f->bar_base, colours[i % NCOLOURS]);
        gp_string(gp, i < stitles.n ? stitles.v[i] : sweeps->v[i]);
        fprintf(gp,
                ", \\\n  $d%zu using 1:3:(abs($2) >= 1000 ? sprintf(\"%%.1fk\", $2 / 1000) : "
                "sprintf(abs($2) < 1 ? \"%%.2g\" : \"%%.3g\", $2)) "
                "with labels font \",10\" "
                "notitle",
                block);
        ++block;
    }
    fputc('\n', gp);
    return total;
}

/* Stacked bars: one panel per sweep, a bar per series, the y columns stacked bottom first; in
 * percent (STUDY_FIG_STACKED_PERCENT) each bar is its parts' share of its total, and the total
 * itself is printed above the bar, so the absolute time is still there to read. */
static size_t plot_stacked(FILE *gp, const study_def *s, const study_figure *f,
                           const study_table *t, const name_list *sweeps, const name_list *series,
                           const char *png, const char *subtitle, int write)
{
    name_list ys, ytitles, stitles, group;
    split_list(f->y, &ys);
    split_list(f->y_titles, &ytitles);
    split_list(f->sweep_titles, &stitles);
    size_t total = 0, panels = 0;
    for (size_t i = 0; i < sweeps->n; ++i) {
        sweep_series(f, t, sweeps->v[i], series, &group);
        size_t bars = 0;
        for (size_t j = 0; j < group.n; ++j)
            if (isfinite(bar_value(t, sweeps->v[i], group.v[j], ys.v[0]))) ++bars;
        total += bars;
        panels += bars > 0;
    }
    if (!write || total == 0) return total;
    const int percent = f->kind == STUDY_FIG_STACKED_PERCENT;
    size_t cols = panels > 2 ? 2 : panels, rows = (panels + cols - 1) / cols;
    header(gp, s, f, png, subtitle, 1200, rows > 1 ? 1000 : 620);
    fputs("unset title\n", gp); /* the multiplot carries the title */
    char title[640];
    snprintf(title, sizeof title, "%s\n%s", f->title, subtitle);
    /* The panels leave a band under the title for the one legend. */
    fprintf(gp, "set multiplot layout %zu,%zu margins 0.08,0.98,%.2f,%.2f spacing 0.09,%.2f title ",
            rows, cols, rows > 1 ? 0.08 : 0.16, rows > 1 ? 0.855 : 0.74, rows > 1 ? 0.13 : 0.1);
    gp_string(gp, title);
    fputs(" font \",13\"\n"
          "set style fill solid 0.8 border rgb \"#404040\"\n"
          "set xtics rotate by -35 left nomirror font \",10\"\n"
          "set grid noxtics ytics\n"
          "set key off\n",
          gp);
    fputs(percent ? "set yrange [0:115]\nset ytics 0, 20, 100\n" : "set yrange [0:*]\n", gp);
    /* One legend for every panel, in a row under the title: a box and a label per y column. */
    double y0 = rows > 1 ? 0.922 : 0.855, step = 0.96 / (double)(ys.n ? ys.n : 1);
    for (size_t k = 0; k < ys.n; ++k) {
        double x0 = 0.04 + step * (double)k;
        fprintf(gp,
                "set object %zu rect from screen %.3f, screen %.3f to screen %.3f, screen %.3f "
                "fc rgb \"%s\" fillstyle solid 0.8 border rgb \"#404040\"\n",
                k + 10, x0, y0 - 0.01, x0 + 0.02, y0 + 0.01, colours[k % NCOLOURS]);
        fprintf(gp, "set label %zu ", k + 10);
        gp_string(gp, k < ytitles.n ? ytitles.v[k] : ys.v[k]);
        fprintf(gp, " at screen %.3f, screen %.3f left font \",11\"\n", x0 + 0.027, y0);
    }
    if (f->gp) fprintf(gp, "%s\n", f->gp);
    size_t block = 0;
    for (size_t i = 0; i < sweeps->n; ++i) {
        sweep_series(f, t, sweeps->v[i], series, &group);
        size_t nb = 0;
        for (size_t j = 0; j < group.n; ++j)
            if (isfinite(bar_value(t, sweeps->v[i], group.v[j], ys.v[0]))) ++nb;
        if (!nb) continue;
        fputs("set title ", gp);
        gp_string(gp, i < stitles.n ? stitles.v[i] : sweeps->v[i]);
        fputs("\nset xtics (", gp);
        size_t b = 0;
        for (size_t j = 0; j < group.n; ++j) {
            if (!isfinite(bar_value(t, sweeps->v[i], group.v[j], ys.v[0]))) continue;
            fputs(b ? ", " : "", gp);
            gp_string(gp, group.v[j]);
            fprintf(gp, " %zu", b++);
        }
        fprintf(gp, ")\nset xrange [-0.7:%g]\n", (double)nb - 0.3);
        /* One block per panel: x, then the low and high end of each segment. */
        fprintf(gp, "$d%zu << EOD\n", block);
        b = 0;
        for (size_t j = 0; j < group.n; ++j) {
            if (!isfinite(bar_value(t, sweeps->v[i], group.v[j], ys.v[0]))) continue;
            double cum = 0, sum = 0;
            for (size_t k = 0; k < ys.n; ++k) {
                double v = bar_value(t, sweeps->v[i], group.v[j], ys.v[k]);
                if (isfinite(v) && v > 0) sum += v;
            }
            double scale = percent && sum > 0 ? 100.0 / sum : 1.0;
            fprintf(gp, "%zu", b++);
            for (size_t k = 0; k < ys.n; ++k) {
                double v = bar_value(t, sweeps->v[i], group.v[j], ys.v[k]);
                if (!isfinite(v) || v < 0) v = 0;
                fprintf(gp, " %.6g %.6g", cum, cum + v * scale);
                cum += v * scale;
            }
            fprintf(gp, " %.6g\n", sum); /* the bar's total, for the label above it */
        }
        fputs("EOD\n", gp);
        fputs("plot \\\n", gp);
        for (size_t k = 0; k < ys.n; ++k) {
            fprintf(gp,
                    "%s  $d%zu using 1:%zu:($1-0.35):($1+0.35):%zu:%zu with boxxyerror "
                    "lc rgb \"%s\" title ",
                    k ? ", \\\n" : "", block, 3 + 2 * k, 2 + 2 * k, 3 + 2 * k,
                    colours[k % NCOLOURS]);
            gp_string(gp, k < ytitles.n ? ytitles.v[k] : ys.v[k]);
        }
        if (percent)
            fprintf(gp,
                    ", \\\n  $d%zu using 1:(%g):($%zu >= 1000 ? sprintf(\"%%.1f s\", $%zu / 1000) "
                    ": sprintf(\"%%.3g ms\", $%zu)) with labels font \",9\" notitle",
                    block, 100.0 + 7.0, 2 + 2 * ys.n, 2 + 2 * ys.n, 2 + 2 * ys.n);
        fputc('\n', gp);
        if (block == 0) /* the legend is on the canvas now: the next panels do not redraw it */
            for (size_t k = 0; k < ys.n; ++k)
                fprintf(gp, "unset object %zu\nunset label %zu\n", k + 10, k + 10);
        ++block;
    }
    fputs("unset multiplot\n", gp);
    return total;
}

size_t study_plot_script(FILE *gp, const study_def *s, const study_figure *f, const study_table *t,
                         const char *png, const char *subtitle)
{
    name_list sweeps, series;
    split_list(f->sweeps, &sweeps);
    figure_series(f, t, &sweeps, &series);
    /* When every measured row drawn has one precision, the title says which. */
    const char *precision = NULL;
    int mixed = 0;
    for (size_t r = 0; r < t->nrows; ++r) {
        if (!in_list(&sweeps, study_get(t, r, "sweep")) ||
            strcmp(study_get(t, r, "status"), "ok") != 0)
            continue;
        const char *p = study_get(t, r, "precision");
        if (!precision)
            precision = p;
        else if (strcmp(precision, p) != 0)
            mixed = 1;
    }
    char full_subtitle[600];
    if (precision && precision[0] && !mixed)
        snprintf(full_subtitle, sizeof full_subtitle, "%s, %s precision", subtitle, precision);
    else
        snprintf(full_subtitle, sizeof full_subtitle, "%s", subtitle);
    subtitle = full_subtitle;
    size_t (*draw)(FILE *, const study_def *, const study_figure *, const study_table *,
                   const name_list *, const name_list *, const char *, const char *, int) =
        f->kind == STUDY_FIG_BARS                                              ? plot_bars
        : f->kind == STUDY_FIG_STACKED || f->kind == STUDY_FIG_STACKED_PERCENT ? plot_stacked
                                                                               : plot_lines;
    /* A dry pass first: a figure with nothing to draw writes nothing. */
    if (draw(gp, s, f, t, &sweeps, &series, png, subtitle, 0) == 0) return 0;
    return draw(gp, s, f, t, &sweeps, &series, png, subtitle, 1);
}

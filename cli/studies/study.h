/* study.h: what a study of `tessel study` is, shared by the study definitions (study_*.c), the
 * row table (table.c), the figure writer (plot.c) and the command (cli/cmd_study.c). A study is
 * data plus a little code: parameters with one value per mode (--smoke, default, --full), runs of
 * tessel's own subcommands whose CSV rows are read back, figures drawn from those rows, and three
 * small hooks: setup (skip what the device or the build cannot run), derive (columns computed from
 * the measured ones, such as a speedup) and summary (the markdown table and the paragraph that
 * compares the result with the source document's claim). Every measured number in a study is a
 * number the user would get from running the subcommand by hand. */
#ifndef TESSEL_STUDY_H
#define TESSEL_STUDY_H

#include <stddef.h>
#include <stdio.h>

#include "tessel.h"

typedef enum { STUDY_SMOKE = 0, STUDY_DEFAULT = 1, STUDY_FULL = 2 } study_mode;
#define STUDY_NMODES 3
#define STUDY_MAX_PARAMS 16
#define STUDY_MAX_RUNS 32
#define STUDY_MAX_COLS 40

/* ---- the row table ------------------------------------------------------------------------- */

/* Rows of text cells under named columns: the study's CSV as it will be written. The first columns
 * are study,sweep,series,x, then the CSV columns of docs/design.md, then the study's own, then
 * note. */
typedef struct {
    size_t ncols;
    char *col[STUDY_MAX_COLS];
    char ***row; /* row[r][c], never NULL cells ("" when empty) */
    size_t nrows, cap;
} study_table;

int study_table_init(study_table *t, const char *columns); /* comma list; 0 or -1 (no memory) */
void study_table_free(study_table *t);
int study_col(const study_table *t, const char *name); /* index, or -1 */
/* Appends an empty row; its index, or -1 when out of memory. */
long study_add_row(study_table *t);
/* Sets a cell (copied); -1 when out of memory or no such column. */
int study_set(study_table *t, size_t r, const char *col, const char *value);
int study_set_num(study_table *t, size_t r, const char *col, double v); /* NaN: empty */
const char *study_get(const study_table *t, size_t r, const char *col); /* "" when empty */
double study_num(const study_table *t, size_t r, const char *col);      /* NaN when empty */
/* The row of sweep and series whose x equals x (NaN: any x), first match; -1 if none. */
long study_find(const study_table *t, const char *sweep, const char *series, double x);
/* Writes the table as CSV (header first; cells quoted where needed). */
void study_write_csv(const study_table *t, FILE *f);
/* Reads a CSV file written by a tessel subcommand: header line, then rows. For each data row,
 * calls add(ctx, names, values, n) with the header names and the row's cells. 0, or -1 with errno
 * (a malformed file sets EINVAL). */
int study_read_csv(const char *path, int (*add)(void *ctx, char **names, char **values, size_t n),
                   void *ctx);

/* ---- study definitions --------------------------------------------------------------------- */

typedef enum {
    STUDY_PARAM_COUNT,   /* one integer >= 1 */
    STUDY_PARAM_UINT,    /* one integer >= 0 */
    STUDY_PARAM_SIZES,   /* comma list of integers >= 1 */
    STUDY_PARAM_NAMES,   /* comma list of names (variants, a precision) */
    STUDY_PARAM_INTERNAL /* set by the study's setup, not by --set (not listed) */
} study_param_kind;

/* A parameter of a study: one value per mode; --set NAME=VALUE replaces it. */
typedef struct {
    const char *name; /* "SIZES" */
    study_param_kind kind;
    const char *value[STUDY_NMODES]; /* --smoke, default, --full */
    const char *help;
} study_param;

/* One run of a tessel subcommand, in-process, with `--csv FILE --quiet` appended; every row it
 * writes becomes a row of the study, tagged with sweep, series (the row's variant) and x. */
typedef struct {
    const char *sweep;   /* the part of the study its rows belong to ("size", "tile") */
    const char *command; /* subcommand: "gemm" */
    const char *args;    /* $NAME: the parameter NAME; $EACH: the item of `each` */
    const char *each;    /* a parameter whose comma list repeats the run once per item, or NULL */
    const char *x;       /* each row's x: a CSV column ("n"), "$EACH", or NULL (no x) */
    /* When the run does not happen (setup skipped it, or `skip` is set): the variants its skipped
     * rows stand for (comma list, $EACH allowed), and a reason that is always true. */
    const char *variants;
    const char *skip;
} study_run;

typedef enum {
    STUDY_FIG_LINES,   /* y against x, one line per series (dash type per sweep) */
    STUDY_FIG_BARS,    /* one bar per series, grouped by sweep, from bar_base */
    STUDY_FIG_STACKED, /* one panel per sweep, one bar per series, the y columns stacked */
    /* As STUDY_FIG_STACKED, each bar's columns as percent of its total (printed above the bar),
     * so a part that is 0.1 % of the time is still a visible sliver beside one that is 99 % */
    STUDY_FIG_STACKED_PERCENT
} study_fig_kind;

typedef struct {
    const char *name; /* the file is <study>-<name>.png (and .gp) */
    const char *title;
    const char *caption; /* one sentence under the figure in the markdown */
    study_fig_kind kind;
    const char *sweeps;       /* comma list of the sweeps drawn */
    const char *sweep_titles; /* legend or group text per sweep (same order), or NULL: the names */
    const char *series;       /* comma list of series (in legend order), or NULL: all */
    const char *exclude;      /* comma list of series left out, or NULL */
    const char *y;            /* column; STUDY_FIG_STACKED*: comma list, bottom first */
    const char *y_titles;     /* STUDY_FIG_STACKED*: legend text per y column */
    const char *xlabel, *ylabel;
    int logx;        /* 0: linear, else the log base (2 or 10) */
    int logy;        /* 0: linear, 10: log, -1: log when the values span more than 20x */
    double bar_base; /* STUDY_FIG_BARS: where bars start (1 for speedups; 0 otherwise) */
    const char *gp;  /* extra gnuplot lines (reference lines, labels), or NULL */
} study_figure;

/* What setup sees and may change before anything runs. */
typedef struct study_env study_env;

typedef struct study_def {
    const char *name;    /* "memory-hierarchy" */
    const char *source;  /* "000" */
    const char *title;   /* heading of the markdown */
    const char *summary; /* one line for --list */
    const char *columns; /* the study's own columns (comma list, may be ""), before note */
    const study_param *params;
    size_t nparams;
    const study_run *runs;
    size_t nruns;
    const study_figure *figures;
    size_t nfigures;
    const char *method; /* markdown paragraph: how the numbers are measured and derived */
    void (*setup)(study_env *env);                                            /* may be NULL */
    void (*derive)(study_table *t);                                           /* may be NULL */
    void (*summary_md)(const study_table *t, const study_env *env, FILE *md); /* may be NULL */
    /* Each run gets TESSEL_CACHE_DIR set to a new, empty folder (removed after it), so build_ms
     * is a compile and never a load from tessel's binary cache. */
    int fresh_cache;
} study_def;

size_t study_count(void);
const study_def *study_at(size_t i); /* NULL past the end */
const study_def *study_find_def(const char *name);

/* ---- the environment: mode, device, parameters, skips -------------------------------------- */

struct study_env {
    const study_def *def;
    study_mode mode;
    tsl_device_info dev;
    char value[STUDY_MAX_PARAMS][512];    /* the parameters in force */
    const char *skip_run[STUDY_MAX_RUNS]; /* setup: run i does not happen, for this reason */
    char skip_buf[STUDY_MAX_RUNS][256];
    study_table *table; /* rows so far (setup may add skipped rows) */
    tsl_context *ctx;   /* the study's device, open during setup only */
    char notes[2048];   /* sentences setup adds to the markdown ("ran in single precision: ...") */
};

const char *study_param_value(const study_env *env, const char *name);    /* NULL: no such param */
int study_set_param(study_env *env, const char *name, const char *value); /* -1: no such param */
void study_skip_run(study_env *env, size_t run, const char *reason);
/* Appends a sentence to env->notes. */
void study_note(study_env *env, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Adds a skipped row (op, variant, precision may be "") with reason in the note column. */
void study_add_skipped(study_env *env, const char *sweep, const char *op, const char *variant,
                       const char *precision, const char *reason);

/* ---- markdown helpers for the summaries ---------------------------------------------------- */

/* A table with one line per series of sweep and one column per x (ascending): value_col printed
 * with fmt ("%.2f"); "skipped" / "-" where the row is skipped / absent. corner heads the first
 * column, x_title the x values ("n = %g"). */
void study_md_pivot(FILE *md, const study_table *t, const char *sweep, const char *value_col,
                    const char *fmt, const char *corner, const char *x_head);
/* A table of the rows of sweep (every sweep when NULL), with the given columns (comma list) under
 * the given headings (comma list). Numbers are printed with %.4g. */
void study_md_rows(FILE *md, const study_table *t, const char *sweep, const char *cols,
                   const char *heads);
/* The largest x of sweep with a finite value_col in series (NaN if none). */
double study_max_x(const study_table *t, const char *sweep, const char *series,
                   const char *value_col);

/* ---- figures -------------------------------------------------------------------------------- */

/* Writes the gnuplot script of figure f into an open file: a self-contained script with its data
 * inline, drawing to the PNG named png (the variable outfile overrides it). Returns the number of
 * data points drawn; 0 means there is nothing to draw (nothing written then). */
size_t study_plot_script(FILE *gp, const study_def *s, const study_figure *f, const study_table *t,
                         const char *png, const char *subtitle);

#endif

/* table.c: the row table of a study (study.h): text cells under named columns, read from the CSV
 * files the subcommands write and written back out as the study's CSV, with the lookups the
 * study hooks use (a row by sweep, series and x; a cell as a number), the environment setters
 * (parameters, skipped runs and rows) and the markdown table helpers. Cells stay the exact text
 * the subcommand wrote, so the study's CSV repeats its numbers digit for digit. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"

/* ---- the table ----------------------------------------------------------------------------- */

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int study_table_init(study_table *t, const char *columns)
{
    memset(t, 0, sizeof *t);
    const char *p = columns;
    while (*p && t->ncols < STUDY_MAX_COLS) {
        size_t len = strcspn(p, ",");
        if (len) {
            char *c = malloc(len + 1);
            if (!c) return -1;
            memcpy(c, p, len);
            c[len] = '\0';
            t->col[t->ncols++] = c;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

void study_table_free(study_table *t)
{
    for (size_t r = 0; r < t->nrows; ++r) {
        for (size_t c = 0; c < t->ncols; ++c)
            free(t->row[r][c]);
        free(t->row[r]);
    }
    free(t->row);
    for (size_t c = 0; c < t->ncols; ++c)
        free(t->col[c]);
    memset(t, 0, sizeof *t);
}

int study_col(const study_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; ++c)
        if (strcmp(t->col[c], name) == 0) return (int)c;
    return -1;
}

long study_add_row(study_table *t)
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char ***rows = realloc(t->row, cap * sizeof *rows);
        if (!rows) return -1;
        t->row = rows;
        t->cap = cap;
    }
    char **cells = calloc(t->ncols ? t->ncols : 1, sizeof *cells);
    if (!cells) return -1;
    for (size_t c = 0; c < t->ncols; ++c)
        if (!(cells[c] = dup_text(""))) {
            for (size_t d = 0; d < c; ++d)
                free(cells[d]);
            free(cells);
            return -1;
        }
    t->row[t->nrows] = cells;
    return (long)t->nrows++;
}

int study_set(study_table *t, size_t r, const char *col, const char *value)
{
    int c = study_col(t, col);
    if (c < 0 || r >= t->nrows) return -1;
    char *v = dup_text(value ? value : "");
    if (!v) return -1;
    free(t->row[r][c]);
    t->row[r][c] = v;
    return 0;
}

int study_set_num(study_table *t, size_t r, const char *col, double v)
{
    char buf[64] = "";
    if (isfinite(v)) snprintf(buf, sizeof buf, "%.6g", v);
    return study_set(t, r, col, buf);
}

const char *study_get(const study_table *t, size_t r, const char *col)
{
    int c = study_col(t, col);
    return (c < 0 || r >= t->nrows) ? "" : t->row[r][c];
}

double study_num(const study_table *t, size_t r, const char *col)
{
    const char *s = study_get(t, r, col);
    if (!s[0]) return NAN;
    char *end;
    double v = strtod(s, &end);
    return *end ? NAN : v;
}

long study_find(const study_table *t, const char *sweep, const char *series, double x)
{
    for (size_t r = 0; r < t->nrows; ++r) {
        if (sweep && strcmp(study_get(t, r, "sweep"), sweep) != 0) continue;
        if (series && strcmp(study_get(t, r, "series"), series) != 0) continue;
        if (!isnan(x) && study_num(t, r, "x") != x) continue;
        return (long)r;
    }
    return -1;
}

/* ---- CSV ----------------------------------------------------------------------------------- */

static void csv_cell(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void study_write_csv(const study_table *t, FILE *f)
{
    for (size_t c = 0; c < t->ncols; ++c) {
        if (c) fputc(',', f);
        csv_cell(f, t->col[c]);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; ++r) {
        for (size_t c = 0; c < t->ncols; ++c) {
            if (c) fputc(',', f);
            csv_cell(f, t->row[r][c]);
        }
        fputc('\n', f);
    }
}

/* Splits one CSV record (RFC 4180 quoting, no newlines inside fields: tessel never writes them)
 * in place into at most cap fields; returns the count, or -1 on a malformed quote. */
static long split_record(char *line, char **fields, size_t cap)
{
    size_t n = 0;
    char *r = line, *w = line;
    for (;;) {
        if (n == cap) return -1;
        fields[n++] = w;
        if (*r == '"') {
            ++r;
            for (;;) {
                if (*r == '\0') return -1;
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    ++r;
                    break;
                } else {
                    *w++ = *r++;
                }
            }
            if (*r != ',' && *r != '\0') return -1;
        } else {
            while (*r && *r != ',')
                *w++ = *r++;
        }
        if (*r == '\0') {
            *w = '\0';
            return (long)n;
        }
        *w++ = '\0';
        ++r;
        /* w trails r, so the next field starts where w is */
    }
}

int study_read_csv(const char *path, int (*add)(void *, char **, char **, size_t), void *ctx)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *line = NULL, *header = NULL;
    size_t cap = 0;
    ssize_t len;
    char *names[STUDY_MAX_COLS], *values[STUDY_MAX_COLS];
    long nnames = -1;
    int rc = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0) continue;
        if (nnames < 0) {
            header = line; /* keep the header's storage: names point into it */
            line = NULL;
            cap = 0;
            nnames = split_record(header, names, STUDY_MAX_COLS);
            if (nnames < 0) break;
            continue;
        }
        long nv = split_record(line, values, STUDY_MAX_COLS);
        if (nv != nnames) {
            rc = -1;
            errno = EINVAL;
            break;
        }
        if (add(ctx, names, values, (size_t)nv) != 0) {
            rc = -1;
            errno = ENOMEM;
            break;
        }
    }
    if (nnames < 0 && rc == 0) { /* no header: not a CSV of the contract */
        rc = -1;
        errno = EINVAL;
    }
    int e = errno;
    free(line);
    free(header);
    fclose(f);
    errno = e;
    return rc;
}

/* ---- the environment ----------------------------------------------------------------------- */

static long param_index(const study_env *env, const char *name)
{
    for (size_t i = 0; i < env->def->nparams; ++i)
        if (strcmp(env->def->params[i].name, name) == 0) return (long)i;
    return -1;
}

const char *study_param_value(const study_env *env, const char *name)
{
    long i = param_index(env, name);
    return i < 0 ? NULL : env->value[i];
}

int study_set_param(study_env *env, const char *name, const char *value)
{
    long i = param_index(env, name);
    if (i < 0) return -1;
    snprintf(env->value[i], sizeof env->value[i], "%s", value);
    return 0;
}

void study_skip_run(study_env *env, size_t run, const char *reason)
{
    if (run >= STUDY_MAX_RUNS) return;
    snprintf(env->skip_buf[run], sizeof env->skip_buf[run], "%s", reason);
    env->skip_run[run] = env->skip_buf[run];
}

void study_note(study_env *env, const char *fmt, ...)
{
    size_t used = strlen(env->notes);
    if (used && used + 1 < sizeof env->notes) env->notes[used++] = ' ', env->notes[used] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(env->notes + used, sizeof env->notes - used, fmt, ap);
    va_end(ap);
}

void study_add_skipped(study_env *env, const char *sweep, const char *op, const char *variant,
                       const char *precision, const char *reason)
{
    study_table *t = env->table;
    long r = study_add_row(t);
    if (r < 0) return;
    study_set(t, (size_t)r, "study", env->def->name);
    study_set(t, (size_t)r, "sweep", sweep);
    study_set(t, (size_t)r, "series", variant);
    study_set(t, (size_t)r, "op", op);
    study_set(t, (size_t)r, "variant", variant);
    study_set(t, (size_t)r, "precision", precision);
    study_set(t, (size_t)r, "device", env->dev.name);
    study_set(t, (size_t)r, "status", "skipped");
    study_set(t, (size_t)r, "note", reason);
}

/* ---- markdown ------------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The series of sweep in the order they first appear; returns how many (at most cap). */
static size_t series_of(const study_table *t, const char *sweep, const char **out, size_t cap)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; ++r) {
        if (sweep && strcmp(study_get(t, r, "sweep"), sweep) != 0) continue;
        const char *s = study_get(t, r, "series");
        size_t i = 0;
        while (i < n && strcmp(out[i], s) != 0)
            ++i;
        if (i == n && n < cap) out[n++] = s;
    }
    return n;
}

void study_md_pivot(FILE *md, const study_table *t, const char *sweep, const char *value_col,
                    const char *fmt, const char *corner, const char *x_head)
{
    const char *series[64];
    size_t ns = series_of(t, sweep, series, 64);
    double xs[64];
    size_t nx = 0;
    for (size_t r = 0; r < t->nrows; ++r) {
        if (strcmp(study_get(t, r, "sweep"), sweep) != 0) continue;
        double x = study_num(t, r, "x");
        if (isnan(x)) continue;
        size_t i = 0;
        while (i < nx && xs[i] != x)
            ++i;
        if (i == nx && nx < 64) xs[nx++] = x;
    }
    qsort(xs, nx, sizeof xs[0], cmp_double);
    fprintf(md, "| %s |", corner);
    for (size_t i = 0; i < nx; ++i) {
        fputc(' ', md);
        fprintf(md, x_head, xs[i]);
        fputs(" |", md);
    }
    fputs("\n| --- |", md);
    for (size_t i = 0; i < nx; ++i)
        fputs(" ---: |", md);
    fputc('\n', md);
    for (size_t s = 0; s < ns; ++s) {
        fprintf(md, "| %s |", series[s]);
        for (size_t i = 0; i < nx; ++i) {
            long r = study_find(t, sweep, series[s], xs[i]);
            double v = r < 0 ? NAN : study_num(t, (size_t)r, value_col);
            if (r >= 0 && isfinite(v)) {
                fputc(' ', md);
                fprintf(md, fmt, v);
                fputs(" |", md);
            } else {
                fputs(r >= 0 && strcmp(study_get(t, (size_t)r, "status"), "ok") != 0 ? " skipped |"
                                                                                     : " - |",
                      md);
            }
        }
        fputc('\n', md);
    }
    /* Series with no x at all (skipped runs) are listed once, with their reason. */
    for (size_t r = 0; r < t->nrows; ++r)
        if (strcmp(study_get(t, r, "sweep"), sweep) == 0 && isnan(study_num(t, r, "x")) &&
            strcmp(study_get(t, r, "status"), "skipped") == 0)
            fprintf(md, "\n%s %s skipped: %s\n", study_get(t, r, "op"), study_get(t, r, "series"),
                    study_get(t, r, "note"));
    fputc('\n', md);
}

void study_md_rows(FILE *md, const study_table *t, const char *sweep, const char *cols,
                   const char *heads)
{
    char cbuf[512], hbuf[512];
    snprintf(cbuf, sizeof cbuf, "%s", cols);
    snprintf(hbuf, sizeof hbuf, "%s", heads);
    const char *c[32], *h[32];
    size_t nc = 0, nh = 0;
    for (char *p = strtok(cbuf, ","); p && nc < 32; p = strtok(NULL, ","))
        c[nc++] = p;
    for (char *p = strtok(hbuf, ","); p && nh < 32; p = strtok(NULL, ","))
        h[nh++] = p;
    fputc('|', md);
    for (size_t i = 0; i < nc; ++i)
        fprintf(md, " %s |", i < nh ? h[i] : c[i]);
    fputs("\n|", md);
    for (size_t i = 0; i < nc; ++i)
        fputs(i ? " ---: |" : " --- |", md);
    fputc('\n', md);
    for (size_t r = 0; r < t->nrows; ++r) {
        if (sweep && strcmp(study_get(t, r, "sweep"), sweep) != 0) continue;
        fputc('|', md);
        for (size_t i = 0; i < nc; ++i) {
            const char *s = study_get(t, r, c[i]);
            char *end;
            double v = s[0] ? strtod(s, &end) : NAN;
            if (s[0] && !*end && isfinite(v))
                fprintf(md, " %.4g |", v);
            else
                fprintf(md, " %s |", s[0] ? s : "-");
        }
        fputc('\n', md);
    }
    fputc('\n', md);
}

double study_max_x(const study_table *t, const char *sweep, const char *series,
                   const char *value_col)
{
    double best = NAN;
    for (size_t r = 0; r < t->nrows; ++r) {
        if (strcmp(study_get(t, r, "sweep"), sweep) != 0) continue;
        if (series && strcmp(study_get(t, r, "series"), series) != 0) continue;
        double x = study_num(t, r, "x");
        if (isfinite(x) && isfinite(study_num(t, r, value_col)) && !(x <= best)) best = x;
    }
    return best;
}

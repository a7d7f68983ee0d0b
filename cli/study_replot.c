/* study_replot.c: `tessel study [NAME] --replot --out DIR` (study_job.h), which finishes a run
 * made without gnuplot (on the GPU machine) on a machine with it: the rows are read back from
 * DIR/NAME.csv, every figure is written and drawn as a run draws it, and only the Figures section
 * of DIR/NAME.md is rewritten, so the device, date and commands stay those of the measurement.
 * Nothing is measured and no device is opened. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "output.h"
#include "study_job.h"

/* text with the len bytes at `at` replaced by insert, as a new heap string (NULL: no memory). */
static char *splice(const char *text, const char *at, size_t len, const char *insert)
{
    size_t head = (size_t)(at - text), ins = strlen(insert), tail = strlen(at + len);
    char *out = malloc(head + ins + tail + 1);
    if (!out) return NULL;
    memcpy(out, text, head);
    memcpy(out + head, insert, ins);
    memcpy(out + head + ins, at + len, tail + 1);
    return out;
}

/* A CSV row of a study read back: each cell whose column this tessel's table has. */
static int add_csv_row(void *ctx, char **names, char **values, size_t n)
{
    study_table *t = ctx;
    long r = study_add_row(t);
    if (r < 0) return -1;
    for (size_t i = 0; i < n; ++i)
        if (study_col(t, names[i]) >= 0 && study_set(t, (size_t)r, names[i], values[i]) != 0)
            return -1;
    return 0;
}

/* The text after `key` on the line of md that starts with it, up to the first of stop (or the
 * end of the line), into buf; "" when md has no such line. */
static void md_field(const char *md, const char *key, const char *stop, char *buf, size_t cap)
{
    buf[0] = '\0';
    const char *at = strstr(md, key);
    if (!at || cap == 0) return;
    at += strlen(key);
    size_t len = strcspn(at, "\n");
    for (const char *st = stop; st && *st; ++st) {
        const char *hit = memchr(at, *st, len);
        if (hit) len = (size_t)(hit - at);
    }
    snprintf(buf, cap, "%.*s", (int)len, at);
}

/* The subtitle of a recorded run's figures (device, tessel, mode, date), from its markdown, so a
 * replot says where and when the numbers were measured, not where they were drawn. */
static void recorded_subtitle(const char *md, char *buf, size_t cap)
{
    char device[256], date[64], version[64], mode[64];
    md_field(md, "\n- Device: ", NULL, device, sizeof device);
    /* the name ends where " (P:D, type, ..." begins */
    for (char *p = device; (p = strstr(p, " (")) != NULL; ++p)
        if (p[2] >= '0' && p[2] <= '9' && strchr(p, ':')) {
            *p = '\0';
            break;
        }
    md_field(md, "\n- Date: ", ";", date, sizeof date);
    md_field(md, "; tessel ", ";", version, sizeof version);
    md_field(md, "; tessel ", NULL, mode, sizeof mode);
    const char *m = strchr(mode, ';');
    char mode_name[64] = "";
    if (m && sscanf(m + 1, " %63s", mode_name) != 1) mode_name[0] = '\0';
    snprintf(buf, cap, "%s, tessel %s, %s mode, %.10s", device[0] ? device : "unknown device",
             version[0] ? version : "?", mode_name[0] ? mode_name : "?", date);
}

/* --replot of one study: the table is read back from DIR/NAME.csv and the study's own columns
 * derived again, then every figure this tessel defines is written (script) and drawn from it,
 * exactly as a run draws it, so a replot also brings the figures of older results up to this
 * tessel's figure styles; the CSV is not rewritten. In DIR/NAME.md only the Figures section
 * changes, to what a run with gnuplot writes; the device, date, commands, tables and paragraphs
 * stay as recorded, and the file is replaced atomically. Returns 0, or the exit code after one
 * error line; a figure gnuplot fails on is recorded as failed and its message goes into fig_err
 * (the first one only). */
static int replot_one(study_job *job, const study_def *s, const char *gnuplot, char *fig_err,
                      size_t errcap)
{
    char path[4608], csv[4608];
    snprintf(path, sizeof path, "%s/%s.md", job->out, s->name);
    snprintf(csv, sizeof csv, "%s/%s.csv", job->out, s->name);
    char *md = cli_study_read_text(path);
    if (!md)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: --replot cannot read '%s': %s", s->name, path,
                         strerror(errno));
    const char *begin = strstr(md, "\n## Figures\n\n");
    const char *end = begin ? strstr(begin, "\n## Results\n\n") : NULL;
    if (!end) {
        free(md);
        return cli_error(CLI_EXIT_RUNTIME,
                         "study %s: '%s' is not the markdown of a study run (it has no Figures "
                         "and Results sections); --replot leaves it alone",
                         s->name, path);
    }
    int rc = cli_study_init_table(job, s);
    if (rc == 0 && study_read_csv(csv, add_csv_row, &job->table) != 0)
        rc = cli_error(CLI_EXIT_RUNTIME, "study %s: --replot cannot read the rows of '%s': %s",
                       s->name, csv, strerror(errno));
    if (rc) {
        free(md);
        return rc;
    }
    if (s->derive) s->derive(&job->table);
    char subtitle[512];
    recorded_subtitle(md, subtitle, sizeof subtitle);

    const size_t nfig = s->nfigures < 32 ? s->nfigures : 32;
    fig_state result[32];
    char *section = NULL;
    size_t section_len = 0;
    FILE *m = open_memstream(&section, &section_len);
    if (!m) {
        free(md);
        return cli_error(CLI_EXIT_RUNTIME, "out of host memory");
    }
    for (size_t i = 0; i < nfig; ++i) {
        char err[1024];
        cli_progress("study %s --replot: figure %s", s->name, s->figures[i].name);
        result[i] =
            cli_study_draw_figure(job, s, &s->figures[i], gnuplot, subtitle, err, sizeof err);
        if (result[i] == FIG_FAILED && !fig_err[0] &&
            snprintf(fig_err, errcap, "study %s: %s", s->name, err) < 0)
            fig_err[0] = '\0';
        cli_study_write_figure_md(m, s, &s->figures[i], result[i]);
    }
    cli_progress_clear();
    char *next = NULL;
    if (fclose(m) == 0 && section) {
        /* From after the Figures heading to the newline before the Results heading. */
        const char *from = begin + strlen("\n## Figures\n\n");
        next = splice(md, from, (size_t)(end + 1 - from), section);
    }
    free(section);
    free(md);
    if (!next) return cli_error(CLI_EXIT_RUNTIME, "out of host memory");
    cli_atomic_file af;
    if (cli_atomic_open(&af, path) != 0) {
        free(next);
        return cli_error(CLI_EXIT_RUNTIME, "study %s: cannot write '%s': %s", s->name, path,
                         strerror(errno));
    }
    fputs(next, af.f);
    free(next);
    if (cli_atomic_commit(&af) != 0)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: could not write '%s': %s", s->name, path,
                         strerror(errno));
    size_t drawn = 0;
    for (size_t i = 0; i < nfig; ++i)
        drawn += result[i] == FIG_DRAWN;
    printf("study %s --replot: %zu figure%s drawn\n  %s\n", s->name, drawn, drawn == 1 ? "" : "s",
           path);
    for (size_t i = 0; i < nfig; ++i)
        if (result[i] == FIG_DRAWN)
            printf("  %s/%s-%s.png\n", job->out, s->name, s->figures[i].name);
    fflush(stdout);
    return 0;
}

/* `tessel study [NAME] --replot --out DIR`: the figures of a run made without gnuplot (on the GPU
 * machine), drawn here from the scripts it left. Nothing is measured and no device is opened; the
 * markdown keeps the device, date and commands of the run. */
int cli_study_replot(study_job *job)
{
    const study_def *todo[64];
    size_t n = 0;
    char path[4608];
    if (job->def) {
        snprintf(path, sizeof path, "%s/%s.md", job->out, job->def->name);
        if (access(path, F_OK) != 0)
            return cli_error(CLI_EXIT_RUNTIME,
                             "study %s: --replot finds no '%s' (%s): run the study with --out %s "
                             "first",
                             job->def->name, path, strerror(errno), job->out);
        todo[n++] = job->def;
    } else {
        for (size_t i = 0; i < study_count() && n < 64; ++i) {
            snprintf(path, sizeof path, "%s/%s.md", job->out, study_at(i)->name);
            if (access(path, F_OK) == 0) todo[n++] = study_at(i);
        }
        if (n == 0)
            return cli_error(CLI_EXIT_RUNTIME,
                             "study: --replot finds no study's NAME.md in '%s' (tessel study "
                             "--list names the studies)",
                             job->out);
    }
    char gp_buf[4096];
    const char *gnuplot = cli_study_find_gnuplot(gp_buf, sizeof gp_buf);
    if (!gnuplot)
        return cli_error(CLI_EXIT_RUNTIME,
                         "study: --replot needs gnuplot, and there is none on PATH (Debian: "
                         "apt-get install gnuplot-nox)");
    int rc = cli_study_make_tmpdir(job, n == 1 ? todo[0]->name : "--replot");
    char fig_err[1024] = "";
    for (size_t i = 0; i < n && rc == 0; ++i)
        rc = replot_one(job, todo[i], gnuplot, fig_err, sizeof fig_err);
    if (rc == 0 && fig_err[0]) rc = cli_error(CLI_EXIT_RUNTIME, "%s", fig_err);
    return rc;
}

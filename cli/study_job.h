/* study_job.h: what the files of `tessel study` share (cmd_study.c, the command;
 * study_run.c, the subcommands' runs; study_figures.c, the figures and the markdown;
 * study_replot.c, --replot; study_job.c, the job's table, folder and files): the job, the state
 * of a figure, and the calls between them. It belongs to the command only; the studies
 * themselves are cli/studies/study.h. */
#ifndef TESSEL_CLI_STUDY_JOB_H
#define TESSEL_CLI_STUDY_JOB_H

#include <stddef.h>
#include <stdio.h>

#include "studies/study.h" /* the study definitions (cli/studies) */
#include "tessel.h"

#define MAX_SETS 32
#define MAX_ARGS 96
#define MAX_NOTES 64

typedef struct {
    /* options */
    const char *out, *device, *set_dummy;
    int smoke, full, list, help, replot;
    const char *name;
    const char *sets[MAX_SETS];
    size_t nsets;
    /* the run */
    const study_def *def;
    study_env env;
    study_table table;
    char tmpdir[4096];
    char command_line[2048];
    char date[64];
    /* what the markdown records */
    char *runs_md; /* one list item per subcommand run */
    size_t runs_len;
    char *notes[MAX_NOTES];
    size_t nnotes;
} study_job;

extern const char *const cli_study_mode_names[STUDY_NMODES]; /* "smoke", "default", "full" */

/* ---- study_job.c ----------------------------------------------------------------------------- */

/* job->table, empty, with the columns of study s: 0, or the exit code after one error line. */
int cli_study_init_table(study_job *job, const study_def *s);
/* job->tmpdir: a private folder for the commands' CSV and stderr and gnuplot's log, removed by
 * the end of the command (and by the interrupt handler). 0, or the exit code after one error
 * line. */
int cli_study_make_tmpdir(study_job *job, const char *name);
/* A file's text as a heap string (NULL: unreadable or no memory). */
char *cli_study_read_text(const char *path);
/* Removes the files in dir and then dir (one level: the folders the study makes). */
void cli_study_remove_tree(const char *dir);

/* ---- study_run.c ----------------------------------------------------------------------------- */

/* Every run of the study, in order, each item of its `each` list in turn; the rows join
 * job->table. 0, 1 (a --verify failed), or the exit code after one error line. */
int cli_study_run_all(study_job *job);

/* ---- study_figures.c ------------------------------------------------------------------------- */

typedef enum { FIG_DRAWN, FIG_EMPTY, FIG_NO_GNUPLOT, FIG_FAILED } fig_state;

/* The executable gnuplot on PATH, into buf; NULL when there is none. */
const char *cli_study_find_gnuplot(char *buf, size_t cap);
/* Writes the script of figure f of study s from job->table into job->out and, with gnuplot, draws
 * its PNG; subtitle (device, tessel, mode, date) goes under the figure's title. */
fig_state cli_study_draw_figure(study_job *job, const study_def *s, const study_figure *f,
                                const char *gnuplot, const char *subtitle, char *err,
                                size_t errcap);
/* The paragraph of the markdown's Figures section that stands for figure f in state st. */
void cli_study_write_figure_md(FILE *md, const study_def *s, const study_figure *f, fig_state st);
/* The whole markdown of a run; states: each figure's. */
void cli_study_write_md(study_job *job, FILE *md, const fig_state *states, int no_gnuplot);

/* ---- study_replot.c -------------------------------------------------------------------------- */

/* `tessel study [NAME] --replot --out DIR`: 0, or the exit code after one error line. */
int cli_study_replot(study_job *job);

#endif

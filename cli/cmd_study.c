/* cmd_study.c: `tessel study NAME`, which reproduces a measurement of a source document: it runs
 * tessel's own subcommands in this process (through their cli_cmd_* functions, with `--csv FILE
 * --quiet`), reads their rows back, adds the study's columns, and writes DIR/NAME.csv, one
 * gnuplot script and PNG per figure, and DIR/NAME.md (what ran, where, when, the tables, the
 * figures, and a paragraph that sets the result beside the document's claim). The studies
 * themselves are data in cli/studies/; this file is the command (options, --list, --help,
 * parameters, the order of the work and the output files), study_run.c runs the subcommands,
 * study_figures.c draws the figures and writes the markdown, study_replot.c is --replot, and
 * study_job.c holds what they share.
 *
 * Files: every output is written under a temporary name in DIR and renamed into place when
 * complete, so a reader never sees half a CSV; a study that fails leaves the previous files as
 * they were. The subcommands' stderr is captured while they run: their notes are passed on (and
 * a skipped row's reason goes into the study's note column), and a failure becomes one error line
 * naming the subcommand. Figures need gnuplot on PATH; without it the CSV and the markdown are
 * still written, with a note, and the exit code stays 0. `--replot` finishes such a run later, on
 * a machine with gnuplot: it reads the rows back from DIR/NAME.csv, writes and draws every figure
 * as a run would (so older results also get this tessel's figure styles) and rewrites the Figures
 * section of NAME.md as a run with gnuplot writes it, opening no device and measuring nothing
 * (results from a GPU machine without gnuplot are committed this way). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "measure.h"
#include "output.h"
#include "study_job.h"
#include "tessel.h"

/* ---- small utilities ------------------------------------------------------------------------ */

/* mkdir -p: 0, or -1 with errno. */
static int make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1;; ++p) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        struct stat st;
        if (stat(buf, &st) != 0) return -1;
        if (!S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            return -1;
        }
        *p = c;
        if (c == '\0') break;
    }
    return 0;
}

/* ---- --list and --help ---------------------------------------------------------------------- */

static void print_list(FILE *f)
{
    for (size_t i = 0; i < study_count(); ++i) {
        const study_def *s = study_at(i);
        fprintf(f, "%-17s (%s) ", s->name, s->source);
        cli_print_wrapped(f, s->summary, 24);
        for (size_t p = 0; p < s->nparams; ++p) {
            const study_param *q = &s->params[p];
            if (q->kind == STUDY_PARAM_INTERNAL) continue;
            fprintf(f, "    %-12s %s\n", q->name, q->help);
            if (strcmp(q->value[0], q->value[1]) == 0 && strcmp(q->value[1], q->value[2]) == 0)
                fprintf(f, "    %-12s every mode %s\n", "", q->value[0]);
            else
                fprintf(f, "    %-12s --smoke %s | default %s | --full %s\n", "", q->value[0],
                        q->value[1], q->value[2]);
        }
    }
}

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel study NAME [--out DIR] [--smoke | --full] [--device SPEC]\n"
           "                        [--set PARAM=VALUE ...]\n"
           "       tessel study [NAME] --replot [--out DIR]\n"
           "       tessel study --list\n\n"
           "Reproduces a measurement of one of the source documents: runs tessel's own commands\n"
           "(gemm, transpose, poisson, pi, nbody, kmeans) on one device, reads their CSV rows\n"
           "back, and writes into DIR:\n"
           "  NAME.csv      every row: study,sweep,series,x, the columns of 'tessel gemm --csv',\n"
           "                the study's own columns (speedups, ...), and note (skip reasons)\n"
           "  NAME-FIG.png  the figures, drawn by gnuplot (NAME-FIG.gp redraws each one)\n"
           "  NAME.md       what ran (device, driver, date, every command), the tables, the\n"
           "                figures, and the result beside the source document's claim\n"
           "Without gnuplot on PATH the figures are skipped with a note (exit code 0); their\n"
           "scripts are still written. --replot draws them later, on a machine with gnuplot: for\n"
           "NAME (or every study whose NAME.md is in DIR) it reads the rows of NAME.csv, writes\n"
           "and draws every figure as a run does (older results get this tessel's figure styles)\n"
           "and rewrites the figures of NAME.md as a run with gnuplot writes them; the CSV, the\n"
           "device, date, commands and tables stay as recorded, no device is opened, nothing is\n"
           "measured.\n\n"
           "Modes: --smoke finishes in seconds (tests, CI), the default in minutes on a CPU\n"
           "device (PoCL), --full uses the documents' sizes (for a GPU).\n\n"
           "Options:\n");
    cli_print_options(stdout, opts, nopts);
    printf("\nStudies (tessel study --list shows their parameters):\n");
    for (size_t i = 0; i < study_count(); ++i) {
        printf("  %-17s (%s) ", study_at(i)->name, study_at(i)->source);
        cli_print_wrapped(stdout, study_at(i)->summary, 26);
    }
    printf("\nExit codes: 0 success (skipped rows and skipped figures included), 2 usage error\n"
           "(unknown study or parameter, bad value), 3 runtime error (no device, an output\n"
           "folder that cannot be written, a command or gnuplot that failed; --replot: no\n"
           "NAME.md or NAME.csv in DIR, or no gnuplot on PATH).\n\n"
           "Examples:\n"
           "  tessel study --list\n"
           "  tessel study memory-hierarchy --smoke --out /tmp/studies\n"
           "  tessel study gemm-ladder --set SIZES=256,512,1024 --set PRECISION=single\n"
           "  tessel study transpose --full --device 0:0\n"
           "  tessel study --replot --out bench/results/h200/studies   # after a GPU run\n");
}

/* Takes the study name (the one argument that is not an option or an option's value) and every
 * --set out of argv; the rest goes to the option parser. */
static int prescan(study_job *job, int argc, char **argv, char **rest, int *nrest)
{
    *nrest = 0;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--set") == 0 || strncmp(a, "--set=", 6) == 0) {
            const char *v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || strncmp(v, "--", 2) == 0)
                return cli_error(CLI_EXIT_USAGE, "study: --set needs PARAM=VALUE");
            if (job->nsets == MAX_SETS)
                return cli_error(CLI_EXIT_USAGE, "study: at most %d --set options", MAX_SETS);
            job->sets[job->nsets++] = v;
            continue;
        }
        if (strcmp(a, "--out") == 0 || strcmp(a, "--device") == 0) {
            rest[(*nrest)++] = argv[i];
            if (i + 1 < argc) rest[(*nrest)++] = argv[++i];
            continue;
        }
        if (a[0] != '-') {
            if (job->name)
                return cli_error(CLI_EXIT_USAGE,
                                 "study: one study at a time, got '%s' and '%s' (tessel study "
                                 "--list)",
                                 job->name, a);
            job->name = a;
            continue;
        }
        rest[(*nrest)++] = argv[i];
    }
    return 0;
}

/* ---- parameters ----------------------------------------------------------------------------- */

static int valid_value(study_param_kind kind, const char *v)
{
    size_t n;
    if (!v[0] || strlen(v) >= sizeof(((study_env *)0)->value[0])) return 0;
    if (kind == STUDY_PARAM_COUNT) return cli_parse_size(v, &n) == 0 && n >= 1;
    if (kind == STUDY_PARAM_UINT) return cli_parse_size(v, &n) == 0 && n <= 1000000;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", v);
    if (buf[strlen(buf) - 1] == ',' || buf[0] == ',' || strstr(buf, ",,")) return 0;
    for (char *p = strtok(buf, ","); p; p = strtok(NULL, ",")) {
        if (kind == STUDY_PARAM_SIZES && !(cli_parse_size(p, &n) == 0 && n >= 1)) return 0;
        if (kind == STUDY_PARAM_NAMES)
            for (const char *c = p; *c; ++c)
                if (!(*c == '_' || *c == '-' || *c == '.' || (*c >= '0' && *c <= '9') ||
                      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
                    return 0;
    }
    return 1;
}

static int apply_sets(study_job *job)
{
    const study_def *s = job->def;
    for (size_t i = 0; i < job->nsets; ++i) {
        const char *eq = strchr(job->sets[i], '=');
        char name[64];
        size_t len = eq ? (size_t)(eq - job->sets[i]) : 0;
        if (!eq || len == 0 || len >= sizeof name)
            return cli_error(CLI_EXIT_USAGE, "study: --set expects PARAM=VALUE, got '%s'",
                             job->sets[i]);
        memcpy(name, job->sets[i], len);
        name[len] = '\0';
        long p = -1;
        for (size_t j = 0; j < s->nparams; ++j)
            if (strcmp(s->params[j].name, name) == 0 && s->params[j].kind != STUDY_PARAM_INTERNAL)
                p = (long)j;
        if (p < 0) {
            char names[512] = "";
            for (size_t j = 0; j < s->nparams; ++j) {
                if (s->params[j].kind == STUDY_PARAM_INTERNAL) continue;
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                         s->params[j].name);
            }
            return cli_error(CLI_EXIT_USAGE,
                             "study %s: unknown parameter '%s' (parameters: %s; tessel study "
                             "--list)",
                             s->name, name, names);
        }
        static const char *const expect[] = {"an integer >= 1", "an integer >= 0",
                                             "a comma list of integers >= 1",
                                             "a comma list of names", ""};
        if (!valid_value(s->params[p].kind, eq + 1))
            return cli_error(CLI_EXIT_USAGE, "study %s: --set %s expects %s, got '%s'", s->name,
                             name, expect[s->params[p].kind], eq + 1);
        study_set_param(&job->env, name, eq + 1);
    }
    return 0;
}

/* ---- the command ---------------------------------------------------------------------------- */

static void job_free(study_job *job)
{
    study_table_free(&job->table);
    free(job->runs_md);
    for (size_t i = 0; i < job->nnotes; ++i)
        free(job->notes[i]);
    cli_study_remove_tree(job->tmpdir);
    tsl_temporary_drop(job->tmpdir);
}

static int open_output(study_job *job, cli_atomic_file *af, const char *ext)
{
    char path[4608];
    snprintf(path, sizeof path, "%s/%s.%s", job->out, job->def->name, ext);
    if (cli_atomic_open(af, path) != 0)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: cannot write '%s': %s", job->def->name, path,
                         strerror(errno));
    return 0;
}

static int run_study(study_job *job)
{
    const study_def *s = job->def;
    /* The output folder first: a study that cannot be written is not run. */
    if (make_dirs(job->out) != 0)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: cannot create the output folder '%s': %s",
                         s->name, job->out, strerror(errno));
    cli_atomic_file csv, md;
    int rc = open_output(job, &csv, "csv");
    if (rc) return rc;
    if ((rc = open_output(job, &md, "md"))) {
        cli_atomic_abort(&csv);
        return rc;
    }

    /* The device: its facts for the record, and for setup's checks. */
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(job->device, &ctx);
    if (st != TSL_OK || tsl_context_device(ctx, &job->env.dev) != TSL_OK) {
        rc = st != TSL_OK ? cli_device_error(st, job->device)
                          : cli_error(CLI_EXIT_RUNTIME, "study: cannot read the device's facts");
        tsl_context_destroy(ctx);
        goto fail;
    }
    job->env.table = &job->table;
    job->env.ctx = ctx;
    if (s->setup) s->setup(&job->env);
    job->env.ctx = NULL;
    tsl_context_destroy(ctx);

    if ((rc = cli_study_make_tmpdir(job, s->name))) goto fail;
    int verdict = cli_study_run_all(job);
    if (verdict > CLI_EXIT_VERIFY) {
        rc = verdict;
        goto fail;
    }
    if (s->derive) s->derive(&job->table);

    study_write_csv(&job->table, csv.f);
    if (cli_atomic_commit(&csv) != 0) {
        rc = cli_error(CLI_EXIT_RUNTIME, "study %s: could not write '%s': %s", s->name, csv.path,
                       strerror(errno));
        cli_atomic_abort(&md);
        return rc;
    }

    char gp_buf[4096];
    const char *gnuplot = cli_study_find_gnuplot(gp_buf, sizeof gp_buf);
    if (!gnuplot) {
        cli_note("study %s: gnuplot not found on PATH: figures skipped (install gnuplot-nox); "
                 "CSV and markdown written",
                 s->name);
    }
    fig_state states[32];
    char fig_err[1024] = "", subtitle[512];
    snprintf(subtitle, sizeof subtitle, "%s, tessel %s, %s mode, %.10s", job->env.dev.name,
             tsl_version(), cli_study_mode_names[job->env.mode], job->date);
    for (size_t i = 0; i < s->nfigures && i < 32; ++i) {
        char err[1024];
        states[i] =
            cli_study_draw_figure(job, s, &s->figures[i], gnuplot, subtitle, err, sizeof err);
        if (states[i] == FIG_FAILED && !fig_err[0]) snprintf(fig_err, sizeof fig_err, "%s", err);
    }
    cli_progress_clear();

    cli_study_write_md(job, md.f, states, gnuplot == NULL);
    if (cli_atomic_commit(&md) != 0)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: could not write '%s': %s", s->name, md.path,
                         strerror(errno));

    printf("study %s (%s) on %s, %s mode: %zu rows\n", s->name, s->source, job->env.dev.name,
           cli_study_mode_names[job->env.mode], job->table.nrows);
    printf("  %s/%s.csv\n  %s/%s.md\n", job->out, s->name, job->out, s->name);
    for (size_t i = 0; i < s->nfigures && i < 32; ++i)
        if (states[i] == FIG_DRAWN)
            printf("  %s/%s-%s.png\n", job->out, s->name, s->figures[i].name);
    fflush(stdout);
    if (fig_err[0]) return cli_error(CLI_EXIT_RUNTIME, "study %s: %s", s->name, fig_err);
    return verdict;

fail:
    cli_atomic_abort(&csv);
    cli_atomic_abort(&md);
    return rc;
}

int cli_cmd_study(int argc, char **argv)
{
    study_job *job = calloc(1, sizeof *job);
    if (!job) return cli_error(CLI_EXIT_RUNTIME, "out of host memory");
    job->out = "study-results";
    const cli_option opts[] = {
        {"--out", NULL, CLI_STRING, &job->out, "DIR",
         "write the files into DIR (created if missing); default ./study-results"},
        {"--smoke", NULL, CLI_FLAG, &job->smoke, NULL, "tiny sizes: finishes in seconds (CI)"},
        {"--full", NULL, CLI_FLAG, &job->full, NULL, "the source documents' sizes (for a GPU)"},
        CLI_OPT_DEVICE(&job->device),
        {"--set", NULL, CLI_STRING, &job->set_dummy, "PARAM=VALUE",
         "replace a parameter of the study (repeatable; tessel study --list shows them)"},
        {"--list", NULL, CLI_FLAG, &job->list, NULL, "list the studies and their parameters"},
        {"--replot", NULL, CLI_FLAG, &job->replot, NULL,
         "draw the figures of a recorded run from its NAME.csv in DIR, and rewrite NAME.md's "
         "figures (every study in DIR without NAME); measures nothing"},
        CLI_OPT_HELP(&job->help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    char *rest[256];
    int nrest = 0;
    int rc;
    if (argc > 250) {
        rc = cli_error(CLI_EXIT_USAGE, "study: too many arguments");
        goto done;
    }
    if (cli_wants_help(argc, argv)) {
        print_help(opts, nopts);
        rc = CLI_EXIT_OK;
        goto done;
    }
    if ((rc = prescan(job, argc, argv, rest, &nrest))) goto done;
    if ((rc = cli_parse("study", nrest, rest, opts, nopts))) goto done;
    if (job->list) {
        print_list(stdout);
        rc = CLI_EXIT_OK;
        goto done;
    }
    if (!job->name && !job->replot) {
        rc = cli_error(CLI_EXIT_USAGE, "study: name a study (tessel study --list shows them)");
        goto done;
    }
    if (job->name && !(job->def = study_find_def(job->name))) {
        char names[512] = "";
        for (size_t i = 0; i < study_count(); ++i) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", study_at(i)->name);
        }
        rc = cli_error(CLI_EXIT_USAGE, "study: unknown study '%s' (studies: %s)", job->name, names);
        goto done;
    }
    if (job->smoke && job->full) {
        rc = cli_error(CLI_EXIT_USAGE, "study: --smoke and --full exclude each other");
        goto done;
    }
    if (!job->out[0]) {
        rc = cli_error(CLI_EXIT_USAGE, "study: --out needs a folder");
        goto done;
    }
    if (job->replot) {
        /* A replot draws what a run recorded: options that choose what to measure have no
         * meaning here, and accepting them silently would suggest they were applied. */
        const char *measuring = job->smoke    ? "--smoke"
                                : job->full   ? "--full"
                                : job->nsets  ? "--set"
                                : job->device ? "--device"
                                              : NULL;
        if (measuring)
            rc = cli_error(CLI_EXIT_USAGE,
                           "study: --replot redraws the figures a run recorded and takes no %s "
                           "(only NAME and --out)",
                           measuring);
        else
            rc = cli_study_replot(job);
        goto done;
    }
    job->env.def = job->def;
    job->env.mode = job->smoke ? STUDY_SMOKE : job->full ? STUDY_FULL : STUDY_DEFAULT;
    for (size_t p = 0; p < job->def->nparams && p < STUDY_MAX_PARAMS; ++p)
        study_set_param(&job->env, job->def->params[p].name,
                        job->def->params[p].value[job->env.mode]);
    if ((rc = apply_sets(job))) goto done;
    if ((rc = cli_study_init_table(job, job->def))) goto done;
    cli_command_line(cli_argc, cli_argv, job->command_line, sizeof job->command_line);
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(job->date, sizeof job->date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    rc = run_study(job);
done:
    job_free(job);
    free(job);
    return rc;
}

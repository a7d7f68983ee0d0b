/* cmd_study.c: `tessel study NAME`, which reproduces a measurement of a source document: it runs
 * tessel's own subcommands in this process (through their cli_cmd_* functions, with `--csv FILE
 * --quiet`), reads their rows back, adds the study's columns, and writes DIR/NAME.csv, one
 * gnuplot script and PNG per figure, and DIR/NAME.md (what ran, where, when, the tables, the
 * figures, and a paragraph that sets the result beside the document's claim). The studies
 * themselves are data in bench/studies/studies.c; this file is the engine.
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
#define _POSIX_C_SOURCE 200809L /* mkdtemp, fork, dup2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../bench/studies/study.h" /* the study definitions (bench/studies) */
#include "args.h"
#include "commands.h"
#include "common.h"
#include "interrupt.h"
#include "measure.h"
#include "output.h"
#include "tessel.h"

#define MAX_SETS 32
#define MAX_ARGS 96
#define MAX_NOTES 64

/* The subcommands a study may run. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"gemm", cli_cmd_gemm},   {"transpose", cli_cmd_transpose}, {"poisson", cli_cmd_poisson},
    {"blas1", cli_cmd_blas1}, {"gemv", cli_cmd_gemv},           {"pi", cli_cmd_pi},
    {"nbody", cli_cmd_nbody}, {"kmeans", cli_cmd_kmeans},
};

static const char *const mode_names[STUDY_NMODES] = {"smoke", "default", "full"};

/* How this tessel was compiled, for the record: host-side C versions (the `sequential` rows of
 * pi, nbody and kmeans) are compiled with the same flags as this file. */
#if defined(__OPTIMIZE__)
#define BUILD_OPTIMIZED 1
#else
#define BUILD_OPTIMIZED 0
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define BUILD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUILD_SANITIZED 1
#endif
#endif
#ifndef BUILD_SANITIZED
#define BUILD_SANITIZED 0
#endif

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

/* ---- small utilities ------------------------------------------------------------------------ */

/* Appends printf text to a growing heap string; on failure the text is dropped. */
static void append(char **buf, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void append(char **buf, size_t *len, const char *fmt, ...)
{
    char piece[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(piece, sizeof piece, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof piece) n = (int)sizeof piece - 1;
    char *grown = realloc(*buf, *len + (size_t)n + 1);
    if (!grown) return;
    memcpy(grown + *len, piece, (size_t)n + 1);
    *buf = grown;
    *len += (size_t)n;
}

static void add_note(study_job *job, const char *note)
{
    for (size_t i = 0; i < job->nnotes; ++i)
        if (strcmp(job->notes[i], note) == 0) return;
    if (job->nnotes == MAX_NOTES) return;
    size_t n = strlen(note) + 1;
    char *copy = malloc(n);
    if (!copy) return;
    memcpy(copy, note, n);
    job->notes[job->nnotes++] = copy;
}

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

static void remove_tree_flat(const char *dir)
{
    if (!dir[0]) return;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char path[4352];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* The executable gnuplot on PATH, into buf; NULL when there is none. */
static const char *find_gnuplot(char *buf, size_t cap)
{
    const char *path = getenv("PATH");
    if (!path) return NULL;
    while (*path) {
        size_t len = strcspn(path, ":");
        if (len > 0 && (size_t)snprintf(buf, cap, "%.*s/gnuplot", (int)len, path) < cap &&
            access(buf, X_OK) == 0)
            return buf;
        path += len + (path[len] == ':');
    }
    return NULL;
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

/* Replaces $NAME (the parameter) and $EACH (item) in text; -1 on an unknown name. */
static int substitute(const study_env *env, const char *text, const char *item, char *out,
                      size_t cap)
{
    size_t w = 0;
    for (const char *p = text; *p;) {
        if (*p != '$') {
            if (w + 1 < cap) out[w++] = *p;
            ++p;
            continue;
        }
        char name[64];
        size_t n = 0;
        for (++p; (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'; ++p)
            if (n + 1 < sizeof name) name[n++] = *p;
        name[n] = '\0';
        const char *v = strcmp(name, "EACH") == 0 ? item : study_param_value(env, name);
        if (!v) return -1;
        size_t len = strlen(v);
        if (w + len < cap) memcpy(out + w, v, len), w += len;
    }
    out[w < cap ? w : cap - 1] = '\0';
    return 0;
}

/* ---- running a subcommand ------------------------------------------------------------------- */

/* Rows from one subcommand's CSV. */
typedef struct {
    study_job *job;
    const study_run *run;
    const char *item;   /* $EACH, or NULL */
    const char *errtxt; /* its captured stderr */
    int bad;
} row_sink;

/* The reason a note line gives for "NAME skipped: REASON", or NULL. */
static const char *skip_reason(const char *errtxt, const char *name, char *buf, size_t cap)
{
    char key[200];
    snprintf(key, sizeof key, " %s skipped: ", name);
    const char *p = strstr(errtxt, key);
    if (!p) return NULL;
    p += strlen(key);
    size_t len = strcspn(p, "\n");
    snprintf(buf, cap, "%.*s", (int)len, p);
    return buf;
}

static int add_row(void *ctx, char **names, char **values, size_t n)
{
    row_sink *sink = ctx;
    study_table *t = &sink->job->table;
    long r = study_add_row(t);
    if (r < 0) return -1;
    const char *variant = "", *status = "";
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(names[i], "study") == 0 || strcmp(names[i], "sweep") == 0 ||
            strcmp(names[i], "series") == 0 || strcmp(names[i], "x") == 0 ||
            strcmp(names[i], "note") == 0)
            continue;
        if (study_col(t, names[i]) >= 0 && study_set(t, (size_t)r, names[i], values[i]) != 0)
            return -1;
        if (strcmp(names[i], "variant") == 0) variant = values[i];
        if (strcmp(names[i], "status") == 0) status = values[i];
    }
    if (!variant[0]) sink->bad = 1; /* not a CSV of the contract */
    study_set(t, (size_t)r, "study", sink->job->def->name);
    study_set(t, (size_t)r, "sweep", sink->run->sweep);
    study_set(t, (size_t)r, "series", variant);
    const char *x = sink->run->x;
    if (x && strcmp(x, "$EACH") == 0)
        study_set(t, (size_t)r, "x", sink->item);
    else if (x)
        study_set(t, (size_t)r, "x", study_get(t, (size_t)r, x));
    char reason[512];
    if (strcmp(status, "skipped") == 0 && skip_reason(sink->errtxt, variant, reason, sizeof reason))
        study_set(t, (size_t)r, "note", reason);
    return 0;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
        if (len + 1 == cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[len] = '\0';
    return buf;
}

/* Passes the captured stderr on, except the error line, which *err gets (without its prefix);
 * notes are remembered for the markdown. */
static void pass_on(study_job *job, char *text, char *err, size_t errcap)
{
    err[0] = '\0';
    /* The command's own clearing of the progress line ("\r\033[K", cli_progress_clear: it sees
     * the study's progress line as shown) landed in the capture: drop it. */
    char *w = text;
    for (const char *r = text; *r;) {
        if (strncmp(r, "\r\033[K", 4) == 0)
            r += 4;
        else
            *w++ = *r++;
    }
    *w = '\0';
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (strncmp(line, "tessel: error: ", 15) == 0) {
            snprintf(err, errcap, "%s", line + 15);
        } else if (line[0]) {
            /* The progress line is still on the terminal, though the command's clearing of it
             * went to the capture and reset cli_progress's own record: clear it here. */
            if (isatty(STDERR_FILENO)) fputs("\r\033[K", stderr);
            fprintf(stderr, "%s\n", line);
            if (strncmp(line, "tessel: note: ", 14) == 0) add_note(job, line + 14);
        }
        if (nl) *nl = '\n';
        line = nl ? nl + 1 : NULL;
    }
}

/* Puts TESSEL_CACHE_DIR back as it was before a run with a fresh kernel cache (cache, "" when
 * the run had none) and removes that cache. */
static void end_fresh_cache(const char *cache, int had_cache, char *prev_cache)
{
    if (!cache[0]) return;
    if (had_cache)
        setenv("TESSEL_CACHE_DIR", prev_cache, 1);
    else
        unsetenv("TESSEL_CACHE_DIR");
    free(prev_cache);
    remove_tree_flat(cache);
}

/* Runs `tessel <command> <args> --csv FILE --quiet` in this process; its rows join the table.
 * Returns 0 (1 when the command reported a failed verification), or the exit code after one
 * error line. */
static void skipped_rows(study_job *job, const study_run *run, const char *args, const char *item,
                         const char *reason);

static int run_one(study_job *job, const study_run *run, const char *args, const char *item,
                   size_t index, size_t total)
{
    int (*fn)(int, char **) = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(commands[i].name, run->command) == 0) fn = commands[i].run;
    if (!fn)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: no command '%s' in this tessel",
                         job->def->name, run->command);
    char csv[4200], errpath[4200], buf[2048];
    snprintf(csv, sizeof csv, "%s/run-%zu.csv", job->tmpdir, index + 1);
    snprintf(errpath, sizeof errpath, "%s/run-%zu.err", job->tmpdir, index + 1);
    char dev[32];
    snprintf(dev, sizeof dev, "%d:%d", job->env.dev.platform_index, job->env.dev.device_index);
    snprintf(buf, sizeof buf, "--device %s %s", dev, args);
    char *argv[MAX_ARGS + 4];
    int argc = 0;
    for (char *tok = strtok(buf, " "); tok && argc < MAX_ARGS; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    char csv_arg[] = "--csv", quiet_arg[] = "--quiet";
    argv[argc++] = csv_arg;
    argv[argc++] = csv;
    argv[argc++] = quiet_arg;
    argv[argc] = NULL;

    char line[2048] = "";
    size_t used = (size_t)snprintf(line, sizeof line, "tessel %s", run->command);
    for (int i = 0; i < argc - 3 && used < sizeof line; ++i)
        used += (size_t)snprintf(line + used, sizeof line - used, " %s", argv[i]);
    cli_progress("study %s %zu/%zu: %.90s", job->def->name, index + 1, total, line);

    /* A study that measures compiles gives each command an empty kernel cache of its own. */
    char cache[4200] = "", *prev_cache = NULL;
    int had_cache = 0;
    if (job->def->fresh_cache) {
        snprintf(cache, sizeof cache, "%s/cache-%zu", job->tmpdir, index + 1);
        if (mkdir(cache, 0700) != 0)
            return cli_error(CLI_EXIT_RUNTIME, "study %s: cannot create the kernel cache '%s': %s",
                             job->def->name, cache, strerror(errno));
        const char *prev = getenv("TESSEL_CACHE_DIR");
        had_cache = prev != NULL;
        if ((had_cache && !(prev_cache = strdup(prev))) ||
            setenv("TESSEL_CACHE_DIR", cache, 1) != 0) {
            free(prev_cache);
            remove_tree_flat(cache);
            return cli_error(CLI_EXIT_RUNTIME, "out of host memory");
        }
    }

    /* The command's stderr goes to a file while it runs. */
    fflush(stdout);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (saved < 0 || fd < 0) {
        if (saved >= 0) close(saved);
        if (fd >= 0) close(fd);
        end_fresh_cache(cache, had_cache, prev_cache);
        return cli_error(CLI_EXIT_RUNTIME, "study %s: cannot capture the output of %s: %s",
                         job->def->name, run->command, strerror(errno));
    }
    dup2(fd, STDERR_FILENO);
    close(fd);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = fn(argc, argv);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    end_fresh_cache(cache, had_cache, prev_cache);
    fflush(stdout);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);

    char *errtxt = read_text(errpath);
    char err[2048];
    pass_on(job, errtxt ? errtxt : (char[]){""}, err, sizeof err);
    append(&job->runs_md, &job->runs_len, "%zu. `%s --csv run-%zu.csv --quiet` (%.2f s%s)\n",
           index + 1, line, index + 1, seconds, rc ? ", failed" : "");
    if (rc == CLI_EXIT_RUNTIME && strstr(err, "cannot run on")) {
        /* a sweep point beyond what this device (or the compiled kernel) allows, such as a
         * work-group larger than the kernel's limit: a skipped row with the reason, not a failed
         * study */
        free(errtxt);
        unlink(csv);
        const char *why = strstr(err, "tessel: error: ") ? err + strlen("tessel: error: ") : err;
        skipped_rows(job, run, args, item, why);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK && rc != CLI_EXIT_VERIFY) {
        free(errtxt);
        return cli_error(rc == CLI_EXIT_USAGE ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME,
                         "study %s: `%s` failed: %s", job->def->name, line,
                         err[0] ? err : "no message (exit code without an error line)");
    }
    row_sink sink = {job, run, item, errtxt ? errtxt : "", 0};
    int read_rc = study_read_csv(csv, add_row, &sink);
    int e = errno;
    free(errtxt);
    unlink(csv);
    if (read_rc != 0 || sink.bad)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: cannot read the rows of `%s`: %s",
                         job->def->name, line, read_rc ? strerror(e) : "no variant column");
    return rc;
}

/* The rows a run stands for when it does not happen. */
static void skipped_rows(study_job *job, const study_run *run, const char *args, const char *item,
                         const char *reason)
{
    char variants[512];
    if (substitute(&job->env, run->variants ? run->variants : "", item ? item : "", variants,
                   sizeof variants) != 0)
        variants[0] = '\0';
    const char *precision = "";
    char prec[32] = "";
    const char *p = strstr(args, "--precision ");
    if (p) {
        sscanf(p + 12, "%31s", prec);
        precision = prec;
    }
    study_table *t = job->env.table;
    for (char *v = strtok(variants, ","); v; v = strtok(NULL, ",")) {
        size_t before = t->nrows;
        study_add_skipped(&job->env, run->sweep, run->command, v, precision, reason);
        /* a sweep point keeps its x (the work-group size a Pi sweep could not run) */
        if (t->nrows > before && item && run->x && strcmp(run->x, "$EACH") == 0)
            study_set(t, t->nrows - 1, "x", item);
    }
}

/* Every run of the study, in order, each item of its `each` list in turn. */
static int run_all(study_job *job)
{
    const study_def *s = job->def;
    /* Count the runs first, for the progress line. */
    size_t total = 0;
    for (size_t i = 0; i < s->nruns; ++i) {
        const study_run *run = &s->runs[i];
        if (run->skip || job->env.skip_run[i]) continue;
        if (!run->each) {
            ++total;
            continue;
        }
        const char *list = study_param_value(&job->env, run->each);
        for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
            ++total;
    }
    size_t index = 0;
    int worst = 0;
    for (size_t i = 0; i < s->nruns; ++i) {
        const study_run *run = &s->runs[i];
        char list[512] = "";
        if (run->each) snprintf(list, sizeof list, "%s", study_param_value(&job->env, run->each));
        char *save = NULL;
        char *item = run->each ? strtok_r(list, ",", &save) : NULL;
        if (run->each && !item) continue; /* an empty list: nothing to run */
        do {
            char args[1024];
            if (substitute(&job->env, run->args, item ? item : "", args, sizeof args) != 0)
                return cli_error(CLI_EXIT_RUNTIME,
                                 "study %s: run %zu names a parameter the study does not have "
                                 "(a bug in bench/studies/studies.c)",
                                 s->name, i + 1);
            const char *reason = run->skip ? run->skip : job->env.skip_run[i];
            if (reason) {
                skipped_rows(job, run, args, item, reason);
            } else {
                int rc = run_one(job, run, args, item, index++, total);
                if (rc > CLI_EXIT_VERIFY) return rc;
                if (rc > worst) worst = rc;
            }
            item = run->each ? strtok_r(NULL, ",", &save) : NULL;
        } while (item);
    }
    cli_progress_clear();
    return worst;
}

/* ---- figures and markdown ------------------------------------------------------------------- */

typedef enum { FIG_DRAWN, FIG_EMPTY, FIG_NO_GNUPLOT, FIG_FAILED } fig_state;

/* Runs gnuplot on DIR/script with outfile set to tmp (both names relative to DIR), its output
 * into log. 0 when it exited 0. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *script, const char *tmp,
                       const char *log)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int in = open("/dev/null", O_RDONLY);
        if (fd >= 0) dup2(fd, STDOUT_FILENO), dup2(fd, STDERR_FILENO);
        if (in >= 0) dup2(in, STDIN_FILENO);
        if (chdir(dir) != 0) _exit(126);
        char expr[640];
        snprintf(expr, sizeof expr, "outfile='%s'", tmp);
        execl(gnuplot, "gnuplot", "-e", expr, script, (char *)NULL);
        _exit(127);
    }
    cli_interrupt_child(pid); /* an interrupt stops it before removing its temporary PNG */
    int status = 0, waited;
    while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    cli_interrupt_child(0);
    if (waited < 0) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* A PNG that is really one: the signature and more than a header's worth of bytes. */
static int real_png(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char head[8];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int ok = fread(head, 1, 8, f) == 8 && memcmp(head, sig, 8) == 0;
    ok = ok && fseek(f, 0, SEEK_END) == 0 && ftell(f) > 2000;
    fclose(f);
    return ok;
}

/* Draws DIR/NAME-FIG.png from the script DIR/NAME-FIG.gp: gnuplot writes a temporary name in
 * DIR, which is renamed into place only when it holds a real PNG, so a failure leaves the previous
 * PNG (or none) and no temporary file. gnuplot's output goes to a log in tmpdir. 0, or -1 with
 * err set to one line naming the script and gnuplot's last message. */
static int render_png(const char *gnuplot, const char *dir, const char *tmpdir, const study_def *s,
                      const study_figure *f, char *err, size_t errcap)
{
    char png[512], script[512];
    snprintf(png, sizeof png, "%s-%s.png", s->name, f->name);
    snprintf(script, sizeof script, "%s-%s.gp", s->name, f->name);
    char tmp[600], tmp_path[5200], log[4300], final[4608];
    snprintf(tmp, sizeof tmp, ".%s.%ld.tmp", png, (long)getpid());
    snprintf(tmp_path, sizeof tmp_path, "%s/%s", dir, tmp);
    snprintf(log, sizeof log, "%s/gnuplot.log", tmpdir);
    snprintf(final, sizeof final, "%s/%s", dir, png);
    cli_progress("study %s: drawing %s", s->name, png);
    tsl_temporary_add(tmp_path); /* gnuplot writes it: the interrupt handler removes it */
    if (run_gnuplot(gnuplot, dir, script, tmp, log) == 0 && real_png(tmp_path) &&
        rename(tmp_path, final) == 0) {
        tsl_temporary_drop(tmp_path);
        return 0;
    }
    char *text = read_text(log);
    char first[512] = "no PNG written";
    if (text && text[0]) {
        /* gnuplot's message: the last non-empty line says what went wrong */
        char *line = NULL;
        for (char *p = strtok(text, "\n"); p; p = strtok(NULL, "\n"))
            if (strspn(p, " \t^") != strlen(p)) line = p;
        if (line) snprintf(first, sizeof first, "%s", line);
    }
    free(text);
    unlink(tmp_path);
    tsl_temporary_drop(tmp_path);
    if (snprintf(err, errcap, "gnuplot failed on '%s/%s': %s", dir, script, first) < 0) err[0] = 0;
    return -1;
}

/* Writes the script of figure f of study s from job->table into job->out and, with gnuplot, draws
 * its PNG; subtitle (device, tessel, mode, date) goes under the figure's title. */
static fig_state draw_figure(study_job *job, const study_def *s, const study_figure *f,
                             const char *gnuplot, const char *subtitle, char *err, size_t errcap)
{
    char png[512], script[512], path[4608];
    snprintf(png, sizeof png, "%s-%s.png", s->name, f->name);
    snprintf(script, sizeof script, "%s-%s.gp", s->name, f->name);
    /* The script is written whatever happens next: it is the figure's recipe. */
    snprintf(path, sizeof path, "%s/%s", job->out, script);
    cli_atomic_file af;
    if (cli_atomic_open(&af, path) != 0) {
        if (snprintf(err, errcap, "cannot write '%s': %s", path, strerror(errno)) < 0) err[0] = 0;
        return FIG_FAILED;
    }
    size_t points = study_plot_script(af.f, s, f, &job->table, png, subtitle);
    if (points == 0) {
        cli_atomic_abort(&af);
        return FIG_EMPTY;
    }
    if (cli_atomic_commit(&af) != 0) {
        if (snprintf(err, errcap, "cannot write '%s': %s", path, strerror(errno)) < 0) err[0] = 0;
        return FIG_FAILED;
    }
    if (!gnuplot) return FIG_NO_GNUPLOT;
    return render_png(gnuplot, job->out, job->tmpdir, s, f, err, errcap) == 0 ? FIG_DRAWN
                                                                              : FIG_FAILED;
}

/* The paragraph of the markdown's Figures section that stands for figure f in state st: written by
 * a run, and matched and rewritten by --replot, so both say it in the same words. */
static void write_figure_md(FILE *md, const study_def *s, const study_figure *f, fig_state st)
{
    if (st == FIG_DRAWN)
        fprintf(md, "![%s](%s-%s.png)\n\n*%s* (script: [%s-%s.gp](%s-%s.gp))\n\n", f->title,
                s->name, f->name, f->caption, s->name, f->name, s->name, f->name);
    else if (st == FIG_EMPTY)
        fprintf(md, "- %s: not drawn, no row has a value to plot.\n\n", f->title);
    else if (st == FIG_FAILED)
        fprintf(md, "- %s: gnuplot failed (see the script %s-%s.gp).\n\n", f->title, s->name,
                f->name);
    else
        fprintf(md, "- %s: skipped (the script %s-%s.gp is written; run it with gnuplot).\n\n",
                f->title, s->name, f->name);
}

/* The paragraph at the top of the Figures section of a run without gnuplot (--replot removes it
 * once the figures are drawn). */
static const char no_gnuplot_note[] =
    "Figures skipped: gnuplot was not found on PATH (Debian: apt-get install gnuplot-nox). The "
    "gnuplot scripts are written, with their data inline; every number is also in the CSV.";

static void write_md(study_job *job, FILE *md, const fig_state *states, int no_gnuplot)
{
    const study_def *s = job->def;
    const tsl_device_info *d = &job->env.dev;
    fprintf(md, "# %s\n\n", s->title);
    fprintf(md,
            "`tessel study %s` reproduces a measurement of source document %s (%s). "
            "The numbers are the rows of the tessel commands listed below, as a user running "
            "them by hand would get them; docs/studies.md describes every study.\n\n",
            s->name, s->source, s->summary);
    fputs("## What was run\n\n", md);
    fprintf(md, "- Device: %s (%d:%d, %s, platform %s, driver %s, %s)\n", d->name,
            d->platform_index, d->device_index, d->type, d->platform, d->driver_version,
            d->opencl_version);
    fprintf(md, "- Date: %s; tessel %s; %s mode\n", job->date, tsl_version(),
            mode_names[job->env.mode]);
    fprintf(md, "- Command: `%s`\n", job->command_line);
    fprintf(md, "- Build: %s%s%s\n", BUILD_OPTIMIZED ? "optimized" : "not optimized",
            BUILD_SANITIZED ? ", with sanitizers" : "",
            BUILD_OPTIMIZED && !BUILD_SANITIZED
                ? ""
                : " (host-side C versions, the `sequential` rows, run slower than in a release "
                  "build: use `make build` for numbers to keep)");
    fputs("- Parameters (`--set` changes them):", md);
    for (size_t p = 0, k = 0; p < s->nparams; ++p)
        if (s->params[p].kind != STUDY_PARAM_INTERNAL)
            fprintf(md, "%s `%s=%s`", k++ ? "," : "", s->params[p].name, job->env.value[p]);
    fputs("\n\nThe commands it ran, in this process, each with `--csv FILE --quiet` (its rows read "
          "back into the study):\n\n",
          md);
    fputs(job->runs_md ? job->runs_md : "(none)\n", md);
    if (job->env.notes[0] || job->nnotes) {
        fputs("\nNotes:\n\n", md);
        if (job->env.notes[0]) fprintf(md, "- %s\n", job->env.notes);
        for (size_t i = 0; i < job->nnotes; ++i)
            fprintf(md, "- %s\n", job->notes[i]);
    }
    fprintf(md, "\n## Method\n\n%s\n\n## Figures\n\n", s->method);
    if (no_gnuplot) fprintf(md, "%s\n\n", no_gnuplot_note);
    for (size_t i = 0; i < s->nfigures && i < 32; ++i)
        write_figure_md(md, s, &s->figures[i], states[i]);
    fputs("## Results\n\n", md);
    if (s->summary_md) s->summary_md(&job->table, &job->env, md);
    fprintf(md,
            "## Data\n\n[%s.csv](%s.csv): %zu rows, columns `%s`"
            " (`sweep` is the part of the study, `series` the line of a figure, `x` its x value; "
            "`note` says why a row was skipped).\n",
            s->name, s->name, job->table.nrows, "study,sweep,series,x,...,note");
}

/* ---- the command ---------------------------------------------------------------------------- */

/* job->table, empty, with the columns of study s: 0, or the exit code after one error line. */
static int init_table(study_job *job, const study_def *s)
{
    char columns[1024];
    snprintf(columns, sizeof columns, "study,sweep,series,x,%s%s%s,note", cli_csv_header,
             s->columns[0] ? "," : "", s->columns);
    study_table_free(&job->table);
    if (study_table_init(&job->table, columns) != 0)
        return cli_error(CLI_EXIT_RUNTIME, "out of host memory");
    return 0;
}

static void job_free(study_job *job)
{
    study_table_free(&job->table);
    free(job->runs_md);
    for (size_t i = 0; i < job->nnotes; ++i)
        free(job->notes[i]);
    remove_tree_flat(job->tmpdir);
    tsl_temporary_drop(job->tmpdir);
}

/* job->tmpdir: a private folder for the commands' CSV and stderr and gnuplot's log, removed by
 * job_free. 0, or the exit code after one error line. */
static int make_tmpdir(study_job *job, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(job->tmpdir, sizeof job->tmpdir, "%s/tessel-study.XXXXXX",
             tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(job->tmpdir)) {
        tsl_temporary_add(job->tmpdir); /* removed with its contents on an interrupt */
        return 0;
    }
    int rc = cli_error(CLI_EXIT_RUNTIME, "study %s: cannot create a temporary folder '%s': %s",
                       name, job->tmpdir, strerror(errno));
    job->tmpdir[0] = '\0';
    return rc;
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

    if ((rc = make_tmpdir(job, s->name))) goto fail;
    int verdict = run_all(job);
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
    const char *gnuplot = find_gnuplot(gp_buf, sizeof gp_buf);
    if (!gnuplot) {
        cli_note("study %s: gnuplot not found on PATH: figures skipped (install gnuplot-nox); "
                 "CSV and markdown written",
                 s->name);
    }
    fig_state states[32];
    char fig_err[1024] = "", subtitle[512];
    snprintf(subtitle, sizeof subtitle, "%s, tessel %s, %s mode, %.10s", job->env.dev.name,
             tsl_version(), mode_names[job->env.mode], job->date);
    for (size_t i = 0; i < s->nfigures && i < 32; ++i) {
        char err[1024];
        states[i] = draw_figure(job, s, &s->figures[i], gnuplot, subtitle, err, sizeof err);
        if (states[i] == FIG_FAILED && !fig_err[0]) snprintf(fig_err, sizeof fig_err, "%s", err);
    }
    cli_progress_clear();

    write_md(job, md.f, states, gnuplot == NULL);
    if (cli_atomic_commit(&md) != 0)
        return cli_error(CLI_EXIT_RUNTIME, "study %s: could not write '%s': %s", s->name, md.path,
                         strerror(errno));

    printf("study %s (%s) on %s, %s mode: %zu rows\n", s->name, s->source, job->env.dev.name,
           mode_names[job->env.mode], job->table.nrows);
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

/* ---- --replot ------------------------------------------------------------------------------- */

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
    char *md = read_text(path);
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
    int rc = init_table(job, s);
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
        result[i] = draw_figure(job, s, &s->figures[i], gnuplot, subtitle, err, sizeof err);
        if (result[i] == FIG_FAILED && !fig_err[0] &&
            snprintf(fig_err, errcap, "study %s: %s", s->name, err) < 0)
            fig_err[0] = '\0';
        write_figure_md(m, s, &s->figures[i], result[i]);
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
static int replot(study_job *job)
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
    const char *gnuplot = find_gnuplot(gp_buf, sizeof gp_buf);
    if (!gnuplot)
        return cli_error(CLI_EXIT_RUNTIME,
                         "study: --replot needs gnuplot, and there is none on PATH (Debian: "
                         "apt-get install gnuplot-nox)");
    int rc = make_tmpdir(job, n == 1 ? todo[0]->name : "--replot");
    char fig_err[1024] = "";
    for (size_t i = 0; i < n && rc == 0; ++i)
        rc = replot_one(job, todo[i], gnuplot, fig_err, sizeof fig_err);
    if (rc == 0 && fig_err[0]) rc = cli_error(CLI_EXIT_RUNTIME, "%s", fig_err);
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
            rc = replot(job);
        goto done;
    }
    job->env.def = job->def;
    job->env.mode = job->smoke ? STUDY_SMOKE : job->full ? STUDY_FULL : STUDY_DEFAULT;
    for (size_t p = 0; p < job->def->nparams && p < STUDY_MAX_PARAMS; ++p)
        study_set_param(&job->env, job->def->params[p].name,
                        job->def->params[p].value[job->env.mode]);
    if ((rc = apply_sets(job))) goto done;
    if ((rc = init_table(job, job->def))) goto done;
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

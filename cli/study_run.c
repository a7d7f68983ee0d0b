/* study_run.c: the runs of a study (study_job.h). Each run is one of tessel's own subcommands,
 * called in this process through its cli_cmd_* function with `--csv FILE --quiet` appended and
 * its stderr captured in the study's private folder: its rows are read back into the study's
 * table (tagged with sweep, series and x), its notes are passed on and kept for the markdown, a
 * skipped row's reason goes into the note column, and a failure becomes one error line naming
 * the subcommand. A run the study's setup (or the device) rules out stands as skipped rows with
 * the reason. A study that measures compiles gives each run an empty kernel cache of its own. */
#define _POSIX_C_SOURCE 200809L /* dup2, setenv */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "study_job.h"

/* The subcommands a study may run. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"gemm", cli_cmd_gemm},   {"transpose", cli_cmd_transpose}, {"poisson", cli_cmd_poisson},
    {"blas1", cli_cmd_blas1}, {"gemv", cli_cmd_gemv},           {"pi", cli_cmd_pi},
    {"nbody", cli_cmd_nbody}, {"kmeans", cli_cmd_kmeans},
};

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
    cli_study_remove_tree(cache);
}

static void skipped_rows(study_job *job, const study_run *run, const char *args, const char *item,
                         const char *reason);

/* Runs `tessel <command> <args> --csv FILE --quiet` in this process; its rows join the table.
 * Returns 0 (1 when the command reported a failed verification), or the exit code after one
 * error line. */
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
            cli_study_remove_tree(cache);
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

    char *errtxt = cli_study_read_text(errpath);
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
int cli_study_run_all(study_job *job)
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
                                 "(a bug in cli/studies)",
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

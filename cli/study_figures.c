/* study_figures.c: the figures and the markdown of a study (study_job.h). Each figure is a
 * gnuplot script with its data inline (cli/studies/plot.c writes it), written next to the
 * results whatever happens, and drawn into its PNG by gnuplot when there is one on PATH: gnuplot
 * writes a temporary name that is renamed into place only when it holds a real PNG. The markdown
 * records what ran (device, driver, date, build, parameters, every command), the method, the
 * figures (or why one is missing) and the study's own summary; --replot (study_replot.c) writes
 * the Figures section with the same words. */
#define _POSIX_C_SOURCE 200809L /* fork, dup2 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "interrupt.h"
#include "output.h"
#include "peer_openblas.h"
#include "study_job.h"
#include "tessel.h"

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

/* The executable gnuplot on PATH, into buf; NULL when there is none. */
const char *cli_study_find_gnuplot(char *buf, size_t cap)
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
        cli_interrupt_forked();
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
    char *text = cli_study_read_text(log);
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
fig_state cli_study_draw_figure(study_job *job, const study_def *s, const study_figure *f,
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
void cli_study_write_figure_md(FILE *md, const study_def *s, const study_figure *f, fig_state st)
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

void cli_study_write_md(study_job *job, FILE *md, const fig_state *states, int no_gnuplot)
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
            cli_study_mode_names[job->env.mode]);
    fprintf(md, "- Command: `%s`\n", job->command_line);
    fprintf(md, "- Build: %s%s%s\n", BUILD_OPTIMIZED ? "optimized" : "not optimized",
            BUILD_SANITIZED ? ", with sanitizers" : "",
            BUILD_OPTIMIZED && !BUILD_SANITIZED
                ? ""
                : " (host-side C versions, the `sequential` rows, run slower than in a release "
                  "build: use `make build` for numbers to keep)");
    char blas[256]; /* the openblas peer's kernels depend on the host CPU: name them */
    tsl_openblas_describe(blas, sizeof blas);
    fprintf(md, "- OpenBLAS (the openblas peer): %s\n", blas);
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
        cli_study_write_figure_md(md, s, &s->figures[i], states[i]);
    fputs("## Results\n\n", md);
    if (s->summary_md) s->summary_md(&job->table, &job->env, md);
    fprintf(md,
            "## Data\n\n[%s.csv](%s.csv): %zu rows, columns `%s`"
            " (`sweep` is the part of the study, `series` the line of a figure, `x` its x value; "
            "`note` says why a row was skipped).\n",
            s->name, s->name, job->table.nrows, "study,sweep,series,x,...,note");
}

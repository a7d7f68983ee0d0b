/* study_job.c: the pieces of a study job that the command's files share (study_job.h): the mode
 * names, the job's table and private folder, and reading and removing its files. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "output.h"
#include "study_job.h"
#include "tessel.h"

const char *const cli_study_mode_names[STUDY_NMODES] = {"smoke", "default", "full"};

void cli_study_remove_tree(const char *dir)
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

char *cli_study_read_text(const char *path)
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

/* job->table, empty, with the columns of study s: 0, or the exit code after one error line. */
int cli_study_init_table(study_job *job, const study_def *s)
{
    char columns[1024];
    snprintf(columns, sizeof columns, "study,sweep,series,x,%s%s%s,note", cli_csv_header,
             s->columns[0] ? "," : "", s->columns);
    study_table_free(&job->table);
    if (study_table_init(&job->table, columns) != 0)
        return cli_error(CLI_EXIT_RUNTIME, "out of host memory");
    return 0;
}

/* job->tmpdir: a private folder for the commands' CSV and stderr and gnuplot's log, removed by
 * job_free. 0, or the exit code after one error line. */
int cli_study_make_tmpdir(study_job *job, const char *name)
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

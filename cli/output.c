/* output.c: the table, CSV and JSON writers of the tessel command (see output.h). One field
 * table (name, title, width, type, format) drives all three formats, so a column is described
 * once. Rows are streamed: a table row or a CSV line appears as soon as the case is measured;
 * file outputs go to a temporary file that is renamed into place on commit. */
#define _POSIX_C_SOURCE 200809L
#include "output.h"

#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tessel.h"

/* ---- the fields of a row --------------------------------------------------------------------- */

enum { F_STR, F_INT, F_REAL };

typedef struct {
    const char *name;  /* CSV column and JSON key */
    const char *title; /* table heading */
    int width;         /* table width */
    int type;
    size_t offset;
    const char *table_fmt; /* for F_REAL */
    const char *data_fmt;  /* for F_REAL in CSV and JSON */
} field;

#define FS(n, t, w)                                                                                \
    {                                                                                              \
#n, t, w, F_STR, offsetof(cli_row, n), NULL, NULL                                          \
    }
#define FI(n, t, w)                                                                                \
    {                                                                                              \
#n, t, w, F_INT, offsetof(cli_row, n), NULL, NULL                                          \
    }
#define FR(n, t, w, tf, df)                                                                        \
    {                                                                                              \
#n, t, w, F_REAL, offsetof(cli_row, n), tf, df                                             \
    }

/* In the CSV column order of docs/design.md ("CSV columns"). */
static const field fields[] = {
    FS(op, "op", 10),
    FS(variant, "variant", 18),
    FS(precision, "precision", 9),
    FI(m, "m", 6),
    FI(n, "n", 6),
    FI(k, "k", 6),
    FS(device, "device", 0),
    FS(local, "local", 7),
    FI(repeat, "repeat", 6),
    FR(kernel_ms, "kernel_ms", 10, "%.3f", "%.6g"),
    FR(gflops, "GFLOP/s", 9, "%.2f", "%.6g"),
    FR(gbps, "GB/s", 9, "%.2f", "%.6g"),
    FR(build_ms, "build_ms", 9, "%.1f", "%.6g"),
    FR(upload_ms, "upload_ms", 9, "%.3f", "%.6g"),
    FR(download_ms, "down_ms", 9, "%.3f", "%.6g"),
    FR(max_rel_err, "rel_err", 9, "%.1e", "%.3e"),
    FS(status, "status", 13),
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* The op-specific figures of cli_row.extra: table columns only (JSON writes them by name). */
static const field extra_fields[2] = {
    {"extra0", "", 11, F_REAL, offsetof(cli_row, extra[0]), "%.4g", "%.6g"},
    {"extra1", "", 11, F_REAL, offsetof(cli_row, extra[1]), "%.4g", "%.6g"},
};

const char cli_csv_header[] = "op,variant,precision,m,n,k,device,local,repeat,kernel_ms,gflops,"
                              "gbps,build_ms,upload_ms,download_ms,max_rel_err,status";

void cli_row_init(cli_row *r)
{
    r->op = r->variant = r->resolved = r->precision = r->device = r->local = r->status = "";
    r->m = r->n = r->k = r->repeat = -1;
    r->kernel_ms = r->gflops = r->gbps = r->build_ms = r->upload_ms = r->download_ms =
        r->max_rel_err = NAN;
    r->extra_name[0] = r->extra_name[1] = "";
    r->extra[0] = r->extra[1] = NAN;
}

static const char *str_of(const cli_row *r, const field *f)
{
    const char *s = *(const char *const *)((const char *)r + f->offset);
    return s ? s : "";
}
static long long int_of(const cli_row *r, const field *f)
{
    return *(const long long *)((const char *)r + f->offset);
}
static double real_of(const cli_row *r, const field *f)
{
    return *(const double *)((const char *)r + f->offset);
}

/* Formats a numeric field; returns 0 (and "") when it is empty. */
static int format_number(const cli_row *r, const field *f, const char *real_fmt, char *buf,
                         size_t cap)
{
    buf[0] = '\0';
    if (f->type == F_INT) {
        long long v = int_of(r, f);
        if (v < 0) return 0;
        snprintf(buf, cap, "%lld", v);
        return 1;
    }
    double v = real_of(r, f);
    if (!isfinite(v)) return 0;
    snprintf(buf, cap, real_fmt, v);
    return 1;
}

/* ---- CSV and JSON ---------------------------------------------------------------------------- */

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

static void csv_row(FILE *f, const cli_row *r)
{
    char num[64];
    for (size_t i = 0; i < NFIELDS; ++i) {
        if (i) fputc(',', f);
        if (fields[i].type == F_STR)
            csv_cell(f, str_of(r, &fields[i]));
        else if (format_number(r, &fields[i], fields[i].data_fmt, num, sizeof num))
            fputs(num, f);
    }
    fputc('\n', f);
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_row(FILE *f, const cli_row *r, int first)
{
    char num[64];
    fputs(first ? "\n    {" : ",\n    {", f);
    for (size_t i = 0; i < NFIELDS; ++i) {
        if (i) fputs(", ", f);
        cli_json_string(f, fields[i].name);
        fputs(": ", f);
        if (fields[i].type == F_STR)
            cli_json_string(f, str_of(r, &fields[i]));
        else if (format_number(r, &fields[i], fields[i].data_fmt, num, sizeof num))
            fputs(num, f);
        else
            fputs("null", f);
    }
    if (r->resolved && r->resolved[0]) {
        fputs(", \"resolved\": ", f);
        cli_json_string(f, r->resolved);
    }
    for (size_t i = 0; i < 2; ++i) {
        if (!r->extra_name[i] || !r->extra_name[i][0]) continue;
        fputs(", ", f);
        cli_json_string(f, r->extra_name[i]);
        fputs(": ", f);
        if (format_number(r, &extra_fields[i], extra_fields[i].data_fmt, num, sizeof num))
            fputs(num, f);
        else
            fputs("null", f);
    }
    fputc('}', f);
}

static void json_begin(FILE *f, const char *command_line)
{
    char date[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fputs("{\n  \"tool\": \"tessel\",\n  \"version\": ", f);
    cli_json_string(f, tsl_version());
    fputs(",\n  \"date\": ", f);
    cli_json_string(f, date);
    fputs(",\n  \"command\": ", f);
    cli_json_string(f, command_line ? command_line : "");
    fputs(",\n  \"columns\": [", f);
    for (size_t i = 0; i < NFIELDS; ++i) {
        if (i) fputs(", ", f);
        cli_json_string(f, fields[i].name);
    }
    fputs("],\n  \"rows\": [", f);
}

static void json_end(FILE *f, int any_rows)
{
    fputs(any_rows ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* ---- plain tables ---------------------------------------------------------------------------- */

static void table_cell(FILE *f, const cli_column *c, const char *s, int last)
{
    if (c->width <= 0 || last)
        fputs(s, f);
    else if (c->right)
        fprintf(f, "%*s", c->width, s);
    else
        fprintf(f, "%-*s", c->width, s);
}

void cli_table_header(FILE *f, const cli_column *cols, size_t ncols)
{
    for (size_t i = 0; i < ncols; ++i) {
        if (i) fputs("  ", f);
        table_cell(f, &cols[i], cols[i].title, i + 1 == ncols);
    }
    fputc('\n', f);
}

void cli_table_row(FILE *f, const cli_column *cols, size_t ncols, const char *const *cells)
{
    for (size_t i = 0; i < ncols; ++i) {
        if (i) fputs("  ", f);
        table_cell(f, &cols[i], cells[i] ? cells[i] : "", i + 1 == ncols);
    }
    fputc('\n', f);
}

/* ---- atomic files ---------------------------------------------------------------------------- */

int cli_atomic_open(cli_atomic_file *af, const char *path)
{
    memset(af, 0, sizeof *af);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    if (strlen(path) + 16 >= sizeof af->tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(af->path, sizeof af->path, "%s", path);
    /* A hidden name in the same folder: rename() within one file system is atomic. */
    snprintf(af->tmp, sizeof af->tmp, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    int fd = tsl_temporary_mkstemp(af->tmp); /* removed by the interrupt handler (interrupt.c) */
    if (fd < 0) return -1;
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(af->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(af->tmp);
        tsl_temporary_drop(af->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

int cli_atomic_commit(cli_atomic_file *af)
{
    int bad = ferror(af->f) != 0;
    if (fflush(af->f) != 0) bad = 1;
    int e = errno;
    if (fclose(af->f) != 0) bad = 1, e = errno;
    af->f = NULL;
    int rc = 0;
    if (bad || rename(af->tmp, af->path) != 0) {
        if (!bad) e = errno;
        unlink(af->tmp);
        errno = e ? e : EIO;
        rc = -1;
    }
    tsl_temporary_drop(af->tmp);
    af->tmp[0] = '\0'; /* a later cli_atomic_abort has nothing to remove */
    return rc;
}

void cli_atomic_abort(cli_atomic_file *af)
{
    if (af->f) fclose(af->f);
    af->f = NULL;
    if (af->tmp[0]) {
        unlink(af->tmp);
        tsl_temporary_drop(af->tmp);
        af->tmp[0] = '\0';
    }
}

/* ---- reports --------------------------------------------------------------------------------- */

struct cli_report {
    cli_report_opts opts;
    FILE *csv; /* stdout or csv_file.f, or NULL */
    FILE *json;
    cli_atomic_file csv_file, json_file;
    int csv_is_file, json_is_file;
    size_t nrows;
    const field *table[NFIELDS];
    cli_column table_cols[NFIELDS];
    size_t ntable;
};

static int open_sink(const char *what, const char *path, cli_atomic_file *af, FILE **out,
                     int *is_file)
{
    if (!path) return 0;
    if (strcmp(path, "-") == 0) {
        *out = stdout;
        return 0;
    }
    if (path[0] == '\0' || cli_atomic_open(af, path) != 0)
        return cli_error(CLI_EXIT_USAGE, "cannot write %s file '%s': %s", what, path,
                         path[0] ? strerror(errno) : "empty path");
    *out = af->f;
    *is_file = 1;
    return 0;
}

cli_report *cli_report_open(const cli_report_opts *opts, int *code)
{
    *code = 0;
    if (opts->csv && opts->json && strcmp(opts->csv, opts->json) == 0) {
        *code = cli_error(CLI_EXIT_USAGE, strcmp(opts->csv, "-") == 0
                                              ? "--csv - and --json - cannot both use stdout"
                                              : "--csv and --json name the same file");
        return NULL;
    }
    cli_report *rep = calloc(1, sizeof *rep);
    if (!rep) {
        *code = cli_error(CLI_EXIT_RUNTIME, "out of host memory");
        return NULL;
    }
    rep->opts = *opts;
    if ((*code = open_sink("--csv", opts->csv, &rep->csv_file, &rep->csv, &rep->csv_is_file)) ||
        (*code =
             open_sink("--json", opts->json, &rep->json_file, &rep->json, &rep->json_is_file))) {
        cli_atomic_abort(&rep->csv_file);
        free(rep);
        return NULL;
    }
    /* stdout belongs to CSV or JSON when either goes there: then no table. */
    int stdout_taken = rep->csv == stdout || rep->json == stdout;
    if (!opts->quiet && !stdout_taken && opts->table_columns) {
        cli_name_list names;
        if (cli_split_names(opts->table_columns, &names) == 0)
            for (size_t i = 0; i < names.n; ++i)
                for (size_t j = 0; j < NFIELDS + 2; ++j) {
                    const field *fd = j < NFIELDS ? &fields[j] : &extra_fields[j - NFIELDS];
                    if (strcmp(names.v[i], fd->name) != 0 || rep->ntable == NFIELDS) continue;
                    rep->table[rep->ntable] = fd;
                    rep->table_cols[rep->ntable].title = fd->title;
                    rep->table_cols[rep->ntable].width = fd->width;
                    rep->table_cols[rep->ntable].right = fd->type != F_STR;
                    rep->ntable++;
                }
    }
    return rep;
}

static void start_outputs(cli_report *rep, const cli_row *first)
{
    for (size_t i = 0; i < rep->ntable; ++i) /* extra columns: headed by the first row's names */
        for (size_t e = 0; e < 2; ++e)
            if (rep->table[i] == &extra_fields[e])
                rep->table_cols[i].title = first && first->extra_name[e] ? first->extra_name[e] : "";
    if (rep->ntable) {
        if (rep->opts.title) printf("%s\n", rep->opts.title);
        cli_table_header(stdout, rep->table_cols, rep->ntable);
    }
    if (rep->csv) fprintf(rep->csv, "%s\n", cli_csv_header);
    if (rep->json) json_begin(rep->json, rep->opts.command_line);
}

void cli_report_row(cli_report *rep, const cli_row *row)
{
    if (rep->nrows == 0) start_outputs(rep, row);
    if (rep->ntable) {
        char bufs[NFIELDS][160];
        const char *cells[NFIELDS];
        for (size_t i = 0; i < rep->ntable; ++i) {
            const field *f = rep->table[i];
            if (f->type != F_STR) {
                format_number(row, f, f->table_fmt, bufs[i], sizeof bufs[i]);
                cells[i] = bufs[i];
            } else if (f->offset == offsetof(cli_row, variant) && row->resolved &&
                       row->resolved[0]) {
                snprintf(bufs[i], sizeof bufs[i], "%s=%s", row->variant, row->resolved);
                cells[i] = bufs[i];
            } else {
                cells[i] = str_of(row, f);
            }
        }
        cli_progress_clear();
        cli_table_row(stdout, rep->table_cols, rep->ntable, cells);
        fflush(stdout);
    }
    if (rep->csv) {
        csv_row(rep->csv, row);
        fflush(rep->csv);
    }
    if (rep->json) json_row(rep->json, row, rep->nrows == 0);
    rep->nrows++;
}

static int finish_file(const char *what, cli_atomic_file *af)
{
    if (cli_atomic_commit(af) == 0) return 0;
    return cli_error(CLI_EXIT_RUNTIME, "could not write %s file '%s': %s", what, af->path,
                     strerror(errno));
}

int cli_report_close(cli_report *rep, int commit)
{
    int code = 0;
    if (!rep) return 0;
    if (!commit) {
        if (rep->csv_is_file) cli_atomic_abort(&rep->csv_file);
        if (rep->json_is_file) cli_atomic_abort(&rep->json_file);
        free(rep);
        return 0;
    }
    if (rep->nrows == 0) start_outputs(rep, NULL);
    if (rep->json) json_end(rep->json, rep->nrows > 0);
    fflush(stdout);
    if (rep->csv_is_file && finish_file("--csv", &rep->csv_file)) code = CLI_EXIT_RUNTIME;
    if (rep->json_is_file && finish_file("--json", &rep->json_file)) code = CLI_EXIT_RUNTIME;
    free(rep);
    return code;
}

void cli_command_line(int argc, char **argv, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used + 1 < cap; ++i) {
        const char *a = (i == 0) ? "tessel" : argv[i];
        int n = snprintf(buf + used, cap - used, "%s%s", i ? " " : "", a);
        if (n < 0) break;
        used += (size_t)n;
    }
}

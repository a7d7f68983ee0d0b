/* output.h: the shared writers of the tessel command. A result row (cli_row) has the CSV columns of
 * docs/design.md ("CSV columns"); a report sends each row, as it is measured, to an aligned table
 * on stdout, to CSV and/or JSON on stdout ("-") or in a file. Files are written under a temporary
 * name in the same folder and renamed into place only when the report is complete, so a reader
 * never sees a half-written file. Also: plain aligned tables, JSON string escaping, terminal-only
 * progress. */
#ifndef TESSEL_CLI_OUTPUT_H
#define TESSEL_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* One measured case. Strings may be "" (empty field); integers < 0 and doubles that are NaN are
 * empty fields in CSV and null in JSON. */
typedef struct {
    const char *op;        /* "gemm" */
    const char *variant;   /* a variant name, "auto", or a peer name ("clblast") */
    const char *resolved;  /* for "auto": the variant it ran (table and JSON only), or "" */
    const char *precision; /* "single", "double" */
    long long m, n, k;
    const char *device;
    const char *local; /* work-group shape, or "" */
    long long repeat;
    double kernel_ms, gflops, gbps, build_ms, upload_ms, download_ms, max_rel_err;
    const char *status; /* "ok", "verify_failed", "skipped", "error" */
    /* Up to two figures of an op beyond the CSV columns (poisson: sweeps_per_s and
     * residual). Not in CSV (its columns are fixed); in JSON as keys named extra_name[i] when
     * that is not ""; in the table as columns "extra0" / "extra1" of table_columns, headed by
     * the first row's names. */
    const char *extra_name[2];
    double extra[2];
} cli_row;

void cli_row_init(cli_row *r); /* every field empty */

/* The CSV header line of docs/design.md, without the newline. */
extern const char cli_csv_header[];

typedef struct {
    const char *csv;           /* NULL (none), "-" (stdout) or a file path */
    const char *json;          /* the same */
    int quiet;                 /* no table */
    const char *table_columns; /* comma list of cli_row field names shown in the table */
    const char *title;         /* one line above the table, or NULL */
    const char *command_line;  /* recorded in the JSON */
} cli_report_opts;

typedef struct cli_report cli_report;

/* Checks the output paths and creates the temporary files; prints nothing to stdout yet.
 * Returns NULL after one error line (exit code *code) when a path cannot be written. */
cli_report *cli_report_open(const cli_report_opts *opts, int *code);
/* Sends one row to every sink. */
void cli_report_row(cli_report *rep, const cli_row *row);
/* commit != 0: finish the outputs (JSON closing, files renamed into place); returns 0, or
 * CLI_EXIT_RUNTIME after an error line if a file could not be written.
 * commit == 0: drop the temporary files, print nothing more. Frees rep either way. */
int cli_report_close(cli_report *rep, int commit);

/* Plain aligned tables: width 0 means "no padding" (use it for the last column). */
typedef struct {
    const char *title;
    int width;
    int right; /* right-aligned (numbers) */
} cli_column;
void cli_table_header(FILE *f, const cli_column *cols, size_t ncols);
void cli_table_row(FILE *f, const cli_column *cols, size_t ncols, const char *const *cells);

/* Writes s as a JSON string literal, quotes included. */
void cli_json_string(FILE *f, const char *s);

/* Atomic file output: writes go to a temporary file next to path, renamed onto path by commit. */
typedef struct {
    FILE *f;
    char path[4096];
    char tmp[4096];
} cli_atomic_file;
int cli_atomic_open(cli_atomic_file *af, const char *path); /* 0, or -1 with errno */
int cli_atomic_commit(cli_atomic_file *af);                 /* 0, or -1 with errno */
void cli_atomic_abort(cli_atomic_file *af);

/* The terminal-only progress line is args.h's (cli_progress), with the other stderr lines. */

/* The command line as one string, for the JSON record ("tessel gemm --size 512"). */
void cli_command_line(int argc, char **argv, char *buf, size_t cap);

#endif

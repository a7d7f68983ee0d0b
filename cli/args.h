/* args.h: the shared option parser of the tessel command. Each subcommand describes its options
 * as a table of cli_option rows (name, kind, where the value goes, help line); one parser reads
 * argv against that table with strict number parsing, and the same table prints the options
 * section of the subcommand's --help. Every usage error is one line on stderr and exit code 2.
 * Also the command's stderr lines: errors, notes and the terminal-only progress line. */
#ifndef TESSEL_CLI_ARGS_H
#define TESSEL_CLI_ARGS_H

#include <stddef.h>
#include <stdio.h>

/* Exit codes of docs/design.md ("Exit codes"). */
enum { CLI_EXIT_OK = 0, CLI_EXIT_VERIFY = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_RUNTIME = 3 };

#define CLI_MAX_LIST 64 /* most entries of a --sizes or --peers list */

typedef enum {
    CLI_FLAG,      /* no value; dest is int*, set to 1 */
    CLI_STRING,    /* dest is const char ** (points into argv) */
    CLI_COUNT,     /* integer >= 1; dest is size_t* */
    CLI_UINT,      /* integer >= 0, at most UINT_MAX; dest is unsigned* */
    CLI_REAL,      /* finite real number, may be negative; dest is double* */
    CLI_SIZE_LIST, /* comma list of integers >= 1; dest is cli_size_list* */
    CLI_NAME_LIST  /* comma list of non-empty names; dest is cli_name_list* */
} cli_kind;

typedef struct {
    size_t n;
    size_t v[CLI_MAX_LIST];
} cli_size_list;

typedef struct {
    size_t n;
    char buf[512];               /* the names, each NUL-terminated */
    const char *v[CLI_MAX_LIST]; /* pointers into buf */
} cli_name_list;

typedef struct {
    const char *name;  /* "--size" */
    const char *alias; /* "-m", or NULL */
    cli_kind kind;
    void *dest;
    const char *metavar; /* "N" in "--size N"; NULL for flags */
    const char *help;    /* one line, says the default */
} cli_option;

/* Reads argv[0..argc) (the arguments after the subcommand name) against opts. Accepts
 * "--name value" and "--name=value"; a later occurrence overrides an earlier one. Returns 0, or
 * CLI_EXIT_USAGE after printing one error line (unknown option, missing or bad value, stray
 * argument). A value that starts with "--" counts as missing. */
int cli_parse(const char *command, int argc, char **argv, const cli_option *opts, size_t nopts);

/* 1 if argv[0..argc) asks for help (-h or --help anywhere), else 0. */
int cli_wants_help(int argc, char **argv);

/* Writes the options section of a --help text from the same table the parser reads. */
void cli_print_options(FILE *f, const cli_option *opts, size_t nopts);

/* Prints text word-wrapped to 100 columns, continuation lines indented by `indent` spaces; the
 * first line continues wherever the cursor is (the caller has printed the indent). */
void cli_print_wrapped(FILE *f, const char *text, int indent);

/* Strict number parsing: decimal digits only (no sign, no space, no suffix), no overflow.
 * Return 0 on success, -1 on malformed text; cli_parse_size returns -2 when the digits are
 * fine but the value does not fit a size_t. */
int cli_parse_size(const char *s, size_t *out);
int cli_parse_real(const char *s, double *out);

/* Splits a comma list into list; -1 on an empty item or too many items. */
int cli_split_names(const char *s, cli_name_list *list);

/* Progress line on stderr, shown only when stderr is a terminal; cleared before any other
 * stderr output. */
void cli_progress(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void cli_progress_clear(void);

/* Prints "tessel: error: <message>" as exactly one line on stderr (newlines and runs of
 * whitespace in the message, such as a build log, are folded into single spaces) and returns
 * code, so callers write `return cli_error(CLI_EXIT_USAGE, "...", ...)`. */
int cli_error(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints one "tessel: note: ..." line on stderr (skip reasons and the like; not an error). */
void cli_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif

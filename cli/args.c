/* args.c: the shared option parser of the tessel command (see args.h). Numbers are parsed
 * strictly: strtoull/strtod accept leading blanks, signs and trailing text, and strtoull wraps
 * negative input around to huge values, so every value is checked character by character before
 * and after the conversion. One bad value is one error line and exit code 2, never a crash. The
 * command's stderr lines live here too: errors, notes and the terminal's progress line, which
 * every other line clears first. */
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the progress line ----------------------------------------------------------------------- */

static int progress_shown;

void cli_progress(const char *fmt, ...)
{
    if (!isatty(STDERR_FILENO)) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    progress_shown = 1;
}

void cli_progress_clear(void)
{
    if (!progress_shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress_shown = 0;
}

/* Folds newlines and runs of blanks into single spaces and trims, so any message (an OpenCL build
 * log included) stays one line; long messages are cut with "...". */
static void fold_one_line(char *s)
{
    char *w = s;
    int space = 0;
    for (const char *r = s; *r; ++r) {
        if (isspace((unsigned char)*r)) {
            space = (w != s);
            continue;
        }
        if (space) *w++ = ' ';
        space = 0;
        *w++ = *r;
    }
    *w = '\0';
}

static void vprint_line(const char *prefix, const char *fmt, va_list ap)
{
    char msg[2048];
    int len = vsnprintf(msg, sizeof msg, fmt, ap);
    if (len >= (int)sizeof msg) memcpy(msg + sizeof msg - 4, "...", 4);
    fold_one_line(msg);
    cli_progress_clear();
    fprintf(stderr, "tessel: %s%s\n", prefix, msg);
    fflush(stderr);
}

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint_line("error: ", fmt, ap);
    va_end(ap);
    return code;
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint_line("note: ", fmt, ap);
    va_end(ap);
}

int cli_parse_size(const char *s, size_t *out)
{
    if (!s || !isdigit((unsigned char)s[0])) return -1; /* rejects "", "-1", "+1", " 1" */
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0') return -1;
    if (errno == ERANGE || v > SIZE_MAX) return -2;
    *out = (size_t)v;
    return 0;
}

int cli_parse_real(const char *s, double *out)
{
    if (!s || !s[0] || isspace((unsigned char)s[0])) return -1;
    errno = 0;
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int cli_split_names(const char *s, cli_name_list *list)
{
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof list->buf) return -1;
    memcpy(list->buf, s, len + 1);
    list->n = 0;
    char *item = list->buf;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma) *comma = '\0';
        if (*item == '\0' || list->n == CLI_MAX_LIST) return -1;
        list->v[list->n++] = item;
        if (!comma) return 0;
        item = comma + 1;
    }
}

static int split_sizes(const char *s, cli_size_list *list)
{
    cli_name_list names;
    if (cli_split_names(s, &names) != 0) return -1;
    list->n = 0;
    for (size_t i = 0; i < names.n; ++i) {
        size_t v;
        if (cli_parse_size(names.v[i], &v) != 0 || v == 0) return -1;
        list->v[list->n++] = v;
    }
    return 0;
}

/* Stores one value; returns 0 or the usage exit code after one error line. */
static int store(const char *command, const cli_option *o, const char *spelled, const char *value)
{
    switch (o->kind) {
    case CLI_FLAG:
        *(int *)o->dest = 1;
        return 0;
    case CLI_STRING:
        *(const char **)o->dest = value;
        return 0;
    case CLI_COUNT: {
        size_t v;
        if (cli_parse_size(value, &v) == -2)
            return cli_error(CLI_EXIT_USAGE, "%s: %s value '%s' is too large", command, spelled,
                             value);
        if (cli_parse_size(value, &v) != 0 || v == 0)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: %s expects a positive whole number, got '%s' (see 'tessel %s "
                             "--help')",
                             command, spelled, value, command);
        *(size_t *)o->dest = v;
        return 0;
    }
    case CLI_UINT: {
        size_t v;
        if (cli_parse_size(value, &v) != 0 || v > UINT_MAX)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: %s expects a whole number from 0 to %u, got '%s' (see 'tessel "
                             "%s --help')",
                             command, spelled, UINT_MAX, value, command);
        *(unsigned *)o->dest = (unsigned)v;
        return 0;
    }
    case CLI_REAL: {
        double v;
        if (cli_parse_real(value, &v) != 0)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: %s expects a finite number, got '%s' (see 'tessel %s --help')",
                             command, spelled, value, command);
        *(double *)o->dest = v;
        return 0;
    }
    case CLI_SIZE_LIST:
        if (split_sizes(value, (cli_size_list *)o->dest) != 0)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: %s expects a comma list of at most %d positive whole numbers "
                             "(e.g. 256,512,1024), got '%s'",
                             command, spelled, CLI_MAX_LIST, value);
        return 0;
    case CLI_NAME_LIST:
        if (cli_split_names(value, (cli_name_list *)o->dest) != 0)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: %s expects a comma list of names without empty items, got '%s'",
                             command, spelled, value);
        return 0;
    }
    return cli_error(CLI_EXIT_USAGE, "%s: internal: bad option kind for %s", command, spelled);
}

static const cli_option *find(const cli_option *opts, size_t nopts, const char *arg, size_t len)
{
    for (size_t i = 0; i < nopts; ++i) {
        const char *names[2] = {opts[i].name, opts[i].alias};
        for (int j = 0; j < 2; ++j)
            if (names[j] && strlen(names[j]) == len && strncmp(names[j], arg, len) == 0)
                return &opts[i];
    }
    return NULL;
}

int cli_parse(const char *command, int argc, char **argv, const cli_option *opts, size_t nopts)
{
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0')
            return cli_error(CLI_EXIT_USAGE,
                             "%s: unexpected argument '%s' (see 'tessel %s --help')", command, arg,
                             command);
        const char *eq = (arg[1] == '-') ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const cli_option *o = find(opts, nopts, arg, len);
        if (!o)
            return cli_error(CLI_EXIT_USAGE, "%s: unknown option '%.*s' (see 'tessel %s --help')",
                             command, (int)len, arg, command);
        char spelled[64];
        snprintf(spelled, sizeof spelled, "%.*s", (int)len, arg);
        const char *value = NULL;
        if (o->kind == CLI_FLAG) {
            if (eq)
                return cli_error(CLI_EXIT_USAGE, "%s: option %s takes no value", command, spelled);
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
            value = argv[++i];
        } else {
            return cli_error(CLI_EXIT_USAGE,
                             "%s: option %s needs a value (%s %s; see 'tessel %s "
                             "--help')",
                             command, spelled, spelled, o->metavar ? o->metavar : "VALUE", command);
        }
        int rc = store(command, o, spelled, value);
        if (rc) return rc;
    }
    return 0;
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc; ++i)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

void cli_print_wrapped(FILE *f, const char *text, int indent)
{
    const int width = 100 - indent;
    int col = 0;
    while (*text) {
        while (*text == ' ')
            ++text;
        int len = (int)strcspn(text, " ");
        if (len == 0) break;
        if (col > 0 && col + 1 + len > width) {
            fprintf(f, "\n%*s", indent, "");
            col = 0;
        } else if (col > 0) {
            fputc(' ', f);
            ++col;
        }
        fprintf(f, "%.*s", len, text);
        col += len;
        text += len;
    }
    fputc('\n', f);
}

void cli_print_options(FILE *f, const cli_option *opts, size_t nopts)
{
    for (size_t i = 0; i < nopts; ++i) {
        char left[64];
        if (opts[i].alias)
            snprintf(left, sizeof left, "%s, %s%s%s", opts[i].alias, opts[i].name,
                     opts[i].metavar ? " " : "", opts[i].metavar ? opts[i].metavar : "");
        else
            snprintf(left, sizeof left, "%s%s%s", opts[i].name, opts[i].metavar ? " " : "",
                     opts[i].metavar ? opts[i].metavar : "");
        if (strlen(left) > 24)
            fprintf(f, "  %s\n  %-24s  ", left, "");
        else
            fprintf(f, "  %-24s  ", left);
        cli_print_wrapped(f, opts[i].help, 28);
    }
}

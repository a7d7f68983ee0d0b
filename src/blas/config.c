/* config.c: the per-routine rules of TESSEL_BLAS_CONFIG (docs/dropin.md, "Config file"). One rule
 * a line, "ROUTINE KEY VALUE", with # comments and blank lines ignored:
 *     dgemm route cpu        # every dgemm_ / cblas_dgemm call on the CPU
 *     sgemm min_flops 1e9    # auto looks at sgemm calls of 1e9 flops and more only
 *     *     route auto       # "*": every routine without a rule of its own for that key
 * A bad line is reported once with the file and line number and ignored; the other lines still
 * apply, so a typo never stops a program. The rules are read once, before the first call is
 * routed, and looked up by name afterwards without a lock (they never change again). The route
 * modes' names are here too: the rules and TESSEL_BLAS_ROUTE (route.c) read the same words; and
 * TESSEL_BLAS_MATH, read once, with the words of the `tessel` command's --math: route.c reports
 * it, device.c sets it on every context. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blas/route.h"

/* ---- the route modes' names ------------------------------------------------------------------ */

int tsl__blas_route_parse(const char *s)
{
    if (!s) return -1;
    if (strcasecmp(s, "auto") == 0) return TSL__ROUTE_AUTO;
    if (strcasecmp(s, "device") == 0) return TSL__ROUTE_DEVICE;
    if (strcasecmp(s, "cpu") == 0) return TSL__ROUTE_CPU;
    return -1;
}

const char *tsl__blas_route_name(int mode)
{
    return mode == TSL__ROUTE_DEVICE ? "device" : mode == TSL__ROUTE_CPU ? "cpu" : "auto";
}

/* ---- the math modes' names (TESSEL_BLAS_MATH) ---------------------------------------------- */

int tsl__blas_math_parse(const char *s)
{
    if (!s) return -1;
    if (strcasecmp(s, "fp32") == 0) return TSL_MATH_FP32;
    if (strcasecmp(s, "tf32") == 0) return TSL_MATH_TF32;
    if (strcasecmp(s, "3xtf32") == 0) return TSL_MATH_3XTF32;
    return -1;
}

const char *tsl__blas_math_name(int math)
{
    return math == TSL_MATH_TF32 ? "tf32" : math == TSL_MATH_3XTF32 ? "3xtf32" : "fp32";
}

static pthread_once_t g_math_once = PTHREAD_ONCE_INIT;
static int g_math = TSL_MATH_FP32;

static void read_math(void)
{
    const char *v = getenv("TESSEL_BLAS_MATH");
    if (!v || !*v) return;
    int m = tsl__blas_math_parse(v);
    if (m < 0)
        fprintf(stderr,
                "tessel-blas: warning: TESSEL_BLAS_MATH=%s is not fp32, tf32 or 3xtf32; using "
                "fp32\n",
                v);
    else
        g_math = m;
}

int tsl__blas_math(void)
{
    pthread_once(&g_math_once, read_math);
    return g_math;
}

/* ---- the rules ------------------------------------------------------------------------------- */

#define MAX_RULES 256

typedef struct {
    char routine[24]; /* lower case, no "cblas_" prefix, no trailing _ */
    tsl__blas_rule rule;
} named_rule;

static named_rule g_rules[MAX_RULES];
static size_t g_nrules;

size_t tsl__blas_config_count(void)
{
    return g_nrules;
}

/* "DGEMM", "dgemm_", "cblas_dgemm" -> "dgemm"; 0 if it is not a plausible routine name. */
static int normalize(const char *word, char *out, size_t cap)
{
    if (strncasecmp(word, "cblas_", 6) == 0) word += 6;
    size_t n = strlen(word);
    if (n && word[n - 1] == '_') n--;
    if (n == 0 || n >= cap) return 0;
    if (n == 1 && word[0] == '*') {
        strcpy(out, "*");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!isalnum((unsigned char)word[i]) && word[i] != '_') return 0;
        out[i] = (char)tolower((unsigned char)word[i]);
    }
    out[n] = '\0';
    return isalpha((unsigned char)out[0]);
}

static named_rule *rule_for(const char *routine)
{
    for (size_t i = 0; i < g_nrules; i++)
        if (strcmp(g_rules[i].routine, routine) == 0) return &g_rules[i];
    if (g_nrules == MAX_RULES) return NULL;
    named_rule *r = &g_rules[g_nrules++];
    snprintf(r->routine, sizeof r->routine, "%s", routine);
    r->rule.route = -1;
    r->rule.min_flops = -1;
    return r;
}

/* One line without its comment; NULL when it is good, else why not. */
static const char *parse_line(char *line)
{
    char *words[4];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save)) {
        if (n == 4) return "too many words (ROUTINE KEY VALUE)";
        words[n++] = w;
    }
    if (n == 0) return NULL;
    if (n != 3) return "expected ROUTINE KEY VALUE";
    char routine[24];
    if (!normalize(words[0], routine, sizeof routine)) return "not a routine name";
    if (strcasecmp(words[1], "route") == 0) {
        int m = tsl__blas_route_parse(words[2]);
        if (m < 0) return "route must be auto, device or cpu";
        named_rule *r = rule_for(routine);
        if (!r) return "too many rules";
        r->rule.route = m;
        return NULL;
    }
    if (strcasecmp(words[1], "min_flops") == 0) {
        char *end;
        errno = 0;
        double v = strtod(words[2], &end);
        if (*end || errno || !isfinite(v) || v < 0) return "min_flops must be a number >= 0";
        named_rule *r = rule_for(routine);
        if (!r) return "too many rules";
        r->rule.min_flops = v;
        return NULL;
    }
    return "unknown key (route or min_flops)";
}

int tsl__blas_config_parse(const char *text, const char *name)
{
    g_nrules = 0;
    int bad = 0, lineno = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        lineno++;
        const char *why = NULL;
        if (len >= sizeof line)
            why = "line too long";
        else {
            memcpy(line, p, len);
            line[len] = '\0';
            char *hash = strchr(line, '#');
            if (hash) *hash = '\0';
            why = parse_line(line);
        }
        if (why) {
            bad++;
            fprintf(stderr, "tessel-blas: warning: %s:%d: %s; line ignored\n", name, lineno, why);
        }
        p += len + (eol ? 1 : 0);
    }
    return bad;
}

void tsl__blas_config_load(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tessel-blas: warning: cannot read TESSEL_BLAS_CONFIG=%s (%s); no rules\n",
                path, strerror(errno));
        return;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap && cap < (1u << 20)) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) break;
            text = bigger;
            cap *= 2;
        } else if (len + 1 == cap)
            break; /* a config of a megabyte is not a config */
    }
    fclose(f);
    if (!text) return;
    text[len] = '\0';
    tsl__blas_config_parse(text, path);
    free(text);
}

tsl__blas_rule tsl__blas_config_rule(const char *routine)
{
    tsl__blas_rule out = {-1, -1};
    if (strncmp(routine, "cblas_", 6) == 0) routine += 6;
    const named_rule *own = NULL, *any = NULL;
    for (size_t i = 0; i < g_nrules; i++) {
        if (strcmp(g_rules[i].routine, routine) == 0)
            own = &g_rules[i];
        else if (strcmp(g_rules[i].routine, "*") == 0)
            any = &g_rules[i];
    }
    if (own) out = own->rule;
    if (any && out.route < 0) out.route = any->rule.route;
    if (any && out.min_flops < 0) out.min_flops = any->rule.min_flops;
    return out;
}

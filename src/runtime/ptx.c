/* ptx.c: the sm_90a patch of a program's PTX (issue "Hopper's tensor cores at full rate from
 * OpenCL"). NVIDIA's OpenCL C compiler targets sm_90, whose ptxas refuses sm_90a-only
 * instructions (wgmma); clCreateProgramWithBinary takes PTX whose target is sm_90a. A kernel
 * writes those instructions inside its inline assembly behind the marker TSL__PTX_MARKER (a PTX
 * comment, so the sm_90 build accepts them), and the host patches the PTX the build gives back
 * (CL_PROGRAM_BINARIES): every marker removed, `.target sm_90` made `.target sm_90a`, and where
 * asked one `.shared` array of the kernel enlarged (a __local array may grow past OpenCL's
 * advertised 48 KiB there, up to ptxas's 227 KiB for sm_90a). The patch is all or nothing: PTX
 * that is not as expected (no sm_90 target, none or several arrays of the size to enlarge, a
 * size past the limit) is refused with the reason, and the caller keeps the unpatched program.
 * Pure text work: no OpenCL call here, so it is tested on any machine (tests/test_ptx.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

/* How many times `what` occurs in s. */
static size_t count(const char *s, const char *what)
{
    size_t n = 0, len = strlen(what);
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += len) ++n;
    return n;
}

/* The .target directive's line: ".target sm_90" then a comma, a space or the line's end. */
static const char *find_sm90(const char *ptx)
{
    static const char key[] = ".target sm_90";
    for (const char *p = ptx; (p = strstr(p, key)) != NULL; p += sizeof key - 1) {
        char next = p[sizeof key - 1];
        if (next == ',' || next == ' ' || next == '\n' || next == '\r' || next == '\0') return p;
    }
    return NULL;
}

/* A `.shared` declaration whose array has `[bytes]` elements on the line; NULL if none, and
 * *several set where more than one line has it. */
static const char *find_shared(const char *ptx, size_t bytes, int *several)
{
    char want[32];
    snprintf(want, sizeof want, "[%zu]", bytes);
    const char *found = NULL;
    *several = 0;
    for (const char *line = ptx; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *sh = strstr(line, ".shared");
        const char *br = strstr(line, want);
        if (sh && br && sh < line + len && br < line + len && br > sh) {
            if (found) *several = 1;
            else found = br;
        }
        line += len + (end ? 1 : 0);
    }
    return found;
}

int tsl__ptx_patch(const char *ptx, size_t shared_from, size_t shared_to, char **out, char *why,
                   size_t why_len)
{
    *out = NULL;
    const char *target = find_sm90(ptx);
    if (!target) {
        snprintf(why, why_len, "the PTX has no `.target sm_90` line");
        return -1;
    }
    const char *array = NULL;
    if (shared_to) {
        int several = 0;
        if (shared_to > TSL__PTX_SHARED_MAX) {
            snprintf(why, why_len, "%zu bytes of shared memory asked, past sm_90a's %d",
                     shared_to, TSL__PTX_SHARED_MAX);
            return -1;
        }
        array = find_shared(ptx, shared_from, &several);
        if (!array || several) {
            snprintf(why, why_len, "%s `.shared` array of %zu bytes in the PTX",
                     several ? "more than one" : "no", shared_from);
            return -1;
        }
    }
    size_t markers = count(ptx, TSL__PTX_MARKER), mlen = strlen(TSL__PTX_MARKER);
    char to[32] = "";
    if (shared_to) snprintf(to, sizeof to, "[%zu]", shared_to);
    char from[32] = "";
    if (shared_to) snprintf(from, sizeof from, "[%zu]", shared_from);
    size_t size = strlen(ptx) + 2 + strlen(to) + 1;
    char *o = malloc(size), *w = o;
    if (!o) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    for (const char *p = ptx; *p;) {
        if (p == target) { /* ".target sm_90" -> ".target sm_90a" */
            memcpy(w, ".target sm_90a", 14);
            w += 14, p += 13;
        } else if (array && p == array) {
            memcpy(w, to, strlen(to));
            w += strlen(to), p += strlen(from);
        } else if (markers && strncmp(p, TSL__PTX_MARKER, mlen) == 0) {
            p += mlen;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    *out = o;
    return 0;
}

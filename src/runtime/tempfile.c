/* tempfile.c: the registry of live temporary files, so that an interrupted program leaves none.
 * tessel writes its kernel-cache entries and the tuning database under a temporary name that is
 * renamed into place when complete; a Ctrl-C in between would leave the temporary behind. The
 * library never installs a signal handler or changes any process-wide state of the program that
 * links it, so it only keeps the paths of its live temporaries here, and the program's own
 * SIGINT/SIGTERM handler calls tsl_remove_temporaries() (the tessel command does, and registers
 * its own temporaries, including a private folder, in the same registry). The storage is a fixed
 * array of slots claimed with atomic compare-and-swap, never a lock or an allocation, so the
 * removal is safe inside a signal handler and against other threads that register or drop paths
 * at the same time; it uses only async-signal-safe calls (unlink, rmdir, and for a folder's
 * contents on Linux open, getdents64, unlinkat). A full registry only means a temporary is not
 * covered: registering never fails a write. tsl_temporary_mkstemp registers a name before it
 * creates the file, so an interrupt between the two cannot leave an unregistered file. */
#define _DEFAULT_SOURCE /* syscall(), for getdents64 on Linux */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "runtime/runtime.h"

#define SLOTS 64
#define PATH_CAP 4096
#define MAX_DEPTH 4 /* folders inside a registered folder that are emptied too */

/* A slot's word holds its state in the low two bits and, above them, a generation counted up
 * each time the slot gets a path, so that a compare-and-swap fails on a slot that was emptied and
 * filled again since it was read. The path is written only by the thread (or handler) that moved
 * the slot to BUSY; while it is LIVE the path does not change, so it can be read. */
enum { SLOT_FREE = 0, SLOT_BUSY = 1, SLOT_LIVE = 2, STATE_MASK = 3 };
/* Only a lock-free atomic may be touched in a signal handler. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "tempfile.c needs lock-free atomic int");

static struct {
    atomic_uint word;
    char path[PATH_CAP];
} slots[SLOTS];

tsl_status tsl_temporary_add(const char *path)
{
    if (!path || !path[0] || strlen(path) >= PATH_CAP) return TSL_ERR_INVALID_ARG;
    for (int i = 0; i < SLOTS; ++i) {
        unsigned w = atomic_load(&slots[i].word);
        if ((w & STATE_MASK) != SLOT_FREE) continue;
        unsigned gen = w & ~(unsigned)STATE_MASK;
        if (!atomic_compare_exchange_strong(&slots[i].word, &w, gen | SLOT_BUSY)) continue;
        memcpy(slots[i].path, path, strlen(path) + 1);
        atomic_store(&slots[i].word, (gen + 4u) | SLOT_LIVE);
        return TSL_OK;
    }
    return TSL_ERR_OUT_OF_MEMORY;
}

void tsl_temporary_drop(const char *path)
{
    if (!path) return;
    for (int i = 0; i < SLOTS; ++i) {
        unsigned w = atomic_load(&slots[i].word);
        if ((w & STATE_MASK) != SLOT_LIVE || strcmp(slots[i].path, path) != 0) continue;
        /* Fails only if the slot changed since w was read: then the path compared may have been
         * half rewritten, and ours, if still registered, is in another slot. */
        if (atomic_compare_exchange_strong(&slots[i].word, &w,
                                           (w & ~(unsigned)STATE_MASK) | SLOT_FREE))
            return;
    }
}

int tsl_temporary_mkstemp(char *path_template)
{
    static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static atomic_ulong counter;
    size_t len = path_template ? strlen(path_template) : 0;
    if (len < 6 || strcmp(path_template + len - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    /* Names need only be unlikely to exist (O_EXCL makes them safe): the process, a counter and
     * the clock, mixed. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long x = (unsigned long long)getpid() * 0x9E3779B97F4A7C15ull ^
                           (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 32);
    for (int attempt = 0; attempt < 1000; ++attempt) {
        x ^= atomic_fetch_add(&counter, 1) * 0xD1B54A32D192ED03ull;
        x ^= x >> 29, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 32;
        unsigned long long bits = x;
        for (size_t i = len - 6; i < len; ++i, bits /= 62)
            path_template[i] = chars[bits % 62];
        /* Registered before it exists: an interrupt on this thread at any moment finds it (or
         * finds nothing to remove yet). */
        tsl_status reg = tsl_temporary_add(path_template);
        int fd = open(path_template, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) return fd;
        int e = errno;
        if (reg == TSL_OK) tsl_temporary_drop(path_template);
        errno = e;
        if (e != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

#if defined(__linux__)
/* The record getdents64 fills (linux/dirent.h's linux_dirent64). */
struct dirent64_record {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Removes everything in the open folder fd, folders MAX_DEPTH deep included. Entries removed
 * while the folder is read may make the next read skip one, so it reads again from the start
 * until a pass removes nothing (a few passes at most). */
static void empty_folder(int fd, int depth)
{
    for (int pass = 0; pass < 8; ++pass) {
        int removed = 0;
        if (lseek(fd, 0, SEEK_SET) != 0) return;
        for (;;) {
            _Alignas(8) char buf[2048];
            long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
            if (n <= 0) break;
            for (long off = 0; off < n;) {
                struct dirent64_record *d = (struct dirent64_record *)(void *)(buf + off);
                off += d->reclen;
                const char *e = d->name;
                if (e[0] == '.' && (e[1] == '\0' || (e[1] == '.' && e[2] == '\0'))) continue;
                if (unlinkat(fd, e, 0) == 0) {
                    removed = 1;
                    continue;
                }
                if ((errno != EISDIR && errno != EPERM) || depth >= MAX_DEPTH) continue;
                int sub = openat(fd, e, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0) continue;
                empty_folder(sub, depth + 1);
                close(sub);
                if (unlinkat(fd, e, AT_REMOVEDIR) == 0) removed = 1;
            }
        }
        if (!removed) return;
    }
}
#endif

/* A file is unlinked; a folder is emptied (on Linux) and removed. */
static void remove_path(const char *path)
{
    if (unlink(path) == 0 || errno == ENOENT) return;
    if (errno != EISDIR && errno != EPERM) return;
#if defined(__linux__)
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        empty_folder(fd, 1);
        close(fd);
    }
#endif
    rmdir(path);
}

void tsl_remove_temporaries(void)
{
    int saved = errno;
    for (int i = 0; i < SLOTS; ++i) {
        unsigned w = atomic_load(&slots[i].word);
        if ((w & STATE_MASK) != SLOT_LIVE) continue;
        unsigned gen = w & ~(unsigned)STATE_MASK;
        if (!atomic_compare_exchange_strong(&slots[i].word, &w, gen | SLOT_BUSY)) continue;
        remove_path(slots[i].path);
        atomic_store(&slots[i].word, gen | SLOT_FREE);
    }
    errno = saved;
}

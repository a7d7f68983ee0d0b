/* test_tempfile.c: the registry of temporary files (src/runtime/tempfile.c) that a program's
 * SIGINT/SIGTERM handler empties with tsl_remove_temporaries(). Checks: bad arguments; registered
 * files are removed and dropped ones are not; a registered folder goes with its files and a
 * nested folder; the registry holds 64 paths and frees them after a removal; tsl_temporary_mkstemp
 * makes distinct registered files of mode 0600; the removal works inside a real signal handler and
 * keeps errno; and it is safe while other threads register and drop paths. No device is needed. Names and contents come from a seeded generator. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tessel.h"

static char root[512]; /* the test's own folder: every path below fits 1024 bytes */
static unsigned long long rng = 0x9E3779B97F4A7C15ull;

static unsigned next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* A file of random non-zero bytes at dir/name.NNNN; its path into out. */
static void make_file(const char *dir, const char *name, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s.%04u", dir, name, next_rand() % 10000);
    FILE *f = fopen(out, "wb");
    CHECK(f != NULL, "cannot create %s", out);
    if (!f) return;
    for (unsigned i = 0, n = 1 + next_rand() % 3000; i < n; ++i)
        fputc(1 + (int)(next_rand() % 255), f);
    fclose(f);
}

static int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

static void test_arguments(void)
{
    CHECK(tsl_temporary_add(NULL) == TSL_ERR_INVALID_ARG, "NULL path");
    CHECK(tsl_temporary_add("") == TSL_ERR_INVALID_ARG, "empty path");
    static char longpath[5000];
    memset(longpath, 'a', sizeof longpath - 1);
    CHECK(tsl_temporary_add(longpath) == TSL_ERR_INVALID_ARG, "a path of 4999 bytes");
    tsl_temporary_drop(NULL);              /* no-op */
    tsl_temporary_drop("/not/registered"); /* no-op */
    tsl_remove_temporaries();              /* nothing registered: no-op */
}

static void test_files_and_folders(void)
{
    char keep[1024], gone[1024], dir[900], sub[1024], in_dir[1024], in_sub[1024];
    make_file(root, ".keep", keep, sizeof keep);
    make_file(root, ".gone", gone, sizeof gone);
    snprintf(dir, sizeof dir, "%s/folder.%u", root, next_rand() % 1000);
    snprintf(sub, sizeof sub, "%s/cache-1", dir);
    CHECK(mkdir(dir, 0700) == 0 && mkdir(sub, 0700) == 0, "mkdir %s", sub);
    make_file(dir, "run-1.csv", in_dir, sizeof in_dir);
    make_file(sub, "entry.bin", in_sub, sizeof in_sub);
    /* many files, so the folder takes more than one getdents64 read */
    for (int i = 0; i < 150; ++i) {
        char p[1024];
        make_file(dir, "many-files-with-a-long-name-to-fill-the-buffer", p, sizeof p);
    }
    CHECK(tsl_temporary_add(keep) == TSL_OK, "add %s", keep);
    CHECK(tsl_temporary_add(gone) == TSL_OK, "add %s", gone);
    CHECK(tsl_temporary_add(dir) == TSL_OK, "add %s", dir);
    tsl_temporary_drop(keep); /* as after its rename into place */
    errno = 1234;
    tsl_remove_temporaries();
    CHECK(errno == 1234, "errno kept (%d)", errno);
    CHECK(exists(keep), "a dropped path stays: %s", keep);
    CHECK(!exists(gone), "a registered file is removed: %s", gone);
    CHECK(!exists(dir), "a registered folder is removed with its contents: %s", dir);
    unlink(keep);
    /* removed paths are forgotten: a file created again under the name stays */
    make_file(root, ".again", gone, sizeof gone);
    tsl_remove_temporaries();
    CHECK(exists(gone), "a path removed once is no longer registered");
    unlink(gone);
}

static void test_capacity(void)
{
    char paths[65][1024];
    int added = 0;
    for (int i = 0; i < 65; ++i) {
        make_file(root, ".slot", paths[i], sizeof paths[i]);
        tsl_status s = tsl_temporary_add(paths[i]);
        if (i < 64) {
            CHECK(s == TSL_OK, "add %d of 64: %s", i + 1, tsl_status_name(s));
            added += s == TSL_OK;
        } else {
            CHECK(s == TSL_ERR_OUT_OF_MEMORY, "the 65th path: %s", tsl_status_name(s));
        }
    }
    tsl_remove_temporaries();
    int left = 0;
    for (int i = 0; i < 64; ++i)
        left += exists(paths[i]);
    CHECK(added == 64 && left == 0, "%d of the 64 registered files left", left);
    CHECK(exists(paths[64]), "the path the full registry refused is not removed");
    unlink(paths[64]);
    make_file(root, ".slot", paths[0], sizeof paths[0]);
    CHECK(tsl_temporary_add(paths[0]) == TSL_OK, "slots are free again after a removal");
    tsl_temporary_drop(paths[0]);
    unlink(paths[0]);
}

static void test_mkstemp(void)
{
    char bad[1024];
    snprintf(bad, sizeof bad, "%s/no-placeholder", root);
    errno = 0;
    CHECK(tsl_temporary_mkstemp(bad) == -1 && errno == EINVAL, "a template without XXXXXX");
    CHECK(tsl_temporary_mkstemp(NULL) == -1 && errno == EINVAL, "a NULL template");
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/.out.csv.XXXXXX", root);
    snprintf(b, sizeof b, "%s/.out.csv.XXXXXX", root);
    int fa = tsl_temporary_mkstemp(a), fb = tsl_temporary_mkstemp(b);
    CHECK(fa >= 0 && fb >= 0, "two temporaries from one template: %d %d", fa, fb);
    CHECK(strcmp(a, b) != 0 && !strstr(a, "XXXXXX"), "distinct names: %s %s", a, b);
    struct stat st;
    CHECK(fstat(fa, &st) == 0 && (st.st_mode & 0777) == 0600, "mode 0600: %o",
          (unsigned)(st.st_mode & 0777));
    CHECK(write(fa, "x", 1) == 1, "the descriptor is writable");
    close(fa), close(fb);
    tsl_temporary_drop(b); /* as after its rename */
    tsl_remove_temporaries();
    CHECK(!exists(a), "a registered temporary is removed: %s", a);
    CHECK(exists(b), "a dropped one stays: %s", b);
    unlink(b);
}

static void on_usr1(int sig)
{
    (void)sig;
    tsl_remove_temporaries();
}

static void test_in_handler(void)
{
    char path[1024];
    make_file(root, ".handler", path, sizeof path);
    CHECK(tsl_temporary_add(path) == TSL_OK, "add %s", path);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, &old);
    raise(SIGUSR1);
    sigaction(SIGUSR1, &old, NULL);
    CHECK(!exists(path), "removed by the signal handler: %s", path);
}

/* Threads register and drop their own paths while the main thread empties the registry. */
static void *churn(void *arg)
{
    const char *path = arg;
    for (int i = 0; i < 20000; ++i) {
        if (tsl_temporary_add(path) == TSL_OK) tsl_temporary_drop(path);
    }
    return NULL;
}

static void test_threads(void)
{
    char paths[4][1024];
    pthread_t th[4];
    for (int i = 0; i < 4; ++i) {
        snprintf(paths[i], sizeof paths[i], "%s/.thread-%d-does-not-exist", root, i);
        CHECK(pthread_create(&th[i], NULL, churn, paths[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < 2000; ++i)
        tsl_remove_temporaries();
    for (int i = 0; i < 4; ++i)
        pthread_join(th[i], NULL);
    /* every slot is free again: 64 adds succeed */
    int ok = 0;
    for (int i = 0; i < 64; ++i)
        ok += tsl_temporary_add(paths[i % 4]) == TSL_OK;
    CHECK(ok == 64, "%d of 64 slots free after the threads", ok);
    tsl_remove_temporaries();
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/tessel-test-tempfile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_arguments();
    test_files_and_folders();
    test_capacity();
    test_mkstemp();
    test_in_handler();
    test_threads();
    CHECK(rmdir(root) == 0, "the test folder is empty at the end: %s", strerror(errno));
    return check_summary("test_tempfile");
}

/* host_copy.c: host memcpy split over a crew of threads (host_copy.h). The helpers wait on a
 * condition variable for a copy; the submitter publishes it as a count of slices, every thread
 * (the submitter too) takes the next slice until none is left, and the submitter waits until
 * the last slice is done. Slices are byte ranges of the flat block, so a slice may start or end
 * inside a run, or inside an element: each byte is copied once, by one thread. */
#include "pipeline/host_copy.h"

#include <string.h>

#define SLICE_MIN (256u * 1024u) /* bytes a thread takes, at least */

static void copy_part(const tsl__copy_job *j, size_t a, size_t b)
{
    while (a < b) {
        size_t r = a / j->len, off = a % j->len, n = j->len - off;
        if (n > b - a) n = b - a;
        char *h = j->host + r * j->pitch + off, *f = j->flat + (a - j->from);
        if (j->unpack)
            memcpy(h, f, n);
        else
            memcpy(f, h, n);
        a += n;
    }
}

static void slice_bounds(const tsl__crew *cr, size_t i, size_t *a, size_t *b)
{
    size_t total = cr->job.to - cr->job.from;
    *a = cr->job.from + total / cr->slices * i;
    *b = i + 1 == cr->slices ? cr->job.to : cr->job.from + total / cr->slices * (i + 1);
}

/* Takes slices until none is left; mu held on entry and exit. */
static void crew_work(tsl__crew *cr)
{
    while (cr->next < cr->slices) {
        size_t i = cr->next++, a, b;
        slice_bounds(cr, i, &a, &b);
        tsl__copy_job j = cr->job;
        pthread_mutex_unlock(&cr->mu);
        copy_part(&j, a, b);
        pthread_mutex_lock(&cr->mu);
        if (++cr->finished == cr->slices) pthread_cond_broadcast(&cr->done);
    }
}

static void *crew_main(void *arg)
{
    tsl__crew *cr = arg;
    pthread_mutex_lock(&cr->mu);
    for (;;) {
        while (!cr->quit && cr->next >= cr->slices)
            pthread_cond_wait(&cr->go, &cr->mu);
        if (cr->quit) break;
        crew_work(cr);
    }
    pthread_mutex_unlock(&cr->mu);
    return NULL;
}

void tsl__crew_start(tsl__crew *cr, size_t threads, size_t piece)
{
    memset(cr, 0, sizeof *cr);
    cr->min_slice = threads > 0 && piece / threads < SLICE_MIN ? piece / threads : SLICE_MIN;
    if (cr->min_slice < 64) cr->min_slice = 64;
    if (threads <= 1) return;
    if (pthread_mutex_init(&cr->mu, NULL) != 0) return;
    if (pthread_mutex_init(&cr->turn, NULL) != 0) goto no_turn;
    if (pthread_cond_init(&cr->go, NULL) != 0) goto no_go;
    if (pthread_cond_init(&cr->done, NULL) != 0) goto no_done;
    cr->live = 1;
    for (size_t i = 0; i + 1 < threads && i < TSL__CREW_MAX; ++i) {
        if (pthread_create(&cr->th[i], NULL, crew_main, cr) != 0) break;
        cr->nth++;
    }
    return;
no_done:
    pthread_cond_destroy(&cr->go);
no_go:
    pthread_mutex_destroy(&cr->turn);
no_turn:
    pthread_mutex_destroy(&cr->mu);
}

void tsl__crew_stop(tsl__crew *cr)
{
    if (!cr->live) return;
    pthread_mutex_lock(&cr->mu);
    cr->quit = 1;
    pthread_cond_broadcast(&cr->go);
    pthread_mutex_unlock(&cr->mu);
    for (size_t i = 0; i < cr->nth; ++i)
        pthread_join(cr->th[i], NULL);
    pthread_cond_destroy(&cr->done);
    pthread_cond_destroy(&cr->go);
    pthread_mutex_destroy(&cr->turn);
    pthread_mutex_destroy(&cr->mu);
    cr->live = 0;
}

void tsl__crew_copy(tsl__crew *cr, const tsl__copy_job *j)
{
    size_t total = j->to - j->from, slices = total / cr->min_slice;
    if (cr->live && slices > cr->nth + 1) slices = cr->nth + 1;
    if (!cr->live || cr->nth == 0 || slices <= 1) {
        copy_part(j, j->from, j->to);
        return;
    }
    pthread_mutex_lock(&cr->turn);
    pthread_mutex_lock(&cr->mu);
    cr->job = *j;
    cr->slices = slices;
    cr->next = cr->finished = 0;
    pthread_cond_broadcast(&cr->go);
    crew_work(cr);
    while (cr->finished < cr->slices)
        pthread_cond_wait(&cr->done, &cr->mu);
    pthread_mutex_unlock(&cr->mu);
    pthread_mutex_unlock(&cr->turn);
}

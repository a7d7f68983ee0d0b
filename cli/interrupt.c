/* interrupt.c: the tessel command's handler for SIGINT, SIGTERM and SIGHUP. Its files are written
 * under temporary names renamed into place when complete (cli_atomic_open, the study's private
 * folder, libtessel's kernel cache and tuning database); every such temporary is in libtessel's
 * registry, so the handler needs no knowledge of what runs: it stops the child the command waits
 * for, calls tsl_remove_temporaries(), restores the signal's default action and raises it again,
 * so the process ends by the signal (exit status 130 or 143 in a shell, and a parent such as make
 * sees the interruption). Everything the handler does is async-signal-safe. */
#include "interrupt.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tessel.h"

static volatile sig_atomic_t child_pid;
static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction initial[sizeof sigs / sizeof sigs[0]];
static int installed[sizeof sigs / sizeof sigs[0]];

void cli_interrupt_child(pid_t pid)
{
    child_pid = (sig_atomic_t)pid;
}

static void on_interrupt(int sig)
{
    /* SA_RESETHAND has restored the default action already; sig stays blocked until we return,
     * so the raise below ends the process only after the cleanup. */
    pid_t child = (pid_t)child_pid;
    if (child > 0) {
        kill(child, SIGKILL);
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    tsl_remove_temporaries();
    raise(sig);
}

void cli_interrupt_init(void)
{
    struct sigaction sa;
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
        sigaddset(&sa.sa_mask, sigs[i]); /* one cleanup at a time */
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
        if (sigaction(sigs[i], NULL, &initial[i]) != 0 || initial[i].sa_handler == SIG_IGN)
            continue;
        installed[i] = sigaction(sigs[i], &sa, NULL) == 0;
    }
}

void cli_interrupt_forked(void)
{
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
        if (installed[i]) sigaction(sigs[i], &initial[i], NULL);
}

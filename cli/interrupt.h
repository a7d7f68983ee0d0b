/* interrupt.h: what the tessel command does on SIGINT, SIGTERM and SIGHUP. An interrupted command
 * removes its temporary files (its own and libtessel's, all in the library's registry: see
 * tsl_temporary_add in tessel.h), stops a child it waits for (gnuplot), and then ends as the
 * signal ends it, so a shell reports 130 for Ctrl-C and 143 for SIGTERM. */
#ifndef TESSEL_CLI_INTERRUPT_H
#define TESSEL_CLI_INTERRUPT_H

#include <sys/types.h>

/* Installs the handler, once, at start; a signal inherited as ignored (nohup, a background job
 * without job control) stays ignored. */
void cli_interrupt_init(void);

/* In a forked child before it execs: the dispositions the command started with, so that a signal
 * between fork and exec does not run the command's cleanup in the child. */
void cli_interrupt_forked(void);

/* The child process the command is waiting for, killed and reaped by the handler before the
 * temporaries go (it may be writing one); 0 when there is none. */
void cli_interrupt_child(pid_t pid);

#endif

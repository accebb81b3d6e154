/*
 * test_headless.c — swirl without a terminal as a program reads it: the
 * statistics reach a reader through a pipe a line at a time, as each is
 * printed, not a buffer's worth at a time.
 */
#include "e2e.h"
#include "test.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Slow steps (a large dye grid: tens of ms each) with a line after each: the
 * first read from the pipe gets the first line or few, whole, while a fully
 * buffered stdout would hold them until it had 4 KB (some twenty lines). */
TEST_E2E(headless_statistics_reach_a_pipe_line_by_line)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]), close(fds[1]);
        execl("./swirl", "./swirl", "--headless", "--scene", "dye", "--grid", "800x800",
              "--steps", "200", "--every", "1", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    struct pollfd pf = {fds[0], POLLIN, 0};
    CHECK_MSG(poll(&pf, 1, (int)(E2E_DEADLINE * 1000)) == 1, "nothing came");
    char got[8192];
    ssize_t n = read(fds[0], got, sizeof got - 1);
    got[n > 0 ? n : 0] = 0;
    int lines = 0;
    for (ssize_t i = 0; i < n; i++)
        lines += got[i] == '\n';
    CHECK_MSG(n > 0 && n < 2048 && got[n - 1] == '\n' && lines >= 1,
              "first read: %zd bytes, %d lines", n, lines);
    CHECK(strncmp(got, "{\"scene\":\"dye\",\"step\":1,", 24) == 0);
    kill(pid, SIGTERM);
    close(fds[0]);
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
}

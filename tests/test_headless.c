/*
 * test_headless.c — swirl without a terminal as a program reads it: the
 * statistics reach a reader through a pipe a line at a time, as each is
 * printed, not a buffer's worth at a time; and a stdout that fails is an
 * error, told in one line.
 */
#include "e2e.h"
#include "test.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ./swirl with args (split at spaces), its stdout as `out` says ("full":
 * /dev/full, "closed": no stdout at all), its stderr into err (n bytes, NUL
 * ended); its exit status, or -1 when it did not end normally. */
static int run_with_stdout(const char *args, const char *out, char *err, size_t n)
{
    char copy[256], *argv[16];
    int argc = 0;
    snprintf(copy, sizeof copy, "%s", args);
    argv[argc++] = "./swirl";
    for (char *w = strtok(copy, " "); w && argc < 15; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]), close(fds[1]);
        int fd = strcmp(out, "full") == 0 ? open("/dev/full", O_WRONLY) : -1;
        if (fd >= 0)
            dup2(fd, STDOUT_FILENO), close(fd);
        else
            close(STDOUT_FILENO);
        execv("./swirl", argv);
        _exit(127);
    }
    close(fds[1]);
    e2e_read_all(fds[0], err, n);
    close(fds[0]);
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

/* A stdout that fails (a full disk, or none at all) is an error: exit status
 * 1 and one line on stderr that says so, for the statistics (each line of
 * them: the run stops at the first one lost), a recording's summary line and
 * what --help, -V and --list-scenes print; the recording itself is whole. */
TEST_E2E_CPU(headless_a_stdout_that_fails_is_an_error)
{
    char cast[64], args[160];
    snprintf(cast, sizeof cast, "/tmp/swirl-headless-%d.cast", (int)getpid());
    snprintf(args, sizeof args, "--headless --seconds 0.2 --size 40x12 --record %s --overwrite",
             cast);
    const char *const runs[] = {"--headless --steps 10 --every 1 --size 40x12",
                                "--headless --steps 10 --every 10 --size 40x12", args,
                                "--help", "-V", "--list-scenes"};
    static const char *const outs[] = {"full", "closed"};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        for (int o = 0; o < 2; o++) {
            char err[1024];
            int rc = run_with_stdout(runs[r], outs[o], err, sizeof err);
            const char *nl = strchr(err, '\n');
            CHECK_MSG(rc == 1 && strncmp(err, "swirl: cannot write to stdout: ", 31) == 0 &&
                          nl && nl[1] == 0,
                      "swirl %s, stdout %s: exit %d, stderr: %s", runs[r], outs[o], rc, err);
            if (runs[r] == args) {
                size_t len;
                char *text = e2e_slurp(cast, &len);
                CHECK_MSG(text && e2e_valid_cast(text) && !strstr(text, "summary"),
                          "stdout %s: the recording is not whole, or has the summary in it",
                          outs[o]);
                free(text);
                remove(cast);
            }
        }
}

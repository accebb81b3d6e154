/*
 * test_config.c — finding the config file and reading its bytes (config.c),
 * in-process: the XDG rules and the name shown with ~; a regular file read
 * whole, NUL bytes and all; no file; and what is not a regular file (a
 * folder, a FIFO with no writer, a device) refused in one line without
 * waiting: each read runs in a child that an alarm ends, so a read that
 * blocks fails the test instead of hanging it. What the bytes say is
 * test_cli_config.c's; the real ./swirl with such files, test_first_run.c's.
 */
#include "config.h"
#include "e2e.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define READ_DEADLINE 10 /* s: a read that takes this long has blocked */

#define CHECK_STR(got, want)                                                     \
    do {                                                                         \
        const char *g_ = (got), *w_ = (want);                                    \
        CHECK_MSG(strcmp(g_, w_) == 0, "'%s', wanted '%s'", g_, w_);             \
    } while (0)

TEST(config_path_follows_the_xdg_rules)
{
    char path[256], shown[256];
    CHECK(config_path("/x/cfg", "/home/me", path, sizeof path, shown, sizeof shown));
    CHECK_STR(path, "/x/cfg/swirl/config");
    CHECK_STR(shown, "/x/cfg/swirl/config");
    CHECK(config_path("/home/me/.cfg", "/home/me/", path, sizeof path, shown, sizeof shown));
    CHECK_STR(shown, "~/.cfg/swirl/config");
    /* Unset, empty or relative: under HOME. */
    static const char *const not_xdg[] = {NULL, "", "relative/dir"};
    for (int k = 0; k < 3; k++) {
        CHECK(config_path(not_xdg[k], "/home/me", path, sizeof path, shown, sizeof shown));
        CHECK_STR(path, "/home/me/.config/swirl/config");
        CHECK_STR(shown, "~/.config/swirl/config");
    }
    CHECK(!config_path(NULL, NULL, path, sizeof path, shown, sizeof shown));
    CHECK(!config_path("", "relative", path, sizeof path, shown, sizeof shown));
    CHECK(!config_path("/a/rather/long/folder", NULL, path, 16, shown, sizeof shown));
}

/* config_read in a child, within READ_DEADLINE: its result, and what it read
 * or said in out (cap bytes, NUL-terminated); -2 when it did not come back. */
static int read_in_child(const char *path, size_t cap, char *out, size_t n, size_t *len)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        alarm(READ_DEADLINE);
        static char text[CONFIG_MAX], err[1024];
        size_t got = 0;
        int rc = config_read(path, "the-file", text, cap, &got, err, sizeof err);
        const char *say = rc < 0 ? err : text;
        size_t k = rc < 0 ? strlen(err) : got;
        if (write(fd[1], &got, sizeof got) != (ssize_t)sizeof got ||
            write(fd[1], say, k) != (ssize_t)k)
            _exit(99);
        _exit(rc + 10);
    }
    close(fd[1]);
    size_t got = 0, k = 0;
    ssize_t r = read(fd[0], &got, sizeof got);
    while (r == (ssize_t)sizeof got && k + 1 < n) {
        ssize_t m = read(fd[0], out + k, n - 1 - k);
        if (m <= 0)
            break;
        k += (size_t)m;
    }
    out[k] = 0;
    close(fd[0]);
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    *len = got;
    return WIFEXITED(st) && WEXITSTATUS(st) >= 9 && WEXITSTATUS(st) <= 11 ? WEXITSTATUS(st) - 10
                                                                         : -2;
}

static void write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(text, 1, n, f) == n);
        fclose(f);
    }
}

TEST(config_read_takes_a_regular_file_whole)
{
    char dir[64], path[96], out[256];
    snprintf(dir, sizeof dir, "/tmp/swirl-config-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/config", dir);
    size_t len = 0;
    CHECK_INT(read_in_child(path, CONFIG_MAX, out, sizeof out, &len), 1); /* none */
    write_file(path, "fps = 6\0 0\n", 11);
    CHECK_INT(read_in_child(path, CONFIG_MAX, out, sizeof out, &len), 0);
    CHECK(len == 11 && memcmp(out, "fps = 6\0 0\n", 11) == 0);
    /* Just within the room, and a byte past it. */
    CHECK_INT(read_in_child(path, 11, out, sizeof out, &len), 0);
    CHECK_INT(len, 11);
    CHECK_INT(read_in_child(path, 10, out, sizeof out, &len), -1);
    CHECK_STR(out, "the-file: longer than 10 bytes");
    /* A file under a name that is no folder: none either. */
    snprintf(path, sizeof path, "%s/config/config", dir);
    CHECK_INT(read_in_child(path, CONFIG_MAX, out, sizeof out, &len), 1);
    e2e_sh("rm -rf '%s'", dir);
}

/* A folder, a FIFO nobody writes to, a device: one line, at once. */
TEST(config_read_refuses_what_is_not_a_regular_file_without_waiting)
{
    char dir[64], path[96], out[256];
    snprintf(dir, sizeof dir, "/tmp/swirl-config-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    const char *const paths[] = {dir, path, "/dev/null", "/dev/zero"};
    for (int k = 0; k < 4; k++) {
        size_t len = 0;
        int rc = read_in_child(paths[k], CONFIG_MAX, out, sizeof out, &len);
        CHECK_MSG(rc == -1 && strcmp(out, "the-file: not a regular file") == 0,
                  "%s: %d '%s'%s", paths[k], rc, out, rc == -2 ? " (blocked)" : "");
    }
    e2e_sh("rm -rf '%s'", dir);
}

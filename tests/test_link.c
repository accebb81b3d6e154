/*
 * test_link.c — a slow link (tests/slowpty: a pty drained at a fixed rate that
 * answers status requests only as it drains): q must not wait behind seconds
 * of queued frames. Checked in bytes, not seconds: after q, the link carries
 * no more than 0.3 s worth of output before swirl has left the screen.
 */
#include "e2e.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long after_quit(int rate, const char *args)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "./build/slowpty %d 2 ./swirl %s", rate, args);
    FILE *p = popen(cmd, "r");
    char line[512] = "";
    if (!p || !fgets(line, sizeof line, p))
        line[0] = 0;
    if (p)
        pclose(p);
    const char *b = strstr(line, "\"bytes_after_quit\":");
    CHECK_MSG(strstr(line, "\"left_screen\":true") != NULL, "%s: %s", cmd, line);
    return b ? strtol(b + 19, NULL, 10) : -1;
}

/* Each scene, q after two seconds of frames queued on the link. */
static void quit_is_prompt(int rate)
{
    static const char *const scenes[] = {"--auto", "--scene pbf --auto", "--scene cloth --auto"};
    for (int s = 0; s < 3; s++) {
        long n = after_quit(rate, scenes[s]);
        CHECK_MSG(n >= 0 && n <= rate * 3 / 10, "%d B/s, %s: %ld bytes after q", rate, scenes[s],
                  n);
    }
}

TEST_E2E(link_quit_is_prompt_at_20_kb_per_second) { quit_is_prompt(20000); }
TEST_E2E(link_quit_is_prompt_at_100_kb_per_second) { quit_is_prompt(100000); }

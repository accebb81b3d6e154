/*
 * test_xterm.c — what a person sees in a real xterm: swirl's cloth under
 * tests/xterm.sh (xterm with DejaVu Sans Mono 10 under its own Xvfb, read back
 * with screenshots). After ten seconds of --auto and a pause, the screen must
 * be what a full repaint (Ctrl-L) draws, pixel for pixel in the canvas within
 * ImageMagick's 10 % fuzz for anti-aliasing: an outline font draws a block a
 * hair wider than its cell, and before the encoder parted blocks from their
 * neighbours that overhang piled up as thin vertical streaks. Text written over
 * the screen by another process must be gone after the Ctrl-L too. Where X,
 * xterm or the tools are not installed the test says "skipped" and passes.
 */
#include "e2e.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Canvas pixels allowed to differ beyond the fuzz: none were seen. */
#define XTERM_CANVAS_SLACK 0
/* The scribble is two lines of text: far more pixels than that. */
#define XTERM_SCRIBBLE_MIN 500

/* The script's "name value" results; "skipped: ..." or "error: ..." in note. */
struct xterm_run {
    int status;
    long canvas, scribble;
    char note[512];
};

static void read_results(FILE *p, struct xterm_run *x)
{
    char line[512];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (sscanf(line, "canvas_pixels %ld", &x->canvas) == 1 ||
            sscanf(line, "scribble_pixels %ld", &x->scribble) == 1)
            continue;
        if (strncmp(line, "skipped", 7) == 0 || strncmp(line, "error", 5) == 0)
            snprintf(x->note, sizeof x->note, "%s", line);
    }
}

TEST_E2E(e2e_xterm_leaves_no_streaks_and_ctrl_l_repaints)
{
    char dir[64], cmd[128];
    snprintf(dir, sizeof dir, "/tmp/swirl-xterm-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "tests/xterm.sh %s 2>&1", dir);
    struct xterm_run x = {.canvas = -1, .scribble = -1};
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (!p)
        return;
    read_results(p, &x);
    int rc = pclose(p);
    x.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    if (x.status == 77) {
        e2e_sh("rm -rf %s", dir);
        test_skip(x.note);
    }
    CHECK_MSG(x.status == 0, "tests/xterm.sh exit %d: %s", x.status, x.note);
    CHECK_MSG(x.scribble >= XTERM_SCRIBBLE_MIN, "the scribble changed %ld pixels (%s)",
              x.scribble, dir);
    CHECK_MSG(x.canvas >= 0 && x.canvas <= XTERM_CANVAS_SLACK,
              "%ld canvas pixels differ between the paused screen and its repaint "
              "(see %s/paused.png and repainted.png)", x.canvas, dir);
    if (x.status == 0 && x.canvas >= 0 && x.canvas <= XTERM_CANVAS_SLACK &&
        x.scribble >= XTERM_SCRIBBLE_MIN)
        e2e_sh("rm -rf %s", dir);
}

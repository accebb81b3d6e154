/*
 * test_pixterm.c — swirl in a real terminal's pixels (tests/pixterm.sh):
 * the dye in kitty (the graphics protocol) and in xterm -ti vt340 (sixel),
 * each under its own Xvfb. Pictures were sent; a paused picture and its
 * Ctrl-L repaint are the same on screen (within ImageMagick's 10 % fuzz);
 * the screen swirl leaves has no picture of it left (a few colours: the
 * terminal's own), and in kitty both image ids were deleted after the last
 * picture. Where X, the terminal or the tools are missing the test says
 * "skipped" and passes.
 */
#include "e2e.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Canvas pixels a repaint may differ by beyond the fuzz: sixel's palette is
 * the frame's own, the same for the same picture; kitty's PNG is exact. */
#define PIXTERM_SLACK 0
/* Colours on the screen swirl left: the terminal's background and text. */
#define PIXTERM_AFTER_MAX 64

struct pixterm_run {
    int status;
    long frames, canvas, after, deleted;
    char note[512];
};

static void pixterm(const char *proto)
{
    char dir[96], cmd[192], line[512];
    snprintf(dir, sizeof dir, "/tmp/swirl-pixterm-%s-%d", proto, (int)getpid());
    snprintf(cmd, sizeof cmd, "tests/pixterm.sh %s %s 2>&1", dir, proto);
    struct pixterm_run x = {.frames = -1, .canvas = -1, .after = -1, .deleted = -1};
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (!p)
        return;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (sscanf(line, "frames %ld", &x.frames) == 1 ||
            sscanf(line, "canvas_pixels %ld", &x.canvas) == 1 ||
            sscanf(line, "after_colours %ld", &x.after) == 1 ||
            sscanf(line, "deleted_at_exit %ld", &x.deleted) == 1)
            continue;
        if (strncmp(line, "skipped", 7) == 0 || strncmp(line, "error", 5) == 0)
            snprintf(x.note, sizeof x.note, "%s", line);
    }
    const int rc = pclose(p);
    x.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    if (x.status == 77) {
        e2e_sh("rm -rf %s", dir);
        test_skip(x.note);
    }
    CHECK_MSG(x.status == 0, "tests/pixterm.sh %s exit %d: %s", proto, x.status, x.note);
    /* Pictures, not glyphs: at least the first ones. How many depends on how
     * fast the terminal reads them: on a busy machine xterm reads sixel at a
     * few hundred KB/s, less than a picture takes at 15 frames a second, and
     * swirl gives way to glyphs as it should (PIXFIT_GLYPH_FRAMES_SIXEL; in
     * CI once after 3 pictures). */
    CHECK_MSG(x.frames >= 2, "%ld pictures sent (see %s/typescript)", x.frames, dir);
    CHECK_MSG(x.canvas >= 0 && x.canvas <= PIXTERM_SLACK,
              "%ld canvas pixels differ between the paused picture and its Ctrl-L repaint "
              "(see %s/paused.png and repainted.png)", x.canvas, dir);
    CHECK_MSG(x.after >= 0 && x.after < PIXTERM_AFTER_MAX,
              "%ld colours on the screen swirl left (see %s/after.png)", x.after, dir);
    if (strcmp(proto, "kitty") == 0)
        CHECK_MSG(x.deleted == 2, "%ld of the two ids deleted after the last picture", x.deleted);
    if (x.status == 0 && x.frames >= 2 && x.canvas == 0 && x.after < PIXTERM_AFTER_MAX)
        e2e_sh("rm -rf %s", dir);
}

TEST_E2E(e2e_kitty_pixels_repaint_in_place_and_leave_nothing)
{
    pixterm("kitty");
}

TEST_E2E(e2e_xterm_sixel_pixels_repaint_in_place_and_leave_nothing)
{
    pixterm("sixel");
}

/*
 * test_hud_slow.c — the status line's "slow" tag, which says for a second
 * that the last frame's steps did not all run, as the frames a terminal would
 * be sent show it: paused right after a slow frame, the tag goes once it is
 * stale (the paused picture is sent again, once, without it; before, it stayed
 * until Ctrl-L), and a paused picture sends nothing else meanwhile.
 */
#include "app.h"
#include "frame.h"
#include "test.h"

#include <string.h>

/* A clock on which every reading is 10 ms after the last: each step "costs"
 * 10 ms, so a frame's 8 steps overrun its budget (0.7 of 33 ms). */
static double slow_now;
static double slow_clock(void) { return slow_now += 0.010; }

static bool status_has(const struct frame *f, const char *text)
{
    char line[512];
    int n = 0;
    const int row = f->cells.rows - 1;
    for (int c = 0; c < f->cells.cols && n < 511; c++) {
        uint32_t ch = f->cells.c[(size_t)row * (size_t)f->cells.cols + (size_t)c].ch;
        line[n++] = ch < 128 ? (char)ch : '#';
    }
    line[n] = 0;
    return strstr(line, text) != NULL;
}

TEST(hud_slow_tag_goes_when_stale_while_paused)
{
    struct app a;
    struct frame f;
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    o.scene = 1; /* pbf */
    CHECK(app_init(&a, &o, 80, 24) == 0);
    frame_init(&f, &a, false); /* a real clock's frames: the steps have a budget */
    struct buf out;
    buf_init(&out);
    const double dt = 1.0 / 30;
    for (int k = 0; k < 3; k++) {
        buf_clear(&out);
        frame_next(&f, &a, dt, slow_clock, false, &out);
    }
    CHECK_MSG(status_has(&f, " slow "), "a slow frame says so");
    struct input_event e;
    memset(&e, 0, sizeof e);
    e.type = INPUT_KEY;
    e.key = ' ';
    app_input(&a, &e);
    CHECK(a.paused);
    buf_clear(&out);
    CHECK(frame_next(&f, &a, dt, slow_clock, true, &out) > 0);
    CHECK(status_has(&f, " paused ") && status_has(&f, " slow "));
    /* 1.5 s paused, nothing typed: one frame is sent, when the tag goes. */
    int sent = 0, at = -1;
    for (int k = 0; k < 45; k++) {
        buf_clear(&out);
        if (frame_next(&f, &a, dt, slow_clock, false, &out) > 0)
            sent++, at = k;
    }
    CHECK_MSG(sent == 1, "%d paused frames sent (the last %d frames in)", sent, at + 1);
    CHECK_MSG(at >= 25 && at <= 31, "the tag went %d frames after the pause", at + 1);
    CHECK_MSG(status_has(&f, " paused ") && !status_has(&f, " slow "),
              "paused 1.5 s after a slow frame, the status line still says it was slow");
    buf_free(&out);
    frame_free(&f);
    app_free(&a);
}

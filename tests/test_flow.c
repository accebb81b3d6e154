/*
 * test_flow.c — the window of bytes in flight (flow.c): pieces cut only before
 * an escape sequence, a window that follows the link, and the timeouts.
 */
#include "flow.h"
#include "test.h"

#include <string.h>

TEST(flow_pieces_end_before_an_escape_sequence)
{
    struct flow f;
    flow_init(&f);
    f.window = 10;
    const char *frame = "\x1b[H\x1b[48;2;1;2;3m  \xe2\x96\x80\xe2\x96\x80\x1b[2;5H ab";
    size_t len = strlen(frame), off = 0;
    int pieces = 0;
    while (off < len) {
        size_t n = flow_chunk(&f, frame + off, len - off);
        CHECK(n > 0);
        off += n;
        CHECK_MSG(off == len || frame[off] == '\x1b', "cut at %zu", off);
        flow_wrote(&f, n, 0.0);
        flow_answered(&f, 0.001);
        f.window = 10; /* hold it small: many pieces */
        pieces++;
    }
    CHECK(pieces >= 3);
    /* Full window: nothing more until an answer. */
    flow_init(&f);
    f.window = 8;
    CHECK_INT(flow_chunk(&f, frame, len), 3);
    flow_wrote(&f, 3, 0.0);
    flow_wrote(&f, 5, 0.0);
    CHECK_INT(flow_chunk(&f, frame, len), 0);
    CHECK(!flow_ready(&f));
    flow_answered(&f, 0.01);
    CHECK_INT(flow_in_flight(&f), 5);
}

TEST(flow_window_follows_the_link)
{
    struct flow f;
    flow_init(&f);
    /* A slow link: every answer a second late. */
    for (int i = 0; i < 20; i++) {
        flow_wrote(&f, 1000, (double)i);
        flow_answered(&f, (double)i + 1.0);
    }
    CHECK_NEAR(f.window, FLOW_WINDOW_MIN, 1e-9);
    /* A fast one: answers within a millisecond. */
    for (int i = 0; i < 100; i++) {
        flow_wrote(&f, 1000, 100.0 + i);
        flow_answered(&f, 100.0 + i + 0.001);
    }
    CHECK(f.window > 1e6);
    CHECK(f.window <= FLOW_WINDOW_MAX);
}

TEST(flow_gives_up_on_a_terminal_that_never_answers)
{
    struct flow f;
    flow_init(&f);
    f.window = 100;
    flow_wrote(&f, 100, 0.0);
    CHECK(!flow_ready(&f));
    flow_tick(&f, 0.5);
    CHECK(!f.off);
    flow_tick(&f, FLOW_GIVE_UP + 0.1);
    CHECK(f.off && flow_ready(&f));
    CHECK_INT(flow_chunk(&f, "\x1b[H0123456789", 13), 13);
    /* One that answered once but lost an answer: forgiven after FLOW_LOST. */
    flow_init(&f);
    flow_wrote(&f, 10, 0.0);
    flow_answered(&f, 0.01);
    f.window = 100;
    flow_wrote(&f, 100, 1.0);
    flow_tick(&f, 1.0 + FLOW_LOST - 0.1);
    CHECK(!flow_ready(&f));
    flow_tick(&f, 1.0 + FLOW_LOST + 0.1);
    CHECK(flow_ready(&f) && !f.off);
}

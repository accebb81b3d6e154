/*
 * test_input.c — the key and SGR mouse parser: press, drag, release, wheel,
 * wide columns, split and truncated input, garbage.
 */
#include "input.h"
#include "swirl.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static int feed(struct input *in, const char *s, struct input_event *ev, int max)
{
    return input_feed(in, (const unsigned char *)s, strlen(s), ev, max);
}

TEST(input_sgr_press_drag_release)
{
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<0;10;5M\x1b[<32;12;6M\x1b[<0;12;6m", ev, 8), 3);
    CHECK(ev[0].type == INPUT_MOUSE && ev[0].action == MOUSE_PRESS && ev[0].button == 0);
    CHECK(ev[0].x == 9 && ev[0].y == 4);
    CHECK(ev[1].action == MOUSE_DRAG && ev[1].button == 0 && ev[1].x == 11 && ev[1].y == 5);
    CHECK(ev[2].action == MOUSE_RELEASE && ev[2].x == 11);
    CHECK(!input_pending(&in));
}

TEST(input_sgr_right_button_wheel_and_motion)
{
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<2;1;1M\x1b[<64;5;5M\x1b[<65;5;5M\x1b[<35;7;7M", ev, 8), 4);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == 2);
    CHECK(ev[1].action == MOUSE_WHEEL && ev[1].button == 1);
    CHECK(ev[2].action == MOUSE_WHEEL && ev[2].button == -1);
    CHECK(ev[3].action == MOUSE_MOVE);
    /* Modifier bits (shift 4, meta 8, ctrl 16) do not change the button. */
    CHECK_INT(feed(&in, "\x1b[<16;3;3M", ev, 8), 1);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == 0);
}

TEST(input_sgr_beyond_column_223)
{
    struct input in;
    struct input_event ev[2];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<32;300;120M", ev, 2), 1);
    CHECK_INT(ev[0].x, 299);
    CHECK_INT(ev[0].y, 119);
}

TEST(input_split_reports_wait_for_their_end)
{
    struct input in;
    struct input_event ev[4];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<0;1", ev, 4), 0);
    CHECK(input_pending(&in));
    CHECK_INT(feed(&in, "0;5", ev, 4), 0);
    CHECK_INT(feed(&in, "M", ev, 4), 1);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].x == 9 && ev[0].y == 4);
}

TEST(input_truncated_and_garbage_are_dropped)
{
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    /* A report cut short by a new one: the first is dropped, the second read. */
    CHECK_INT(feed(&in, "\x1b[<0;10\x1b[<0;3;4M", ev, 8), 1);
    CHECK(ev[0].type == INPUT_MOUSE && ev[0].x == 2 && ev[0].y == 3);
    /* Wrong parameter count, letters in parameters: nothing, and the keys after
     * them still arrive. */
    CHECK_INT(feed(&in, "\x1b[<1;2Mq", ev, 8), 1);
    CHECK(ev[0].type == INPUT_KEY && ev[0].key == 'q');
    /* A final byte in the middle ends the sequence there (ECMA-48): what follows
     * is read as keys, and the parser is back in step. */
    CHECK_INT(feed(&in, "\x1b[<1;zq", ev, 8), 1);
    CHECK(ev[0].type == INPUT_KEY && ev[0].key == 'q');
    /* Random bytes, then a valid report: the report comes out intact. */
    struct rng r = {42};
    for (int k = 0; k < 2000; k++) {
        unsigned char byte = (unsigned char)(rng_next(&r) & 0xFF);
        struct input_event junk[8];
        input_feed(&in, &byte, 1, junk, 8);
    }
    input_flush(&in, ev, 8);
    CHECK_INT(feed(&in, "\x1b[<0;7;8M", ev, 8), 1);
    CHECK(ev[0].type == INPUT_MOUSE && ev[0].x == 6 && ev[0].y == 7);
    /* A truncated report at the end of input is discarded by a flush. */
    CHECK_INT(feed(&in, "\x1b[<0;5", ev, 8), 0);
    CHECK_INT(input_flush(&in, ev, 8), 0);
    CHECK(!input_pending(&in));
    /* Over-long CSI garbage does not wedge the parser. */
    char junk[200];
    memset(junk, '1', sizeof junk);
    junk[0] = 27, junk[1] = '[', junk[199] = 0;
    feed(&in, junk, ev, 8);
    CHECK_INT(feed(&in, "z", ev, 8) + input_flush(&in, ev + 1, 7) >= 1, 1);
}

TEST(input_keys_arrows_and_escape)
{
    struct input in;
    struct input_event ev[16];
    input_init(&in);
    CHECK_INT(feed(&in, "a\x1b[A\x1bOB\x1b[1;5C\x1b[D\t\r\x7f", ev, 16), 8);
    CHECK_INT(ev[0].key, 'a');
    CHECK_INT(ev[1].key, IK_UP);
    CHECK_INT(ev[2].key, IK_DOWN);
    CHECK_INT(ev[3].key, IK_RIGHT);
    CHECK_INT(ev[4].key, IK_LEFT);
    CHECK_INT(ev[5].key, IK_TAB);
    CHECK_INT(ev[6].key, IK_ENTER);
    CHECK_INT(ev[7].key, IK_BACKSPACE);
    /* A lone ESC waits, then is the Esc key. */
    CHECK_INT(feed(&in, "\x1b", ev, 16), 0);
    CHECK_INT(input_flush(&in, ev, 16), 1);
    CHECK_INT(ev[0].key, IK_ESC);
    /* ESC then a letter is Alt+letter; the DSR answer is a pong; UTF-8 decodes. */
    CHECK_INT(feed(&in, "\x1bq\x1b[0n\xc3\xa9\x1b[Z", ev, 16), 4);
    CHECK(ev[0].key == 'q' && ev[0].alt);
    CHECK(ev[1].type == INPUT_PONG);
    CHECK_INT(ev[2].key, 0xE9);
    CHECK_INT(ev[3].key, IK_BACKTAB);
}

TEST(input_legacy_x10_report)
{
    struct input in;
    struct input_event ev[2];
    input_init(&in);
    /* CSI M, then button+32, column+33, row+33. */
    CHECK_INT(feed(&in, "\x1b[M #%", ev, 2), 1);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == 0 && ev[0].x == 2 && ev[0].y == 4);
    CHECK_INT(feed(&in, "\x1b[M##%", ev, 2), 1);
    CHECK(ev[0].action == MOUSE_RELEASE);
}

TEST(input_a_burst_fed_in_slices_loses_nothing)
{
    /* 200 keys and 20 drag reports, fed as the terminal loop feeds them: slices of
     * 16 bytes with room for 16 events. */
    char burst[2048];
    size_t n = 0;
    for (int i = 0; i < 200; i++)
        burst[n++] = 'a' + (char)(i % 26);
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(burst + n, sizeof burst - n, "\x1b[<32;%d;4M", 100 + i);
    struct input in;
    input_init(&in);
    int keys = 0, drags = 0, bad = 0;
    for (size_t off = 0; off < n; off += 16) {
        struct input_event ev[16];
        size_t chunk = n - off < 16 ? n - off : 16;
        int ne = input_feed(&in, (const unsigned char *)burst + off, chunk, ev, 16);
        for (int k = 0; k < ne; k++) {
            if (ev[k].type == INPUT_KEY && ev[k].key >= 'a' && ev[k].key <= 'z')
                keys++;
            else if (ev[k].type == INPUT_MOUSE && ev[k].action == MOUSE_DRAG &&
                     ev[k].x == 99 + drags && ev[k].y == 3)
                drags++;
            else
                bad++;
        }
    }
    CHECK_INT(keys, 200);
    CHECK_INT(drags, 20);
    CHECK_INT(bad, 0);
}

/*
 * test_encode.c — golden bytes for the encoder in every colour mode, damage
 * tracking (partial redraws, unchanged frames), tolerance, and the naive
 * baseline.
 */
#include "encode.h"
#include "test.h"

#include <string.h>

#define RED RGB(255, 0, 0)
#define BLUE RGB(0, 0, 255)
#define WHITE RGB(255, 255, 255)

/* 3 x 2: red over blue twice, a blue space; a default space, 'A', 'B'. */
static void sample(struct cells *s)
{
    cells_init(s, 3, 2);
    *cells_at(s, 0, 0) = (struct cell){GLYPH_UPPER, RED, BLUE};
    *cells_at(s, 1, 0) = (struct cell){GLYPH_UPPER, RED, BLUE};
    *cells_at(s, 2, 0) = (struct cell){' ', COLOR_DEFAULT, BLUE};
    *cells_at(s, 0, 1) = (struct cell){' ', COLOR_DEFAULT, COLOR_DEFAULT};
    *cells_at(s, 1, 1) = (struct cell){'A', WHITE, COLOR_DEFAULT};
    *cells_at(s, 2, 1) = (struct cell){'B', WHITE, COLOR_DEFAULT};
}

static void frame(enum color_mode mode, bool sync, struct buf *out)
{
    struct cells s;
    struct encoder e;
    sample(&s);
    encode_init(&e, mode, 0, sync);
    buf_init(out);
    encode_frame(&e, &s, out);
    encode_free(&e);
    cells_free(&s);
}

TEST(encode_truecolor_full_frame)
{
    struct buf b;
    frame(COLOR_TRUE, false, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[0m\x1b[H\x1b[38;2;255;0;0;48;2;0;0;255m\xe2\x96\x80\xe2\x96\x80 "
                "\x1b[2H\x1b[49m \x1b[38;2;255;255;255mAB");
    buf_free(&b);
}

TEST(encode_sync_marks_wrap_a_frame)
{
    struct buf b;
    frame(COLOR_TRUE, true, &b);
    CHECK(b.len > 16);
    CHECK(memcmp(b.p, "\x1b[?2026h\x1b[0m", 12) == 0);
    CHECK(memcmp(b.p + b.len - 8, "\x1b[?2026l", 8) == 0);
    buf_free(&b);
}

TEST(encode_256_full_frame)
{
    struct buf b;
    frame(COLOR_256, false, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[0m\x1b[H\x1b[38;5;196;48;5;21m\xe2\x96\x80\xe2\x96\x80 "
                "\x1b[2H\x1b[49m \x1b[38;5;231mAB");
    buf_free(&b);
}

TEST(encode_16_and_8_full_frame)
{
    struct buf b;
    frame(COLOR_16, false, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[0m\x1b[H\x1b[91;44m\xe2\x96\x80\xe2\x96\x80 \x1b[2H\x1b[49m \x1b[97mAB");
    buf_free(&b);
    frame(COLOR_8, false, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[0m\x1b[H\x1b[31;44m\xe2\x96\x80\xe2\x96\x80 \x1b[2H\x1b[49m \x1b[37mAB");
    buf_free(&b);
}

TEST(encode_mono_sends_no_colour)
{
    struct buf b;
    frame(COLOR_MONO, false, &b);
    CHECK_BYTES(b.p, b.len, "\x1b[0m\x1b[H\xe2\x96\x80\xe2\x96\x80 \x1b[2H AB");
    buf_free(&b);
}

TEST(encode_unchanged_frame_is_zero_bytes)
{
    struct cells s;
    struct encoder e;
    struct buf b;
    sample(&s);
    encode_init(&e, COLOR_TRUE, 0, true);
    buf_init(&b);
    encode_frame(&e, &s, &b);
    CHECK(b.len > 0);
    buf_clear(&b);
    CHECK_INT(encode_frame(&e, &s, &b), 0);
    CHECK_INT(b.len, 0);
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
}

TEST(encode_partial_redraw_sends_only_changes)
{
    struct cells s;
    struct encoder e;
    struct buf b;
    sample(&s);
    encode_init(&e, COLOR_TRUE, 0, false);
    buf_init(&b);
    encode_frame(&e, &s, &b);
    buf_clear(&b);
    /* One cell changes colour: cursor to it, its colours, its glyph. */
    cells_at(&s, 1, 0)->fg = RGB(0, 255, 0);
    CHECK_INT(encode_frame(&e, &s, &b), 1);
    CHECK_BYTES(b.p, b.len, "\x1b[1;2H\x1b[38;2;0;255;0;48;2;0;0;255m\xe2\x96\x80");
    buf_clear(&b);
    /* Two cells on one row with a gap: CUF across the gap, no repeated SGR. */
    cells_at(&s, 0, 1)->ch = 'x';
    cells_at(&s, 0, 1)->fg = WHITE;
    cells_at(&s, 2, 1)->ch = 'y';
    CHECK_INT(encode_frame(&e, &s, &b), 2);
    CHECK_BYTES(b.p, b.len, "\x1b[2H\x1b[38;2;255;255;255;49mx\x1b[Cy");
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
}

TEST(encode_tolerance_skips_small_changes_until_they_add_up)
{
    struct cells s;
    struct encoder e;
    struct buf b;
    sample(&s);
    encode_init(&e, COLOR_TRUE, 4, false);
    buf_init(&b);
    encode_frame(&e, &s, &b);
    buf_clear(&b);
    cells_at(&s, 0, 0)->bg = RGB(0, 0, 252); /* 3 off: within tolerance */
    CHECK_INT(encode_frame(&e, &s, &b), 0);
    CHECK_INT(b.len, 0);
    cells_at(&s, 0, 0)->bg = RGB(0, 0, 250); /* 5 off what was sent: out */
    CHECK_INT(encode_frame(&e, &s, &b), 1);
    /* A space does not show its fg: changing it costs nothing. */
    buf_clear(&b);
    cells_at(&s, 2, 0)->fg = RGB(9, 9, 9);
    CHECK_INT(encode_frame(&e, &s, &b), 0);
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
}

TEST(encode_invalidate_repaints_everything)
{
    struct cells s;
    struct encoder e;
    struct buf a, b;
    sample(&s);
    encode_init(&e, COLOR_TRUE, 0, false);
    buf_init(&a);
    buf_init(&b);
    encode_frame(&e, &s, &a);
    encode_invalidate(&e);
    CHECK_INT(encode_frame(&e, &s, &b), 6);
    CHECK(a.len == b.len && memcmp(a.p, b.p, a.len) == 0);
    /* A new size is a new screen too. */
    cells_resize(&s, 4, 2);
    buf_clear(&b);
    CHECK_INT(encode_frame(&e, &s, &b), 8);
    encode_free(&e);
    cells_free(&s);
    buf_free(&a);
    buf_free(&b);
}

TEST(encode_naive_costs_more_than_damage)
{
    struct cells s;
    struct buf b;
    sample(&s);
    buf_init(&b);
    encode_naive(&s, COLOR_TRUE, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[1;1H\x1b[38;2;255;0;0;48;2;0;0;255m\xe2\x96\x80"
                "\x1b[38;2;255;0;0;48;2;0;0;255m\xe2\x96\x80\x1b[39;48;2;0;0;255m "
                "\x1b[2;1H\x1b[39;49m \x1b[38;2;255;255;255;49mA\x1b[38;2;255;255;255;49mB");
    cells_free(&s);
    buf_free(&b);
}

TEST(encode_utf8_forms)
{
    struct buf b;
    buf_init(&b);
    encode_utf8(&b, 'a');
    encode_utf8(&b, 0xE9);
    encode_utf8(&b, 0x2580);
    encode_utf8(&b, 0x1F600);
    CHECK_BYTES(b.p, b.len, "a\xc3\xa9\xe2\x96\x80\xf0\x9f\x98\x80");
    buf_free(&b);
}

TEST(encode_sweep_puts_right_what_the_tolerance_let_stand)
{
    struct cells s;
    struct encoder e;
    struct buf b;
    sample(&s);
    encode_init(&e, COLOR_TRUE, 6, false);
    e.sweep = true;
    buf_init(&b);
    encode_frame(&e, &s, &b);
    cells_at(&s, 2, 1)->fg = RGB(251, 252, 253); /* 'B', a shade off: within tolerance */
    bool fixed = false;
    for (int f = 0; f < s.rows && !fixed; f++) {
        buf_clear(&b);
        encode_frame(&e, &s, &b);
        fixed = e.shadow[5].fg == RGB(251, 252, 253);
    }
    CHECK(fixed);
    /* Once exact, nothing more is sent, sweep or not. */
    for (int f = 0; f < 2 * s.rows; f++) {
        buf_clear(&b);
        CHECK_INT(encode_frame(&e, &s, &b), 0);
    }
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
}

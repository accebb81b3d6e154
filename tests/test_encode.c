/*
 * test_encode.c — golden bytes for the encoder in every colour mode, damage
 * tracking (partial redraws, unchanged frames), tolerance, and the naive
 * baseline; and, over runs of changing frames replayed on a model terminal,
 * that damage tracking draws what the naive redraw draws for fewer bytes and
 * that a tolerance sends fewer bytes still while staying within it. The model
 * terminal draws as xterm does with an outline font: a block element printed
 * in one run with a neighbour bleeds into that neighbour's cell, so the tests
 * can check that what the encoder leaves on screen never depends on how the
 * screen was reached (no streaks), and that the sweep and a still picture
 * leave it exact. Last, the encoder as the app's frames use it (frame.h): the
 * --tolerance the options give is the one the frames are encoded with, and a
 * paused picture is sent exact.
 */
#include "app.h"
#include "encode.h"
#include "encode_internal.h"
#include "frame.h"
#include "palette_internal.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RED RGB(255, 0, 0)
#define BLUE RGB(0, 0, 255)
#define WHITE RGB(255, 255, 255)

/* 3 x 2: red over blue twice, a blue space; a default space, 'A', 'B'. The
 * first row is one run, so a NUL parts each block from the glyph beside it. */
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
                "\x1b[0m\x1b[H\x1b[38;2;255;0;0;48;2;0;0;255m\xe2\x96\x80\0\xe2\x96\x80\x1b[39m "
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
                "\x1b[0m\x1b[H\x1b[38;5;196;48;5;21m\xe2\x96\x80\0\xe2\x96\x80\x1b[39m "
                "\x1b[2H\x1b[49m \x1b[38;5;231mAB");
    buf_free(&b);
}

TEST(encode_16_and_8_full_frame)
{
    struct buf b;
    frame(COLOR_16, false, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[0m\x1b[H\x1b[91;44m\xe2\x96\x80\0\xe2\x96\x80\x1b[39m \x1b[2H\x1b[49m "
                "\x1b[97mAB");
    buf_free(&b);
    frame(COLOR_8, false, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[0m\x1b[H\x1b[31;44m\xe2\x96\x80\0\xe2\x96\x80\x1b[39m \x1b[2H\x1b[49m "
                "\x1b[37mAB");
    buf_free(&b);
}

TEST(encode_mono_sends_no_colour)
{
    struct buf b;
    frame(COLOR_MONO, false, &b);
    CHECK_BYTES(b.p, b.len,
                "\x1b[0m\x1b[H\xe2\x96\x80\0\xe2\x96\x80\x1b[1m \x1b[2H \x1b[22mAB");
    buf_free(&b);
}

TEST(encode_mono_draws_ink_with_reverse_video_and_spaces_bold)
{
    /* The mono blit's four cells: blank, upper half, lower half (▀ in reverse
     * video) and full (a space in reverse video); a space is bold, so it
     * never has the attributes of the ▀ beside it. No █, no ▄. */
    struct cells s;
    struct encoder e;
    struct buf b;
    cells_init(&s, 5, 1);
    *cells_at(&s, 0, 0) = (struct cell){' ', COLOR_DEFAULT, COLOR_DEFAULT};
    *cells_at(&s, 1, 0) = (struct cell){GLYPH_UPPER, COLOR_DEFAULT, COLOR_DEFAULT};
    *cells_at(&s, 2, 0) = (struct cell){GLYPH_UPPER, COLOR_DEFAULT, COLOR_REVERSE};
    *cells_at(&s, 3, 0) = (struct cell){' ', COLOR_DEFAULT, COLOR_REVERSE};
    *cells_at(&s, 4, 0) = (struct cell){' ', COLOR_DEFAULT, COLOR_DEFAULT};
    encode_init(&e, COLOR_MONO, 0, false);
    buf_init(&b);
    encode_frame(&e, &s, &b);
    CHECK_BYTES(b.p, b.len, "\x1b[0m\x1b[H\x1b[1m \x1b[22m\xe2\x96\x80\x1b[7m\xe2\x96\x80"
                            "\x1b[1m \x1b[27m ");
    encode_free(&e);
    cells_free(&s);
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

/* The tolerance is the gap let stand, no less and no more: a colour exactly
 * `tolerance` off what the screen shows, in any one channel of either half,
 * sends nothing; one more sends the cell. */
TEST(encode_tolerance_lets_exactly_its_gap_stand)
{
    static const int tols[] = {1, 4, APP_DEFAULT_TOLERANCE, 40};
    for (size_t k = 0; k < sizeof tols / sizeof tols[0]; k++)
        for (int half = 0; half < 2; half++)
            for (int ch = 0; ch < 3; ch++)
                for (int more = 0; more < 2; more++) {
                    int tol = tols[k], d = tol + more;
                    struct cells s;
                    struct encoder e;
                    struct buf b;
                    sample(&s);
                    struct cell *c = cells_at(&s, 0, 0);
                    c->fg = RGB(60, 70, 80), c->bg = RGB(160, 170, 180); /* halves apart */
                    encode_init(&e, COLOR_TRUE, tol, false);
                    buf_init(&b);
                    encode_frame(&e, &s, &b);
                    rgb_t *col = half ? &c->bg : &c->fg;
                    int v[3] = {rgb_r(*col), rgb_g(*col), rgb_b(*col)};
                    v[ch] += ch == 1 ? -d : d; /* up or down: both are a gap */
                    *col = RGB(v[0], v[1], v[2]);
                    buf_clear(&b);
                    CHECK_MSG(encode_frame(&e, &s, &b) == more,
                              "tolerance %d, %s channel %d %d off: %s", tol, half ? "bg" : "fg",
                              ch, d, more ? "not sent" : "sent");
                    encode_free(&e);
                    cells_free(&s);
                    buf_free(&b);
                }
}

/* How many times needle is in the n bytes at p. */
static int count_bytes(const char *p, size_t n, const char *needle)
{
    const size_t k = strlen(needle);
    int c = 0;
    for (size_t i = 0; i + k <= n; i++)
        c += memcmp(p + i, needle, k) == 0;
    return c;
}

/* ... and so is it between two colours the encoder may show as one: a ▀
 * whose halves are exactly `tolerance` apart is sent as a space of one
 * colour, and a colour exactly `tolerance` off the one in force is shown with
 * that one (no SGR for it); one more, and each is sent as it is. */
TEST(encode_tolerance_joins_colours_exactly_its_gap_apart)
{
    static const int tols[] = {1, APP_DEFAULT_TOLERANCE, 40};
    for (size_t k = 0; k < sizeof tols / sizeof tols[0]; k++)
        for (int more = 0; more < 2; more++) {
            const int tol = tols[k], d = tol + more;
            struct cells s;
            struct encoder e;
            struct buf b;
            cells_init(&s, 3, 1);
            buf_init(&b);
            /* Halves d apart. */
            *cells_at(&s, 0, 0) =
                (struct cell){GLYPH_UPPER, RGB(100, 100 + d, 100), RGB(100, 100, 100)};
            *cells_at(&s, 1, 0) = (struct cell){'x', RGB(250, 250, 250), RGB(0, 0, 0)};
            *cells_at(&s, 2, 0) = (struct cell){'x', RGB(250, 250, 250), RGB(0, 0, 0)};
            encode_init(&e, COLOR_TRUE, tol, false);
            encode_frame(&e, &s, &b);
            CHECK_MSG(count_bytes(b.p, b.len, "\xe2\x96\x80") == more, "tolerance %d, halves %d "
                      "apart: %s", tol, d, more ? "a space" : "a half-block");
            encode_free(&e);
            /* Text d off the colours the glyph before it set. */
            *cells_at(&s, 0, 0) = (struct cell){'x', RGB(250, 250, 250), RGB(0, 0, 0)};
            *cells_at(&s, 1, 0) = (struct cell){'y', RGB(250 - d, 250, 250), RGB(0, 0, d)};
            encode_init(&e, COLOR_TRUE, tol, false);
            buf_clear(&b);
            encode_frame(&e, &s, &b);
            /* (one more: the third cell sets the first one's colours again) */
            CHECK_MSG(count_bytes(b.p, b.len, "38;2;") == 1 + 2 * more &&
                          count_bytes(b.p, b.len, "48;2;") == 1 + 2 * more,
                      "tolerance %d, colours %d off those in force: %d fg and %d bg SGRs", tol, d,
                      count_bytes(b.p, b.len, "38;2;"), count_bytes(b.p, b.len, "48;2;"));
            encode_free(&e);
            cells_free(&s);
            buf_free(&b);
        }
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

TEST(encode_naive_golden_bytes)
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

/*
 * A model terminal for the truecolor and mono encoders' output: CUP, CUF, SGR
 * 0, 38;2, 48;2, 39, 49, bold (1, 22) and reverse video (7, 27), the
 * synchronized-output marks, NUL (ignored), and UTF-8 glyphs that advance the
 * cursor. Anything else, a glyph outside the screen, or a glyph written where
 * a real terminal would wrap, counts as an error.
 *
 * Glyphs printed one after the other with nothing between them form a run, as
 * in xterm; a block element in a run bleeds into the neighbour it was printed
 * with (xterm draws it a hair wider than its cell), so each cell also keeps
 * the neighbours that bled into it when it was last drawn (ch 0: none); a
 * neighbour that is the same cell (glyph, colours as shown, attributes) bleeds
 * its own colour over itself, which shows nothing, and is not kept. Any escape
 * sequence or a NUL ends the run, except in a multiplexer (`mux`), which drops
 * NULs (and prints what it prints with its own escapes, which our encoder's
 * own stand for: it sends none that change nothing).
 */
#define TERM_BOLD 1u
#define TERM_REVERSE 2u
struct term {
    int cols, rows, row, col, errors, bleeds;
    rgb_t fg, bg;
    unsigned attr;        /* TERM_BOLD | TERM_REVERSE in force */
    bool mux;             /* NULs are dropped: they end no run */
    bool in_run;          /* the last thing fed was a glyph at (row, col - 1) */
    struct cell *c;
    unsigned *at;         /* each cell's attributes */
    struct cell *left, *right; /* what bled into each cell from either side */
    unsigned *left_at, *right_at;
};

static void term_init(struct term *t, int cols, int rows)
{
    *t = (struct term){.cols = cols, .rows = rows, .fg = COLOR_DEFAULT, .bg = COLOR_DEFAULT};
    size_t n = (size_t)cols * (size_t)rows;
    t->c = calloc(n, sizeof *t->c);
    t->at = calloc(n, sizeof *t->at);
    t->left = calloc(n, sizeof *t->left);
    t->right = calloc(n, sizeof *t->right);
    t->left_at = calloc(n, sizeof *t->left_at);
    t->right_at = calloc(n, sizeof *t->right_at);
}

static void term_free(struct term *t)
{
    free(t->c);
    free(t->at);
    free(t->left);
    free(t->right);
    free(t->left_at);
    free(t->right_at);
}

/* Block elements and sextants reach their cell's edges. */
static bool is_block(uint32_t ch)
{
    return (ch >= 0x2580 && ch <= 0x259F) || (ch >= 0x1FB00 && ch <= 0x1FB3B);
}

/* A cell as it shows: a space shows no fg. */
static struct cell shown(struct cell c)
{
    if (c.ch == ' ')
        c.fg = 0;
    return c;
}

static bool shows_same(struct cell a, struct cell b)
{
    a = shown(a), b = shown(b);
    return a.ch == b.ch && a.fg == b.fg && a.bg == b.bg;
}

/* A glyph at the cursor: the cell, and the bleeding within its run. */
static void term_glyph(struct term *t, uint32_t cp)
{
    if (t->row < 0 || t->row >= t->rows || t->col < 0 || t->col >= t->cols) {
        t->errors++;
        t->in_run = false;
        t->col++;
        return;
    }
    size_t i = (size_t)t->row * (size_t)t->cols + (size_t)t->col;
    t->c[i] = (struct cell){cp, t->fg, t->bg};
    t->at[i] = t->attr;
    t->left[i] = t->right[i] = (struct cell){0, 0, 0};
    t->left_at[i] = t->right_at[i] = 0;
    if (t->in_run && t->col > 0 && (is_block(t->c[i - 1].ch) || is_block(cp)) &&
        !(shows_same(t->c[i - 1], t->c[i]) && t->at[i - 1] == t->at[i])) {
        t->left[i] = t->c[i - 1];
        t->left_at[i] = t->at[i - 1];
        t->right[i - 1] = t->c[i];
        t->right_at[i - 1] = t->at[i];
        t->bleeds++;
    }
    t->in_run = true;
    t->col++;
}

static void term_sgr(struct term *t, const int *v, int n)
{
    if (n == 0) {
        t->fg = t->bg = COLOR_DEFAULT;
        t->attr = 0;
        return;
    }
    for (int i = 0; i < n; i++) {
        if (v[i] == 0) {
            t->fg = t->bg = COLOR_DEFAULT;
            t->attr = 0;
        } else if (v[i] == 1 || v[i] == 22) {
            t->attr = v[i] == 1 ? t->attr | TERM_BOLD : t->attr & ~TERM_BOLD;
        } else if (v[i] == 7 || v[i] == 27) {
            t->attr = v[i] == 7 ? t->attr | TERM_REVERSE : t->attr & ~TERM_REVERSE;
        } else if (v[i] == 39) {
            t->fg = COLOR_DEFAULT;
        } else if (v[i] == 49) {
            t->bg = COLOR_DEFAULT;
        } else if ((v[i] == 38 || v[i] == 48) && i + 2 < n && v[i + 1] == 5 && v[i + 2] < 256) {
            if (v[i] == 38) /* 256 colours: the xterm palette's */
                t->fg = palette_rgb(v[i + 2]);
            else
                t->bg = palette_rgb(v[i + 2]);
            i += 2;
        } else if ((v[i] == 38 || v[i] == 48) && i + 4 < n && v[i + 1] == 2) {
            rgb_t c = RGB(v[i + 2] & 255, v[i + 3] & 255, v[i + 4] & 255);
            t->errors += v[i + 2] > 255 || v[i + 3] > 255 || v[i + 4] > 255;
            if (v[i] == 38)
                t->fg = c;
            else
                t->bg = c;
            i += 4;
        } else {
            t->errors++;
        }
    }
}

static void term_feed(struct term *t, const char *p, size_t len)
{
    const unsigned char *s = (const unsigned char *)p, *end = s + len;
    while (s < end) {
        if (*s == 0) { /* ignored, but it ends the run (not in a multiplexer) */
            s++;
            t->in_run = t->in_run && t->mux;
            continue;
        }
        if (*s == 0x1b) {
            t->in_run = false;
            if (s + 1 >= end || s[1] != '[') {
                t->errors++;
                return;
            }
            s += 2;
            bool priv = s < end && *s == '?';
            s += priv;
            int v[32], n = 0;
            bool digits = false;
            while (s < end && ((*s >= '0' && *s <= '9') || *s == ';')) {
                if (n == 0)
                    v[n++] = 0;
                if (*s == ';') {
                    if (n < 32)
                        v[n++] = 0;
                } else {
                    v[n - 1] = v[n - 1] * 10 + (*s - '0');
                    digits = true;
                }
                s++;
            }
            if (s >= end) {
                t->errors++;
                return;
            }
            unsigned char fin = *s++;
            if (priv) {
                t->errors += !(n == 1 && v[0] == 2026 && (fin == 'h' || fin == 'l'));
            } else if (fin == 'm') {
                term_sgr(t, v, digits ? n : 0);
            } else if (fin == 'H') {
                t->row = (n > 0 && v[0] > 0 ? v[0] : 1) - 1;
                t->col = (n > 1 && v[1] > 0 ? v[1] : 1) - 1;
            } else if (fin == 'C' || fin == 'D') { /* forward, back (stops at the edge) */
                const int k = n > 0 && v[0] > 0 ? v[0] : 1;
                t->col += fin == 'C' ? k : -k;
                t->col = t->col < 0 ? 0 : t->col;
            } else if (fin == 'A' || fin == 'B') { /* up, down */
                const int k = n > 0 && v[0] > 0 ? v[0] : 1;
                t->row += fin == 'B' ? k : -k;
                t->row = t->row < 0 ? 0 : t->row >= t->rows ? t->rows - 1 : t->row;
            } else {
                t->errors++;
            }
            continue;
        }
        uint32_t cp = *s++;
        int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
        if (more)
            cp &= 0x3Fu >> more;
        for (; more > 0 && s < end; more--)
            cp = cp << 6 | (*s++ & 0x3Fu);
        term_glyph(t, cp);
    }
}


/* The two pixels a cell shows (a space: its bg twice), or false for text. */
static bool shown_pixels(const struct cell *c, rgb_t *top, rgb_t *bot)
{
    if (c->ch != ' ' && c->ch != GLYPH_UPPER)
        return false;
    *top = c->ch == ' ' ? c->bg : c->fg;
    *bot = c->bg;
    return true;
}

static int channel_gap(rgb_t a, rgb_t b)
{
    if (a == b)
        return 0;
    if ((a | b) & COLOR_DEFAULT)
        return 256;
    int d = abs(rgb_r(a) - rgb_r(b)), g = abs(rgb_g(a) - rgb_g(b)), l = abs(rgb_b(a) - rgb_b(b));
    return d > g ? (d > l ? d : l) : (g > l ? g : l);
}

/* How far a cell on the model terminal's screen is from the one wanted: the
 * largest channel difference of a shown colour (256 for a wrong glyph or
 * default colour). */
static int cell_gap(const struct cell *want, const struct cell *got)
{
    rgb_t wt, wb, gt, gb;
    if (shown_pixels(want, &wt, &wb) && shown_pixels(got, &gt, &gb)) {
        int a = channel_gap(wt, gt), b = channel_gap(wb, gb);
        return a > b ? a : b;
    }
    if (want->ch != got->ch)
        return 256;
    int a = channel_gap(want->fg, got->fg), b = channel_gap(want->bg, got->bg);
    return a > b ? a : b;
}

/* The worst cell_gap over the screen. */
static int term_gap(const struct term *t, const struct cells *s)
{
    int worst = 0;
    for (int i = 0; i < s->cols * s->rows; i++) {
        int gap = cell_gap(&s->c[i], &t->c[i]);
        worst = gap > worst ? gap : worst;
    }
    return worst;
}

/* Frame f of a small animation: a still background of ▀ gradients, a block
 * that moves two columns a frame, and a HUD line whose counter ticks. */
static void animation(struct cells *s, int f)
{
    for (int r = 0; r < s->rows - 1; r++)
        for (int c = 0; c < s->cols; c++)
            *cells_at(s, c, r) = (struct cell){GLYPH_UPPER, RGB(8, 10, 20 + 4 * r),
                                               RGB(8, 10 + c, 22 + 4 * r)};
    int x0 = (2 * f) % s->cols;
    for (int r = 3; r < 8; r++)
        for (int c = x0; c < x0 + 6 && c < s->cols; c++)
            *cells_at(s, c, r) = (struct cell){GLYPH_UPPER, RGB(250, 120, 20), RGB(200, 60, 10)};
    char hud[64];
    snprintf(hud, sizeof hud, " dye  frame %03d  %d fps ", f, 30 + f % 3);
    cells_clear(s, s->rows - 1, s->rows, RGB(20, 20, 30));
    cells_text(s, 0, s->rows - 1, hud, RGB(200, 200, 200), RGB(20, 20, 30));
}

TEST(encode_naive_costs_more_than_damage)
{
    /* The same changing frames through the damage-tracked encoder (one screen
     * kept across frames) and the naive full redraw (every frame from scratch);
     * both replayed on a model terminal must show each frame exactly. */
    enum { COLS = 48, ROWS = 16, FRAMES = 24 };
    struct cells s;
    struct encoder e;
    struct buf damage, naive;
    struct term on_damage, on_naive;
    cells_init(&s, COLS, ROWS);
    encode_init(&e, COLOR_TRUE, 0, true);
    buf_init(&damage);
    buf_init(&naive);
    term_init(&on_damage, COLS, ROWS);
    term_init(&on_naive, COLS, ROWS);
    size_t damage_total = 0, naive_total = 0, first_damage = 0, first_naive = 0;
    for (int f = 0; f < FRAMES; f++) {
        animation(&s, f);
        buf_clear(&damage);
        buf_clear(&naive);
        int sent = encode_frame(&e, &s, &damage);
        encode_naive(&s, COLOR_TRUE, &naive);
        term_feed(&on_damage, damage.p, damage.len);
        term_feed(&on_naive, naive.p, naive.len);
        CHECK_MSG(term_gap(&on_damage, &s) == 0, "frame %d: the damage-tracked screen is off", f);
        CHECK_MSG(term_gap(&on_naive, &s) == 0, "frame %d: the naive screen is off", f);
        if (f == 0) {
            /* A full redraw either way; elision still makes it cheaper. */
            CHECK_INT(sent, COLS * ROWS);
            first_damage = damage.len, first_naive = naive.len;
            CHECK_MSG(damage.len < naive.len, "first frame: %zu vs %zu bytes", damage.len,
                      naive.len);
        } else {
            /* Only the block's edges and the counter change. */
            CHECK_MSG(sent > 0 && sent < COLS * ROWS / 8, "frame %d: %d cells sent", f, sent);
            CHECK_MSG(damage.len * 10 < naive.len, "frame %d: %zu damage vs %zu naive bytes", f,
                      damage.len, naive.len);
        }
        damage_total += damage.len;
        naive_total += naive.len;
    }
    CHECK_INT(on_damage.errors, 0);
    CHECK_INT(on_naive.errors, 0);
    /* After the first frame, the naive redraw costs at least ten times more. */
    CHECK_MSG((damage_total - first_damage) * 10 < naive_total - first_naive,
              "%zu damage vs %zu naive bytes after the first frame", damage_total - first_damage,
              naive_total - first_naive);
    term_free(&on_damage);
    term_free(&on_naive);
    encode_free(&e);
    cells_free(&s);
    buf_free(&damage);
    buf_free(&naive);
}

/* Frame f of a slow fade: every cell's colours drift a few levels a frame
 * (different rates per channel and cell), the glyphs stay. */
static void drift(struct cells *s, int f)
{
    for (int r = 0; r < s->rows; r++)
        for (int c = 0; c < s->cols; c++) {
            int k = 3 * f + c + 2 * r;
            rgb_t top = RGB((40 + 2 * k) % 256, (90 + k) % 256, (200 - k + 512) % 256);
            rgb_t bot = RGB((60 + 3 * k) % 256, (30 + 2 * k) % 256, (120 + k) % 256);
            *cells_at(s, c, r) = (struct cell){GLYPH_UPPER, top, bot};
        }
}

/* Encodes `frames` frames of drift() with the tolerance; returns the bytes sent
 * and the worst gap between a frame and the model terminal's screen. */
static size_t drift_bytes(int tolerance, int frames, int *worst, int *errors)
{
    enum { COLS = 40, ROWS = 12 };
    struct cells s;
    struct encoder e;
    struct buf b;
    struct term t;
    cells_init(&s, COLS, ROWS);
    encode_init(&e, COLOR_TRUE, tolerance, false);
    buf_init(&b);
    term_init(&t, COLS, ROWS);
    size_t total = 0;
    *worst = 0;
    for (int f = 0; f < frames; f++) {
        drift(&s, f);
        buf_clear(&b);
        encode_frame(&e, &s, &b);
        term_feed(&t, b.p, b.len);
        total += b.len;
        int gap = term_gap(&t, &s);
        *worst = gap > *worst ? gap : *worst;
    }
    *errors = t.errors;
    term_free(&t);
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
    return total;
}

TEST(encode_tolerance_changes_the_bytes_and_stays_within_it)
{
    /* The same drifting frames with tolerance 0 and 50: 0 sends every change
     * and the screen is exact; 50 sends far fewer bytes and every colour on
     * screen stays within 50 of the frame's in each channel. */
    int worst0, worst50, errors0, errors50;
    size_t exact = drift_bytes(0, 30, &worst0, &errors0);
    size_t loose = drift_bytes(50, 30, &worst50, &errors50);
    CHECK_INT(errors0, 0);
    CHECK_INT(errors50, 0);
    CHECK_INT(worst0, 0);
    CHECK_MSG(worst50 <= 50, "a colour %d off with tolerance 50", worst50);
    CHECK_MSG(worst50 > 0, "tolerance 50 left nothing a shade off: it did not skip anything");
    CHECK_MSG(loose * 3 < exact, "tolerance 50: %zu bytes, 0: %zu bytes", loose, exact);
}

static double no_clock(void) { return 0.0; }

TEST(encode_moving_scenes_reach_the_exact_picture_within_a_pass)
{
    /* Each scene stirred by --auto for 20 s at 30 fps, the app's frames (its
     * tolerance, its sweep) replayed on the model terminal: no cell stays off
     * the picture for a whole pass of the sweep over the rows, however the
     * picture moves around it. (The sweep only put right cells that had
     * settled: beside the moving cloth, trails of 13,14,21 stayed on its
     * 16,18,26 background for seconds.) */
    enum { COLS = 80, ROWS = 24, SECONDS = 20 };
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct app_opts o;
        app_opts_default(&o);
        o.sync = false;
        o.scene = sc;
        o.autopilot = true;
        struct app a;
        struct frame f;
        CHECK(app_init(&a, &o, COLS, ROWS) == 0);
        frame_init(&f, &a, true);
        struct term t;
        term_init(&t, COLS, ROWS);
        struct buf b;
        buf_init(&b);
        static int off[COLS * ROWS];
        memset(off, 0, sizeof off);
        int longest = 0, worst = 0, moving = 0;
        for (int fr = 0; fr < SECONDS * APP_REF_FPS; fr++) {
            buf_clear(&b);
            frame_next(&f, &a, fr ? 1.0 / APP_REF_FPS : 0.0, no_clock, true, &b);
            term_feed(&t, b.p, b.len);
            for (int i = 0; i < COLS * ROWS; i++) {
                int gap = cell_gap(&f.cells.c[i], &t.c[i]);
                off[i] = gap ? off[i] + 1 : 0;
                longest = off[i] > longest ? off[i] : longest;
                worst = gap > worst ? gap : worst;
                moving += gap > 0;
            }
        }
        CHECK_INT(t.errors, 0);
        CHECK_MSG(moving > 0, "%s: never a cell off: nothing moved", scenes[sc]->name);
        CHECK_MSG(worst <= APP_DEFAULT_TOLERANCE, "%s: a cell %d off", scenes[sc]->name, worst);
        CHECK_MSG(longest <= ROWS, "%s: a cell off the picture for %d frames (a pass: %d)",
                  scenes[sc]->name, longest, ROWS);
        buf_free(&b);
        term_free(&t);
        frame_free(&f);
        app_free(&a);
    }
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
    /* Put right when the sweep reaches its row:
     * within one frame and a pass over the rows. */
    bool fixed = false;
    for (int f = 0; f < 1 + s.rows && !fixed; f++) {
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

TEST(encode_sweep_puts_right_a_moving_cell_within_a_pass)
{
    /* A cell that flickers within the tolerance every frame is left to it but
     * when the sweep reaches its row: then it is sent exactly, so it is never
     * off for longer than a pass over the rows (a trail a shade off the
     * background beside a moving cloth stayed for seconds), and it costs one
     * cell a pass, no more. */
    struct cells s;
    struct encoder e;
    struct buf b;
    sample(&s);
    encode_init(&e, COLOR_TRUE, 6, false);
    e.sweep = true;
    buf_init(&b);
    encode_frame(&e, &s, &b);
    int off = 0, longest = 0, sent = 0;
    for (int f = 0; f < 4 * s.rows; f++) {
        cells_at(&s, 0, 0)->fg = f % 2 ? RGB(252, 0, 0) : RGB(250, 3, 0);
        buf_clear(&b);
        sent += encode_frame(&e, &s, &b);
        off = e.shadow[0].fg == cells_at(&s, 0, 0)->fg ? 0 : off + 1;
        longest = off > longest ? off : longest;
    }
    CHECK_MSG(longest < s.rows, "off for %d frames (a pass is %d)", longest, s.rows);
    CHECK_MSG(sent <= 4 + 1, "sent %d times in four passes", sent);
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
}

TEST(encode_exact_frame_sends_what_the_tolerance_let_stand)
{
    /* A still picture (the app paused) is sent exactly in one frame. */
    struct cells s;
    struct encoder e;
    struct buf b;
    struct term t;
    sample(&s);
    encode_init(&e, COLOR_TRUE, 6, false);
    buf_init(&b);
    term_init(&t, s.cols, s.rows);
    encode_frame(&e, &s, &b);
    term_feed(&t, b.p, b.len);
    cells_at(&s, 0, 0)->fg = RGB(252, 3, 0);
    cells_at(&s, 2, 0)->bg = RGB(0, 4, 251);
    buf_clear(&b);
    CHECK_INT(encode_frame(&e, &s, &b), 0);
    CHECK(term_gap(&t, &s) > 0);
    e.exact = true;
    buf_clear(&b);
    CHECK_INT(encode_frame(&e, &s, &b), 2);
    term_feed(&t, b.p, b.len);
    CHECK_INT(term_gap(&t, &s), 0);
    CHECK_INT(t.errors, 0);
    buf_clear(&b);
    CHECK_INT(encode_frame(&e, &s, &b), 0);
    term_free(&t);
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
}

TEST(encode_model_terminal_bleeds_within_a_run_only)
{
    /* The model itself: a block printed in one run with a space bleeds into it
     * (both ways); a NUL or an escape sequence between them ends the run. */
    struct term t;
    term_init(&t, 4, 1);
    static const char joined[] = "\x1b[38;2;255;255;255;48;2;0;0;80m\xe2\x96\x80 ";
    term_feed(&t, joined, sizeof joined - 1);
    CHECK_INT(t.bleeds, 1);
    CHECK(t.left[1].ch == GLYPH_UPPER && t.right[0].ch == ' ');
    static const char parted[] = "\x1b[H\xe2\x96\x80\0 \x1b[C\xe2\x96\x80";
    term_feed(&t, parted, sizeof parted - 1);
    CHECK_INT(t.bleeds, 1);
    for (int i = 0; i < 4; i++)
        CHECK(t.left[i].ch == 0 && t.right[i].ch == 0);
    CHECK_INT(t.errors, 0);
    term_free(&t);
}

/* Frame f of the picture: a flat background (spaces), a thread (a
 * column of two-colour blocks) sweeping right and back, and spray (single
 * bright blocks on the background's bg) hopping along a row. In mono, as the
 * mono blit draws: the thread full cells (reverse-video spaces) and lower
 * halves (reverse-video ▀) by turns, the spray upper halves. */
static void streaks(struct cells *s, int f, enum color_mode mode)
{
    bool mono = mode == COLOR_MONO;
    rgb_t bg = mono ? COLOR_DEFAULT : RGB(12, 12, 18);
    cells_clear(s, 0, s->rows, bg);
    int x = f % (2 * s->cols - 2);
    x = x < s->cols ? x : 2 * s->cols - 2 - x;
    for (int r = 1; r < s->rows - 1; r++)
        *cells_at(s, x, r) =
            mono ? (struct cell){r % 2 ? ' ' : GLYPH_UPPER, COLOR_DEFAULT, COLOR_REVERSE}
                 : (struct cell){GLYPH_UPPER, RGB(160, 180, 220), RGB(90, 100, 130)};
    for (int k = 0; k < 3; k++)
        *cells_at(s, (3 * f + 7 * k) % s->cols, s->rows - 1) =
            (struct cell){GLYPH_UPPER, mono ? COLOR_DEFAULT : RGB(120, 140, 170), bg};
}

/* Do two model screens show the same, bleeding included? */
static bool term_same(const struct term *a, const struct term *b)
{
    for (int i = 0; i < a->cols * a->rows; i++)
        if (!shows_same(a->c[i], b->c[i]) || !shows_same(a->left[i], b->left[i]) ||
            !shows_same(a->right[i], b->right[i]) || a->at[i] != b->at[i] ||
            a->left_at[i] != b->left_at[i] || a->right_at[i] != b->right_at[i])
            return false;
    return true;
}

static void put_sgr_colour(struct buf *out, rgb_t c, bool fore)
{
    if (c & COLOR_DEFAULT) {
        buf_puts(out, fore ? ";39" : ";49");
        return;
    }
    char num[40];
    snprintf(num, sizeof num, ";%d;2;%d;%d;%d", fore ? 38 : 48, rgb_r(c), rgb_g(c), rgb_b(c));
    buf_puts(out, num);
}

/* What a multiplexer sends when it redraws its copy of the screen (tmux's
 * refresh-client, screen's redisplay): each row from its start, its cells in
 * one run while their attributes (fg, bg, bold, reverse) stay the same, an SGR
 * where they change. */
static void mux_redraw(const struct term *t, struct buf *out)
{
    for (int r = 0; r < t->rows; r++) {
        char cup[24];
        snprintf(cup, sizeof cup, "\x1b[%dH", r + 1);
        buf_puts(out, cup);
        for (int c = 0; c < t->cols; c++) {
            size_t i = (size_t)r * (size_t)t->cols + (size_t)c;
            const struct cell *x = &t->c[i];
            if (c == 0 || x->fg != x[-1].fg || x->bg != x[-1].bg || t->at[i] != t->at[i - 1]) {
                buf_puts(out, "\x1b[0");
                if (t->at[i] & TERM_BOLD)
                    buf_puts(out, ";1");
                if (t->at[i] & TERM_REVERSE)
                    buf_puts(out, ";7");
                put_sgr_colour(out, x->fg, true);
                put_sgr_colour(out, x->bg, false);
                buf_putc(out, 'm');
            }
            encode_utf8(out, x->ch ? x->ch : ' ');
        }
    }
}

/* Feeds frames 0..frames-1 of streaks() in `mode` through one encoder into t
 * (a multiplexer's screen when `mux`), then into fresh the encoder's full
 * repaint of the last frame, or with `mux` the multiplexer's own redraw of
 * t's cells. */
static void streak_run(struct term *t, struct term *fresh, enum color_mode mode, bool mux,
                       int frames)
{
    enum { COLS = 24, ROWS = 6 };
    struct cells s;
    struct encoder e;
    struct buf b;
    cells_init(&s, COLS, ROWS);
    encode_init(&e, mode, 0, true); /* exact: the screen can equal a repaint */
    buf_init(&b);
    term_init(t, COLS, ROWS);
    term_init(fresh, COLS, ROWS);
    t->mux = fresh->mux = mux;
    for (int f = 0; f < frames; f++) {
        streaks(&s, f, mode);
        buf_clear(&b);
        encode_frame(&e, &s, &b);
        term_feed(t, b.p, b.len);
    }
    buf_clear(&b);
    if (mux) {
        mux_redraw(t, &b);
    } else {
        encode_invalidate(&e);
        encode_frame(&e, &s, &b);
    }
    term_feed(fresh, b.p, b.len);
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
}

TEST(encode_leaves_no_streaks)
{
    /* Whatever frames led to it, the screen is what a full repaint of the last
     * frame shows: no block ever bleeds into a neighbour, on a terminal (the
     * NUL parts them) and in a multiplexer, which drops the NUL and joins
     * neighbours of equal attributes in one run: there a space never has a
     * block's attributes, so only identical cells join, and the screen is
     * what the multiplexer's own redraw shows. In truecolor and mono. */
    const enum color_mode modes[] = {COLOR_TRUE, COLOR_MONO};
    for (int m = 0; m < 2; m++)
        for (int mux = 0; mux < 2; mux++)
            for (int frames = 1; frames <= 60; frames += 7) {
                struct term t, fresh;
                streak_run(&t, &fresh, modes[m], mux, frames);
                CHECK_MSG(t.bleeds == 0 && fresh.bleeds == 0,
                          "%s%s, %d frames: %d and %d bleeds", palette_mode_name(modes[m]),
                          mux ? " in a multiplexer" : "", frames, t.bleeds, fresh.bleeds);
                CHECK_MSG(term_same(&t, &fresh), "%s%s, %d frames: the screen is not a repaint's",
                          palette_mode_name(modes[m]), mux ? " in a multiplexer" : "", frames);
                CHECK_INT(t.errors + fresh.errors, 0);
                term_free(&t);
                term_free(&fresh);
            }
}

TEST(encode_parts_a_block_from_any_glyph_beside_it)
{
    /* Frames of random cells, blocks of every kind (half, quadrant, sextant)
     * beside text, spaces and each other in a few colours, so that a block
     * and a glyph that is none share their colours often, on either side:
     * on a terminal no block ever bleeds into the glyph printed beside it
     * (a NUL ends the run wherever one of the two is a block), and the
     * screen is what a full repaint of the last frame shows. */
    static const uint32_t glyphs[] = {GLYPH_UPPER, 0x2596, 0x259F, 0x1FB00, 0x1FB3B,
                                      'A', '#', ' '};
    const rgb_t colours[] = {RGB(200, 40, 40), RGB(20, 20, 90)};
    const enum color_mode modes[] = {COLOR_TRUE, COLOR_MONO};
    enum { COLS = 12, ROWS = 4, FRAMES = 40 };
    for (int m = 0; m < 2; m++) {
        struct rng r = {.s = 7};
        struct cells s;
        struct encoder e;
        struct buf b;
        struct term t, fresh;
        cells_init(&s, COLS, ROWS);
        encode_init(&e, modes[m], 0, false);
        buf_init(&b);
        term_init(&t, COLS, ROWS);
        for (int f = 0; f < FRAMES; f++) {
            for (int i = 0; i < COLS * ROWS; i++) {
                const uint32_t ch = glyphs[rng_next(&r) % (sizeof glyphs / sizeof glyphs[0])];
                s.c[i] = modes[m] == COLOR_MONO
                             ? (struct cell){ch, COLOR_DEFAULT,
                                             rng_next(&r) % 2 ? COLOR_REVERSE : COLOR_DEFAULT}
                             : (struct cell){ch, colours[rng_next(&r) % 2],
                                             colours[rng_next(&r) % 2]};
            }
            buf_clear(&b);
            encode_frame(&e, &s, &b);
            term_feed(&t, b.p, b.len);
        }
        term_init(&fresh, COLS, ROWS);
        encode_invalidate(&e);
        buf_clear(&b);
        encode_frame(&e, &s, &b);
        term_feed(&fresh, b.p, b.len);
        CHECK_MSG(t.bleeds == 0 && fresh.bleeds == 0, "%s: %d and %d bleeds",
                  palette_mode_name(modes[m]), t.bleeds, fresh.bleeds);
        CHECK_MSG(term_same(&t, &fresh), "%s: the screen is not a repaint's",
                  palette_mode_name(modes[m]));
        CHECK_INT(t.errors + fresh.errors, 0);
        term_free(&t);
        term_free(&fresh);
        encode_free(&e);
        cells_free(&s);
        buf_free(&b);
    }
}

TEST(encode_model_multiplexer_streaks_where_a_space_has_a_blocks_attributes)
{
    /* The model itself: in a multiplexer a NUL ends no run, so a ▀ and a space
     * of the same fg and bg printed in one run bleed; when the ▀ is then sent
     * alone the space keeps the old colour, which the multiplexer's redraw
     * (the two now differ in fg: two runs) does not show. The encoder's
     * bytes for the same picture part them with the space's default fg. */
    struct term t, redrawn;
    term_init(&t, 3, 1);
    term_init(&redrawn, 3, 1);
    t.mux = redrawn.mux = true;
    static const char joined[] = "\x1b[38;2;255;255;255;48;2;0;0;80m\xe2\x96\x80\0 "
                                 "\x1b[H\x1b[38;2;200;0;0m\xe2\x96\x80";
    term_feed(&t, joined, sizeof joined - 1);
    CHECK_INT(t.bleeds, 1);
    struct buf b;
    buf_init(&b);
    mux_redraw(&t, &b);
    term_feed(&redrawn, b.p, b.len);
    CHECK_INT(redrawn.bleeds, 0);
    CHECK(!term_same(&t, &redrawn));
    CHECK_INT(t.errors + redrawn.errors, 0);

    struct cells s;
    struct encoder e;
    cells_init(&s, 3, 1);
    *cells_at(&s, 0, 0) = (struct cell){GLYPH_UPPER, RGB(255, 255, 255), RGB(0, 0, 80)};
    *cells_at(&s, 1, 0) = (struct cell){' ', COLOR_DEFAULT, RGB(0, 0, 80)};
    *cells_at(&s, 2, 0) = (struct cell){' ', COLOR_DEFAULT, RGB(0, 0, 80)};
    encode_init(&e, COLOR_TRUE, 0, false);
    buf_clear(&b);
    encode_frame(&e, &s, &b);
    CHECK_BYTES(b.p, b.len, "\x1b[0m\x1b[H\x1b[38;2;255;255;255;48;2;0;0;80m\xe2\x96\x80"
                            "\x1b[39m  ");
    term_free(&t);
    term_init(&t, 3, 1);
    t.mux = true;
    term_feed(&t, b.p, b.len);
    CHECK_INT(t.bleeds, 0);
    encode_free(&e);
    cells_free(&s);
    buf_free(&b);
    term_free(&t);
    term_free(&redrawn);
}

/* A picture of 6x3 blocks (the ladder's coarser pictures): block b's colour
 * in frame f, and a status line over the last row. */
static void blocks_picture(struct cells *s, int f)
{
    for (int r = 0; r < s->rows; r++)
        for (int c = 0; c < s->cols; c++) {
            const int b = (r / 3) * 16 + c / 6, moved = b % 5 == 0 || b == 7 || b == 8;
            const int v = moved ? 40 + 20 * f : 0; /* 7 and 8, side by side, are one colour */
            *cells_at(s, c, r) =
                (struct cell){' ', COLOR_DEFAULT, RGB(10 + 3 * (b == 8 ? 7 : b) + v, 40, 90)};
        }
    cells_clear(s, s->rows - 1, s->rows, RGB(20, 20, 30));
    cells_text(s, 1, s->rows - 1, f ? "pbf  coarse  8 fps" : "pbf  coarse  9 fps",
               RGB(200, 200, 200), RGB(20, 20, 30));
}

/* With the picture's blocks given, a block that changed is sent whole, its
 * colour set once (not once a row), and blocks of one colour side by side as
 * one; the screen is the same cells as sent cell by cell, for fewer bytes;
 * the status line over the blocks goes cell by cell as ever. */
TEST(encode_blocks_go_whole_with_their_colour_set_once)
{
    struct cells s;
    cells_init(&s, 96, 13);
    size_t bytes[2];
    for (int k = 0; k < 2; k++) {
        struct encoder e;
        struct term t;
        struct buf b;
        encode_init(&e, COLOR_TRUE, 0, false);
        e.block = k ? (struct cells_block){6, 3, false} : (struct cells_block){0, 0, false};
        term_init(&t, 96, 13);
        buf_init(&b);
        blocks_picture(&s, 0);
        encode_frame(&e, &s, &b);
        term_feed(&t, b.p, b.len);
        CHECK_INT(term_gap(&t, &s), 0);
        blocks_picture(&s, 1);
        buf_clear(&b);
        encode_frame(&e, &s, &b);
        term_feed(&t, b.p, b.len);
        CHECK_INT(term_gap(&t, &s), 0);
        CHECK_INT(t.errors, 0);
        bytes[k] = b.len;
        if (k) /* blocks 0, 5, ... 60 and the pair 7 + 8: a colour each; the 8 */
            CHECK_MSG(count_bytes(b.p, b.len, "48;2;") == 15, "%.*s", (int)b.len, b.p);
        encode_free(&e);
        term_free(&t);
        buf_free(&b);
    }
    CHECK_MSG(bytes[1] * 4 < bytes[0] * 3, "blocks sent in %zu bytes, cell by cell in %zu",
              bytes[1], bytes[0]);
    cells_free(&s);
}

/* ---- the encoder behind frame_next ----------------------------------------- */

static double zero_clock(void) { return 0.0; }

/* The dye scene stirred by --auto, its frames (frame_next, as the terminal
 * loop and the recorder run it) replayed on the model terminal. */
struct run {
    struct app a;
    struct frame f;
    struct term t;
    struct buf out;
    size_t bytes;
};

static void run_init(struct run *r, int tolerance)
{
    struct app_opts o;
    app_opts_default(&o);
    o.tolerance = tolerance;
    o.autopilot = true;
    o.sync = false;
    CHECK(app_init(&r->a, &o, 48, 16) == 0);
    frame_init(&r->f, &r->a, true);
    term_init(&r->t, 48, 16);
    buf_init(&r->out);
    r->bytes = 0;
}

/* One frame of dt (0: the app as it is); returns the gap between the cells it
 * composed and the model terminal's screen after its bytes. */
static int run_frame(struct run *r, double dt, bool dirty)
{
    buf_clear(&r->out);
    r->bytes += frame_next(&r->f, &r->a, dt, zero_clock, dirty, &r->out);
    term_feed(&r->t, r->out.p, r->out.len);
    return term_gap(&r->t, &r->f.cells);
}

static void run_free(struct run *r)
{
    buf_free(&r->out);
    term_free(&r->t);
    frame_free(&r->f);
    app_free(&r->a);
}

/* --tolerance (the app's options) is the tolerance the frames are encoded
 * with: 0 leaves every frame exact on screen, 40 leaves colours off by up to
 * 40 (and no more) for fewer bytes, and the encoder holds the number given. */
TEST(encode_tolerance_option_reaches_the_frames)
{
    static const int tols[] = {0, APP_DEFAULT_TOLERANCE, 40, 255};
    for (size_t k = 0; k < sizeof tols / sizeof tols[0]; k++) {
        struct run r;
        run_init(&r, tols[k]);
        CHECK_INT(r.f.enc.tolerance, tols[k]);
        run_free(&r);
    }
    size_t bytes[2];
    for (int k = 0; k < 2; k++) {
        int tol = k ? 40 : 0, worst = 0;
        struct run r;
        run_init(&r, tol);
        for (int f = 0; f < 40; f++) {
            int gap = run_frame(&r, f ? 1.0 / 30 : 0.0, false);
            worst = gap > worst ? gap : worst;
        }
        CHECK_INT(r.t.errors, 0);
        if (tol == 0)
            CHECK_MSG(worst == 0, "--tolerance 0: a colour %d off on screen", worst);
        else
            CHECK_MSG(worst > 0 && worst <= 40, "--tolerance 40: the worst colour %d off", worst);
        bytes[k] = r.bytes;
        run_free(&r);
    }
    CHECK_MSG(bytes[1] * 3 < bytes[0] * 2, "--tolerance 40 sent %zu bytes, 0 sent %zu", bytes[1],
              bytes[0]);
}

/* Paused, the picture is sent exact: with a tolerance of 40 the screen is a
 * little off while the dye moves, and the first frame after the pause puts
 * every cell right (the encoder's exact mode), the next sends nothing. */
TEST(encode_paused_frame_is_sent_exact)
{
    struct run r;
    run_init(&r, 40);
    int gap = 0;
    for (int f = 0; f < 60 && !(f >= 20 && gap > 0); f++)
        gap = run_frame(&r, f ? 1.0 / 30 : 0.0, false);
    CHECK_MSG(gap > 0, "the moving picture was exact on screen: nothing for the pause to do");
    struct input_event e = {.type = INPUT_KEY, .key = ' '};
    app_input(&r.a, &e);
    CHECK(r.a.paused);
    gap = run_frame(&r, 1.0 / 30, true);
    CHECK_MSG(gap == 0, "paused: a colour %d off on screen", gap);
    CHECK_INT(r.t.errors, 0);
    buf_clear(&r.out);
    CHECK_INT(frame_next(&r.f, &r.a, 1.0 / 30, zero_clock, false, &r.out), 0);
    run_free(&r);
}

/* A level of the ladder in 256 colours, then the picture whole again behind
 * a link that cleared: every cell is repainted where the colours change (the
 * status line's text too, whose colours the shadow held as wanted, not as
 * the palette showed them), so the screen is the truecolour picture within
 * the tolerance; and a probe of a higher rate pads its frames up to it,
 * without the padding counted as the picture's bytes. */
TEST(encode_ladder_levels_leave_nothing_of_the_last)
{
    struct run r;
    run_init(&r, APP_DEFAULT_TOLERANCE);
    double t = 0.0;
    for (int f = 0; f < 10; f++, t += 1.0 / 30)
        run_frame(&r, f ? 1.0 / 30 : 0.0, false);
    for (int f = 0; f < 30 && !ladder_rungs[r.f.lad.rung].fewer_colours; f++, t += 1.0 / 30) {
        frame_plan(&r.f, &r.a, 10.0, 10.0, true, t); /* 10 bytes a second */
        run_frame(&r, 1.0 / 30, false);
    }
    CHECK_MSG(ladder_rungs[r.f.lad.rung].fewer_colours, "rung %d", r.f.lad.rung);
    r.a.help = true; /* its box, first sent in 256 colours, the same at every level */
    frame_plan(&r.f, &r.a, 10.0, 10.0, true, t);
    run_frame(&r, 1.0 / 30, true);
    CHECK(ladder_rungs[r.f.lad.rung].fewer_colours);
    t += 1.0 / 30;
    frame_plan(&r.f, &r.a, 0.0, 0.0, true, t); /* no limit: whole */
    CHECK_INT(r.f.lad.rung, 0);
    int gap = run_frame(&r, 1.0 / 30, false);
    CHECK_MSG(gap <= APP_DEFAULT_TOLERANCE, "a cell %d off after the colours came back", gap);
    CHECK_INT(r.t.errors, 0);
    /* A probe: 60 KB/s for frames, paced at 120 KB/s: each frame filled up
     * to 4 KB, its own bytes alone the picture's need. */
    r.a.help = false;
    for (int f = 0; f < 10; f++, t += 1.0 / 30) { /* the help gone, the picture as it goes */
        frame_plan(&r.f, &r.a, 0.0, 0.0, true, t);
        run_frame(&r, 1.0 / 30, false);
    }
    int counted = 0;
    for (int f = 0; f < 8; f++, t += 1.0 / 30) {
        const int rung = r.f.lad.rung;
        frame_plan(&r.f, &r.a, 60e3, 120e3, true, t);
        CHECK(r.f.enc.pad > 0.0);
        const double need = r.f.lad.guess ? 0.0 : r.f.lad.need[r.f.lad.rung]; /* a guess goes */
        const bool fresh = r.f.lad.fresh || r.f.lad.rung != rung;
        run_frame(&r, 1.0 / 30, false);
        CHECK_MSG(r.f.enc.padded > 0 && r.out.len >= 120e3 / 30 - 200,
                  "a probe's frame of %zu bytes (%zu padding)", r.out.len, r.f.enc.padded);
        const double own = (double)(r.out.len - r.f.enc.padded);
        const double want = need > 0.0 ? 0.75 * need + 0.25 * own : own;
        if (fresh) /* the first frame at a level is a repaint: not its need */
            continue;
        counted++;
        CHECK_MSG(fabs(r.f.lad.need[r.f.lad.rung] - want) < 1.0,
                  "need %.0f after %.0f, the frame's own %.0f of %zu", r.f.lad.need[r.f.lad.rung],
                  need, own, r.out.len);
    }
    CHECK(counted >= 4);
    run_free(&r);
}

/* A trail a shade off the background (within the tolerance) is put right once
 * the cell has been asked for unchanged ENCODE_SETTLE frames, the sweep aside. */
TEST(encode_a_settled_cell_is_sent_exactly)
{
    struct cells s;
    cells_init(&s, 4, 40);
    struct encoder e;
    encode_init(&e, COLOR_TRUE, 6, false);
    e.sweep = true;
    struct buf b;
    buf_init(&b);
    cells_clear(&s, 0, 40, RGB(17, 20, 31)); /* where the cloth passed */
    encode_frame(&e, &s, &b);
    cells_clear(&s, 0, 40, RGB(16, 18, 26)); /* the background again */
    int sent[ENCODE_SETTLE + 2];
    for (int f = 0; f < ENCODE_SETTLE + 2; f++) {
        buf_clear(&b);
        sent[f] = encode_frame(&e, &s, &b);
    }
    /* Within the tolerance: at first only the swept row (4 cells) ... */
    for (int f = 0; f < ENCODE_SETTLE; f++)
        CHECK_MSG(sent[f] == 4, "frame %d: %d cells", f, sent[f]);
    /* ... then every cell not yet swept, and after that nothing. */
    CHECK_INT(sent[ENCODE_SETTLE], 4 * 40 - 4 * ENCODE_SETTLE);
    CHECK_INT(sent[ENCODE_SETTLE + 1], 0);
    CHECK(e.shadow[0].bg == RGB(16, 18, 26) && e.shadow[4 * 40 - 1].bg == RGB(16, 18, 26));
    buf_free(&b);
    encode_free(&e);
    cells_free(&s);
}

/* ---- whole frames ------------------------------------------------------------- */

/* What a slow link cannot take is given up before the encoder (fewer frames,
 * a coarser picture: app/ladder.h): every frame is whole, so after each one
 * the model terminal shows that frame within the tolerance everywhere (no
 * cell left over from an earlier frame), at every frame of a moving picture
 * and however far apart the frames sent are. */
TEST(encode_every_frame_is_whole)
{
    for (int every = 1; every <= 7; every += 3) {
        struct cells s;
        cells_init(&s, 40, 12);
        struct encoder e;
        encode_init(&e, COLOR_TRUE, 6, false);
        e.sweep = true;
        struct buf out;
        buf_init(&out);
        struct term t;
        term_init(&t, 40, 12);
        int worst = 0;
        for (int f = 0; f < 40; f += every) {
            animation(&s, f);
            buf_clear(&out);
            encode_frame(&e, &s, &out);
            term_feed(&t, out.p, out.len);
            int gap = term_gap(&t, &s);
            worst = gap > worst ? gap : worst;
        }
        CHECK_MSG(worst <= 6, "every %d frames: a cell off by %d", every, worst);
        term_free(&t);
        buf_free(&out);
        encode_free(&e);
        cells_free(&s);
    }
}

/* Padding: after the frame's own cells, whole rows sent again exactly, in
 * turn, until the pad is spent (the screen at most ENCODE_PAD_PASSES times); the screen stays the picture (and becomes it
 * exactly in those rows), the shadow knows it, and the padding is told apart. */
TEST(encode_padding_sends_whole_rows_again_exactly)
{
    struct cells s;
    cells_init(&s, 40, 12);
    animation(&s, 0);
    struct encoder e;
    encode_init(&e, COLOR_TRUE, 0, false);
    struct buf out;
    buf_init(&out);
    struct term t;
    term_init(&t, 40, 12);
    encode_frame(&e, &s, &out);
    term_feed(&t, out.p, out.len);
    buf_clear(&out);
    CHECK_INT(encode_frame(&e, &s, &out), 0); /* nothing changed: nothing sent */
    e.pad = 700.0;
    int sent = encode_frame(&e, &s, &out);
    term_feed(&t, out.p, out.len);
    CHECK_MSG(e.padded >= 700 && out.len >= e.padded && sent % 40 == 0 && sent > 0,
              "padded %zu of %zu bytes, %d cells", e.padded, out.len, sent);
    CHECK_INT(term_gap(&t, &s), 0);
    CHECK_INT(t.errors, 0);
    /* The next padding goes on from the row after. */
    const int row = e.pad_row;
    CHECK(row == sent / 40);
    buf_clear(&out);
    e.pad = 1.0;
    CHECK_INT(encode_frame(&e, &s, &out), 40);
    CHECK_INT(e.pad_row, row + 1);
    int off = 0; /* the shadow is what the screen shows */
    for (int i = 0; i < 40 * 12; i++)
        off += cell_gap(&e.shadow[i], &t.c[i]) != 0;
    CHECK_INT(off, 0);
    /* A pad of more than the screen (a probe of a link many times what a
     * coarse picture takes): the screen again, more than once, up to
     * ENCODE_PAD_PASSES times. */
    buf_clear(&out);
    e.pad = 1e6;
    sent = encode_frame(&e, &s, &out);
    term_feed(&t, out.p, out.len);
    CHECK_MSG(sent == ENCODE_PAD_PASSES * 40 * 12, "%d cells for a pad of 1 MB", sent);
    CHECK_INT(term_gap(&t, &s), 0);
    e.pad = 0.0;
    buf_clear(&out);
    CHECK_INT(encode_frame(&e, &s, &out), 0);
    CHECK(e.padded == 0);
    term_free(&t);
    buf_free(&out);
    encode_free(&e);
    cells_free(&s);
}

/* The tolerance works in 256 colours too: two greys of the ramp 10 apart are
 * one within a tolerance of 24, two within 6; the 256 blit's colours are
 * palette colours, compared as the RGB they show. */
TEST(encode_tolerance_works_in_256_colours)
{
    for (int tol = 6; tol <= 24; tol += 18) {
        struct cells s;
        cells_init(&s, 8, 2);
        for (int i = 0; i < 16; i++)
            s.c[i] = (struct cell){GLYPH_UPPER, RGB(108, 108, 108), RGB(28, 28, 28)};
        struct encoder e;
        encode_init(&e, COLOR_256, tol, false);
        struct buf out;
        buf_init(&out);
        encode_frame(&e, &s, &out);
        for (int i = 0; i < 16; i++)
            s.c[i].fg = RGB(118, 118, 118);
        buf_clear(&out);
        int sent = encode_frame(&e, &s, &out);
        CHECK_MSG(tol == 24 ? sent == 0 : sent == 16, "tolerance %d: %d cells", tol, sent);
        buf_free(&out);
        encode_free(&e);
        cells_free(&s);
    }
}

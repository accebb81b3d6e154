/*
 * test_colors.c — end to end, the colour modes below truecolor as a person
 * sees them: the real ./swirl in tmux, read back with capture-pane -e -N.
 *
 *  mono (NO_COLOR=1): the cloth scene's empty background has no ink at all,
 *      and the ink is ▀ and reverse-video spaces, never █ or ▄ (an outline
 *      font draws them short of the cell: a dark line between rows);
 *  256 colours (TERM=xterm-256color, COLORTERM unset, detected, as over SSH:
 *      no TMUX, and tmux answers none of the colour questions): the empty
 *      background is one palette colour, and so is a cleared dye canvas;
 *  8 and 16 colours: the resting cloth stays blue (never red or magenta).
 *
 * A capture is parsed into cells (glyph, fg, bg: e2e_cells); a cell's two
 * pixels are its upper and lower half. Every wait polls against a deadline
 * (e2e_wait).
 */
#include "e2e.h"
#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLS 80
#define ROWS 24
#define CANVAS (ROWS - 1) /* the last row is the HUD */
#define MARGIN 8          /* columns either side that the cloth never reaches */

struct screen {
    struct e2e_cell c[ROWS][COLS];
};

static void parse(const char *text, struct screen *s) { e2e_cells(text, &s->c[0][0], COLS, ROWS); }

static bool is_block(const struct e2e_cell *c)
{
    return c->ch == 0x2580 || c->ch == 0x2584 || c->ch == 0x2588;
}

/* Mono: a cell with ink, a block or a space in reverse video. */
static bool inked(const struct e2e_cell *c)
{
    return is_block(c) || (c->ch == ' ' && (c->attr & E2E_REVERSE));
}

#define TEXT (-2) /* a cell showing a letter: not one colour, whatever its bg */

/* The two pixels of a cell (e2e_pixels), or TEXT twice for a letter. */
static void pixels(const struct e2e_cell *c, int *top, int *bot)
{
    if (c->ch != ' ' && !is_block(c))
        *top = *bot = TEXT;
    else
        e2e_pixels(c, top, bot);
}

static bool in_margin(int row, int col)
{
    return row < CANVAS && (col < MARGIN || col >= COLS - MARGIN);
}

static bool hud_up(const struct screen *s)
{
    /* E2E_HUD_SIGN on the last row: a frame with the HUD has been drawn. */
    char line[COLS + 1];
    for (int c = 0; c < COLS; c++)
        line[c] = s->c[ROWS - 1][c].ch < 128 ? (char)s->c[ROWS - 1][c].ch : '?';
    line[COLS] = 0;
    return strstr(line, E2E_HUD_SIGN) != NULL;
}

/* ---- what the waits look for --------------------------------------------- */

struct ink_query {
    int total, margin; /* inked cells: the canvas, its empty margins */
    int short_glyphs;  /* █ and ▄, which outline fonts draw short of the cell */
};

static bool cloth_drawn_margins_blank(const char *text, void *arg)
{
    static struct screen s;
    struct ink_query *q = arg;
    parse(text, &s);
    q->total = q->margin = q->short_glyphs = 0;
    for (int r = 0; r < CANVAS; r++)
        for (int c = 0; c < COLS; c++)
            if (inked(&s.c[r][c])) {
                q->total++;
                q->margin += in_margin(r, c);
                q->short_glyphs += s.c[r][c].ch == 0x2584 || s.c[r][c].ch == 0x2588;
            }
    return hud_up(&s) && q->total > 100 && q->margin == 0 && q->short_glyphs == 0;
}

struct flat_query {
    bool margins_only; /* else the whole canvas */
    int colours;       /* distinct pixel colours in the area */
    int first, other;  /* the first colour, and one that differs */
    int canvas;        /* distinct colours on the whole canvas (up to 8) */
};

static bool area_is_one_palette_colour(const char *text, void *arg)
{
    static struct screen s;
    struct flat_query *q = arg;
    parse(text, &s);
    int seen[8], nseen = 0;
    q->colours = 0, q->first = q->other = E2E_DEFAULT;
    for (int r = 0; r < CANVAS; r++)
        for (int c = 0; c < COLS; c++) {
            int px[2];
            pixels(&s.c[r][c], &px[0], &px[1]);
            for (int k = 0; k < 2; k++) {
                int i = 0;
                while (i < nseen && seen[i] != px[k])
                    i++;
                if (i == nseen && nseen < 8)
                    seen[nseen++] = px[k];
                if (q->margins_only && !in_margin(r, c))
                    continue;
                if (q->colours == 0)
                    q->first = px[k], q->colours = 1;
                else if (px[k] != q->first && q->colours == 1)
                    q->other = px[k], q->colours = 2;
            }
        }
    q->canvas = nseen;
    bool indexed = q->first >= 0 && q->first < 256;
    return hud_up(&s) && q->colours == 1 && indexed && (!q->margins_only || q->canvas > 2);
}

struct hue_query {
    int lit, blue, red; /* non-black pixels; blue/cyan ones; red/magenta ones */
};

static bool cloth_is_blue(const char *text, void *arg)
{
    static struct screen s;
    struct hue_query *q = arg;
    parse(text, &s);
    q->lit = q->blue = q->red = 0;
    for (int r = 0; r < CANVAS; r++)
        for (int c = 0; c < COLS; c++) {
            int px[2];
            pixels(&s.c[r][c], &px[0], &px[1]);
            for (int k = 0; k < 2; k++) {
                int i = px[k] >= 0 && px[k] < 16 ? px[k] % 8 : -1;
                if (i <= 0)
                    continue;
                q->lit++;
                q->blue += i == 4 || i == 6;
                q->red += i == 1 || i == 5;
            }
        }
    /* Strained threads at the pins may redden a little, as in truecolor. */
    return hud_up(&s) && q->lit > 200 && q->blue * 3 > q->lit && q->red * 50 < q->lit;
}

/* ---- the tests -------------------------------------------------------------- */

TEST_E2E(colors_mono_cloth_background_has_no_ink)
{
    CHECK(e2e_start_swirl(COLS, ROWS, "NO_COLOR=1", "--scene cloth"));
    struct ink_query q = {0, 0, 0};
    CHECK_MSG(e2e_wait(e2e_screen_full, cloth_drawn_margins_blank, &q, E2E_DEADLINE),
              "%d inked cells, %d of them in the empty margins, %d drawn with \u2588 or \u2584",
              q.total, q.margin, q.short_glyphs);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
}

TEST_E2E(colors_256_flat_background_is_one_colour)
{
    /* The usual SSH case: xterm-256color, no COLORTERM (and no TMUX, which ssh
     * does not forward); detection picks 256. */
    CHECK(e2e_start_swirl(COLS, ROWS, "TERM=xterm-256color COLORTERM= TMUX=", "--scene cloth"));
    struct flat_query q = {true, 0, 0, 0, 0};
    CHECK_MSG(e2e_wait(e2e_screen_full, area_is_one_palette_colour, &q, E2E_DEADLINE),
              "margins: %d colours (%d, %d); canvas %d colours", q.colours, q.first, q.other,
              q.canvas);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
}

TEST_E2E(colors_256_cleared_dye_is_one_colour)
{
    CHECK(e2e_start_swirl(COLS, ROWS, "TERM=xterm-256color COLORTERM= TMUX=", "--scene dye"));
    CHECK(e2e_wait_hud());
    /* Once the start hint has faded (a letter of it counts as another colour),
     * the cleared canvas is the background, all of it: paused first, so that
     * the idle autopilot (2.5 s after a key) never stirs it again, however
     * late a loaded machine lets the test look. */
    CHECK(e2e_wait_gone(e2e_plain, "drag to stir"));
    e2e_send_key("Space");
    CHECK(e2e_wait_for(e2e_plain, "paused"));
    e2e_send_key("c");
    struct flat_query q = {false, 0, 0, 0, 0};
    CHECK_MSG(e2e_wait(e2e_screen_full, area_is_one_palette_colour, &q, E2E_DEADLINE),
              "canvas: %d colours (%d, %d)", q.colours, q.first, q.other);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
}

TEST_E2E(colors_8_and_16_keep_the_cloth_blue)
{
    const char *modes[] = {"--scene cloth --color 8", "--scene cloth --color 16"};
    for (int m = 0; m < 2; m++) {
        CHECK(e2e_start_swirl(COLS, ROWS, "", modes[m]));
        struct hue_query q = {0, 0, 0};
        CHECK_MSG(e2e_wait(e2e_screen_full, cloth_is_blue, &q, E2E_DEADLINE),
                  "%s: %d lit pixels, %d blue or cyan, %d red or magenta", modes[m], q.lit,
                  q.blue, q.red);
        e2e_send_key("q");
        CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
        e2e_stop();
    }
}

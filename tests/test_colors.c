/*
 * test_colors.c — end to end, the colour modes below truecolor as a person
 * sees them: the real ./swirl in tmux, read back with capture-pane -e -N.
 *
 *  mono (NO_COLOR=1): the cloth scene's empty background has no ink at all;
 *  256 colours (TERM=xterm-256color, COLORTERM unset, detected): the empty
 *      background is one palette colour, and so is a cleared dye canvas;
 *  8 and 16 colours: the resting cloth stays blue (never red or magenta).
 *
 * A capture is parsed into cells (glyph, fg, bg) carrying the SGR state across
 * cells and lines, as capture-pane writes it; a cell's two pixels are its upper
 * and lower half. Every wait polls against a deadline (e2e_wait).
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

/* A colour as captured: DEFAULT, a palette index 0..255, or TRUE | 0xRRGGBB. */
#define DEFAULT (-1)
#define TRUE_RGB 0x1000000

struct scell {
    uint32_t ch;
    int fg, bg;
};

struct screen {
    struct scell c[ROWS][COLS];
};

/* One SGR sequence's parameters applied to (fg, bg). */
static void sgr(const int *v, int nv, int *fg, int *bg)
{
    for (int i = 0; i < nv; i++) {
        int p = v[i];
        if ((p == 38 || p == 48) && i + 2 < nv && v[i + 1] == 5) {
            *(p == 38 ? fg : bg) = v[i + 2];
            i += 2;
        } else if ((p == 38 || p == 48) && i + 4 < nv && v[i + 1] == 2) {
            *(p == 38 ? fg : bg) = TRUE_RGB | v[i + 2] << 16 | v[i + 3] << 8 | v[i + 4];
            i += 4;
        } else if (p >= 30 && p <= 37) {
            *fg = p - 30;
        } else if (p >= 40 && p <= 47) {
            *bg = p - 40;
        } else if (p >= 90 && p <= 97) {
            *fg = p - 90 + 8;
        } else if (p >= 100 && p <= 107) {
            *bg = p - 100 + 8;
        } else if (p == 39) {
            *fg = DEFAULT;
        } else if (p == 49) {
            *bg = DEFAULT;
        } else if (p == 0) {
            *fg = *bg = DEFAULT;
        }
    }
}

/* Decodes one UTF-8 character at *p (advancing it). */
static uint32_t utf8(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    int n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
    uint32_t cp = n == 1 ? s[0] : s[0] & (0x7F >> n);
    for (int i = 1; i < n && s[i]; i++)
        cp = cp << 6 | (s[i] & 0x3F);
    *p += n;
    return cp;
}

static void parse(const char *text, struct screen *s)
{
    memset(s, 0, sizeof *s);
    int fg = DEFAULT, bg = DEFAULT, row = 0, col = 0;
    for (const char *p = text; *p && row < ROWS;) {
        if (*p == '\n') {
            row++, col = 0, p++;
            continue;
        }
        if (*p == 27 && p[1] == '[') {
            int v[32], nv = 0;
            const char *q = p + 2;
            while (*q && *q != 'm' && nv < 32) {
                v[nv++] = (int)strtol(q, (char **)&q, 10);
                if (*q != ';')
                    break;
                q++;
            }
            sgr(v, nv, &fg, &bg);
            p = *q ? q + 1 : q;
            continue;
        }
        uint32_t ch = utf8(&p);
        if (col < COLS)
            s->c[row][col++] = (struct scell){ch, fg, bg};
    }
}

static bool inked(const struct scell *c)
{
    return c->ch == 0x2580 || c->ch == 0x2584 || c->ch == 0x2588;
}

#define TEXT (-2) /* a cell showing a letter: not one colour, whatever its bg */

/* The two pixels of a cell: ▀ shows fg above bg, a space bg twice. */
static void pixels(const struct scell *c, int *top, int *bot)
{
    if (c->ch != ' ' && !inked(c)) {
        *top = *bot = TEXT;
        return;
    }
    *top = c->ch == 0x2580 || c->ch == 0x2588 ? c->fg : c->bg;
    *bot = c->ch == 0x2588 || c->ch == 0x2584 ? c->fg : c->bg;
}

static bool in_margin(int row, int col)
{
    return row < CANVAS && (col < MARGIN || col >= COLS - MARGIN);
}

static bool hud_up(const struct screen *s)
{
    /* " ms/step" on the last row: a frame with the HUD has been drawn. */
    char line[COLS + 1];
    for (int c = 0; c < COLS; c++)
        line[c] = s->c[ROWS - 1][c].ch < 128 ? (char)s->c[ROWS - 1][c].ch : '?';
    line[COLS] = 0;
    return strstr(line, "ms/step") != NULL;
}

/* ---- what the waits look for --------------------------------------------- */

struct ink_query {
    int total, margin; /* inked cells: the canvas, its empty margins */
};

static bool cloth_drawn_margins_blank(const char *text, void *arg)
{
    static struct screen s;
    struct ink_query *q = arg;
    parse(text, &s);
    q->total = q->margin = 0;
    for (int r = 0; r < CANVAS; r++)
        for (int c = 0; c < COLS; c++)
            if (inked(&s.c[r][c])) {
                q->total++;
                q->margin += in_margin(r, c);
            }
    return hud_up(&s) && q->total > 100 && q->margin == 0;
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
    q->colours = 0, q->first = q->other = DEFAULT;
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
    struct ink_query q = {0, 0};
    CHECK_MSG(e2e_wait(e2e_screen_full, cloth_drawn_margins_blank, &q, E2E_DEADLINE),
              "%d inked cells, %d of them in the empty margins", q.total, q.margin);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
}

TEST_E2E(colors_256_flat_background_is_one_colour)
{
    /* The usual SSH case: xterm-256color, no COLORTERM; detection picks 256. */
    CHECK(e2e_start_swirl(COLS, ROWS, "TERM=xterm-256color COLORTERM=", "--scene cloth"));
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
    CHECK(e2e_start_swirl(COLS, ROWS, "TERM=xterm-256color COLORTERM=", "--scene dye"));
    CHECK(e2e_wait_for(e2e_plain, "ms/step"));
    e2e_send_key("c");
    /* Once the start hint has faded, the whole canvas is the background (a
     * letter of the hint counts as another colour). */
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

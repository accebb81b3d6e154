/*
 * encode.c — cells to bytes with damage tracking (see encode.h).
 *
 * Coordinates: cells (col,row) from 0; escape sequences use 1-based positions.
 * After a glyph in the last column the terminal's cursor is in the "pending wrap"
 * state, so the encoder forgets where it is and positions explicitly next time.
 * Colours are written with semicolons (38;2;r;g;b), which every terminal that
 * speaks truecolor accepts.
 *
 * Runs and overhang. A terminal draws the printable characters that arrive
 * between two control sequences as one run: it fills the run's background,
 * then draws its glyphs, clipped to the run's cells but not to each glyph's
 * own cell. xterm with an outline font (DejaVu Sans Mono 10) draws a block
 * element a hair wider than its cell, so inside a run a ▀ leaves about half
 * its fg in the first pixel column of the cell to its right and a trace in
 * the last column of the cell to its left; a space there draws no glyph to
 * cover it, and when the ▀ is later sent on its own the neighbour, whose
 * colours did not change, keeps the old colour for good (thin streaks). So
 * two neighbours printed in one run, one of them a block element, get a NUL
 * between them: every terminal ignores it (it is the old padding character),
 * and it ends the run, so each block is clipped to its own cell and what a
 * cell shows depends on that cell alone, however the screen was reached.
 *
 * A multiplexer (tmux, GNU screen) drops the NUL and draws the cells itself:
 * it prints neighbours in one run whenever their attributes (fg, bg, bold,
 * reverse...) are equal, whether it passes on what we sent or redraws its own
 * copy of the screen. So no block may ever have the attributes of a space
 * beside it, and the two never join a run: a space, which shows no fg, is
 * sent with the terminal's default fg, which no block has, and in mono, where
 * every cell has the default colours, a space is sent bold (which shows
 * nothing on a space). Cells that join a multiplexer's run then are the same
 * glyph in the same colours, and an overhang of a colour over itself leaves
 * nothing to see (at most a few levels on the anti-aliased row where ▀'s
 * halves meet).
 *
 * Mono draws every pixel pair with ▀ and spaces: a full cell is a space in
 * reverse video, a lower half a ▀ in reverse video (the blit marks both with
 * COLOR_REVERSE), as the full block and ▄ of an outline font fall short of
 * the cell's bottom and leave a dark line between rows.
 */
#include "encode.h"
#include "encode_internal.h"
#include "fit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void encode_init(struct encoder *e, enum color_mode mode, int tolerance, bool sync)
{
    memset(e, 0, sizeof *e);
    e->mode = mode;
    e->tolerance = clampi(tolerance, 0, 255);
    e->sync = sync;
    encode_invalidate(e);
}

void encode_free(struct encoder *e)
{
    free(e->shadow);
    free(e->wanted);
    free(e->still);
    e->shadow = e->wanted = NULL;
    e->still = NULL;
}

void encode_invalidate(struct encoder *e)
{
    e->valid = false;
    e->cur_row = e->cur_col = -1;
}

void encode_utf8(struct buf *out, uint32_t cp)
{
    char b[4];
    if (cp < 0x80) {
        buf_putc(out, (char)cp);
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        buf_put(out, b, 2);
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        buf_put(out, b, 3);
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        buf_put(out, b, 4);
    }
}

/* Does the glyph show its foreground colour? A space shows only the background. */
static bool shows_fg(uint32_t ch) { return ch != ' '; }

/* How far apart two colours are: the most of the three channels' differences,
 * 0..255; ENCODE_FAR where one is not a colour (the terminal's default). */
#define ENCODE_FAR 256
static int colour_error(rgb_t a, rgb_t b)
{
    if (a == b)
        return 0;
    if ((a | b) & COLOR_DEFAULT)
        return ENCODE_FAR;
    int dr = abs(rgb_r(a) - rgb_r(b)), dg = abs(rgb_g(a) - rgb_g(b)), db = abs(rgb_b(a) - rgb_b(b));
    int d = dr > dg ? dr : dg;
    return d > db ? d : db;
}

static bool colour_differs(rgb_t a, rgb_t b, int tol) { return colour_error(a, b) > tol; }

/* The two pixels a picture cell shows (▀ or a space); false for text glyphs. */
static bool cell_pixels(const struct cell *c, rgb_t *top, rgb_t *bot)
{
    if (c->ch == GLYPH_UPPER) {
        *top = c->fg, *bot = c->bg;
        return true;
    }
    if (c->ch == ' ') {
        *top = *bot = c->bg;
        return true;
    }
    return false;
}

/* A picture glyph (▀, a quadrant, a sextant, a space) whose two colours are
 * within the tolerance shows one colour, in *c. */
static bool shows_one(const struct cell *c, int tol, rgb_t *col)
{
    *col = c->bg;
    return c->ch == ' ' || (fit_is_picture(c->ch) && !colour_differs(c->fg, c->bg, tol));
}

static int most(int a, int b) { return a > b ? a : b; }

/* How far `now` is from what the screen shows, `old`, judged within the
 * tolerance tol: the most a colour it shows is off (ENCODE_FAR for another
 * glyph). With a tolerance, picture cells compare by the pixels they show, so
 * a space and a ▀ of nearly equal halves are the same, as are any two glyphs
 * whose colours are each within the tolerance of one. */
static int cell_error(const struct cell *old, const struct cell *now, int tol)
{
    rgb_t ot, ob, nt, nb;
    if (tol && cell_pixels(old, &ot, &ob) && cell_pixels(now, &nt, &nb))
        return most(colour_error(ot, nt), colour_error(ob, nb));
    if (tol && old->ch != now->ch && shows_one(old, tol, &ot) && shows_one(now, tol, &nt))
        return colour_error(ot, nt);
    if (old->ch != now->ch)
        return ENCODE_FAR;
    int e = colour_error(old->bg, now->bg);
    return shows_fg(now->ch) ? most(e, colour_error(old->fg, now->fg)) : e;
}

/* Does the screen need `now` where it shows `old`? */
static bool cell_differs(const struct cell *old, const struct cell *now, int tol)
{
    return cell_error(old, now, tol) > tol;
}

/*
 * The cheapest cell that shows `now` within the tolerance, given the colours in
 * force: nearly equal halves become a space (no fg), and a colour within the
 * tolerance of the one in force is shown with that one (no SGR for it).
 */
static struct cell cheapest(const struct encoder *e, const struct cell *now, int tol)
{
    struct cell em = *now;
    rgb_t t, b;
    if (!tol)
        return em;
    if (shows_one(now, tol, &b)) {
        t = now->ch == ' ' ? b : now->fg;
        em.ch = ' ';
        em.fg = COLOR_DEFAULT;
        bool keep = !colour_differs(t, e->cur_bg, tol) && !colour_differs(b, e->cur_bg, tol);
        em.bg = keep ? e->cur_bg : b;
        return em;
    }
    if (!colour_differs(em.fg, e->cur_fg, tol))
        em.fg = e->cur_fg;
    if (!colour_differs(em.bg, e->cur_bg, tol))
        em.bg = e->cur_bg;
    return em;
}

/* One SGR colour parameter; fg when fore, else bg. */
static void put_colour(struct buf *out, enum color_mode mode, rgb_t c, bool fore)
{
    if (c & COLOR_DEFAULT) {
        buf_puts(out, fore ? "39" : "49");
        return;
    }
    if (mode == COLOR_TRUE) {
        buf_puts(out, fore ? "38;2;" : "48;2;");
        buf_putu(out, (unsigned)rgb_r(c));
        buf_putc(out, ';');
        buf_putu(out, (unsigned)rgb_g(c));
        buf_putc(out, ';');
        buf_putu(out, (unsigned)rgb_b(c));
        return;
    }
    int i = palette_index(mode, c);
    if (mode == COLOR_256) {
        buf_puts(out, fore ? "38;5;" : "48;5;");
        buf_putu(out, (unsigned)i);
    } else if (i < 8) {
        buf_putu(out, (unsigned)((fore ? 30 : 40) + i));
    } else {
        buf_putu(out, (unsigned)((fore ? 90 : 100) + i - 8));
    }
}

static int digits(int n) { return n >= 100 ? 3 + (n >= 1000) : 1 + (n >= 10); }

/* The bytes of a relative move of n cells (CUU, CUD, CUF, CUB; 0: none). */
static int rel_cost(int n)
{
    n = abs(n);
    return n == 0 ? 0 : n == 1 ? 3 : 3 + digits(n);
}

static void put_rel(struct buf *out, int n, char fwd, char back)
{
    if (n == 0)
        return;
    buf_puts(out, "\x1b[");
    if (abs(n) > 1)
        buf_putu(out, (unsigned)abs(n));
    buf_putc(out, n > 0 ? fwd : back);
}

/* The cursor to (row, col), by the shortest of CUP and the relative moves. */
static void move_to(struct encoder *e, struct buf *out, int row, int col)
{
    if (e->cur_row == row && e->cur_col == col)
        return;
    const int cup =
        3 + (row > 0 || col > 0 ? digits(row + 1) : 0) + (col > 0 ? 1 + digits(col + 1) : 0);
    if (e->cur_row >= 0 && e->cur_col >= 0 &&
        rel_cost(row - e->cur_row) + rel_cost(col - e->cur_col) < cup) {
        put_rel(out, row - e->cur_row, 'B', 'A');
        put_rel(out, col - e->cur_col, 'C', 'D');
    } else {
        buf_puts(out, "\x1b[");
        if (row > 0 || col > 0)
            buf_putu(out, (unsigned)row + 1);
        if (col > 0) {
            buf_putc(out, ';');
            buf_putu(out, (unsigned)col + 1);
        }
        buf_putc(out, 'H');
    }
    e->cur_row = row;
    e->cur_col = col;
}

/* Mono's attributes of a cell (see the top). */
#define ATTR_BOLD 1u
#define ATTR_REVERSE 2u
static unsigned mono_attr(const struct cell *c)
{
    return (c->ch == ' ' ? ATTR_BOLD : 0u) | (c->bg == COLOR_REVERSE ? ATTR_REVERSE : 0u);
}

/* Mono: SGR for the bold and reverse-video attributes that change. */
static void set_attr(struct encoder *e, struct buf *out, unsigned want)
{
    unsigned diff = want ^ e->cur_attr;
    if (!diff)
        return;
    buf_puts(out, "\x1b[");
    if (diff & ATTR_BOLD)
        buf_puts(out, want & ATTR_BOLD ? "1" : "22");
    if ((diff & ATTR_BOLD) && (diff & ATTR_REVERSE))
        buf_putc(out, ';');
    if (diff & ATTR_REVERSE)
        buf_puts(out, want & ATTR_REVERSE ? "7" : "27");
    buf_putc(out, 'm');
    e->cur_attr = want;
}

/* The fg a cell is sent with: its own, or for a space, which shows none, the
 * terminal's default, which no block has (see the top). */
static rgb_t sent_fg(const struct cell *c) { return shows_fg(c->ch) ? c->fg : COLOR_DEFAULT; }

static void set_colours(struct encoder *e, struct buf *out, const struct cell *c)
{
    if (e->mode == COLOR_MONO) {
        set_attr(e, out, mono_attr(c));
        return;
    }
    rgb_t want = sent_fg(c);
    bool fg = want != e->cur_fg;
    bool bg = c->bg != e->cur_bg;
    if (!fg && !bg)
        return;
    buf_puts(out, "\x1b[");
    if (fg) {
        put_colour(out, e->mode, want, true);
        e->cur_fg = want;
    }
    if (bg) {
        if (fg)
            buf_putc(out, ';');
        put_colour(out, e->mode, c->bg, false);
        e->cur_bg = c->bg;
    }
    buf_putc(out, 'm');
}

/* Block elements (U+2580..U+259F: ▀ ▄ █ ▖ ...) and sextants reach the cell's edges, so an
 * outline font's anti-aliasing spills them into the neighbouring cells. */
static bool is_block(uint32_t ch)
{
    return (ch >= 0x2580 && ch <= 0x259F) || (ch >= 0x1FB00 && ch <= 0x1FB3B);
}

/* Would `prev` and `next`, printed in one run, draw into each other's cell? */
static bool overhangs(uint32_t prev, uint32_t next) { return is_block(prev) || is_block(next); }

/* Where the last glyph sent ends in the output, and which glyph it was: the
 * next cell printed right there joins its run. */
struct run {
    size_t end;
    uint32_t ch;
};

/* Sends em as the cell (c,r): cursor, colours, a NUL to end the run where
 * the two glyphs would overhang, the glyph. */
static void send_cell(struct encoder *e, struct buf *out, int c, int r, const struct cell *em,
                      struct run *run)
{
    move_to(e, out, r, c);
    set_colours(e, out, em);
    if (out->len == run->end && overhangs(run->ch, em->ch))
        buf_putc(out, '\0');
    encode_utf8(out, em->ch);
    run->end = out->len;
    run->ch = em->ch;
    e->cur_col = c + 1 < e->cols ? c + 1 : -1;
    if (e->cur_col < 0)
        e->cur_row = -1;
}

/* What no cell holds: a shadow of these sends every cell it is compared with. */
static const struct cell unknown_cell = {0xFFFFFFFFu, COLOR_DEFAULT, COLOR_DEFAULT};

void encode_forget(struct encoder *e, int col, int row)
{
    if (e->valid && col >= 0 && col < e->cols && row >= 0 && row < e->rows)
        e->shadow[(size_t)row * (size_t)e->cols + (size_t)col] = unknown_cell;
}

/* A frame's pass over the cells: its tolerance, the row it compares exactly
 * (-1: none), and whether the screen is unknown. */
struct pass {
    int tol, swept;
    bool fresh;
};

/* The books on cell i, asked for as `now`: how long the same has been asked
 * for. */
static void keep_books(struct encoder *e, const struct pass *ps, size_t i, const struct cell *now)
{
    cells_count_still(&e->still[i], &e->wanted[i], now, ps->fresh);
}

/* The tolerance cell i of row r is judged with. The sweep puts right what the
 * tolerance let stand in its row, moving or not: every cell is exact once a
 * pass over the rows; a cell asked for the same ENCODE_SETTLE frames is sent
 * exactly. */
static int tol_of(const struct encoder *e, const struct pass *ps, size_t i, int r)
{
    return r == ps->swept || e->still[i] > ENCODE_SETTLE ? 0 : ps->tol;
}

/* Cell (c, r), sent when it differs beyond its tolerance from what the screen
 * shows (the shadow, which records what it then shows). */
static void send_if_changed(struct encoder *e, const struct cells *s, struct buf *out,
                            const struct pass *ps, struct run *run, int *sent, int c, int r)
{
    const size_t i = (size_t)r * (size_t)s->cols + (size_t)c;
    const int ctol = tol_of(e, ps, i, r);
    if (!cell_differs(&e->shadow[i], &s->c[i], ctol))
        return;
    e->shadow[i] = cheapest(e, &s->c[i], ctol);
    send_cell(e, out, c, r, &e->shadow[i], run);
    (*sent)++;
}

/* One pass over the rows: the cells that differ beyond the tolerance (none
 * within it on the swept row or once still), each sent within it. */
static void encode_rows(struct encoder *e, const struct cells *s, struct buf *out,
                        const struct pass *ps, struct run *run, int *sent)
{
    for (int r = 0; r < s->rows; r++)
        for (int c = 0; c < s->cols; c++) {
            const size_t i = (size_t)r * (size_t)s->cols + (size_t)c;
            keep_books(e, ps, i, &s->c[i]);
            send_if_changed(e, s, out, ps, run, sent, c, r);
        }
}

/* Blocks of one colour that changed, side by side in a band of rows, not
 * yet sent: cells [c0, c1) x [r0, r1), all `em`. */
struct block_run {
    int c0, c1, r0, r1;
    struct cell em;
};

/* The run sent whole, its rows one under the other, its colour set once. */
static void send_block_run(struct encoder *e, const struct cells *s, struct buf *out,
                           struct block_run *br, struct run *run, int *sent)
{
    for (int r = br->r0; r < br->r1; r++)
        for (int c = br->c0; c < br->c1; c++) {
            e->shadow[(size_t)r * (size_t)s->cols + (size_t)c] = br->em;
            send_cell(e, out, c, r, &br->em, run);
            (*sent)++;
        }
    br->c1 = br->c0; /* empty */
}

/* The block of cells [c0, c1) x [r0, r1): when it is one picture cell and any
 * of its cells changed, it joins the run beside it (if of its colour within
 * the tolerance) or starts the next; a block that is not one cell (the status
 * line over it) goes cell by cell. */
static void encode_block(struct encoder *e, const struct cells *s, struct buf *out,
                         const struct pass *ps, struct block_run *br, struct run *run, int *sent,
                         int c0, int c1, int r0, int r1)
{
    const struct cell *first = &s->c[(size_t)r0 * (size_t)s->cols + (size_t)c0];
    bool changed = false, one = fit_is_picture(first->ch);
    int btol = ps->tol;
    for (int r = r0; r < r1; r++)
        for (int c = c0; c < c1; c++) {
            const size_t i = (size_t)r * (size_t)s->cols + (size_t)c;
            keep_books(e, ps, i, &s->c[i]);
            const int ctol = tol_of(e, ps, i, r);
            btol = ctol < btol ? ctol : btol;
            changed = changed || cell_differs(&e->shadow[i], &s->c[i], ctol);
            one = one && cells_same(&s->c[i], first);
        }
    if (!changed)
        return;
    if (one && br->c1 > br->c0 && br->c1 == c0 && !cell_differs(&br->em, first, btol)) {
        br->c1 = c1; /* the run's colour shows this block within its tolerance */
        return;
    }
    if (br->c1 > br->c0)
        send_block_run(e, s, out, br, run, sent);
    if (one) {
        *br = (struct block_run){c0, c1, r0, r1, cheapest(e, first, btol)};
        return;
    }
    for (int r = r0; r < r1; r++)
        for (int c = c0; c < c1; c++)
            send_if_changed(e, s, out, ps, run, sent, c, r);
}

/* encode_rows for a picture of blocks (encode.h), a band of rows at a time. */
static void encode_blocks(struct encoder *e, const struct cells *s, struct buf *out,
                          const struct pass *ps, struct run *run, int *sent)
{
    const int bw = e->block.w, bh = e->block.h;
    for (int r0 = 0; r0 < s->rows; r0 += bh) {
        const int r1 = r0 + bh < s->rows ? r0 + bh : s->rows;
        struct block_run br = {0, 0, r0, r1, {0, 0, 0}};
        for (int c0 = 0; c0 < s->cols; c0 += bw)
            encode_block(e, s, out, ps, &br, run, sent, c0, c0 + bw < s->cols ? c0 + bw : s->cols,
                         r0, r1);
        if (br.c1 > br.c0)
            send_block_run(e, s, out, &br, run, sent);
    }
}

/* Padding (see encode.h): whole rows sent again as they are asked for, from
 * pad_row on, until the pad is spent; each cell exact. */
static void pad_rows(struct encoder *e, const struct cells *s, struct buf *out, struct run *run,
                     int *sent)
{
    const size_t start = out->len;
    for (int k = 0; k < ENCODE_PAD_PASSES * s->rows && (double)(out->len - start) < e->pad; k++) {
        const int r = (e->pad_row + k) % s->rows;
        for (int c = 0; c < s->cols; c++) {
            size_t i = (size_t)r * (size_t)s->cols + (size_t)c;
            e->shadow[i] = s->c[i];
            send_cell(e, out, c, r, &e->shadow[i], run);
            (*sent)++;
        }
        e->pad_row = (r + 1) % s->rows;
    }
    e->padded = out->len - start;
}

int encode_frame(struct encoder *e, const struct cells *s, struct buf *out)
{
    size_t n = (size_t)s->cols * (size_t)s->rows;
    if (s->cols != e->cols || s->rows != e->rows || !e->shadow) {
        e->shadow = buf_xrealloc(e->shadow, n * sizeof *e->shadow);
        e->wanted = buf_xrealloc(e->wanted, n * sizeof *e->wanted);
        e->still = buf_xrealloc(e->still, n);
        memset(e->still, 0, n);
        e->cols = s->cols;
        e->rows = s->rows;
        e->valid = false;
    }
    size_t start = out->len;
    int sent = 0;
    int tol = e->mode != COLOR_MONO && !e->exact ? e->tolerance : 0;
    if (e->sync)
        buf_puts(out, "\x1b[?2026h");
    bool fresh = !e->valid;
    if (fresh) {
        /* Unknown screen: reset attributes, and every cell is to be sent. */
        buf_puts(out, "\x1b[0m");
        e->cur_fg = e->cur_bg = COLOR_DEFAULT;
        e->cur_attr = 0;
        e->cur_row = e->cur_col = -1;
        for (size_t i = 0; i < n; i++)
            e->shadow[i] = unknown_cell;
    }
    struct run run = {SIZE_MAX, 0};
    struct pass ps = {.tol = tol, .fresh = fresh,
                      .swept = e->sweep && !fresh ? e->sweep_row % s->rows : -1};
    if (cells_blocky(&e->block))
        encode_blocks(e, s, out, &ps, &run, &sent);
    else
        encode_rows(e, s, out, &ps, &run, &sent);
    e->sweep_row = (e->sweep_row + 1) % s->rows;
    e->padded = 0;
    if (e->pad > 0.0 && !fresh)
        pad_rows(e, s, out, &run, &sent);
    if (sent == 0 && !fresh) {
        out->len = start; /* nothing changed: nothing at all is written */
        return 0;
    }
    if (e->sync)
        buf_puts(out, "\x1b[?2026l");
    e->valid = true;
    return sent;
}

double encode_cells_error(const struct cell *shown, const struct cells *s, unsigned short *err)
{
    size_t n = (size_t)s->cols * (size_t)s->rows;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        int d = cell_error(&shown[i], &s->c[i], 1);
        sum += d;
        if (err)
            err[i] = (unsigned short)d;
    }
    return n ? sum / (double)n : 0.0;
}


void encode_naive(const struct cells *s, enum color_mode mode, struct buf *out)
{
    for (int r = 0; r < s->rows; r++) {
        buf_puts(out, "\x1b[");
        buf_putu(out, (unsigned)r + 1);
        buf_puts(out, ";1H");
        for (int c = 0; c < s->cols; c++) {
            const struct cell *cl = &s->c[(size_t)r * (size_t)s->cols + (size_t)c];
            if (mode != COLOR_MONO) {
                buf_puts(out, "\x1b[");
                put_colour(out, mode, cl->fg, true);
                buf_putc(out, ';');
                put_colour(out, mode, cl->bg, false);
                buf_putc(out, 'm');
            }
            encode_utf8(out, cl->ch);
        }
    }
}

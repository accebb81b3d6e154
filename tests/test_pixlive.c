/*
 * test_pixlive.c — frames in the terminal's pixels as the frame loop makes
 * them (app/pixframe.c through frame_next), read back with the tests'
 * decoders (tests/pixdecode.c) as a fake terminal would take them: kitty's
 * picture the image drawn (PNG8: within its palette's bound), over the
 * whole screen, two ids in turn and the last one deleted, the cells' text
 * after it;
 * sixel's picture the image within its palette's bound, stopping above the
 * last row, the text over it sent again after it; an unchanged picture
 * sends nothing; a resize sends the picture at its new size; glyphs when
 * the link carries too little, the picture deleted; our pictures deleted on
 * leaving; the choice of the protocol; the flow control never cuts a piece
 * inside a picture's string.
 */
#include "flow.h"
#include "frame.h"
#include "pixdecode.h"
#include "pixels_internal.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COLS 40
#define ROWS 12

struct live {
    struct app a;
    struct frame f;
    struct buf out;
};

static void live_open(struct live *l, const char *scene, enum app_pixels proto, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    o.scene = scene_find(scene);
    o.autopilot = true;
    o.threads = 1;
    CHECK(o.scene >= 0);
    CHECK(app_init(&l->a, &o, cols, rows) == 0);
    frame_init(&l->f, &l->a, true);
    pixframe_start(&l->f.px, proto, 0, 0, 0);
    pixframe_cell(&l->f.px, 8, 16);
    buf_init(&l->out);
}

static void live_close(struct live *l)
{
    frame_free(&l->f);
    app_free(&l->a);
    buf_free(&l->out);
}

/* A frame 1/30 s on, into l->out (cleared first); its bytes. */
static size_t live_frame(struct live *l)
{
    buf_clear(&l->out);
    return frame_next(&l->f, &l->a, 1.0 / 30, frame_now, false, &l->out);
}

/* Where s[0..n) holds `what` from `from` on (n: nowhere). */
static size_t find(const char *s, size_t n, size_t from, const char *what)
{
    const size_t m = strlen(what);
    for (size_t i = from; i + m <= n; i++)
        if (memcmp(s + i, what, m) == 0)
            return i;
    return n;
}

/* kitty: the commands between DECSC and DECRC, the picture's data joined;
 * the ids shown and deleted. */
struct kread {
    unsigned shown, deleted[2];
    int ndeleted, cols, rows, row, col;
    unsigned char *data;
    size_t len;
    size_t end; /* where the DECRC after the commands ends */
};

static bool read_kitty(const struct buf *out, struct kread *k)
{
    memset(k, 0, sizeof *k);
    size_t at = find(out->p, out->len, 0, "\x1b" "7\x1b[");
    CHECK_MSG(at < out->len, "the picture begins with DECSC and CUP");
    if (at >= out->len || sscanf(out->p + at + 4, "%d;%dH", &k->row, &k->col) != 2)
        return false;
    at = find(out->p, out->len, at, "\x1b_G");
    while (at < out->len && out->p[at + 1] == '_') {
        struct px_cmd c;
        const size_t used = px_parse_cmd(out->p + at, out->len - at, &c);
        CHECK_MSG(used > 0, "a graphics command at %zu", at);
        if (!used)
            return false;
        const char *a = px_key(&c, "a"), *i = px_key(&c, "i");
        if (a && strcmp(a, "d") == 0) {
            if (k->ndeleted < 2)
                k->deleted[k->ndeleted++] = i ? (unsigned)atoi(i) : 0;
        } else {
            if (a && strcmp(a, "T") == 0) {
                k->shown = i ? (unsigned)atoi(i) : 0;
                k->cols = atoi(px_key(&c, "c") ? px_key(&c, "c") : "0");
                k->rows = atoi(px_key(&c, "r") ? px_key(&c, "r") : "0");
            }
            CHECK(px_base64(c.payload, c.payload_len, &k->data, &k->len));
        }
        at += used;
    }
    CHECK_MSG(at + 2 <= out->len && memcmp(out->p + at, "\x1b" "8", 2) == 0,
              "the commands are followed by DECRC");
    k->end = at + 2;
    return true;
}

TEST(pixlive_kitty_frame_is_the_picture_drawn_over_the_screen_with_the_text_after_it)
{
    if (!kitty_zlib())
        test_skip("built without zlib (kitty frames go as RGB, read elsewhere)");
    struct live l;
    live_open(&l, "dye", APP_PIXELS_KITTY, COLS, ROWS);
    live_frame(&l);
    CHECK_MSG(l.f.px.k >= 1 && l.f.st.pixels != NULL, "a frame in pixels (k %d)", l.f.px.k);
    CHECK_MSG(find(l.out.p, l.out.len, 0, "\x1b[?2026") == l.out.len,
              "no synchronized update (kitty would hold the pings' answers back)");
    struct kread k;
    CHECK(read_kitty(&l.out, &k));
    CHECK_INT(k.row, 1);
    CHECK_INT(k.col, 1);
    CHECK_INT(k.cols, COLS);
    CHECK_INT(k.rows, ROWS);
    CHECK_INT(k.shown, KITTY_ID);
    struct image back;
    image_init(&back, 1, 1);
    const char *why = NULL;
    CHECK_MSG(px_png(k.data, k.len, &back, &why), "PNG: %s", why ? why : "");
    const struct image *im = &l.f.px.img;
    CHECK_INT(back.w, im->w);
    CHECK_INT(back.h, im->h);
    CHECK_INT(back.w, l.f.px.k * COLS);
    CHECK_INT(back.h, 2 * l.f.px.k * ROWS);
    if (back.w == im->w && back.h == im->h) { /* PNG8: the frame's palette, dithered */
        double sum = 0.0;
        for (size_t i = 0; i < (size_t)im->w * (size_t)im->h; i++)
            sum += px_distance(back.px[i], im->px[i]);
        const double mean = sum / ((double)im->w * im->h);
        CHECK_MSG(mean < 6.0, "mean distance %.2f from the image drawn (a palette's bound)", mean);
        static rgb_t pal[257];
        CHECK_MSG(px_colours(&back, pal, 256) <= 256, "PNG8: a palette of at most 256");
    }
    /* The status line: text after the picture, inside the update. */
    CHECK_MSG(find(l.out.p, l.out.len, k.end, "dye") < l.out.len, "the status line follows");
    CHECK_MSG(find(l.out.p, l.out.len, k.end, "\x1b[12H") < l.out.len ||
                  find(l.out.p, l.out.len, k.end, "\x1b[12;") < l.out.len,
              "on the last row");
    free(k.data);
    image_free(&back);
    live_close(&l);
}

TEST(pixlive_kitty_ids_alternate_and_the_last_picture_is_deleted)
{
    struct live l;
    live_open(&l, "cloth", APP_PIXELS_KITTY, COLS, ROWS);
    unsigned want = KITTY_ID;
    for (int i = 0; i < 6; i++) {
        live_frame(&l);
        struct kread k;
        CHECK(read_kitty(&l.out, &k));
        CHECK_MSG(k.shown == want, "frame %d shows id %u (want %u)", i, k.shown, want);
        if (i == 0)
            CHECK_INT(k.ndeleted, 0);
        else
            CHECK_MSG(k.ndeleted == 1 && k.deleted[0] == (want == KITTY_ID ? KITTY_ID + 1 : KITTY_ID),
                      "frame %d deletes the other id after it", i);
        free(k.data);
        want = want == KITTY_ID ? KITTY_ID + 1 : KITTY_ID;
    }
    /* Paused: the picture once more at the finest, then nothing at all. */
    l.f.px.budget = 1000.0; /* a slow link: the picture coarse while it moves */
    l.f.px.fit.k = 1;
    live_frame(&l);
    CHECK_INT(l.f.px.k, 1);
    l.a.paused = true;
    live_frame(&l);
    CHECK_MSG(l.f.px.k == 8 && l.f.px.img.w == 8 * COLS, "paused: k %d, the finest 8", l.f.px.k);
    CHECK_INT(live_frame(&l), 0);
    live_close(&l);
}

/* Sixel: the DCS string after the cells; decoded, the canvas's picture. */
TEST(pixlive_sixel_frame_is_the_picture_within_its_palette_above_the_last_row)
{
    struct live l;
    live_open(&l, "dye", APP_PIXELS_SIXEL, COLS, ROWS);
    for (int i = 0; i < 3; i++)
        live_frame(&l);
    l.f.px.k = 0;
    pixframe_invalidate(&l.f.px);
    frame_repaint(&l.f);
    live_frame(&l);
    const int k = l.f.px.k, s = l.f.px.sx.scale;
    CHECK_MSG(k >= 1 && k * s <= 8, "k %d, each pixel %dx%d", k, s, s);
    CHECK_MSG(l.out.len > 8 && memcmp(l.out.p, "\x1b[?2026h", 8) == 0 &&
                  memcmp(l.out.p + l.out.len - 8, "\x1b[?2026l", 8) == 0,
              "one synchronized update");
    const size_t dcs = find(l.out.p, l.out.len, 0, "\x1bP");
    CHECK_MSG(dcs < l.out.len, "a sixel string");
    CHECK_MSG(find(l.out.p, dcs, 0, "\x1b[12H") < dcs, "the cells (the status line) before it");
    struct image back;
    image_init(&back, 1, 1);
    struct px_sixel info;
    CHECK_MSG(px_sixel_decode(l.out.p + dcs, l.out.len - dcs, &back, &info), "sixel: %s",
              info.why ? info.why : "");
    const struct image *im = &l.f.px.img; /* the canvas: every row but the status line's */
    const int ch = 2 * k * (ROWS - 1);
    /* Stretched over the area, whatever k: every pixel of the cells of 8x16
     * above the last row, but those of the cells with text (the hint): left
     * undrawn, so the text is never painted over. */
    CHECK_INT(back.w, COLS * 8);
    CHECK_INT(back.h, (ROWS - 1) * 16);
    double sum = 0.0;
    long drawn = 0, text = 0, wrong = 0;
    for (int y = 0; y < back.h; y++)
        for (int x = 0; x < back.w; x++) {
            const rgb_t p = back.px[(size_t)y * (size_t)back.w + (size_t)x];
            const struct cell *c = &l.f.cells.c[(size_t)(y / 16) * COLS + (size_t)(x / 8)];
            const bool hole = c->ch != ' ' || c->bg != COLOR_DEFAULT;
            text += hole;
            wrong += hole != (p == PX_UNDRAWN);
            if (hole)
                continue;
            drawn++;
            sum += px_distance(p, im->px[(size_t)(y * ch / back.h) * (size_t)im->w +
                                         (size_t)(x * im->w / back.w)]);
        }
    CHECK_MSG(text > 0 && text < back.w * back.h / 4, "%ld pixels of text cells", text);
    CHECK_MSG(wrong == 0, "%ld pixels drawn over text or left undrawn beside it", wrong);
    const double mean = sum / (double)(drawn > 0 ? drawn : 1);
    CHECK_MSG(mean < 6.0, "mean distance %.2f from the image (a palette's bound)", mean);
    /* The status line off: the canvas reaches the last row, the picture
     * not, even at the finest (paused). */
    l.a.status_off = true;
    l.a.paused = true;
    pixframe_invalidate(&l.f.px);
    buf_clear(&l.out);
    frame_next(&l.f, &l.a, 1.0 / 30, frame_now, true, &l.out);
    CHECK_MSG(l.f.px.k * l.f.px.sx.scale == 7, "k %d x %d: what 11 rows of 16 hold", l.f.px.k,
              l.f.px.sx.scale);
    const size_t at = find(l.out.p, l.out.len, 0, "\x1bP");
    CHECK(at < l.out.len);
    CHECK(px_sixel_decode(l.out.p + at, l.out.len - at, &back, &info));
    CHECK_MSG(back.h == (ROWS - 1) * 16, "%d pixel rows: the picture stops above the last row",
              back.h);
    image_free(&back);
    live_close(&l);
}

TEST(pixlive_sixel_sends_the_text_over_the_picture_again_after_it)
{
    struct live l;
    live_open(&l, "cloth", APP_PIXELS_SIXEL, COLS, ROWS);
    live_frame(&l);
    l.a.help = true; /* the help's box over the picture */
    live_frame(&l);
    for (int i = 0; i < 4; i++) { /* the help's first frame, then the picture moving under it */
        if (i > 0)
            live_frame(&l);
        const size_t dcs = find(l.out.p, l.out.len, 0, "\x1bP");
        CHECK_MSG(dcs < l.out.len, "frame %d: a picture", i);
        const size_t st = find(l.out.p, l.out.len, dcs, "\x1b\\");
        CHECK_MSG(find(l.out.p, l.out.len, st, "swirl") < l.out.len,
                  "frame %d: the help's text after the picture", i);
    }
    /* The same frame again: nothing changed, nothing sent. */
    l.a.paused = true;
    live_frame(&l);
    CHECK_INT(live_frame(&l), 0);
    /* The help goes: spaces over the picture erase it there, so a still
     * picture is sent again after them. */
    l.a.help = false;
    buf_clear(&l.out);
    frame_next(&l.f, &l.a, 1.0 / 30, frame_now, true, &l.out);
    CHECK_MSG(find(l.out.p, l.out.len, 0, "\x1bP") < l.out.len,
              "the still picture sent again after the help's cells went");
    live_close(&l);
}

TEST(pixlive_resize_sends_the_picture_at_its_new_size)
{
    struct live l;
    live_open(&l, "pbf", APP_PIXELS_KITTY, COLS, ROWS);
    live_frame(&l);
    l.a.paused = true;
    live_frame(&l);
    app_resize(&l.a, 50, 16);
    frame_resize(&l.f, 50, 16);
    live_frame(&l);
    struct kread k;
    CHECK(read_kitty(&l.out, &k));
    CHECK_INT(k.cols, 50);
    CHECK_INT(k.rows, 16);
    CHECK_MSG(k.ndeleted == 1, "the old picture deleted");
    CHECK_INT(l.f.px.img.w, l.f.px.k * 50);
    free(k.data);
    live_close(&l);
}

TEST(pixlive_a_slow_link_gives_glyphs_and_deletes_the_picture)
{
    struct live l;
    live_open(&l, "dye", APP_PIXELS_KITTY, COLS, ROWS);
    live_frame(&l);
    CHECK(l.f.px.shown);
    /* 100 bytes a second: a picture would take minutes. */
    double now = frame_now();
    for (int i = 0; i < 40 && l.f.px.k > 0; i++, now += 0.1) {
        frame_plan(&l.f, &l.a, 100.0, 100.0, false, now);
        live_frame(&l);
    }
    CHECK_INT(l.f.px.k, 0);
    CHECK_MSG(!l.f.px.shown, "no picture of ours on screen");
    CHECK(l.f.st.pixels == NULL);
    live_close(&l);
    /* The frame that gave way: the deletion of both ids. */
    live_open(&l, "dye", APP_PIXELS_KITTY, COLS, ROWS);
    live_frame(&l);
    buf_clear(&l.out);
    l.f.px.k = 0;
    l.f.px.planned = true;
    frame_next(&l.f, &l.a, 1.0 / 30, frame_now, false, &l.out);
    char del[64];
    snprintf(del, sizeof del, "\x1b_Ga=d,d=I,i=%u,q=2\x1b\\", KITTY_ID + 1);
    CHECK_MSG(find(l.out.p, l.out.len, 0, del) < l.out.len, "both ids deleted");
    CHECK_MSG(find(l.out.p, l.out.len, 0, "\xe2\x96") < l.out.len, "glyphs drawn");
    live_close(&l);
}

/* Does a row of the cells hold the text? */
static bool cells_hold(const struct cells *c, const char *text)
{
    const size_t m = strlen(text);
    for (int r = 0; r < c->rows; r++)
        for (int x = 0; x + (int)m <= c->cols; x++) {
            size_t i = 0;
            while (i < m && c->c[(size_t)r * (size_t)c->cols + (size_t)x + i].ch ==
                                (uint32_t)(unsigned char)text[i])
                i++;
            if (i == m)
                return true;
        }
    return false;
}

/* Sixel in a window larger than the terminal draws a picture (xterm's
 * 1000x1000 by default, told by XTSMGRAPHICS): glyphs, with the reason in
 * the help, and no DCS string; in a window that fits, the picture, at its
 * new size once resized to fit. */
TEST(pixlive_sixel_larger_than_the_terminal_draws_gives_glyphs)
{
    struct live l;
    live_open(&l, "pbf", APP_PIXELS_SIXEL, 200, 60);
    pixframe_start(&l.f.px, APP_PIXELS_SIXEL, 0, 1000, 1000);
    pixframe_cell(&l.f.px, 8, 17);
    CHECK(pixframe_too_large(&l.f.px, &l.a));
    live_frame(&l);
    CHECK_MSG(find(l.out.p, l.out.len, 0, "\x1bP") == l.out.len, "a sixel string at 1600x1020");
    CHECK(l.f.st.pixels == NULL && l.f.st.pixels_big);
    CHECK_MSG(find(l.out.p, l.out.len, 0, "\xe2\x96") < l.out.len, "glyphs drawn");
    l.a.help = true;
    live_frame(&l);
    CHECK_MSG(cells_hold(&l.f.cells, "sixel of the whole window") &&
                  cells_hold(&l.f.cells, "1000x1000"), "the help says why");
    app_resize(&l.a, 120, 40); /* 960x663 */
    frame_resize(&l.f, 120, 40);
    CHECK(!pixframe_too_large(&l.f.px, &l.a));
    l.a.help = false;
    double now = frame_now(); /* (back from glyphs once it has held a moment: pixfit.h) */
    for (int i = 0; i < 40 && !l.f.st.pixels; i++, now += 0.1) {
        frame_plan(&l.f, &l.a, 0.0, 0.0, false, now);
        live_frame(&l);
    }
    CHECK_MSG(find(l.out.p, l.out.len, 0, "\x1bP") < l.out.len, "no sixel at 960x663");
    CHECK(l.f.st.pixels != NULL && !l.f.st.pixels_big);
    live_close(&l);
}

/* n frames 1/30 s apart from *now, each planned at avail bytes a second. */
static void live_run(struct live *l, double *now, int n, double avail)
{
    for (int f = 0; f < n; f++, *now += 1.0 / 30)
        frame_plan(&l->f, &l->a, avail, avail, false, *now), live_frame(l);
}

/* A few frames with no limit (what a k = 1 picture costs is measured), then
 * two seconds behind a link on which it takes 4 frames' budgets; that rate. */
static double live_behind_a_4_frame_link(struct live *l, double *now)
{
    live_run(l, now, 3, 0.0);
    const double k1 = l->f.px.fit.k1_bytes, avail = 30.0 * k1 / 4.0;
    CHECK(k1 > 0.0);
    live_run(l, now, 60, avail);
    return avail;
}

/* Where a k = 1 picture would take 4 frames' budgets, sixel gives glyphs
 * (PIXFIT_GLYPH_FRAMES_SIXEL: at fewer than 15 frames a second its pictures
 * show the scene worse than glyphs), kitty keeps its pictures. */
TEST(pixlive_sixel_gives_way_to_glyphs_sooner_than_kitty)
{
    static const enum app_pixels protos[] = {APP_PIXELS_KITTY, APP_PIXELS_SIXEL};
    for (int i = 0; i < 2; i++) {
        struct live l;
        live_open(&l, "dye", protos[i], COLS, ROWS);
        double now = frame_now();
        const double avail = live_behind_a_4_frame_link(&l, &now);
        CHECK_MSG((l.f.px.k == 0) == (protos[i] == APP_PIXELS_SIXEL), "%s: k %d",
                  i ? "sixel" : "kitty", l.f.px.k);
        if (i) { /* the help says where the line is (in a window it fits) */
            l.a.o.pixels = protos[i]; /* (the terminal's answers chose it) */
            app_resize(&l.a, 120, 40);
            frame_resize(&l.f, 120, 40);
            l.a.help = true;
            live_run(&l, &now, 1, avail);
            CHECK_MSG(cells_hold(&l.f.cells, "less than 15 pictures in sixel"), "the help's why");
        }
        live_close(&l);
    }
}

/* Paused where the moving picture gave way to glyphs: one picture at the
 * finest, if it goes within PIXFRAME_STILL_S at the link's rate, then nothing
 * more while paused; moving again, glyphs. Over a link too slow for it, the
 * paused picture stays glyphs. */
TEST(pixlive_a_paused_picture_is_drawn_in_pixels_where_it_fits)
{
    for (int slow = 0; slow < 2; slow++) {
        struct live l;
        live_open(&l, "dye", APP_PIXELS_SIXEL, COLS, ROWS);
        double now = frame_now();
        const double avail = live_behind_a_4_frame_link(&l, &now); /* glyphs (above) */
        CHECK_INT(l.f.px.k, 0);
        /* The finest picture: kmax^0.6 of a k = 1 one (PIXFIT_GROWTH_REPEAT), a
         * few k1's; 1 s of the link at avail is 7.5 k1: it goes. A link 20
         * times slower: it does not. */
        const double link = slow ? avail / 20.0 : avail;
        l.a.paused = true;
        live_run(&l, &now, 1, link);
        const bool picture = find(l.out.p, l.out.len, 0, "\x1bP") < l.out.len;
        CHECK_MSG(picture == !slow, "%s link: %s", slow ? "a slow" : "the",
                  picture ? "a picture" : "glyphs");
        const long made = l.f.st.frames;
        live_run(&l, &now, 1, link);
        CHECK_MSG(l.out.len == 0, "paused: %zu bytes more", l.out.len);
        /* (glyphs at a coarse level go on: the ladder climbs a still picture) */
        if (!slow) {
            CHECK_MSG(l.f.st.frames == made, "paused: a frame made again (drawn for nothing)");
            l.a.paused = false;
            live_run(&l, &now, 1, link);
            CHECK_MSG(find(l.out.p, l.out.len, 0, "\x1bP") == l.out.len &&
                          find(l.out.p, l.out.len, 0, "\xe2\x96") < l.out.len,
                      "moving again: glyphs");
        }
        live_close(&l);
    }
}

TEST(pixlive_leaving_deletes_our_pictures)
{
    struct live l;
    live_open(&l, "dye", APP_PIXELS_KITTY, COLS, ROWS);
    int fd[2];
    CHECK(pipe(fd) == 0);
    l.a.o.pixels = APP_PIXELS_KITTY;
    pixels_start(&l.f, &l.a, fd[1]); /* a pipe: no window size, the cell as said */
    pixels_leave(fd[1]);
    close(fd[1]);
    char got[256];
    const ssize_t n = read(fd[0], got, sizeof got - 1);
    close(fd[0]);
    CHECK(n > 0);
    got[n > 0 ? n : 0] = 0;
    char want[128];
    snprintf(want, sizeof want, "\x1b_Ga=d,d=I,i=%u,q=2\x1b\\\x1b_Ga=d,d=I,i=%u,q=2\x1b\\",
             KITTY_ID, KITTY_ID + 1);
    CHECK_MSG(strcmp(got, want) == 0, "both ids deleted on leaving");
    live_close(&l);
}

TEST(pixlive_choice_by_the_terminal_and_never_in_a_multiplexer)
{
    struct probe_env e = {.term = "xterm-256color"};
    const char *why = NULL;
    CHECK_INT(pixels_choose(&e, APP_PIXELS_AUTO, COLOR_TRUE, false, &why), APP_PIXELS_OFF);
    e.ans.sixel = true;
    CHECK_INT(pixels_choose(&e, APP_PIXELS_AUTO, COLOR_TRUE, false, &why), APP_PIXELS_SIXEL);
    e.ans.kitty = PROBE_YES;
    CHECK_INT(pixels_choose(&e, APP_PIXELS_AUTO, COLOR_TRUE, false, &why), APP_PIXELS_KITTY);
    CHECK(strstr(why, "kitty") != NULL);
    CHECK_INT(pixels_choose(&e, APP_PIXELS_AUTO, COLOR_MONO, false, &why), APP_PIXELS_OFF);
    CHECK_INT(pixels_choose(&e, APP_PIXELS_AUTO, COLOR_TRUE, true, &why), APP_PIXELS_OFF);
    CHECK(strstr(why, "record") != NULL);
    e.tmux = "/tmp/tmux-0/default,1,0";
    CHECK_INT(pixels_choose(&e, APP_PIXELS_AUTO, COLOR_TRUE, false, &why), APP_PIXELS_OFF);
    CHECK(strstr(why, "tmux") != NULL);
    e.tmux = NULL, e.sty = "123.pts-0.host";
    CHECK_INT(pixels_choose(&e, APP_PIXELS_AUTO, COLOR_TRUE, false, &why), APP_PIXELS_OFF);
    CHECK(strstr(why, "screen") != NULL);
    /* Asked by name: that one. */
    CHECK_INT(pixels_choose(&e, APP_PIXELS_SIXEL, COLOR_TRUE, false, &why), APP_PIXELS_SIXEL);
    CHECK_INT(pixels_choose(&e, APP_PIXELS_KITTY, COLOR_TRUE, true, &why), APP_PIXELS_OFF);
    /* The answers not known: kitty by its variable. */
    struct probe_env k = {.term = "xterm-kitty", .kitty_window_id = "1"};
    CHECK_INT(pixels_choose(&k, APP_PIXELS_AUTO, COLOR_TRUE, false, &why), APP_PIXELS_KITTY);
    k.ans.kitty = PROBE_NO;
    CHECK_INT(pixels_choose(&k, APP_PIXELS_AUTO, COLOR_TRUE, false, &why), APP_PIXELS_OFF);
}

TEST(pixlive_flow_never_cuts_a_piece_inside_a_pictures_string)
{
    struct flow f;
    flow_init(&f);
    /* A kitty frame of many chunks: a piece ends only where a command begins. */
    struct buf b;
    buf_init(&b);
    for (int i = 0; i < 200; i++) {
        buf_puts(&b, "\x1b_Gm=1,q=2;");
        for (int j = 0; j < 1000; j++)
            buf_puts(&b, "QUFB");
        buf_puts(&b, "\x1b\\");
    }
    size_t at = 0;
    int pieces = 0;
    while (at < b.len) {
        size_t n = flow_chunk(&f, b.p + at, b.len - at);
        if (n == 0) { /* the window full: as if all were answered */
            flow_init(&f);
            continue;
        }
        at += n;
        pieces++;
        CHECK_MSG(at == b.len || memcmp(b.p + at, "\x1b_G", 3) == 0,
                  "piece %d ends at a command's start (%zu)", pieces, at);
        if (at < b.len && memcmp(b.p + at, "\x1b_G", 3) != 0)
            break;
        flow_wrote(&f, n, 0.0);
    }
    CHECK(pieces > 1);
    buf_free(&b);
}

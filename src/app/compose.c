/*
 * compose.c — the picture of a frame (see compose.h): scene, HUD, overlays.
 *
 * Everything here reads the app and the frame statistics through const
 * pointers and writes only the cells (and the scene's canvas image). The help
 * is written from the app's key table, so it can never disagree with the keys.
 */
#include "compose.h"
#include "pixfit.h"
#include "pool.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const rgb_t hud_fg = RGB(225, 225, 230), hud_bg = RGB(28, 28, 40);
static const rgb_t hud_key = RGB(255, 200, 90), hud_dim = RGB(150, 150, 165);
static const rgb_t box_bg = RGB(16, 16, 26), box_sel = RGB(60, 60, 100);
static const rgb_t hud_rec = RGB(255, 95, 95);

#define HINT_SECONDS 3.0
#define HINT_FADE 2.0

static rgb_t mode_colour(const struct app *a, rgb_t c)
{
    return a->o.color == COLOR_MONO ? COLOR_DEFAULT : c;
}

static int text(const struct app *a, struct cells *cells, int col, int row, const char *s,
                rgb_t fg, rgb_t bg)
{
    return cells_text(cells, col, row, s, mode_colour(a, fg), mode_colour(a, bg));
}

/* "rec 3.2M ", or why it stopped; "" when not recording. */
static void rec_text(const struct cast_status *r, char *out, size_t n)
{
    char size[32];
    out[0] = 0;
    if (!r->on)
        return;
    if (r->stop == CAST_LIMIT) {
        cast_size_text(r->limit, size, sizeof size);
        snprintf(out, n, "rec stopped: %s limit ", size);
    } else if (r->stop == CAST_FAILED) {
        snprintf(out, n, "rec stopped: %s ", r->err == ENOSPC || r->err == EDQUOT ? "disk full"
                                                                              : "write error");
    } else {
        cast_size_text(r->bytes, size, sizeof size);
        snprintf(out, n, "rec %s ", size);
    }
}

/* The status line's right end, longest first: "? help  q quit" stays at every
 * width that has room for it beside the scene's name; the statistics go first. */
static const char *const hud_hints[] = {
    NULL /* the longest, with the scene keys: hud_longest_hint */, "? help  q quit ",
    "? help q quit ", "? help q quit", "? help ",
};
#define HUD_HINTS ((int)(sizeof hud_hints / sizeof hud_hints[0]))

/* "? help  p params  1-3 scene  q quit ", the digits as the scene table has them. */
static void hud_longest_hint(char *out, size_t n)
{
    char keys[32];
    app_scene_keys(keys, sizeof keys, true);
    snprintf(out, n, "? help  p params  %s scene  q quit ", keys);
}

/* s cut to at most room characters at the end of an item (items are parted by
 * two spaces), never shorter than its first keep characters. */
static void cut_items(char *s, size_t keep, size_t room)
{
    size_t n = strlen(s);
    if (n <= room)
        return;
    size_t at = keep;
    for (size_t i = keep; i + 1 < n && i <= room; i++)
        if (s[i] == ' ' && s[i + 1] == ' ')
            at = i;
    s[at] = 0;
    while (at > 0 && s[at - 1] == ' ')
        s[--at] = 0;
}

/* The last row: the scene's name and state, the frame rate and the scene's
 * chief figures on the left, the key hints on the right, one blank between. */
static void hud(const struct app *a, const struct frame_stats *fs, struct cells *cells)
{
    int row = a->rows - 1;
    char line[768], stats[256], head[256];
    const struct scene_ops *s = app_scene(a);
    cells_clear(cells, row, row + 1, mode_colour(a, hud_bg));
    s->hud(a->st[a->cur], stats, sizeof stats);
    char timing[64] = ""; /* (what a step takes is the help's) */
    if (!fs->simulated && fs->fps > 0.0) /* once measured */
        snprintf(timing, sizeof timing, "%2.0f fps  ", fs->fps);
    /* What is never cut: the name and what the scene is doing, a word each
     * (the help says why): the picture is coarser than it could be, for the
     * link or the CPU; the scene runs slower than life. */
    char rec[64];
    rec_text(&a->rec, rec, sizeof rec);
    char note[APP_NOTE_COLS + 2] = "";
    if (app_note_shown(a))
        snprintf(note, sizeof note, "%s  ", a->note);
    snprintf(head, sizeof head, " %s %s%s%s%s%s", s->name, rec, a->paused ? "paused  " : "",
             compose_coarse(a, fs) ? "coarse  " : "", app_slow_shown(a) ? "slow  " : "", note);
    snprintf(line, sizeof line, "%s%s%s", head, timing, stats);
    size_t keep = strlen(head);
    while (keep > 0 && head[keep - 1] == ' ')
        head[--keep] = 0;
    const char *hints = "";
    size_t cols = (size_t)a->cols;
    char longest[96];
    hud_longest_hint(longest, sizeof longest);
    for (int i = 0; i < HUD_HINTS; i++) {
        const char *h = i == 0 ? longest : hud_hints[i];
        size_t hl = strlen(h);
        if (hl + 1 > cols)
            continue;
        size_t room = cols - hl - 1;
        if (strlen(line) <= room || (i > 0 && keep <= room)) {
            hints = h;
            cut_items(line, keep, room);
            break;
        }
    }
    char name[32];
    snprintf(name, sizeof name, " %s ", s->name);
    int col = cells_text(cells, 0, row, name, mode_colour(a, hud_key), mode_colour(a, hud_bg));
    col = text(a, cells, col, row, rec, hud_rec, hud_bg);
    if (strlen(line) > strlen(name) + strlen(rec))
        text(a, cells, col, row, line + strlen(name) + strlen(rec), hud_fg, hud_bg);
    if (*hints)
        text(a, cells, a->cols - (int)strlen(hints), row, hints, hud_dim, hud_bg);
}

static void box(const struct app *a, struct cells *cells, int col, int row, int w, int h)
{
    for (int r = row; r < row + h && r < app_canvas_rows(a); r++)
        for (int c = col; c < col + w && c < a->cols; c++)
            if (r >= 0 && c >= 0)
                *cells_at(cells, c, r) =
                    (struct cell){' ', COLOR_DEFAULT, mode_colour(a, box_bg)};
}

/* The help's text column: where a line's text starts after its label
 * ("  label       text"), and so where the lines it wraps onto start. */
#define HELP_TEXT_COL 14
#define HELP_WIDTH 92 /* the help's widest line, in a wide window */

/* s wrapped at words into lines of at most width characters from out[n]
 * on (a word longer than a line is cut), the lines after the first indented
 * to the text column when s has a label, else as s is; returns the new n. */
static int help_wrap(const char *s, int width, char (*out)[APP_HELP_COLS], int n, int max)
{
    size_t len = strlen(s), at = 0;
    size_t indent = len > HELP_TEXT_COL && s[0] == ' ' && s[1] == ' ' && s[2] != ' '
                        ? HELP_TEXT_COL : strspn(s, " ");
    if ((int)indent * 2 > width)
        indent = 0;
    if (len == 0 && n < max)
        out[n++][0] = 0;
    for (bool first = true; at < len && n < max; first = false) {
        size_t lead = first ? 0 : indent, room = (size_t)width - lead;
        size_t take = len - at <= room ? len - at : 0;
        for (size_t i = room; take == 0 && i > 0; i--) /* the last blank that fits */
            if (s[at + i] == ' ')
                take = i;
        if (take == 0)
            take = room; /* a word longer than a line: cut */
        size_t shown = take;
        while (shown > 0 && s[at + shown - 1] == ' ') /* no blanks at a line's end */
            shown--;
        snprintf(out[n++], APP_HELP_COLS, "%*s%.*s", (int)lead, "", (int)shown, s + at);
        at += take;
        at += strspn(s + at, " "); /* nor at the next one's start */
    }
    return n;
}

/* Below how many pictures a second the protocol gives way to glyphs (pixfit's
 * line: fewer, and glyphs show the scene better), in words. */
static const char *least_pictures(const struct app *a, char *out, size_t n)
{
    const double frames = a->o.pixels == APP_PIXELS_KITTY ? PIXFIT_GLYPH_FRAMES
                                                           : PIXFIT_GLYPH_FRAMES_SIXEL;
    const double least = a->o.fps / frames;
    if (least < 1.5)
        snprintf(out, n, "a picture");
    else
        snprintf(out, n, "%.0f pictures", least);
    return out;
}

/* What the picture gives, and why, for the help. */
static void picture_line(const struct app *a, const struct frame_stats *fs, char *out, size_t n)
{
    char fps[32] = "", least[32];
    if (fs->fps > 0.0)
        snprintf(fps, sizeof fps, ", %.0f frames a second", fs->fps);
    const char *why = a->o.pixels_why ? a->o.pixels_why : "asked for";
    if (fs->pixels)
        snprintf(out, n, "  %-11s %s, %dx%d pixels (%d of %d a canvas pixel%s; %s)%s", "picture",
                 fs->pixels, fs->pixel_w, fs->pixel_h, fs->pixel_k, fs->pixel_kmax,
                 fs->pixel_k < fs->pixel_kmax ? ", coarser for the link" : "", why, fps);
    else if (fs->pixels_big)
        snprintf(out, n, "  %-11s glyphs: sixel of the whole window would be more than the %dx%d "
                 "pixels the terminal draws%s", "picture", fs->pixel_max_w, fs->pixel_max_h, fps);
    else if (a->o.pixels != APP_PIXELS_OFF && !app_too_small(a))
        snprintf(out, n, "  %-11s glyphs: the link carries less than %s in %s a second%s",
                 "picture", least_pictures(a, least, sizeof least),
                 a->o.pixels == APP_PIXELS_KITTY ? "kitty graphics" : "sixel", fps);
    else if (fs->link_word && fs->link_start)
        snprintf(out, n, "  %-11s coarse to start, sharpening (a window this large): %s%s",
                 "picture", fs->link_word, fps);
    else if (fs->link_word)
        snprintf(out, n, "  %-11s coarser for the link: %s%s", "picture", fs->link_word, fps);
    else if (a->detail != TUNE_FULL)
        snprintf(out, n, "  %-11s coarser for the CPU: frames took longer than their time%s%s",
                 "picture", a->smaller_waits ? " (r: a smaller simulation)" : "", fps);
    else if (a->o.pixels_why)
        snprintf(out, n, "  %-11s whole, in glyphs (%s)%s", "picture", a->o.pixels_why, fps);
    else
        snprintf(out, n, "  %-11s whole%s", "picture", fps);
}

/* The scene runs slower than life, for the help. */
static void slow_line(const struct app *a, char *out, size_t n)
{
    if (a->step_cut)
        snprintf(out, n, "  %-11s slow: input cut steps short (a smaller window or R helps)", "motion");
    else
        snprintf(out, n, "  %-11s slow: %d %% of the steps ran (a smaller window or R helps)", "motion",
                 100 * (a->dropped_of - a->dropped) / (a->dropped_of > 0 ? a->dropped_of : 1));
}

/* The help's lines, wrapped to the window: the app's (what was chosen, keys,
 * scene, mouse), with the link's figures beside what was chosen, and the
 * scene's statistics and what output costs at the end. */
static int help_lines(const struct app *a, const struct frame_stats *fs,
                      char (*lines)[APP_HELP_COLS])
{
    char link[256], pic[160], slow[128], thr[96], out[128], stats[APP_HELP_COLS];
    const char *extra[5];
    int nextra = 0;
    if (fs->frames > 0) {
        char rtt[32] = "not measured", rate[48] = "";
        if (fs->link_rtt > 0.0)
            snprintf(rtt, sizeof rtt, "%.0f ms", fs->link_rtt * 1000.0);
        if (fs->link_rate > 0.0)
            snprintf(rate, sizeof rate, ", %s %.0f KB/s", fs->link_limit ? "carries at most" : "carried",
                     fs->link_rate / 1000.0);
        snprintf(link, sizeof link, "  %-11s round trip %s%s", "link", rtt, rate);
        picture_line(a, fs, pic, sizeof pic);
        extra[nextra++] = link;
        extra[nextra++] = pic;
    }
    if (app_slow_shown(a)) {
        slow_line(a, slow, sizeof slow);
        extra[nextra++] = slow;
    }
    snprintf(thr, sizeof thr, "  %-11s %d of %d in use (the same results for any number)", "threads",
             pool_used(a->so.pool), pool_threads(a->so.pool));
    extra[nextra++] = thr;
    char raw[APP_HELP_LINES][APP_HELP_COLS];
    int nraw = app_help(a, extra, nextra, raw, APP_HELP_LINES - 3);
    /* At the end (the keys before them), the scene's statistics and what
     * output costs. */
    raw[nraw++][0] = 0;
    char st[APP_HELP_COLS - 40]; /* (room for the step's time after it) */
    app_scene(a)->stats(a->st[a->cur], st, sizeof st);
    snprintf(stats, sizeof stats, "  %-11s %s; a step %.2f ms", "statistics", st, a->step_ms);
    snprintf(raw[nraw++], APP_HELP_COLS, "%s", stats);
    if (fs->frames > 0) {
        snprintf(out, sizeof out, "  %-11s %.1f KB a frame; %ld frames left out while the link was busy",
                 "output", (double)fs->bytes / (double)fs->frames / 1000.0, fs->skipped);
        snprintf(raw[nraw++], APP_HELP_COLS, "%s", out);
    }
    int width = clampi(a->cols - 4, 1, HELP_WIDTH); /* inside the box's margins */
    int n = 0;
    for (int i = 0; i < nraw; i++)
        n = help_wrap(raw[i], width, lines, n, APP_HELP_LINES);
    return n;
}

/* The help's rows: all of its lines, or those that fit above the HUD inside
 * the box's border. */
static int help_rows(const struct app *a, int n)
{
    int room = app_canvas_rows(a);
    return n < room - 2 ? n : room - 2 > 0 ? room - 2 : 0;
}

int compose_help_over(const struct app *a, const struct frame_stats *fs)
{
    char lines[APP_HELP_LINES][APP_HELP_COLS];
    int n = help_lines(a, fs, lines);
    return n - help_rows(a, n);
}

/* Centred; when it is taller than the canvas, a window on it that Up/Down
 * scroll (the app keeps help_top), with a mark where more lies beyond. */
static void help_overlay(const struct app *a, const struct frame_stats *fs,
                         struct cells *cells)
{
    char lines[APP_HELP_LINES][APP_HELP_COLS];
    int n = help_lines(a, fs, lines);
    int w = 0;
    for (int i = 0; i < n; i++)
        w = (int)strlen(lines[i]) > w ? (int)strlen(lines[i]) : w;
    w += 4;
    int room = app_canvas_rows(a), vis = help_rows(a, n);
    int top = clampi(a->help_top, 0, n - vis);
    int col = clampi((a->cols - w) / 2, 0, a->cols), row = clampi((room - vis - 2) / 2, 0, room);
    box(a, cells, col, row, w, vis + 2);
    for (int i = 0; i < vis; i++)
        text(a, cells, col + 2, row + 1 + i, lines[top + i], top + i == 0 ? hud_key : hud_fg,
             box_bg);
    int mark = (col + w < a->cols ? col + w : a->cols) - 3;
    if (top > 0)
        text(a, cells, mark, row, "^", hud_key, box_bg);
    if (top + vis < n)
        text(a, cells, mark, row + vis + 1, "v", hud_key, box_bg);
}

/* Top left; when the parameters do not all fit, the list scrolls so the
 * selected one is always in view. */
static void panel_overlay(const struct app *a, struct cells *cells)
{
    const struct scene_ops *s = app_scene(a);
    int room = app_canvas_rows(a); /* above the HUD */
    int vis = s->nparams < room - 1 ? s->nparams : room - 1;
    bool footer = vis + 2 <= room;
    int top = a->sel < vis ? 0 : a->sel - vis + 1;
    int w = 38;
    box(a, cells, 0, 0, w, vis + 1 + footer);
    text(a, cells, 2, 0, "parameters (Up/Down, Left/Right)", hud_key, box_bg);
    for (int k = 0; k < vis; k++) {
        int i = top + k;
        char line[64], value[24];
        const struct param_def *d = &s->params[i];
        param_format(d, scene_param_get(s, a->st[a->cur], i), value, sizeof value);
        snprintf(line, sizeof line, "%-22s %s%s", d->label, value,
                 d->flags & PARAM_RESTART ? " *" : "");
        bool sel = i == a->sel;
        if (sel)
            for (int c = 1; c < w - 1 && c < a->cols; c++)
                cells_at(cells, c, 1 + k)->bg = mode_colour(a, box_sel);
        const char *mark = sel ? ">" : k == 0 && top > 0 ? "^" : k == vis - 1 && i + 1 < s->nparams
                                                                ? "v" : " ";
        text(a, cells, 1, 1 + k, mark, hud_key, sel ? box_sel : box_bg);
        text(a, cells, 2, 1 + k, line, hud_fg, sel ? box_sel : box_bg);
    }
    if (footer)
        text(a, cells, 2, 1 + vis, "* restarts the scene", hud_dim, box_bg);
}

static void centred_over(const struct app *a, struct cells *cells, int row, const char *s,
                         float alpha)
{
    int col = (a->cols - (int)strlen(s)) / 2;
    if (a->o.color == COLOR_MONO)
        cells_text(cells, col, row, s, COLOR_DEFAULT, COLOR_DEFAULT);
    else
        cells_text_over(cells, col, row, s, RGB(255, 255, 255), alpha);
}

/* What to try, over the middle of a scene just shown, fading; gone once it
 * was tried (a press since) and while a panel or the help is open, so it
 * never shows beside or under them, and while paused, so a paused picture
 * is the scene alone (the hint's clock runs on: it would fade out over a
 * picture that stands). */
static void hint(const struct app *a, struct cells *cells)
{
    double age = a->now - a->shown_at;
    const char *h = app_scene(a)->hint;
    if (!h || a->demo || a->o.screensaver || age > HINT_SECONDS + HINT_FADE || a->panel ||
        a->help || a->paused || a->pressed_at >= a->shown_at)
        return;
    float alpha = age < HINT_SECONDS ? 1.0f : (float)(1.0 - (age - HINT_SECONDS) / HINT_FADE);
    centred_over(a, cells, app_canvas_top(a) + app_canvas_rows(a) / 2, h, alpha);
}

/* The first of the candidates that fits the width, centred on the row. */
static void fitted(const struct app *a, struct cells *cells, int row, const char *const *cand,
                   int n, float alpha)
{
    for (int i = 0; i < n; i++)
        if ((int)strlen(cand[i]) <= a->cols || i == n - 1) {
            centred_over(a, cells, row, cand[i], alpha);
            return;
        }
}

/* The part of s before the first of the stops, or all of it. */
static void head_of(const char *s, const char *stops, char *out, size_t n)
{
    snprintf(out, n, "%.*s", (int)strcspn(s, stops), s);
    size_t len = strlen(out);
    while (len > 0 && out[len - 1] == ' ')
        out[--len] = 0;
}

/* --demo: what the scene is and what to try, shortened to fit: the long form,
 * then its first halves, then the least that still says it. Live, any key
 * takes over; a recording cannot be taken over, so it says how to try it. */
static void caption(const struct app *a, struct cells *cells)
{
    if (!a->demo || a->o.screensaver)
        return;
    const struct scene_ops *s = app_scene(a);
    char full[160], mid[96], least[48], title[64], mouse[96];
    head_of(s->title, ":", title, sizeof title);
    head_of(s->mouse, "(;", mouse, sizeof mouse);
    snprintf(full, sizeof full, " %d %s: %s ", a->cur + 1, s->name, s->title);
    snprintf(mid, sizeof mid, " %d %s: %s ", a->cur + 1, s->name, title);
    snprintf(least, sizeof least, " %d %s ", a->cur + 1, s->name);
    const char *const top[] = {full, mid, least};
    fitted(a, cells, 0, top, 3, 1.0f);
    const char *over = a->o.recording ? "try it: swirl --demo" : "any key takes over";
    const char *least_over = a->o.recording ? "swirl --demo" : "any key";
    char l1[192], l2[128], l3[128], l4[48], l5[32];
    snprintf(l1, sizeof l1, " %s  |  %s  |  %s ", s->mouse, s->keys ? s->keys : "r restart",
             over);
    snprintf(l2, sizeof l2, " %s  |  %s ", mouse, over);
    snprintf(l3, sizeof l3, " %s | %s ", mouse, least_over);
    snprintf(l4, sizeof l4, " %s ", over);
    snprintf(l5, sizeof l5, " %s ", least_over);
    const char *const bottom[] = {l1, l2, l3, l4, l5};
    fitted(a, cells, 1, bottom, 5, 0.85f);
}

static void kbd_pointer(const struct app *a, struct cells *cells)
{
    if (!a->kbd)
        return;
    int c = clampi((int)a->ptr.x, 0, a->cols - 1);
    int r = app_canvas_top(a) + clampi((int)(a->ptr.y / 2.0f), 0, app_canvas_rows(a) - 1);
    *cells_at(cells, c, r) = (struct cell){a->ptr.down ? '#' : '+',
                                               mode_colour(a, RGB(255, 255, 255)),
                                               mode_colour(a, RGB(200, 40, 40))};
}

static void too_small(const struct app *a, struct cells *cells)
{
    cells_clear(cells, 0, a->rows, COLOR_DEFAULT);
    const char *m1 = "too small";
    char m2[48];
    snprintf(m2, sizeof m2, "need %dx%d", APP_MIN_COLS, APP_MIN_ROWS);
    int r = a->rows / 2 - (a->rows > 1 ? 1 : 0);
    cells_text(cells, (a->cols - (int)strlen(m1)) / 2, r, m1, COLOR_DEFAULT, COLOR_DEFAULT);
    if (r + 1 < a->rows)
        cells_text(cells, (a->cols - (int)strlen(m2)) / 2, r + 1, m2, COLOR_DEFAULT,
                   COLOR_DEFAULT);
}

void compose_draw(const struct app *a, struct image *img)
{
    const int k = app_draw_scale(a); /* image pixels a canvas pixel */
    if (img->w != k * app_canvas_w(a) || img->h != k * app_canvas_h(a)) /* the status */
        image_resize(img, k * app_canvas_w(a), k * app_canvas_h(a)); /* line came or went */
    app_scene(a)->draw(a->st[a->cur], img);
}

void compose_blit(const struct app *a, const struct frame_stats *fs, const struct image *img,
                  struct cells *cells)
{
    const int top = app_canvas_top(a); /* the canvas starts below the captions */
    struct cells below = {cells->cols, cells->rows - top, cells->c + (size_t)top * (size_t)cells->cols};
    cells_clear(cells, 0, top, mode_colour(a, RGB(0, 0, 0)));
    cells_blit_on(a->so.pool, img, &below, compose_mode(a, fs), app_blit_glyphs(a),
                  app_draw_scale(a), compose_blocky(fs) ? &fs->block : NULL);
}

void compose_over(const struct app *a, const struct frame_stats *fs, struct cells *cells)
{
    hint(a, cells);
    caption(a, cells);
    kbd_pointer(a, cells);
    if (a->panel)
        panel_overlay(a, cells);
    if (a->help)
        help_overlay(a, fs, cells);
    if (!a->status_off)
        hud(a, fs, cells);
}

void compose_frame(const struct app *a, const struct frame_stats *fs, struct image *img,
                   struct cells *cells)
{
    if (app_too_small(a)) {
        too_small(a, cells);
        return;
    }
    compose_draw(a, img);
    compose_blit(a, fs, img, cells);
    compose_over(a, fs, cells);
}

/*
 * probe.c — what the terminal's answers (as the parser read them: input.h,
 * answer.c) and tmux's options say, and the colour depth, glyphs and
 * synchronized output they choose (see probe.h).
 */
#include "probe.h"
#include "answer.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the terminal's answers ------------------------------------------------ */

bool probe_take(struct probe_answers *a, const struct input_event *ev)
{
    if (ev->type != INPUT_ANSWER)
        return false;
    const int *v = ev->answer.v;
    switch (ev->answer.kind) {
    case ANSWER_DA1:
        a->fence = true;
        a->sixel = (v[0] >> 4) & 1;
        break;
    case ANSWER_MODE:
        if (v[0] == 2026)
            a->sync = v[1] >= 1 && v[1] <= 3 ? PROBE_YES : PROBE_NO;
        break;
    case ANSWER_SGR: /* only our colour back counts as kept */
        if (v[0] == 2 && v[1] == (PROBE_R << 16 | PROBE_G << 8 | PROBE_B)) {
            a->sgr = PROBE_YES;
            a->sgr_index = -1;
        } else if (v[0] == 2 || v[0] == 5) {
            a->sgr = PROBE_NO;
            a->sgr_index = v[0] == 5 ? v[1] : -1;
        }
        break;
    case ANSWER_TCAP:
        if (v[1])
            a->tcap = PROBE_YES;
        else if (!v[0] && a->tcap == PROBE_UNKNOWN)
            a->tcap = PROBE_NO; /* refused; known names that are not ours say nothing */
        break;
    case ANSWER_KITTY:
        if (v[0] == PROBE_KITTY_ID)
            a->kitty = v[1] ? PROBE_YES : PROBE_NO;
        break;
    case ANSWER_GRAPHICS:
        if (v[0] == 1 && v[1] == 0 && v[2] > 0)
            a->sixel_colors = v[2];
        break;
    case ANSWER_GEOMETRY:
        if (v[2] == 0 && v[0] > 0 && v[1] > 0)
            a->sixel_w = v[0], a->sixel_h = v[1];
        break;
    case ANSWER_CELL:
        if (v[0] > 0 && v[1] > 0)
            a->cell_w = v[0], a->cell_h = v[1];
        break;
    }
    return true;
}

bool probe_sync(const struct probe_answers *a) { return a->sync == PROBE_YES; }

/* ---- tmux -------------------------------------------------------------------- */

/* The line at *p (up to a newline) as a span; advances *p past it. */
static struct span next_line(const char **p)
{
    const char *s = *p, *e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    *p = s + n + (e != NULL);
    return (struct span){(const unsigned char *)s, n};
}

static bool span_is(struct span s, const char *w)
{
    return s.n == strlen(w) && memcmp(s.p, w, s.n) == 0;
}

/* Splits an option entry at its colons, honouring tmux's "\:" escape. */
static int fields(struct span s, struct span *out, int max)
{
    int k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= s.n && k < max; i++) {
        if (i < s.n && s.p[i] == '\\') {
            i++;
            continue;
        }
        if (i == s.n || s.p[i] == ':') {
            out[k++] = (struct span){s.p + start, i - start};
            start = i + 1;
        }
    }
    return k;
}

/* Does an entry's pattern (its first field) take in term? Any does when no
 * client is there to match. */
static bool pattern_takes(struct span pat, const char *term)
{
    if (!term)
        return true;
    char buf[256];
    if (pat.n >= sizeof buf)
        return false;
    memcpy(buf, pat.p, pat.n);
    buf[pat.n] = 0;
    return fnmatch(buf, term, 0) == 0;
}

/* Do the entries of an option grant 24-bit colour to term (NULL: to anyone)?
 * terminal-features lists features (RGB); terminal-overrides capabilities
 * (Tc, RGB, RGB=...; a trailing @ removes one). */
static bool option_grants(const char *lines, const char *term, bool overrides)
{
    if (!lines)
        return false;
    for (const char *p = lines; *p;) {
        struct span f[32];
        int n = fields(next_line(&p), f, 32);
        if (n < 2 || !pattern_takes(f[0], term))
            continue;
        for (int k = 1; k < n; k++) {
            struct span name = f[k];
            if (!overrides) {
                if (span_is(name, "RGB"))
                    return true;
                continue;
            }
            const unsigned char *eq = memchr(name.p, '=', name.n);
            if (eq)
                name.n = (size_t)(eq - name.p);
            else if (name.n && name.p[name.n - 1] == '@')
                continue;
            if (span_is(name, "Tc") || span_is(name, "RGB"))
                return true;
        }
    }
    return false;
}

static bool config_grants(const struct probe_tmux *t, const char *term)
{
    return option_grants(t->features, term, false) || option_grants(t->overrides, term, true);
}

/* Is word one of the comma-separated words of list? */
static bool has_word(struct span list, const char *word)
{
    struct span w[64];
    int n = span_split(list, ',', w, 64);
    for (int i = 0; i < n; i++)
        if (span_is(w[i], word))
            return true;
    return false;
}

enum probe_verdict probe_tmux_pane(const struct probe_tmux *t)
{
    if (!t->pane_tty || !t->our_tty)
        return PROBE_UNKNOWN;
    const char *p = t->pane_tty;
    struct span line = next_line(&p);
    if (line.n == 0)
        return PROBE_UNKNOWN;
    return span_is(line, t->our_tty) ? PROBE_YES : PROBE_NO;
}

enum probe_verdict probe_tmux_rgb(const struct probe_tmux *t)
{
    if (!t->clients)
        return PROBE_UNKNOWN;
    int seen = 0;
    for (const char *p = t->clients; *p;) {
        struct span line = next_line(&p);
        if (line.n == 0)
            continue;
        const unsigned char *tab = memchr(line.p, '\t', line.n);
        struct span name = {line.p, tab ? (size_t)(tab - line.p) : line.n};
        struct span feat = {tab ? tab + 1 : line.p + line.n,
                            tab ? line.n - (size_t)(tab + 1 - line.p) : 0};
        char term[256];
        snprintf(term, sizeof term, "%.*s", (int)name.n, (const char *)name.p);
        bool rgb = feat.n ? has_word(feat, "RGB") : config_grants(t, term);
        if (!rgb)
            return PROBE_NO; /* this client gets tmux's 256 colours */
        seen++;
    }
    if (seen)
        return PROBE_YES;
    return config_grants(t, NULL) ? PROBE_YES : PROBE_NO;
}

/* ---- the choice -------------------------------------------------------------- */

static bool starts_with(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool set(const char *s) { return s && *s; }

/* The depth terminfo's colors gives. */
static enum color_mode by_colors(int n)
{
    return n >= 256 ? COLOR_256 : n >= 16 ? COLOR_16 : n >= 8 ? COLOR_8 : COLOR_MONO;
}

static enum color_mode at_most_256(enum color_mode m) { return m > COLOR_256 ? COLOR_256 : m; }

/* The number after the first '(' or at the start of s ("XTerm(379)", "7002"),
 * or -1. */
static long version_number(const char *s)
{
    const char *p = strchr(s, '(');
    p = p ? p + 1 : s;
    char *end;
    long v = strtol(p, &end, 10);
    return end == p ? -1 : v;
}

/* mlterm's MLTERM=3.9.0 as 3009. */
static long dotted_version(const char *s)
{
    char *end;
    long major = strtol(s, &end, 10);
    if (end == s || *end != '.')
        return -1;
    long minor = strtol(end + 1, NULL, 10);
    return major * 1000 + minor;
}

/* What a terminal says of itself in its own variables, where TERM agrees it
 * is that terminal (a variable is inherited by terminals started from it):
 * the variable's name, or NULL. */
static const char *self_described_24bit(const struct probe_env *e)
{
    if (starts_with(e->term, "xterm")) {
        if (set(e->kitty_window_id) && strcmp(e->term, "xterm-kitty") == 0)
            return "KITTY_WINDOW_ID";
        if (set(e->vte_version) && version_number(e->vte_version) >= 3600)
            return "VTE_VERSION"; /* VTE 0.36 */
        if (set(e->xterm_version) && version_number(e->xterm_version) >= 331)
            return "XTERM_VERSION"; /* xterm patch 331: direct colour */
    }
    if (starts_with(e->term, "mlterm") && set(e->mlterm) && dotted_version(e->mlterm) >= 3009)
        return "MLTERM";
    if (e->term && (strcmp(e->term, "st") == 0 || starts_with(e->term, "st-")))
        return "TERM=st";
    return NULL;
}

/* The depth when no answer or variable says 24-bit. */
static enum color_mode by_terminfo(const struct probe_env *e)
{
    /* terminfo's plain "xterm" says 8, but xterm (and every terminal that
     * calls itself xterm: VTE, konsole, PuTTY, iTerm2, Windows Terminal) has
     * the bright eight too, SGR 90-97/100-107; one that lacks them ignores them. */
    if (e->term && strcmp(e->term, "xterm") == 0 && e->colors == 8)
        return COLOR_16;
    return by_colors(e->colors);
}

bool probe_screen_nearest(const struct probe_env *e)
{
    if (e->tmux_pane == PROBE_YES)
        return false;
    bool tmux = set(e->tmux) && e->tmux_pane != PROBE_NO;
    return (set(e->sty) && !starts_with(e->term, "tmux")) ||
           (!tmux && starts_with(e->term, "screen"));
}

/* tmux is the nearest terminal: the pane is ours, or tmux unreached and TERM
 * says tmux (TERM=tmux*, or TERM=screen* with TMUX set and no screen nearer). */
static bool tmux_nearest(const struct probe_env *e)
{
    bool tmux = set(e->tmux) && e->tmux_pane != PROBE_NO;
    return e->tmux_pane == PROBE_YES ||
           (!probe_screen_nearest(e) &&
            (starts_with(e->term, "tmux") || (tmux && starts_with(e->term, "screen"))));
}

enum color_mode probe_choose(const struct probe_env *e, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    if (set(e->no_color)) {
        *why = "NO_COLOR";
        return COLOR_MONO;
    }
    bool answered_24 = e->ans.sgr == PROBE_YES || e->ans.tcap == PROBE_YES;
    /* Who is nearest. tmux says whether the pane is ours; where it was not
     * reached, STY says screen runs somewhere above us and TERM says who is
     * nearest: a tmux inside screen (TERM=tmux*) does its own conversion;
     * TERM=screen* is screen's, or an old tmux's when TMUX is set and STY is
     * not. */
    bool screen_near = probe_screen_nearest(e);
    if (tmux_nearest(e)) {
        /* tmux inherits COLORTERM from the terminal it started in and maps
         * 24-bit to 256 itself unless it knows its client shows RGB. */
        if (answered_24) {
            *why = "asked tmux";
            return COLOR_TRUE;
        }
        if (e->tmux_rgb == PROBE_YES) {
            *why = "tmux passes RGB";
            return COLOR_TRUE;
        }
        *why = e->tmux_rgb == PROBE_NO ? "tmux passes no RGB" : "tmux, not asked";
        return at_most_256(by_colors(e->colors));
    }
    if (screen_near) {
        /* GNU screen 4 turns 24-bit SGR into garbage, whatever COLORTERM the
         * outer terminal exported (screen 5's `truecolor on` can't be told
         * apart from here: --color truecolor). */
        *why = "GNU screen";
        return at_most_256(by_colors(e->colors));
    }
    if (answered_24) {
        *why = "asked the terminal";
        return COLOR_TRUE;
    }
    if (e->ans.sgr == PROBE_NO) { /* it kept another colour than ours */
        *why = "asked the terminal";
        enum color_mode m = at_most_256(by_terminfo(e));
        return e->ans.sgr_index >= 16 && m < COLOR_256 ? COLOR_256 : m;
    }
    const char *ct = e->colorterm;
    if (ct && (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0)) {
        *why = "COLORTERM";
        return COLOR_TRUE;
    }
    const char *self = self_described_24bit(e);
    if (self) {
        *why = self;
        return COLOR_TRUE;
    }
    if (e->rgb) {
        *why = "terminfo RGB";
        return COLOR_TRUE;
    }
    *why = "terminfo colors";
    return by_terminfo(e);
}

enum glyph_set probe_glyphs(const struct probe_env *e, enum color_mode mode, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    if (mode == COLOR_MONO) { /* quadrants need reverse video at their foot */
        *why = "mono";
        return GLYPHS_HALF;
    }
    if (e->term && (strcmp(e->term, "linux") == 0 || starts_with(e->term, "vt") ||
                    strcmp(e->term, "dumb") == 0)) {
        *why = "a console font";
        return GLYPHS_HALF;
    }
    if (probe_screen_nearest(e)) {
        *why = "GNU screen";
        return GLYPHS_HALF;
    }
    if (tmux_nearest(e)) { /* the terminal outside is unknown */
        *why = "tmux";
        return GLYPHS_HALF;
    }
    /* xterm sets XTERM_VERSION and TERM=xterm*; a VTE_VERSION may have been
     * inherited into it, and XTERM_VERSION into a terminal started from it. */
    if (set(e->xterm_version) && starts_with(e->term, "xterm")) {
        *why = "xterm draws blocks from the font";
        return GLYPHS_HALF;
    }
    if (set(e->vte_version) && starts_with(e->term, "xterm")) {
        *why = "VTE draws sextants";
        return GLYPHS_SEXTANT;
    }
    if (set(e->kitty_window_id) && starts_with(e->term, "xterm-kitty")) {
        *why = "kitty draws sextants";
        return GLYPHS_SEXTANT;
    }
    if (starts_with(e->term, "alacritty")) {
        *why = "alacritty draws quadrants";
        return GLYPHS_QUAD;
    }
    if (set(e->konsole_version) && starts_with(e->term, "xterm")) {
        *why = "konsole draws quadrants";
        return GLYPHS_QUAD;
    }
    if (starts_with(e->term, "rxvt-unicode")) { /* U+2500..259F, unless -sbg */
        *why = "urxvt draws quadrants";
        return GLYPHS_QUAD;
    }
    /* xterm, st and mlterm draw block elements from the font, whose glyphs
     * fall up to a pixel short of the cell's foot (or top) as its metrics
     * round: every quadrant inked at the bottom would leave a seam under it.
     * ▀ inks only the top. */
    *why = "blocks from the font";
    return GLYPHS_HALF;
}

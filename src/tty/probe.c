/*
 * probe.c — parsing the terminal's answers, reading tmux's options, and the
 * colour depth they choose (see probe.h). In the answers below ESC is \e and
 * ST is ESC \.
 */
#include "probe.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ESC 0x1b
#define SGR_TOKENS 32 /* parameters of a DECRQSS m answer looked at */

/* ---- the terminal's answers ------------------------------------------------ */

/* A decimal number of 1 to 5 digits in p[0..n), or -1. */
static int number(const unsigned char *p, size_t n)
{
    if (n == 0 || n > 5)
        return -1;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

/* A piece of the answer: p[0..n). */
struct span {
    const unsigned char *p;
    size_t n;
};

/* Splits s at each sep (none escaped) into at most max pieces; returns how
 * many (pieces beyond max are left out). */
static int split(struct span s, unsigned char sep, struct span *out, int max)
{
    int k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= s.n; i++)
        if (i == s.n || s.p[i] == sep) {
            if (k < max)
                out[k] = (struct span){s.p + start, i - start};
            k++;
            start = i + 1;
        }
    return k < max ? k : max;
}

static int span_number(struct span s) { return number(s.p, s.n); }

/* The background an SGR parameter list sets, from parameter k on: 2 (24-bit,
 * rgb[] filled), 5 (indexed, *index), 0 (none). Colons (48:2::R:G:B or
 * 48:2:R:G:B) or semicolons (48;2;R;G;B) may separate. */
static int background(const struct span *tok, int ntok, int rgb[3], int *index)
{
    for (int k = 0; k < ntok; k++) {
        struct span sub[8];
        int ns = split(tok[k], ':', sub, 8);
        int code = span_number(sub[0]);
        if (code != 38 && code != 48)
            continue;
        int kind = -1, v[3] = {-1, -1, -1};
        if (ns > 1) { /* colon form: everything is in this parameter */
            kind = span_number(sub[1]);
            if (kind == 2 && ns >= 5)
                for (int c = 0; c < 3; c++)
                    v[c] = span_number(sub[ns - 3 + c]);
            else if (kind == 5 && ns >= 3)
                v[0] = span_number(sub[2]);
        } else if (k + 1 < ntok) { /* semicolon form: the next parameters */
            kind = span_number(tok[k + 1]);
            int need = kind == 2 ? 3 : kind == 5 ? 1 : 0;
            for (int c = 0; c < need && k + 2 + c < ntok; c++)
                v[c] = span_number(tok[k + 2 + c]);
            k += 1 + need; /* a foreground's numbers are not parameters */
        }
        if (code == 38)
            continue;
        if (kind == 2) {
            memcpy(rgb, v, sizeof v);
            return 2;
        }
        if (kind == 5) {
            *index = v[0];
            return 5;
        }
    }
    return 0;
}

/* DECRQSS m's answer: the SGR in force, ending in its final byte m:
 * \eP1$r0;48:2::123:45:67m\e\\ (xterm 379; the colour space may be left out,
 * 48:2:R:G:B, as kitty does, or semicolons used, 48;2;R;G;B); \eP0$r\e\\ or
 * \eP1$r0m\e\\ say nothing of colour (VTE, mlterm). The 0/1 before $r differs
 * between terminals (DEC and xterm once disagreed), so only the contents count. */
static void sgr_answer(struct probe_answers *a, struct span body)
{
    if (body.n == 0 || body.p[body.n - 1] != 'm')
        return;
    body.n--;
    struct span tok[SGR_TOKENS];
    int ntok = split(body, ';', tok, SGR_TOKENS);
    int rgb[3], index = -1;
    switch (background(tok, ntok, rgb, &index)) {
    case 2:
        if (rgb[0] == PROBE_R && rgb[1] == PROBE_G && rgb[2] == PROBE_B) {
            a->sgr = PROBE_YES;
            a->sgr_index = -1;
            return;
        }
        index = -1;
        break;
    case 5:
        break;
    default:
        return; /* the answer says nothing of colour */
    }
    a->sgr = PROBE_NO;
    a->sgr_index = index;
}

static int hex_digit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Is the hex-encoded name s (up to any '=') the text name? */
static bool hex_is(struct span s, const char *name)
{
    size_t len = strlen(name), i = 0;
    for (; i < len; i++) {
        if (2 * i + 1 >= s.n)
            return false;
        int hi = hex_digit(s.p[2 * i]), lo = hex_digit(s.p[2 * i + 1]);
        if (hi < 0 || lo < 0 || hi * 16 + lo != (unsigned char)name[i])
            return false;
    }
    return 2 * i == s.n || s.p[2 * i] == '=';
}

/* XTGETTCAP's answer: valid then name[=value];... \eP1+r524742[=value]\e\\ is
 * known, \eP0+r[524742]\e\\ not. */
static void tcap_answer(struct probe_answers *a, bool valid, struct span body)
{
    if (!valid) {
        if (a->tcap == PROBE_UNKNOWN)
            a->tcap = PROBE_NO;
        return;
    }
    struct span item[8];
    int n = split(body, ';', item, 8);
    for (int i = 0; i < n; i++)
        if (hex_is(item[i], "RGB") || hex_is(item[i], "Tc"))
            a->tcap = PROBE_YES;
}

/* A DCS string's contents, between ESC P and ST. */
static void dcs_answer(struct probe_answers *a, struct span c)
{
    if (c.n < 3 || (c.p[0] != '0' && c.p[0] != '1') || c.p[2] != 'r')
        return;
    struct span body = {c.p + 3, c.n - 3};
    if (c.p[1] == '$')
        sgr_answer(a, body);
    else if (c.p[1] == '+')
        tcap_answer(a, c.p[0] == '1', body);
}

/* A CSI sequence's parameter and intermediate bytes and its final byte; false
 * when it is none of the answers (it is then the user's). DECRQM:
 * \e[?2026;Ps$y, Ps 1 set, 2 reset, 3 set for good; 0 unknown, 4 reset for
 * good. DA1: \e[?Ps;...c, the fence. */
static bool csi_answer(struct probe_answers *a, struct span c, unsigned char fin)
{
    if (c.n == 0 || c.p[0] != '?')
        return false;
    if (fin == 'c') {
        a->fence = true;
        return true;
    }
    if (fin != 'y' || c.n < 2 || c.p[c.n - 1] != '$')
        return false;
    struct span v[3];
    if (split((struct span){c.p + 1, c.n - 2}, ';', v, 3) != 2 || span_number(v[0]) != 2026)
        return false;
    int ps = span_number(v[1]);
    a->sync = ps >= 1 && ps <= 3 ? PROBE_YES : PROBE_NO;
    return true;
}

/* Where the DCS string at s[0..n) (s[0] ESC, s[1] P) ends: the index after
 * its ST, after a CAN or SUB that cancels it, or at an ESC that starts
 * something else (the string is then cut off there); 0 when it has not ended
 * yet. *st: it ended with ST, so it is whole. */
static size_t dcs_end(const unsigned char *s, size_t n, bool *st)
{
    *st = false;
    for (size_t j = 2; j < n; j++) {
        if (s[j] == 0x18 || s[j] == 0x1a)
            return j + 1;
        if (s[j] == ESC) {
            if (j + 1 == n)
                return 0;
            *st = s[j + 1] == '\\';
            return *st ? j + 2 : j;
        }
    }
    return 0;
}

/* Any byte that is not an answer is the user's and goes on to the input
 * parser; a DCS string nobody asked for is an answer to someone else and is
 * dropped. */
size_t probe_parse(struct probe_answers *a, const unsigned char *s, size_t n,
                   unsigned char *rest, size_t cap)
{
    size_t nr = 0, i = 0;
#define KEEP(p, len)                                                          \
    do {                                                                      \
        for (size_t k_ = 0; k_ < (len) && nr < cap; k_++)                     \
            rest[nr++] = (p)[k_];                                             \
    } while (0)
    if (a->sgr == PROBE_UNKNOWN)
        a->sgr_index = -1;
    while (i < n) {
        if (s[i] != ESC || i + 1 == n) {
            KEEP(s + i, 1);
            i++;
            continue;
        }
        if (s[i + 1] == 'P') {
            bool st;
            size_t end = dcs_end(s + i, n - i, &st);
            if (end == 0) { /* cut short: the input parser skips the rest */
                KEEP(s + i, n - i);
                break;
            }
            if (st)
                dcs_answer(a, (struct span){s + i + 2, end - 4});
            i += end;
            continue;
        }
        if (s[i + 1] == '[') {
            size_t j = i + 2;
            while (j < n && s[j] >= 0x20 && s[j] <= 0x3f)
                j++;
            if (j < n && s[j] >= 0x40 && s[j] <= 0x7e &&
                csi_answer(a, (struct span){s + i + 2, j - i - 2}, s[j])) {
                i = j + 1;
                continue;
            }
        }
        KEEP(s + i, 1); /* the user's: passed on byte by byte */
        i++;
    }
#undef KEEP
    return nr;
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
    int n = split(list, ',', w, 64);
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

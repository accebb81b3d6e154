/*
 * answer.c — what the terminal's answers say (see answer.h): the contents of
 * the CSI sequences and DCS and APC strings the parser (input.c) has framed,
 * read into an INPUT_ANSWER event. What is asked and why is probe.h's; in the
 * answers below ESC is \e and ST is ESC \.
 */
#include "answer.h"

#include <string.h>

#define SGR_TOKENS 32 /* parameters of a DECRQSS m answer looked at */

/* A decimal number of 1 to 5 digits, or -1. */
static int number(struct span s)
{
    if (s.n == 0 || s.n > 5)
        return -1;
    int v = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9')
            return -1;
        v = v * 10 + (s.p[i] - '0');
    }
    return v;
}

int span_split(struct span s, unsigned char sep, struct span *out, int max)
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

static void answer(struct input_event *ev, enum answer_kind kind, int v0, int v1, int v2)
{
    memset(ev, 0, sizeof *ev);
    ev->type = INPUT_ANSWER;
    ev->answer.kind = kind;
    ev->answer.v[0] = v0;
    ev->answer.v[1] = v1;
    ev->answer.v[2] = v2;
}

/* ---- CSI ------------------------------------------------------------------- */

/* DA1: \e[?Ps;...c, the class first, then the attributes (4: sixel), each
 * kept as a bit. DECRQM: \e[?mode;Ps$y, Ps 1 set, 2 reset, 3 set for good;
 * 0 unknown, 4 reset for good. XTSMGRAPHICS: \e[?Pi;Ps;Pv S (Pi 1: colour
 * registers; Ps 0: success), or \e[?Pi;Ps;Pw;Ph S (Pi 2: the largest sixel
 * picture). The size of a cell in pixels: \e[6;h;wt. */
bool answer_csi(const unsigned char *p, size_t n, unsigned char fin, struct input_event *ev)
{
    struct span v[16];
    if (n > 0 && p[0] == '?' && fin == 'c') {
        int k = span_split((struct span){p + 1, n - 1}, ';', v, 16), bits = 0;
        for (int i = 0; i < k; i++) {
            int a = number(v[i]);
            if (a < 0 && !(v[i].n == 0 && i == k - 1)) /* a trailing ';' (kitty: ?62;c) */
                return false;
            if (i > 0 && a > 0 && a <= 30)
                bits |= 1 << a;
        }
        answer(ev, ANSWER_DA1, bits, 0, 0);
        return true;
    }
    if (n > 2 && p[0] == '?' && p[n - 1] == '$' && fin == 'y') {
        if (span_split((struct span){p + 1, n - 2}, ';', v, 3) != 2 || number(v[0]) < 0 ||
            number(v[1]) < 0)
            return false;
        answer(ev, ANSWER_MODE, number(v[0]), number(v[1]), 0);
        return true;
    }
    if (n > 1 && p[0] == '?' && fin == 'S') {
        int k = span_split((struct span){p + 1, n - 1}, ';', v, 5);
        if (k < 2 || k > 4 || number(v[0]) < 0 || number(v[1]) < 0)
            return false;
        if (k == 4) { /* a geometry: item 2 (sixel), 3 (ReGIS) */
            if (number(v[2]) < 0 || number(v[3]) < 0)
                return false;
            if (number(v[0]) == 2)
                answer(ev, ANSWER_GEOMETRY, number(v[2]), number(v[3]), number(v[1]));
            else
                answer(ev, ANSWER_GRAPHICS, number(v[0]), number(v[1]), -1);
            return true;
        }
        answer(ev, ANSWER_GRAPHICS, number(v[0]), number(v[1]), k == 3 ? number(v[2]) : -1);
        return true;
    }
    if (fin == 't' && span_split((struct span){p, n}, ';', v, 4) == 3 && number(v[0]) == 6) {
        int h = number(v[1]), w = number(v[2]);
        if (h < 0 || w < 0)
            return false;
        answer(ev, ANSWER_CELL, w, h, 0);
        return true;
    }
    return false;
}

/* ---- DCS ------------------------------------------------------------------- */

/* The background an SGR parameter list sets: 2 (24-bit, *rgb), 5 (indexed,
 * *rgb the index), 0 (none). Colons (48:2::R:G:B or 48:2:R:G:B) or
 * semicolons (48;2;R;G;B) may separate. */
static int background(const struct span *tok, int ntok, int *rgb)
{
    for (int k = 0; k < ntok; k++) {
        struct span sub[8];
        int ns = span_split(tok[k], ':', sub, 8);
        int code = number(sub[0]);
        if (code != 38 && code != 48)
            continue;
        int kind = -1, c[3] = {-1, -1, -1};
        if (ns > 1) { /* colon form: everything is in this parameter */
            kind = number(sub[1]);
            if (kind == 2 && ns >= 5)
                for (int i = 0; i < 3; i++)
                    c[i] = number(sub[ns - 3 + i]);
            else if (kind == 5 && ns >= 3)
                c[0] = number(sub[2]);
        } else if (k + 1 < ntok) { /* semicolon form: the next parameters */
            kind = number(tok[k + 1]);
            int need = kind == 2 ? 3 : kind == 5 ? 1 : 0;
            for (int i = 0; i < need && k + 2 + i < ntok; i++)
                c[i] = number(tok[k + 2 + i]);
            k += 1 + need; /* a foreground's numbers are not parameters */
        }
        if (code == 38)
            continue;
        if (kind == 2) {
            for (int i = 0; i < 3; i++)
                if (c[i] < 0 || c[i] > 255)
                    c[i] = 0x100; /* no channel: never our colour */
            *rgb = c[0] > 255 || c[1] > 255 || c[2] > 255 ? -1
                                                          : c[0] << 16 | c[1] << 8 | c[2];
            return 2;
        }
        if (kind == 5) {
            *rgb = c[0];
            return 5;
        }
    }
    return 0;
}

/* DECRQSS m's answer: the SGR in force, ending in its final byte m:
 * \eP1$r0;48:2::123:45:67m\e\\ (xterm 379; the colour space may be left out,
 * 48:2:R:G:B, as kitty does, or semicolons used, 48;2;R;G;B); \eP0$r\e\\ or
 * \eP1$r0m\e\\ say nothing of colour (VTE, mlterm). The 0/1 before $r differs
 * between terminals (DEC and xterm once disagreed), so only the contents
 * count. */
static bool sgr_answer(struct span body, struct input_event *ev)
{
    int kind = 0, rgb = -1;
    if (body.n > 0 && body.p[body.n - 1] == 'm') {
        struct span tok[SGR_TOKENS];
        int ntok = span_split((struct span){body.p, body.n - 1}, ';', tok, SGR_TOKENS);
        kind = background(tok, ntok, &rgb);
    }
    answer(ev, ANSWER_SGR, kind, rgb, 0);
    return true;
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
static bool tcap_answer(bool valid, struct span body, struct input_event *ev)
{
    struct span item[8];
    int n = valid ? span_split(body, ';', item, 8) : 0, rgb = 0;
    for (int i = 0; i < n; i++)
        rgb |= hex_is(item[i], "RGB") || hex_is(item[i], "Tc");
    answer(ev, ANSWER_TCAP, valid, rgb, 0);
    return true;
}

bool answer_dcs(const unsigned char *p, size_t n, struct input_event *ev)
{
    if (n < 3 || (p[0] != '0' && p[0] != '1') || p[2] != 'r')
        return false;
    struct span body = {p + 3, n - 3};
    if (p[1] == '$')
        return sgr_answer(body, ev);
    if (p[1] == '+')
        return tcap_answer(p[0] == '1', body, ev);
    return false;
}

/* ---- APC ------------------------------------------------------------------- */

/* The kitty graphics protocol's answer: \e_Gi=31;OK\e\\, or an error in place
 * of OK (\e_Gi=31;ENOENT:...\e\\); keys other than i are left alone. */
bool answer_apc(const unsigned char *p, size_t n, struct input_event *ev)
{
    if (n < 2 || p[0] != 'G')
        return false;
    const unsigned char *semi = memchr(p, ';', n);
    if (!semi)
        return false;
    struct span keys[8];
    int nk = span_split((struct span){p + 1, (size_t)(semi - p - 1)}, ',', keys, 8), id = 0;
    for (int i = 0; i < nk; i++)
        if (keys[i].n > 2 && keys[i].p[0] == 'i' && keys[i].p[1] == '=')
            id = number((struct span){keys[i].p + 2, keys[i].n - 2});
    struct span msg = {semi + 1, n - (size_t)(semi + 1 - p)};
    answer(ev, ANSWER_KITTY, id, msg.n == 2 && memcmp(msg.p, "OK", 2) == 0, 0);
    return true;
}

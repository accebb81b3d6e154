/*
 * test_input.c — the key and SGR mouse parser: press, drag, release, wheel,
 * wide columns, split and truncated input, garbage; invalid UTF-8 and over-long
 * CSI sequences, which give no key however the reads split them (issue 13), nor
 * do a terminal's late answers (DCS strings, DECRQM, DA1).
 */
#include "input.h"
#include "swirl.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define CHECK_STR(got, want) CHECK_MSG(strcmp((got), (want)) == 0, "\"%s\", not \"%s\"", (got), (want))

static int feed(struct input *in, const char *s, struct input_event *ev, int max)
{
    return input_feed(in, (const unsigned char *)s, strlen(s), ev, max);
}

TEST(input_sgr_press_drag_release)
{
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<0;10;5M\x1b[<32;12;6M\x1b[<0;12;6m", ev, 8), 3);
    CHECK(ev[0].type == INPUT_MOUSE && ev[0].action == MOUSE_PRESS && ev[0].button == 0);
    CHECK(ev[0].x == 9 && ev[0].y == 4);
    CHECK(ev[1].action == MOUSE_DRAG && ev[1].button == 0 && ev[1].x == 11 && ev[1].y == 5);
    CHECK(ev[2].action == MOUSE_RELEASE && ev[2].x == 11);
    CHECK(!input_pending(&in));
}

TEST(input_sgr_right_button_wheel_and_motion)
{
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<2;1;1M\x1b[<64;5;5M\x1b[<65;5;5M\x1b[<35;7;7M", ev, 8), 4);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == 2);
    CHECK(ev[1].action == MOUSE_WHEEL && ev[1].button == 1);
    CHECK(ev[2].action == MOUSE_WHEEL && ev[2].button == -1);
    CHECK(ev[3].action == MOUSE_MOVE);
    /* Modifier bits (shift 4, meta 8, ctrl 16) do not change the button. */
    CHECK_INT(feed(&in, "\x1b[<16;3;3M", ev, 8), 1);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == 0);
}

TEST(input_sgr_beyond_column_223)
{
    struct input in;
    struct input_event ev[2];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<32;300;120M", ev, 2), 1);
    CHECK_INT(ev[0].x, 299);
    CHECK_INT(ev[0].y, 119);
}

TEST(input_split_reports_wait_for_their_end)
{
    struct input in;
    struct input_event ev[4];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<0;1", ev, 4), 0);
    CHECK(input_pending(&in));
    CHECK_INT(feed(&in, "0;5", ev, 4), 0);
    CHECK_INT(feed(&in, "M", ev, 4), 1);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].x == 9 && ev[0].y == 4);
}

TEST(input_truncated_and_garbage_are_dropped)
{
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    /* A report cut short by a new one: the first is dropped, the second read. */
    CHECK_INT(feed(&in, "\x1b[<0;10\x1b[<0;3;4M", ev, 8), 1);
    CHECK(ev[0].type == INPUT_MOUSE && ev[0].x == 2 && ev[0].y == 3);
    /* Wrong parameter count, letters in parameters: nothing, and the keys after
     * them still arrive. */
    CHECK_INT(feed(&in, "\x1b[<1;2Mq", ev, 8), 1);
    CHECK(ev[0].type == INPUT_KEY && ev[0].key == 'q');
    /* A final byte in the middle ends the sequence there (ECMA-48): what follows
     * is read as keys, and the parser is back in step. */
    CHECK_INT(feed(&in, "\x1b[<1;zq", ev, 8), 1);
    CHECK(ev[0].type == INPUT_KEY && ev[0].key == 'q');
    /* ESC O with no SS3 key after it is dropped, and the ESC that follows
     * starts a report as usual. */
    CHECK_INT(feed(&in, "\x1bO\x1b[<0;3;4M", ev, 8), 1);
    CHECK(ev[0].type == INPUT_MOUSE && ev[0].x == 2 && ev[0].y == 3);
    /* Random bytes, then a valid report: the report comes out intact. */
    struct rng r = {42};
    for (int k = 0; k < 2000; k++) {
        unsigned char byte = (unsigned char)(rng_next(&r) & 0xFF);
        struct input_event junk[8];
        input_feed(&in, &byte, 1, junk, 8);
    }
    input_flush(&in, ev, 8);
    CHECK_INT(feed(&in, "\x1b[<0;7;8M", ev, 8), 1);
    CHECK(ev[0].type == INPUT_MOUSE && ev[0].x == 6 && ev[0].y == 7);
    /* A truncated report at the end of input is discarded by a flush. */
    CHECK_INT(feed(&in, "\x1b[<0;5", ev, 8), 0);
    CHECK_INT(input_flush(&in, ev, 8), 0);
    CHECK(!input_pending(&in));
    /* Over-long CSI garbage does not wedge the parser, and none of it leaks out
     * as keys: the sequence is skipped up to its final byte, then keys arrive. */
    char junk[200];
    memset(junk, '1', sizeof junk);
    junk[0] = 27, junk[1] = '[', junk[199] = 0;
    CHECK_INT(feed(&in, junk, ev, 8), 0);
    CHECK_INT(feed(&in, "zq", ev, 8), 1);
    CHECK(ev[0].type == INPUT_KEY && ev[0].key == 'q' && !ev[0].alt);
    CHECK(!input_pending(&in));
}

TEST(input_keys_arrows_and_escape)
{
    struct input in;
    struct input_event ev[16];
    input_init(&in);
    CHECK_INT(feed(&in, "a\x1b[A\x1bOB\x1b[1;5C\x1b[D\t\r\x7f", ev, 16), 8);
    CHECK_INT(ev[0].key, 'a');
    CHECK_INT(ev[1].key, IK_UP);
    CHECK_INT(ev[2].key, IK_DOWN);
    CHECK_INT(ev[3].key, IK_RIGHT);
    CHECK_INT(ev[4].key, IK_LEFT);
    CHECK_INT(ev[5].key, IK_TAB);
    CHECK_INT(ev[6].key, IK_ENTER);
    CHECK_INT(ev[7].key, IK_BACKSPACE);
    /* A lone ESC waits, then is the Esc key. */
    CHECK_INT(feed(&in, "\x1b", ev, 16), 0);
    CHECK_INT(input_flush(&in, ev, 16), 1);
    CHECK_INT(ev[0].key, IK_ESC);
    /* ESC then a letter is Alt+letter; the DSR answer is a pong; UTF-8 decodes. */
    CHECK_INT(feed(&in, "\x1bq\x1b[0n\xc3\xa9\x1b[Z", ev, 16), 4);
    CHECK(ev[0].key == 'q' && ev[0].alt);
    CHECK(ev[1].type == INPUT_PONG);
    CHECK_INT(ev[2].key, 0xE9);
    CHECK_INT(ev[3].key, IK_BACKTAB);
    /* The cursor position answer, and DA1's, are answers too; an unknown
     * private CSI is nothing. */
    CHECK_INT(feed(&in, "\x1b[12;40R\x1b[?62;22cx\x1b[?5R\x1b[1R", ev, 16), 3);
    CHECK(ev[0].type == INPUT_WHERE && ev[1].type == INPUT_ANSWER);
    CHECK(ev[2].type == INPUT_KEY && ev[2].key == 'x' && ev[1].answer.kind == ANSWER_DA1);
    CHECK_INT(ev[1].answer.v[0], 1 << 22);
    /* The first number is the class, not an attribute: st's ?6c has none,
     * a VT100's ?1;2c attribute 2 alone. */
    CHECK_INT(feed(&in, "\x1b[?6c\x1b[?1;2c", ev, 16), 2);
    CHECK_INT(ev[0].answer.v[0], 0);
    CHECK_INT(ev[1].answer.v[0], 1 << 2);
    CHECK_INT(feed(&in, "\x1b[?2026;2$y", ev, 16), 1);
    CHECK(ev[0].type == INPUT_ANSWER && ev[0].answer.kind == ANSWER_MODE &&
          ev[0].answer.v[0] == 2026 && ev[0].answer.v[1] == 2);
    CHECK(input_is_answer(INPUT_PONG) && input_is_answer(INPUT_WHERE) &&
          input_is_answer(INPUT_ANSWER) && !input_is_answer(INPUT_KEY) &&
          !input_is_answer(INPUT_MOUSE));
}

TEST(input_legacy_x10_report)
{
    struct input in;
    struct input_event ev[2];
    input_init(&in);
    /* CSI M, then button+32, column+33, row+33. */
    CHECK_INT(feed(&in, "\x1b[M #%", ev, 2), 1);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == 0 && ev[0].x == 2 && ev[0].y == 4);
    CHECK_INT(feed(&in, "\x1b[M##%", ev, 2), 1);
    CHECK(ev[0].action == MOUSE_RELEASE);
}

TEST(input_a_burst_fed_in_slices_loses_nothing)
{
    /* 200 keys and 20 drag reports, fed as the terminal loop feeds them: slices of
     * 16 bytes with room for 16 events. */
    char burst[2048];
    size_t n = 0;
    for (int i = 0; i < 200; i++)
        burst[n++] = 'a' + (char)(i % 26);
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(burst + n, sizeof burst - n, "\x1b[<32;%d;4M", 100 + i);
    struct input in;
    input_init(&in);
    int keys = 0, drags = 0, bad = 0;
    for (size_t off = 0; off < n; off += 16) {
        struct input_event ev[16];
        size_t chunk = n - off < 16 ? n - off : 16;
        int ne = input_feed(&in, (const unsigned char *)burst + off, chunk, ev, 16);
        for (int k = 0; k < ne; k++) {
            if (ev[k].type == INPUT_KEY && ev[k].key >= 'a' && ev[k].key <= 'z')
                keys++;
            else if (ev[k].type == INPUT_MOUSE && ev[k].action == MOUSE_DRAG &&
                     ev[k].x == 99 + drags && ev[k].y == 3)
                drags++;
            else
                bad++;
        }
    }
    CHECK_INT(keys, 200);
    CHECK_INT(drags, 20);
    CHECK_INT(bad, 0);
}

/* Feeds b[0..n) as two reads split at cut, then flushes; returns the events. */
static int feed_split(const unsigned char *b, size_t n, size_t cut,
                      struct input_event *ev, int max)
{
    struct input in;
    input_init(&in);
    int ne = input_feed(&in, b, cut, ev, max);
    ne += input_feed(&in, b + cut, n - cut, ev + ne, max - ne);
    ne += input_flush(&in, ev + ne, max - ne);
    CHECK(!input_pending(&in));
    return ne;
}

/* The same, the terminal's answers left out: what a person typed. */
static int feed_split_keys(const unsigned char *b, size_t n, size_t cut, struct input_event *ev,
                           int max)
{
    int ne = feed_split(b, n, cut, ev, max), k = 0;
    for (int i = 0; i < ne; i++)
        if (!input_is_answer(ev[i].type))
            ev[k++] = ev[i];
    return k;
}

/* Every split of b[0..n) gives exactly one key event, key; followed by "x", the
 * same key and then 'x'. */
static void check_every_split(const unsigned char *b, size_t n, int key)
{
    unsigned char bx[300];
    memcpy(bx, b, n);
    bx[n] = 'x';
    for (size_t cut = 0; cut <= n + 1; cut++) {
        struct input_event ev[310];
        int want = key == IK_NONE ? 0 : 1;
        if (cut <= n) {
            int ne = feed_split_keys(b, n, cut, ev, 310);
            CHECK_MSG(ne == want && (ne == 0 || (ev[0].type == INPUT_KEY && ev[0].key == key)),
                      "%zu bytes split at %zu: %d events, first key %d", n, cut, ne,
                      ne ? ev[0].key : -1);
        }
        int ne = feed_split_keys(bx, n + 1, cut, ev, 310);
        CHECK_MSG(ne == want + 1 && (want == 0 || ev[0].key == key) &&
                      ev[ne - 1].type == INPUT_KEY && ev[ne - 1].key == 'x',
                  "%zu bytes + 'x' split at %zu: %d events, first key %d", n, cut, ne,
                  ne ? ev[0].key : -1);
    }
}

TEST(input_invalid_utf8_gives_no_key)
{
    /* Overlong forms (of 'q', of ESC, of '/'), a surrogate, code points past
     * U+10FFFF, bytes that never start a sequence: dropped, never decoded. */
    static const struct { unsigned char b[4]; size_t n; } bad[] = {
        {{0xC1, 0xB1}, 2},             /* 'q' in two bytes */
        {{0xC0, 0x9B}, 2},             /* ESC in two bytes */
        {{0xE0, 0x81, 0xB1}, 3},       /* 'q' in three bytes */
        {{0xE0, 0x9F, 0xBF}, 3},       /* U+07FF in three bytes */
        {{0xF0, 0x80, 0x81, 0xB1}, 4}, /* 'q' in four bytes */
        {{0xF0, 0x8F, 0xBF, 0xBF}, 4}, /* U+FFFF in four bytes */
        {{0xED, 0xA0, 0x80}, 3},       /* U+D800 */
        {{0xED, 0xBF, 0xBF}, 3},       /* U+DFFF */
        {{0xF4, 0x90, 0x80, 0x81}, 4}, /* U+110001 = IK_UP */
        {{0xF7, 0xBF, 0xBF, 0xBF}, 4}, /* U+1FFFFF */
        {{0xF8, 0x88, 0x80, 0x80}, 4}, /* five-byte lead */
        {{0xFF, 0xFE}, 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_every_split(bad[i].b, bad[i].n, IK_NONE);
    /* The edges of what is valid still decode. */
    static const struct { unsigned char b[4]; size_t n; int cp; } good[] = {
        {{0xC2, 0x80}, 2, 0x80},
        {{0xDF, 0xBF}, 2, 0x7FF},
        {{0xE0, 0xA0, 0x80}, 3, 0x800},
        {{0xED, 0x9F, 0xBF}, 3, 0xD7FF},
        {{0xEE, 0x80, 0x80}, 3, 0xE000},
        {{0xEF, 0xBF, 0xBF}, 3, 0xFFFF},
        {{0xF0, 0x90, 0x80, 0x80}, 4, 0x10000},
        {{0xF4, 0x8F, 0xBF, 0xBF}, 4, 0x10FFFF},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        check_every_split(good[i].b, good[i].n, good[i].cp);
}

TEST(input_over_long_csi_is_dropped_however_it_is_split)
{
    /* ESC [, 38 times '0', 'q': 41 bytes, one more than a CSI may have. Read in
     * one piece, split after byte 40 or anywhere else: no key (no 'q'). */
    unsigned char b[260];
    b[0] = 27, b[1] = '[';
    memset(b + 2, '0', 38);
    b[40] = 'q';
    check_every_split(b, 41, IK_NONE);
    /* Far longer: none of its digits leaks out as keys either. */
    memset(b + 2, '0', 250);
    b[252] = 'q';
    check_every_split(b, 253, IK_NONE);
    /* 40 bytes is still a CSI: ESC [ 0...01;5 A (Ctrl-Up) with 34 leading zeros. */
    memset(b + 2, '0', 34);
    memcpy(b + 36, "1;5A", 4);
    check_every_split(b, 40, IK_UP);
    /* One zero more and it is garbage. */
    memset(b + 2, '0', 35);
    memcpy(b + 37, "1;5A", 4);
    check_every_split(b, 41, IK_NONE);
}

/* A terminal's answers that came after swirl stopped waiting for them
 * (probe.h): DCS strings and CSI answers give no key however they are split,
 * so no digit of them switches the scene and no 'r' restarts it. */
TEST(input_late_terminal_answers_give_no_key)
{
    static const char *const late[] = {
        "\x1bP1$r0;48:2::123:45:67m\x1b\\",   /* xterm's DECRQSS m */
        "\x1bP1$r48:2:123:45:67m\x1b\\",      /* kitty's */
        "\x1bP0+r524742\x1b\\",               /* XTGETTCAP, refused */
        "\x1bP1+r524742=382F382F38\x1b\\",    /* XTGETTCAP, known */
        "\x1bP>|XTerm(379)\x1b\\",            /* XTVERSION */
        "\x1b[?2026;2$y",                      /* DECRQM */
        "\x1bP1$r0;48:2::123:4\x18",          /* cancelled by CAN */
        "\x1b[?c", "\x1b[?6:2c",               /* no DA1 answer */
    };
    for (size_t i = 0; i < sizeof late / sizeof late[0]; i++)
        check_every_split((const unsigned char *)late[i], strlen(late[i]), IK_NONE);
    /* DA1's answer, the last of the start-up questions': no key, but an
     * event that says the questions are answered, however it is split. */
    static const char *const da1[] = {"\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c", "\x1b[?1;2c",
                                      "\x1b[?62c"};
    for (size_t i = 0; i < sizeof da1 / sizeof da1[0]; i++) {
        unsigned char b[64];
        size_t n = strlen(da1[i]);
        memcpy(b, da1[i], n);
        b[n] = 'x';
        for (size_t cut = 0; cut <= n; cut++) {
            struct input_event ev[8];
            int ne = feed_split(b, n + 1, cut, ev, 8);
            CHECK_MSG(ne == 2 && ev[0].type == INPUT_ANSWER && ev[1].type == INPUT_KEY &&
                          ev[1].key == 'x', "%s split at %zu: %d events", da1[i] + 1, cut, ne);
        }
    }
    /* A DCS string far longer than a CSI may be: skipped up to its ST. */
    unsigned char b[260];
    memcpy(b, "\x1bP1+r", 5);
    memset(b + 5, '7', 240);
    memcpy(b + 245, "\x1b\\", 2);
    check_every_split(b, 247, IK_NONE);
    /* An ESC that is not ST ends the string and is parsed anew: the up arrow. */
    static const char cut[] = "\x1bP1$r0;48\x1b[A";
    check_every_split((const unsigned char *)cut, sizeof cut - 1, IK_UP);
    /* ESC P then something that starts no DCS is Alt-P, then that key. */
    struct input_event ev[4];
    int ne = feed_split((const unsigned char *)"\x1bPq", 3, 2, ev, 4);
    CHECK(ne == 2 && ev[0].key == 'P' && ev[0].alt && ev[1].key == 'q' && !ev[1].alt);
    /* ESC P alone, then a pause: Alt-P. */
    ne = feed_split((const unsigned char *)"\x1bP", 2, 1, ev, 4);
    CHECK(ne == 1 && ev[0].key == 'P' && ev[0].alt);
}

/* The keys of b[0..n) split at cut into two reads (flushed between them when
 * `pause`, as the loop does when the terminal goes quiet), answers left out,
 * written into keys as characters (Alt: '~' before). */
static void keys_of(const unsigned char *b, size_t n, size_t cut, bool pause, char *keys,
                    size_t cap)
{
    struct input in;
    struct input_event ev[2100];
    input_init(&in);
    int ne = input_feed(&in, b, cut, ev, 2100);
    if (pause)
        ne += input_flush(&in, ev + ne, 2100 - ne);
    ne += input_feed(&in, b + cut, n - cut, ev + ne, 2100 - ne);
    ne += input_flush(&in, ev + ne, 2100 - ne);
    size_t k = 0;
    for (int i = 0; i < ne && k + 3 < cap; i++) {
        if (input_is_answer(ev[i].type))
            continue;
        if (ev[i].alt)
            keys[k++] = '~';
        keys[k++] = ev[i].key < 128 ? (char)ev[i].key : '?';
    }
    keys[k] = 0;
}

/* Every kind of control string, 7-bit and 8-bit, ended by ST or BEL, split
 * at every byte: never a key, and the keys on either side come through. An
 * OSC colour answer left behind by another program (its '1' would switch to
 * the dye, its 'r' and 'b' act) is the case that was seen. */
TEST(input_control_strings_are_never_keys)
{
    static const char *const strs[] = {
        "\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\",  /* OSC 11, ST */
        "\x1b]10;rgb:ffff/ffff/ffff\x07",     /* OSC 10, BEL */
        "\x1b]52;c;cXVpdCByIGIgMQ==\x07",     /* OSC 52 clipboard */
        "\x1b]lswirl title\x1b\\",            /* a title report */
        "\x1b_Gi=31;OK\x1b\\",                /* APC: kitty's answer */
        "\x1b_Gi=1;ENOENT:qr1b\x1b\\",
        "\x1b^private q1rb\x1b\\",            /* PM */
        "\x1bXstart of string q1r\x1b\\",     /* SOS */
        "\x1bP1$r0;48:2::1:2:3m\x07",         /* DCS, BEL */
        "\x9d" "11;rgb:0/0/0\x9c",            /* 8-bit OSC and ST */
        "\x9d" "2;\xe2\x9c\x9c q1r\x07",      /* UTF-8 in it: its 0x9C bytes end nothing */
        "\x9f" "Gi=31;OK\x9c", "\x90" "1+r5463\x9c", "\x9e" "q1r\x9c", "\x98" "q1r\x9c",
        "\x1b]11;rgb:1e1e\x18",               /* cancelled by CAN */
        "\x1b]11;rgb:1e1e\x1a",               /* ... SUB */
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        unsigned char b[128];
        size_t n = strlen(strs[i]);
        b[0] = 'a';
        memcpy(b + 1, strs[i], n);
        memcpy(b + 1 + n, "zx", 2);
        for (size_t cut = 0; cut <= n + 3; cut++) {
            char keys[64];
            keys_of(b, n + 3, cut, false, keys, sizeof keys);
            CHECK_MSG(strcmp(keys, "azx") == 0, "string %zu split at %zu: keys \"%s\"", i, cut,
                      keys);
        }
    }
    /* An ESC that is not ST cuts a string off: the string is dropped, the ESC
     * parsed anew (the up arrow). */
    char keys[64];
    static const char cutoff[] = "a\x1b]11;rgb:1e1e\x1b[Ax";
    for (size_t cut = 0; cut < sizeof cutoff; cut++) {
        keys_of((const unsigned char *)cutoff, sizeof cutoff - 1, cut, false, keys, sizeof keys);
        CHECK_MSG(strcmp(keys, "a?x") == 0, "cut off, split at %zu: \"%s\"", cut, keys);
    }
    /* Unterminated, then the terminal goes quiet: dropped at the flush, and
     * what is typed after it is keys again. */
    static const char open[] = "a\x1b]11;rgb:1e1e/1e";
    unsigned char b[64];
    memcpy(b, open, sizeof open - 1);
    memcpy(b + sizeof open - 1, "1rx", 3);
    keys_of(b, sizeof open - 1 + 3, sizeof open - 1, true, keys, sizeof keys);
    CHECK_STR(keys, "a1rx");
    /* Over-long (more than INPUT_STRING_MAX bytes): dropped whole, answer and
     * all, however long; the keys after it come through. */
    static unsigned char big[3000];
    size_t nb = 0;
    big[nb++] = 'a';
    memcpy(big + nb, "\x1b_Gi=31;", 8), nb += 8;
    memset(big + nb, 'q', 2500), nb += 2500;
    memcpy(big + nb, "OK\x1b\\zx", 6), nb += 6;
    for (size_t cut = 0; cut <= nb; cut += 97) {
        keys_of(big, nb, cut, false, keys, sizeof keys);
        CHECK_MSG(strcmp(keys, "azx") == 0, "over-long split at %zu: \"%s\"", cut, keys);
    }
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    CHECK_INT(input_feed(&in, big, nb, ev, 8), 3); /* no answer: only a, z, x */
    /* What a person types stays as it was: ESC and a string's letter alone is
     * that letter with Alt, ESC and a letter then a control too. */
    static const char *const typed[][2] = {
        {"\x1b]", "~]"}, {"\x1b_", "~_"}, {"\x1b^", "~^"}, {"\x1bX", "~X"}, {"\x1bP", "~P"},
        {"\x1b]\x1b]", "~]~]"}, {"\x1b_\r", "~_\r"}, {"\x1bPq", "~Pq"},
    };
    for (size_t i = 0; i < sizeof typed / sizeof typed[0]; i++) {
        size_t n = strlen(typed[i][0]);
        for (size_t cut = 0; cut <= n; cut++) {
            keys_of((const unsigned char *)typed[i][0], n, cut, false, keys, sizeof keys);
            CHECK_MSG(strcmp(keys, typed[i][1]) == 0, "typed %zu at %zu: \"%s\"", i, cut, keys);
        }
    }
}

/* Buttons 8-11 (back, forward...: SGR codes 128-131, in X10 too) are buttons
 * of their own, never the left one their low bits would say. */
TEST(input_buttons_8_to_11_are_not_the_left_button)
{
    struct input in;
    struct input_event ev[8];
    input_init(&in);
    CHECK_INT(feed(&in, "\x1b[<128;5;5M\x1b[<160;6;5M\x1b[<128;6;5m\x1b[<131;1;1M", ev, 8),
              4);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == INPUT_BUTTON_EXTRA);
    CHECK(ev[1].action == MOUSE_DRAG && ev[1].button == INPUT_BUTTON_EXTRA);
    CHECK(ev[2].action == MOUSE_RELEASE && ev[2].button == INPUT_BUTTON_EXTRA);
    CHECK(ev[3].action == MOUSE_PRESS && ev[3].button == INPUT_BUTTON_EXTRA + 3);
    /* X10: CSI M, then 32 + 129 (button 9), column, row. */
    char x10[] = {0x1b, '[', 'M', (char)(32 + 129), 33 + 4, 33 + 2, 0};
    CHECK_INT(feed(&in, x10, ev, 8), 1);
    CHECK(ev[0].action == MOUSE_PRESS && ev[0].button == INPUT_BUTTON_EXTRA + 1);
    CHECK(ev[0].x == 4 && ev[0].y == 2);
    /* The wheel (64, 65) is still the wheel. */
    CHECK_INT(feed(&in, "\x1b[<64;5;5M", ev, 8), 1);
    CHECK(ev[0].action == MOUSE_WHEEL && ev[0].button == 1);
}

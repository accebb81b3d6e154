/*
 * test_cast.c — the asciicast v2 writer: header, events, JSON escapes.
 */
#include "cast.h"
#include "cast_internal.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(cast_json_string_escapes)
{
    struct buf b;
    buf_init(&b);
    cast_json_string(&b, "a\"b\\c\x1b[0m\n\x7f\xe2\x96\x80", 14);
    CHECK_BYTES(b.p, b.len, "\"a\\\"b\\\\c\\u001b[0m\\u000a\\u007f\xe2\x96\x80\"");
    buf_clear(&b);
    /* Invalid UTF-8 (a lone continuation byte, a truncated sequence). */
    cast_json_string(&b, "x\x80y\xe2\x96", 5);
    CHECK_BYTES(b.p, b.len, "\"x\\ufffdy\\ufffd\\ufffd\"");
    buf_free(&b);
}

TEST(cast_header_and_events)
{
    struct buf b;
    buf_init(&b);
    cast_header(&b, 100, 30, "xterm-256color", 0, "swirl");
    CHECK_BYTES(b.p, b.len,
                "{\"version\": 2, \"width\": 100, \"height\": 30, \"title\": \"swirl\", "
                "\"env\": {\"TERM\": \"xterm-256color\"}}\n");
    buf_clear(&b);
    cast_event(&b, 1.5, 'o', "hi\x1b", 3);
    cast_event(&b, 2.0, 'r', "80x24", 5);
    CHECK_BYTES(b.p, b.len, "[1.500000, \"o\", \"hi\\u001b\"]\n[2.000000, \"r\", \"80x24\"]\n");
    buf_free(&b);
}

TEST(cast_file_times_never_go_back)
{
    char path[] = "/tmp/swirl-test-castXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    struct cast c;
    struct cast_setup cs = {.w = 10, .h = 5};
    CHECK(cast_open(&c, path, &cs) == 0);
    cast_output(&c, 1.0, "a", 1);
    cast_output(&c, 0.5, "b", 1); /* a clock that stepped back */
    cast_resize(&c, 2.0, 12, 6);
    CHECK(cast_close(&c, NULL) == 0);
    FILE *f = fopen(path, "r");
    char text[512] = "";
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = 0;
    if (f)
        fclose(f);
    remove(path);
    CHECK(strcmp(text, "{\"version\": 2, \"width\": 10, \"height\": 5}\n"
                       "[1.000000, \"o\", \"a\"]\n[1.000000, \"o\", \"b\"]\n"
                       "[2.000000, \"r\", \"12x6\"]\n") == 0);
    /* An unwritable path is an error, with nothing left behind. */
    CHECK(cast_open(&c, "/nonexistent-dir/x.cast", &cs) == -1);
}

/*
 * test_cli_config.c — the config file parsed in-process (cli_parse_config): its
 * text and a command line in, a struct cli or one line of error out, with no
 * file on disk. Good lines in each form, bad lines named by file and line,
 * comments, blanks and whitespace, the command line winning, --no-config and
 * the runs that read no config. And --set help's values for the terminal's
 * size (cli_set_help). test_config.c runs the real binary with a config file.
 */
#include "cli.h"
#include "fixtures.h"
#include "palette.h"
#include "scene.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define ARGS_MAX 40
#define NAME "~/.config/swirl/config"

static char err[1024];

/* "swirl" and the words of line (split at spaces), with the config text. */
static int parse(struct cli *c, const char *config, const char *line)
{
    static char copy[1024];
    char *argv[ARGS_MAX];
    int argc = fx_argv(line, copy, sizeof copy, argv, ARGS_MAX);
    memset(err, 'x', sizeof err);
    return cli_parse_config(c, argc, argv, config, config ? strlen(config) : 0, NAME, err,
                            sizeof err);
}

#define PARSED(c, config, line)                                                     \
    do {                                                                            \
        const char *cfg_ = (config);                                                \
        int rc_ = parse(&(c), cfg_, line);                                          \
        CHECK_MSG(rc_ == 0, "'%s' with config '%s' refused: %s", line,              \
                  cfg_ ? cfg_ : "(none)", err);                                     \
    } while (0)

/* Refused with exactly the message `says` (one line). */
static void refused_at(const char *file, int line, const char *config, const char *args,
                       const char *says)
{
    struct cli c;
    int rc = parse(&c, config, args);
    if (rc != -1 || strcmp(err, says) != 0)
        test_fail(file, line, "config '%s', args '%s': rc %d, '%s' (wanted '%s')", config, args,
                  rc, rc ? err : "", says);
}
#define REFUSED(config, args, says) refused_at(__FILE__, __LINE__, config, args, says)

static int param(const char *scene, const char *name)
{
    return scene_param_find(scenes[scene_find(scene)], name);
}

TEST(config_good_lines_in_each_form)
{
    struct cli c;
    PARSED(c, "color = truecolor\nset = viscosity=0.1\nfps = 60\nauto\n", "");
    CHECK_INT(c.run, CLI_TERM);
    CHECK_INT(c.o.color, COLOR_TRUE);
    CHECK(!c.color_auto);
    CHECK_INT(c.o.fps, 60);
    CHECK(c.o.autopilot);
    CHECK_INT(c.o.nsets, 1);
    CHECK_INT(c.o.sets[0].param, param("dye", "viscosity"));
    CHECK_NEAR(c.o.sets[0].value, 0.1, 1e-12);
    /* NAME=VALUE, NAME VALUE, a leading --, tabs; every option a config may
     * hold. */
    PARSED(c, "fps=12\ntolerance 9\n--seed = 5\n\tthreads\t=\t3\nglyphs ascii\nno-sync\n"
              "no-status\nscene = cloth\npreset = seed\nset tearing=on\n", "");
    CHECK_INT(c.o.fps, 12);
    CHECK_INT(c.o.tolerance, 9);
    CHECK_INT(c.o.seed, 5);
    CHECK_INT(c.o.threads, 3);
    CHECK_INT(c.o.glyphs, GLYPHS_ASCII);
    CHECK(!c.o.sync && c.o.no_status && c.o.preset_seed);
    CHECK_INT(c.o.scene, scene_find("cloth"));
    CHECK_INT(c.o.nsets, 1);
    CHECK_INT(c.o.sets[0].param, param("cloth", "tearing"));
    PARSED(c, "demo", "");
    CHECK(c.o.demo && !c.o.screensaver);
    PARSED(c, "screensaver", "");
    CHECK(c.o.demo && c.o.screensaver && c.o.no_status == false);
    PARSED(c, "grid = 40x20", "");
    CHECK(c.o.grid_w == 40 && c.o.grid_h == 20);
    /* An empty file, and a last line without its newline. */
    PARSED(c, "", "");
    CHECK_INT(c.o.fps, 30);
    PARSED(c, "fps = 7", "");
    CHECK_INT(c.o.fps, 7);
}

TEST(config_comments_blank_lines_and_whitespace)
{
    struct cli c;
    PARSED(c, "# swirl's config\n\n   \n\t# indented\n  fps   =   45   # smooth\r\n"
              "#fps = 1\n\r\nseed = 9\t\r\n", "");
    CHECK_INT(c.o.fps, 45);
    CHECK_INT(c.o.seed, 9);
    CHECK(!c.o.autopilot);
    /* '#' in the middle of a word is the word's: it makes a bad line here. */
    REFUSED("auto#x\n", "", NAME ":1: unknown option 'auto#x' (did you mean auto?)");
}

TEST(config_bad_lines_name_the_file_and_the_line)
{
    REFUSED("fps = 60\n# a comment\ncolr = 3\n", "",
            NAME ":3: unknown option 'colr' (did you mean color?)");
    REFUSED("\n\n\n\nfps = 0\n", "",
            NAME ":5: --fps wants a whole number from 1 to 240, not '0'");
    REFUSED("fp = 60\n", "", NAME ":1: unknown option 'fp' (did you mean fps?)"); /* no prefixes */
    REFUSED("bogus = 1\n", "", NAME ":1: unknown option 'bogus'");
    REFUSED("auto = yes\n", "", NAME ":1: auto takes no value");
    REFUSED("auto =\n", "", NAME ":1: auto takes no value");
    REFUSED("fps\n", "", NAME ":1: fps needs a value");
    REFUSED("fps =\n", "", NAME ":1: --fps wants a whole number from 1 to 240, not ''");
    REFUSED("color = rainbow\n", "", NAME ":1: unknown colour mode 'rainbow' (auto, truecolor, "
                                     "256, 16, 8 or mono)");
    char names[256], says[512]; /* the scenes as the refusals list them: "dye, pbf or cloth" */
    fx_scenes_joined(names, sizeof names, ", ", " or ");
    snprintf(says, sizeof says, NAME ":1: unknown scene 'water' (%s)", names);
    REFUSED("scene = water\n", "", says);
    REFUSED("record = x.cast\n", "", NAME ":1: --record is for the command line, not the "
                                     "config file");
    REFUSED("headless\n", "", NAME ":1: --headless is for the command line, not the config file");
    REFUSED("no-config\n", "", NAME ":1: --no-config is for the command line, not the config "
                               "file");
    REFUSED("help\n", "", NAME ":1: --help is for the command line, not the config file");
    REFUSED("list-scenes\n", "", NAME ":1: --list-scenes is for the command line, not the "
                                 "config file");
    REFUSED("set = help\n", "", NAME ":1: --set help is for the command line");
    REFUSED("set = cloth:help\n", "", NAME ":1: --set cloth:help is for the command line");
    REFUSED("= 3\n", "", NAME ":1: unknown option ''");
    /* A --set is judged once the first scene is known: still its own line. */
    REFUSED("fps = 60\nset = viscosity=99\n", "", NAME ":2: --set viscosity wants 0 to 20, not '99' "
                                                "(did you mean 20?)");
    REFUSED("set = viscosity=1\n\nset = bogus=1\n", "",
            NAME ":3: --set: the dye scene has no parameter 'bogus' (--set dye:help lists "
                 "them)");
    REFUSED("set = dye:bogus=1\n", "--scene pbf",
            NAME ":1: --set: the dye scene has no parameter 'bogus' (--set dye:help lists "
                 "them)");
    snprintf(says, sizeof says, NAME ":1: --set water:depth=1: no scene 'water' (%s)", names);
    REFUSED("set = water:depth=1\n", "", says);
    char longline[1200];
    memset(longline, 'a', sizeof longline - 1);
    longline[sizeof longline - 1] = 0;
    REFUSED(longline, "", NAME ":1: the line is longer than 1023 characters");
    /* The command line's own mistakes come first, and without a file name. */
    REFUSED("colr = 3\n", "--fps 0", "--fps wants a whole number from 1 to 240, not '0'");
}

/* A config text of n bytes (NUL bytes and all) with the command line `args`:
 * refused with exactly `says`. */
static void refused_bytes_at(const char *file, int line, const char *config, size_t n,
                             const char *args, const char *says)
{
    struct cli c;
    static char copy[1024];
    char *argv[ARGS_MAX];
    int argc = fx_argv(args, copy, sizeof copy, argv, ARGS_MAX);
    memset(err, 'x', sizeof err);
    int rc = cli_parse_config(&c, argc, argv, config, n, NAME, err, sizeof err);
    if (rc != -1 || strcmp(err, says) != 0)
        test_fail(file, line, "%zu bytes, args '%s': rc %d, '%s' (wanted '%s')", n, args, rc,
                  rc ? err : "", says);
}
#define REFUSED_BYTES(config, args, says)                                          \
    refused_bytes_at(__FILE__, __LINE__, config, sizeof config - 1, args, says)

/* A NUL byte is a problem of its line, whatever follows it on the line or
 * after; before it, the lines are read as usual. */
TEST(config_a_nul_byte_is_refused_with_its_line)
{
    REFUSED_BYTES("fps = 6\0 0\n", "", NAME ":1: a NUL byte (is it a text file?)");
    REFUSED_BYTES("fps = 6\nauto\n\0colr = 3\n", "", NAME ":3: a NUL byte (is it a text file?)");
    REFUSED_BYTES("fps = 6\n# \0\n", "", NAME ":2: a NUL byte (is it a text file?)");
    REFUSED_BYTES("colr = 3\n\0\n", "", NAME ":1: unknown option 'colr' (did you mean color?)");
    REFUSED_BYTES("fps = 6\n\0", "", NAME ":2: a NUL byte (is it a text file?)");
    /* The command line's mistake first, as ever. */
    REFUSED_BYTES("\0", "--fps 0", "--fps wants a whole number from 1 to 240, not '0'");
}

/* A UTF-8 byte-order mark before the first line is an editor's, not the
 * file's; anywhere else it is part of the text. */
TEST(config_a_byte_order_mark_at_the_top_is_skipped)
{
    struct cli c;
    PARSED(c, "\xef\xbb\xbf" "fps = 20\n", "");
    CHECK_INT(c.o.fps, 20);
    PARSED(c, "\xef\xbb\xbf", "");
    CHECK_INT(c.o.fps, 30);
    REFUSED("\xef\xbb\xbf" "colr = 3\n", "", NAME ":1: unknown option 'colr' (did you mean color?)");
    REFUSED("fps = 20\n\xef\xbb\xbf" "auto\n", "",
            NAME ":2: unknown option '\xef\xbb\xbf" "auto' (did you mean auto?)");
    REFUSED("\xef\xbb\xbf\xef\xbb\xbf" "auto\n", "",
            NAME ":1: unknown option '\xef\xbb\xbf" "auto' (did you mean auto?)");
}

TEST(config_the_command_line_wins)
{
    struct cli c;
    PARSED(c, "fps = 60\nseed = 3\ncolor = mono\n", "--fps 20 --color auto");
    CHECK_INT(c.o.fps, 20);
    CHECK_INT(c.o.seed, 3);
    CHECK(c.color_auto);
    /* A scene in both: no "given twice", the command line's. */
    PARSED(c, "scene = pbf\n", "--scene cloth");
    CHECK_INT(c.o.scene, scene_find("cloth"));
    PARSED(c, "scene = pbf\n", "");
    CHECK_INT(c.o.scene, scene_find("pbf"));
    /* A --set of the same parameter: the command line's; others add up. */
    PARSED(c, "set = viscosity=0.1\nset = vorticity=5\n", "--set viscosity=0.2");
    CHECK_INT(c.o.nsets, 2);
    bool visc = false, vort = false;
    for (int k = 0; k < c.o.nsets; k++) {
        if (c.o.sets[k].param == param("dye", "viscosity")) {
            CHECK_NEAR(c.o.sets[k].value, 0.2, 1e-12);
            visc = true;
        }
        if (c.o.sets[k].param == param("dye", "vorticity")) {
            CHECK_NEAR(c.o.sets[k].value, 5.0, 0.0);
            vort = true;
        }
    }
    CHECK(visc && vort);
    /* A tour from the file yields to a scene on the command line ... */
    PARSED(c, "demo\nset = gravity=-5\n", "--scene pbf");
    CHECK(!c.o.demo);
    CHECK_INT(c.o.scene, scene_find("pbf"));
    CHECK_INT(c.o.nsets, 1);
    PARSED(c, "screensaver\n", "--scene cloth");
    CHECK(!c.o.screensaver && !c.o.demo && !c.o.autopilot);
    /* ... and the file's scene and --set lines to a tour on it. */
    PARSED(c, "scene = pbf\nset = gravity=-5\n", "--demo");
    CHECK(c.o.demo);
    CHECK_INT(c.o.scene, 0);
    CHECK_INT(c.o.nsets, 0);
    PARSED(c, "scene = pbf\n", "--screensaver");
    CHECK(c.o.screensaver && !c.o.demo && c.o.autopilot); /* that scene alone */
    CHECK_INT(c.o.scene, scene_find("pbf"));
    /* What is for one scene only is dropped for another. */
    PARSED(c, "grid = 40x20\n", "--scene pbf");
    CHECK_INT(c.o.grid_w, 0);
    PARSED(c, "preset = seed\n", "");
    CHECK(!c.o.preset_seed);
    PARSED(c, "preset = seed\n", "--scene cloth");
    CHECK(c.o.preset_seed);
    /* A --set for a scene by name is kept for that scene, first or not (the
     * app applies it when the scene is first built). */
    for (int first = 0; first < 2; first++) {
        PARSED(c, "set = dye:splat-radius=6\nset = pbf:gravity=-5\n",
               first ? "--scene pbf" : "");
        CHECK_INT(c.o.nsets, 2);
        CHECK(c.o.sets[0].scene == scene_find("dye") && c.o.sets[1].scene == scene_find("pbf"));
        CHECK_INT(c.o.sets[0].param, param("dye", "splat-radius"));
        CHECK_INT(c.o.sets[1].param, param("pbf", "gravity"));
    }
    /* The command line's --set beats the file's of that scene's parameter
     * only: the same parameter of another scene stays. */
    char file[128], line[128], name[64];
    const struct param_def *dye0 = &scenes[0]->params[0],
                           *cloth0 = &scenes[scene_find("cloth")]->params[0];
    param_name(dye0, name, sizeof name);
    snprintf(file, sizeof file, "set = dye:%s=%g\n", name, dye0->min);
    param_name(cloth0, name, sizeof name);
    snprintf(line, sizeof line, "--set cloth:%s=%g", name, cloth0->min);
    PARSED(c, file, line);
    CHECK_INT(c.o.nsets, 2);
    CHECK(c.o.sets[0].param == 0 && c.o.sets[1].param == 0 &&
          c.o.sets[0].scene != c.o.sets[1].scene);
    /* The command line's own conflicts are still refused. */
    REFUSED("fps = 60\n", "--demo --scene pbf", "--demo tours every scene: it takes no --scene");
    REFUSED("scene = pbf\n", "--scene dye --scene cloth", "--scene given twice");
}

/* What the help overlay credits for a colour depth or a glyph set given: the
 * config file or the command line (a detected one names what it detected,
 * probe.c's). */
TEST(config_and_command_line_are_named_as_the_source)
{
    struct cli c;
    PARSED(c, "color = 256\nglyphs = quad\n", "");
    CHECK_MSG(c.o.color_why && strcmp(c.o.color_why, "config file") == 0, "%s", c.o.color_why);
    CHECK(c.o.glyphs_why && strcmp(c.o.glyphs_why, "config file") == 0);
    PARSED(c, "color = 256\nglyphs = quad\n", "--color 16 --glyphs half");
    CHECK(c.o.color_why && strcmp(c.o.color_why, "command line") == 0);
    CHECK(c.o.glyphs_why && strcmp(c.o.glyphs_why, "command line") == 0);
    PARSED(c, "color = 256\n", "--glyphs ascii");
    CHECK(c.o.color_why && strcmp(c.o.color_why, "config file") == 0);
    CHECK(c.o.glyphs_why && strcmp(c.o.glyphs_why, "command line") == 0);
    PARSED(c, "color = 256\n", "--color auto"); /* detected: the probe says why */
    CHECK(c.color_auto);
    /* The help overlay says it. */
    PARSED(c, "color = 256\n", "--glyphs quad");
    struct fx_screen x;
    fx_screen_open(&x, &c.o, 100, 40);
    char lines[APP_HELP_LINES][APP_HELP_COLS];
    int n = app_help(&x.a, NULL, 0, lines, APP_HELP_LINES);
    bool colour = false, glyphs = false;
    for (int i = 0; i < n; i++) {
        colour = colour || (strstr(lines[i], "colour") && strstr(lines[i], "256 (config file)"));
        glyphs = glyphs || (strstr(lines[i], "glyphs") && strstr(lines[i], "quad (command line)"));
    }
    CHECK(colour && glyphs);
    fx_screen_close(&x);
}

TEST(config_no_config_and_runs_that_read_none)
{
    const char *bad = "fps = 60\ncolr = 3\n";
    struct cli c;
    PARSED(c, bad, "--no-config");
    CHECK(c.no_config && !cli_wants_config(&c));
    CHECK_INT(c.o.fps, 30);
    PARSED(c, "fps = 60\n", "--no-config");
    CHECK_INT(c.o.fps, 30);
    /* Headless runs give the same results whatever the config says. */
    PARSED(c, bad, "--headless --steps 3");
    CHECK_INT(c.run, CLI_STATS);
    PARSED(c, "auto\nfps = 60\n", "--headless --record /tmp/swirl-never-written.cast");
    CHECK_INT(c.run, CLI_RECORD);
    CHECK(!c.o.autopilot);
    CHECK_INT(c.o.fps, 30);
    PARSED(c, bad, "--help");
    CHECK_INT(c.run, CLI_HELP);
    PARSED(c, bad, "--set help");
    CHECK_INT(c.run, CLI_SET_HELP);
    PARSED(c, "fps = 60", "");
    CHECK(cli_wants_config(&c));
    CHECK_INT(c.o.fps, 60);
    /* No text: as cli_parse. */
    PARSED(c, NULL, "--fps 9");
    CHECK_INT(c.o.fps, 9);
}

/* --set help's line for a parameter (its value column, trimmed), or "". */
static const char *help_value(const struct buf *out, const char *name, char v[32])
{
    char at[72];
    snprintf(at, sizeof at, "\n  %-22s ", name);
    const char *p = strstr(out->p, at);
    v[0] = 0;
    if (p)
        sscanf(p + strlen(at), "%31s", v);
    return v;
}

TEST(set_help_shows_the_values_for_this_terminal)
{
    struct cli c;
    PARSED(c, NULL, "--scene pbf --set help");
    struct buf out;
    char v[32], want[32];
    /* A 160x50 terminal: the block the pbf scene would start with there. */
    buf_init(&out);
    CHECK_INT(cli_set_help(&c, 160, 50, &out), 0);
    buf_putc(&out, 0);
    const struct scene_ops *s = scenes[scene_find("pbf")];
    struct scene_opts so = {.seed = 1};
    void *at160 = s->create(&so, 160, 2 * 49), *at80 = s->create(&so, 80, 2 * 23);
    int bw = scene_param_find(s, "block-width");
    param_format(&s->params[bw], scene_param_get(s, at160, bw), want, sizeof want);
    CHECK_MSG(strcmp(help_value(&out, "block-width", v), want) == 0,
              "block-width %s, wanted %s:\n%s", v, want, out.p);
    /* (which is not the 80x24 value, or this would prove nothing) */
    CHECK(scene_param_get(s, at160, bw) != scene_param_get(s, at80, bw));
    CHECK(strcmp(help_value(&out, "time-step", v), "0.005") == 0);
    CHECK_MSG(strstr(out.p, "block-width, block-height: sized to this 160x50 terminal\n"),
              "%s", out.p);
    s->destroy(at160);
    s->destroy(at80);
    /* Not known: those say so, the others keep their numbers. */
    buf_clear(&out);
    CHECK_INT(cli_set_help(&c, 0, 0, &out), 0);
    buf_putc(&out, 0);
    CHECK(strcmp(help_value(&out, "block-width", v), "terminal") == 0);
    CHECK(strcmp(help_value(&out, "block-height", v), "terminal") == 0);
    CHECK(strcmp(help_value(&out, "max-iterations", v), "100") == 0);
    CHECK_MSG(strstr(out.p, "\nterminal: sized to the terminal swirl runs in (block-width, "
                            "block-height)\n"), "%s", out.p);
    /* --headless --size names its own. */
    PARSED(c, NULL, "--headless --size 160x50 --scene pbf --set help");
    buf_clear(&out);
    CHECK_INT(cli_set_help(&c, 0, 0, &out), 0);
    buf_putc(&out, 0);
    CHECK_MSG(strstr(out.p, "sized to --size 160x50\n") != NULL, "%s", out.p);
    /* The dye scene has nothing sized to the terminal: no note. */
    PARSED(c, NULL, "--set help");
    buf_clear(&out);
    CHECK_INT(cli_set_help(&c, 0, 0, &out), 0);
    buf_putc(&out, 0);
    CHECK(!strstr(out.p, "terminal") && !strstr(out.p, "sized"));
    buf_free(&out);
}

TEST(set_help_shows_the_values_as_set)
{
    /* Beside other --sets: their values, marked, a set size not "terminal";
     * SCENE:help lists that scene (each asked for, in the table's order). */
    struct cli c;
    PARSED(c, NULL, "--scene cloth --set width=40 --set tearing=on --set dye:viscosity=3 "
                    "--set help");
    struct buf out;
    buf_init(&out);
    CHECK_INT(cli_set_help(&c, 0, 0, &out), 0);
    buf_putc(&out, 0);
    CHECK_MSG(strstr(out.p, "\n  width                  40           2 to 300, whole  *  "
                            "(--set)\n") &&
                  strstr(out.p, "\n  tearing                on           on or off  (--set)\n") &&
                  strstr(out.p, "\n  buckle                 on           on or off\n") &&
                  strstr(out.p, "(height, substeps)\n") && !strstr(out.p, "viscosity"),
              "%s", out.p);
    PARSED(c, NULL, "--set dye:viscosity=3 --set cloth:help --set pbf:help");
    buf_clear(&out);
    CHECK_INT(cli_set_help(&c, 0, 0, &out), 0);
    buf_putc(&out, 0);
    const char *pbf = strstr(out.p, "pbf parameters (--set pbf:NAME=VALUE;"),
               *cloth = strstr(out.p, "\n\ncloth parameters (--set cloth:NAME=VALUE;");
    CHECK_MSG(pbf == out.p && cloth && cloth > pbf && !strstr(out.p, "dye parameters"),
              "%s", out.p);
    buf_free(&out);
}

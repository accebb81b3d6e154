/*
 * test_cli_parse.c — the command line parsed in-process (cli.h): argv in, a
 * struct cli or one line of error out, no ./swirl run. Each option's value and
 * range, repeats, --set's forms, --size's bounds, combinations that would be
 * ignored, -h/-V, ambiguous prefixes and --record paths refused up front.
 * test_cli.c keeps what needs the real binary (exit status, stderr, escaping).
 *
 * A command line is written as one string split at spaces (no quoting);
 * parse_argv() takes the words as given when one must be empty.
 */
#include "cli.h"
#include "fixtures.h"
#include "palette.h"
#include "scene.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARGS_MAX 80

static char err[1024];

static int parse_argv(struct cli *c, int argc, char *const *argv)
{
    memset(err, 'x', sizeof err); /* whatever cli_parse leaves is its own */
    return cli_parse(c, argc, argv, err, sizeof err);
}

/* "swirl" and the words of line, then parsed. */
static int parse(struct cli *c, const char *line)
{
    static char copy[4096];
    char *argv[ARGS_MAX];
    int argc = fx_argv(line, copy, sizeof copy, argv, ARGS_MAX);
    return parse_argv(c, argc, argv);
}

/* Accepted: what it parsed to. */
#define PARSED(c, line)                                                             \
    do {                                                                            \
        int rc_ = parse(&(c), line);                                                \
        CHECK_MSG(rc_ == 0, "'%s' refused: %s", line, err);                         \
    } while (0)

/* Refused with one line that contains `says`. */
static void refused_at(const char *file, int line, const char *args, const char *says)
{
    struct cli c;
    int rc = parse(&c, args);
    if (rc != -1 || !strstr(err, says) || strchr(err, '\n'))
        test_fail(file, line, "'%s': rc %d, '%s' (wanted '%s')", args, rc, rc ? err : "",
                  says);
}
#define REFUSED(args, says) refused_at(__FILE__, __LINE__, args, says)

TEST(cli_parse_defaults_run_the_terminal)
{
    struct cli c;
    PARSED(c, "");
    CHECK_INT(c.run, CLI_TERM);
    CHECK_INT(err[0], 0);
    CHECK_INT(c.o.scene, 0);
    CHECK_INT(c.o.fps, 30);
    CHECK_INT(c.o.tolerance, APP_DEFAULT_TOLERANCE);
    CHECK(c.o.sync && !c.o.autopilot && !c.o.demo && !c.o.preset_seed);
    CHECK_INT(c.o.seed, 1);
    CHECK(c.color_auto && c.glyphs_auto && !c.threads_given);
    CHECK(c.record == NULL);
    CHECK_INT(c.o.nsets, 0);
    CHECK_INT(c.o.grid_w, 0);
}

TEST(cli_parse_every_option_lands_in_its_field)
{
    struct cli c;
    PARSED(c, "--scene cloth --color 256 --glyphs ascii --fps 240 --tolerance 0 --no-sync "
              "--auto --seed 2147483647 --threads 64 --preset seed");
    CHECK_INT(c.run, CLI_TERM);
    CHECK_INT(c.o.scene, scene_find("cloth"));
    CHECK_INT(c.o.color, COLOR_256);
    CHECK(!c.color_auto);
    CHECK_INT(c.o.glyphs, GLYPHS_ASCII);
    CHECK(!c.glyphs_auto);
    CHECK_INT(c.o.fps, 240);
    CHECK_INT(c.o.tolerance, 0);
    CHECK(!c.o.sync && c.o.autopilot && c.o.preset_seed);
    CHECK_INT(c.o.seed, 2147483647);
    CHECK_INT(c.o.threads, 64);
    CHECK(c.threads_given);
    /* The value after '=' too, and the low ends of the ranges. */
    PARSED(c, "--fps=1 --tolerance=255 --seed=0 --threads=1 --grid=4x4 --glyphs=half --demo");
    CHECK_INT(c.o.fps, 1);
    CHECK_INT(c.o.tolerance, 255);
    CHECK_INT(c.o.seed, 0);
    CHECK_INT(c.o.threads, 1);
    CHECK(c.o.grid_w == 4 && c.o.grid_h == 4);
    CHECK_INT(c.o.glyphs, GLYPHS_HALF);
    CHECK(c.o.demo);
    PARSED(c, "--color auto");
    CHECK(c.color_auto);
    PARSED(c, "--color mono --color auto"); /* auto after a mode asks the terminal again */
    CHECK(c.color_auto);
    PARSED(c, "--grid 4000x2000");
    CHECK(c.o.grid_w == 4000 && c.o.grid_h == 2000);
}

TEST(cli_parse_numbers_name_the_option_and_its_range)
{
    REFUSED("--fps 0", "--fps wants a whole number from 1 to 240, not '0'");
    REFUSED("--fps 241", "--fps wants a whole number from 1 to 240");
    REFUSED("--fps 1e9", "not '1e9'");
    REFUSED("--fps 30fps", "not '30fps'");
    REFUSED("--fps=", "--fps wants a whole number from 1 to 240, not ''");
    REFUSED("--fps 99999999999999999999", "--fps wants");
    REFUSED("--tolerance -1", "--tolerance wants a whole number from 0 to 255");
    REFUSED("--tolerance 256", "--tolerance wants a whole number from 0 to 255");
    REFUSED("--seed -1", "--seed wants a whole number from 0 to 2147483647, not '-1'");
    REFUSED("--seed 2147483648", "--seed wants a whole number from 0 to 2147483647");
    REFUSED("--threads 0", "--threads wants a whole number from 1 to 64");
    REFUSED("--threads 65", "--threads wants a whole number from 1 to 64");
    REFUSED("--threads two", "--threads wants a whole number from 1 to 64, not 'two'");
    REFUSED("--headless --steps -1", "--steps wants a whole number from 0 to 100000000");
    REFUSED("--headless --steps 100000001", "--steps wants a whole number from 0 to 100000000");
    REFUSED("--headless --steps 10 --every 0", "--every wants a whole number from 1 to 100000000");
    REFUSED("--headless --seconds -1", "--seconds wants a number from 0 to 86400, not '-1'");
    REFUSED("--headless --seconds 86401", "--seconds wants a number from 0 to 86400");
    REFUSED("--headless --seconds nan", "--seconds wants a number from 0 to 86400, not 'nan'");
    REFUSED("--headless --seconds inf", "--seconds wants a number");
    REFUSED("--headless --seconds 1e999", "--seconds wants a number");
    REFUSED("--headless --seconds 0,5", "not '0,5'");
    REFUSED("--grid 3x4", "--grid: 3x4 is out of range (at least 4x4, at most 4000x2000)");
    REFUSED("--grid 4001x4", "--grid: 4001x4 is out of range");
    REFUSED("--grid 40", "--grid wants WxH (e.g. 120x40), not '40'");
    REFUSED("--grid 40x", "--grid wants WxH");
    REFUSED("--grid x40", "--grid wants WxH");
    REFUSED("--grid 40x40x", "--grid wants WxH");
    char names[256], says[320];
    fx_scenes_joined(names, sizeof names, ", ", " or ");
    snprintf(says, sizeof says, "unknown scene 'nope' (%s)", names); /* "dye, pbf or cloth" */
    REFUSED("--scene nope", says);
    REFUSED("--color rainbow", "unknown colour mode 'rainbow'");
    REFUSED("--glyphs braille",
            "unknown glyph set 'braille' (auto, half, quad, sextant, ascii, pixels, kitty or sixel)");
    REFUSED("--preset page", "unknown preset 'page'");
    struct cli c;
    PARSED(c, "--headless --seconds 0.5 --record /tmp/swirl-never-written.cast");
    CHECK_NEAR(c.seconds, 0.5, 0.0);
    PARSED(c, "--headless --seconds 86400 --record /tmp/swirl-never-written.cast");
    CHECK_NEAR(c.seconds, 86400.0, 0.0);
    PARSED(c, "--headless --steps 100000000 --every 100000000");
    CHECK_INT(c.steps, 100000000);
}

TEST(cli_parse_size_names_its_real_bounds)
{
    REFUSED("--headless --size 4001x100 --steps 1",
            "--size: 4001x100 is out of range (at least 20x6, at most 4000x2000)");
    REFUSED("--headless --size 19x6 --steps 1", "--size: 19x6 is out of range (at least 20x6");
    REFUSED("--headless --size 20x5 --steps 1", "--size: 20x5 is out of range (at least 20x6");
    REFUSED("--headless --size 4000x2001 --steps 1", "at most 4000x2000");
    REFUSED("--headless --size 0x0 --steps 1", "--size: 0x0 is out of range");
    REFUSED("--headless --size 3x --steps 1", "--size wants WxH (e.g. 120x40), not '3x'");
    struct cli c;
    PARSED(c, "--headless --size 20x6 --steps 1");
    CHECK(c.cols == 20 && c.rows == 6);
    PARSED(c, "--headless --size 4000x2000 --steps 1");
    CHECK(c.cols == 4000 && c.rows == 2000);
    PARSED(c, "--headless --steps 1");
    CHECK(c.cols == 80 && c.rows == 24);
}

TEST(cli_parse_repeated_options)
{
    REFUSED("--scene pbf --scene cloth", "--scene given twice");
    REFUSED("--scene pbf --scene pbf", "--scene given twice");
    struct cli c;
    PARSED(c, "--fps 10 --fps 20 --seed 3 --seed 4"); /* the others: the last one counts */
    CHECK_INT(c.o.fps, 20);
    CHECK_INT(c.o.seed, 4);
    char line[2048] = "";
    for (int i = 0; i < APP_SETS_MAX; i++)
        strcat(line, "--set vorticity=1 ");
    PARSED(c, line);
    CHECK_INT(c.o.nsets, APP_SETS_MAX);
    strcat(line, "--set vorticity=1");
    REFUSED(line, "--set given more than 32 times");
}

TEST(cli_parse_set_forms)
{
    struct cli c;
    const struct scene_ops *dye = scenes[0], *cloth = scenes[scene_find("cloth")];
    PARSED(c, "--set viscosity=0.1 --set=vorticity=20 --set shading=off --set dye-decay=5");
    CHECK_INT(c.o.nsets, 4);
    CHECK_INT(c.o.sets[0].param, scene_param_find(dye, "viscosity"));
    CHECK_NEAR(c.o.sets[0].value, 0.1, 1e-12);
    CHECK_INT(c.o.sets[1].param, scene_param_find(dye, "vorticity"));
    CHECK_NEAR(c.o.sets[1].value, 20.0, 0.0);
    CHECK_INT(c.o.sets[2].param, scene_param_find(dye, "shading"));
    CHECK_NEAR(c.o.sets[2].value, 0.0, 0.0);
    CHECK_NEAR(c.o.sets[3].value, 5.0, 0.0);
    /* Resolved against the first scene wherever --scene comes. */
    PARSED(c, "--set fixed-particles=4 --set tearing=on --scene cloth");
    CHECK_INT(c.o.sets[0].param, scene_param_find(cloth, "fixed-particles"));
    CHECK_NEAR(c.o.sets[0].value, 4.0, 0.0);
    CHECK_NEAR(c.o.sets[1].value, 1.0, 0.0);
    PARSED(c, "--scene cloth --set xpbd-compliance=off");
    CHECK_NEAR(c.o.sets[0].value, 0.0, 0.0);
    /* --set help lists the first scene's parameters, headless or not. */
    PARSED(c, "--scene pbf --set help");
    CHECK_INT(c.run, CLI_SET_HELP);
    CHECK_INT(c.o.scene, scene_find("pbf"));
    PARSED(c, "--headless --set help");
    CHECK_INT(c.run, CLI_SET_HELP);
    REFUSED("--set vorticity", "--set wants NAME=VALUE, not 'vorticity'");
    REFUSED("--set =5", "--set wants NAME=VALUE, not '=5'");
    REFUSED("--set an-absurdly-long-parameter-name-that-no-scene-has-or-will-ever-have=1",
            "--set wants NAME=VALUE");
    REFUSED("--set block-width=10", "the dye scene has no parameter 'block-width' "
                                    "(the pbf scene has it: --set pbf:block-width=10)");
    REFUSED("--set bogus=10", "the dye scene has no parameter 'bogus' (--set dye:help lists "
                              "them)");
    REFUSED("--set viscosity=21", "--set viscosity wants 0 to 20, not '21'");
    REFUSED("--set viscosity=", "--set viscosity wants 0 to 20, not ''");
    REFUSED("--set viscosity=0,1", "not '0,1'");
    REFUSED("--scene pbf --set max-iterations=2.5", "--set max-iterations wants 1 to 500, whole");
    REFUSED("--scene cloth --set fixed-particles=3", "fixed-particles wants 1, 2 or 4");
    REFUSED("--scene cloth --set tearing=maybe", "tearing wants on or off");
    REFUSED("--demo --set viscosity=1", "--set does not go with the tour");
    REFUSED("--demo --set cloth:tearing=on", "--set does not go with the tour");
    /* A scene by name: kept for that scene, whichever comes first. */
    PARSED(c, "--set cloth:tearing=on --set viscosity=0.5 --set pbf:gravity=-5");
    CHECK_INT(c.o.nsets, 3);
    CHECK(c.o.sets[0].scene == scene_find("cloth") && c.o.sets[1].scene == 0 &&
          c.o.sets[2].scene == scene_find("pbf"));
    CHECK_INT(c.o.sets[0].param, scene_param_find(cloth, "tearing"));
    CHECK_NEAR(c.o.sets[0].value, 1.0, 0.0);
    CHECK_INT(c.o.sets[2].param, scene_param_find(scenes[scene_find("pbf")], "gravity"));
    REFUSED("--set cloth:viscosity=1", "the cloth scene has no parameter 'viscosity'");
}

/* One --set given as one argument (with its blanks), after args (split at
 * spaces): 0 and *c, or -1 and err. */
static int parse_set(struct cli *c, const char *args, const char *set)
{
    static char copy[1024];
    char *argv[ARGS_MAX];
    int argc = fx_argv(args, copy, sizeof copy, argv, ARGS_MAX - 2);
    argv[argc++] = "--set";
    argv[argc++] = (char *)set;
    return parse_argv(c, argc, argv);
}

TEST(cli_parse_set_takes_names_and_values_as_the_panel_writes_them)
{
    /* The panel's label as it is shown, in any case, blanks around it or
     * not; the value with the unit --set help and the panel show. */
    const struct scene_ops *dye = scenes[scene_find("dye")], *cloth = scenes[scene_find("cloth")];
    static const char *const names[] = {"dye diffusion=1.5", "Dye Diffusion = 1.5",
                                        "  dye   diffusion=1.5 ", "dye-diffusion=1.5"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        struct cli c;
        int rc = parse_set(&c, "--scene dye", names[k]);
        CHECK_MSG(rc == 0, "'%s' refused: %s", names[k], err);
        CHECK_INT(c.o.nsets, 1);
        CHECK_INT(c.o.sets[0].param, scene_param_find(dye, "dye-diffusion"));
        CHECK_NEAR(c.o.sets[0].value, 1.5, 0.0);
    }
    struct cli c;
    CHECK_MSG(parse_set(&c, "--scene cloth", "time step=0.01 s") == 0, "%s", err);
    CHECK_INT(c.o.sets[0].param, scene_param_find(cloth, "time-step"));
    CHECK_NEAR(c.o.sets[0].value, 0.01, 0.0);
    CHECK_MSG(parse_set(&c, "", "cloth:XPBD compliance=1e-6") == 0, "%s", err);
    CHECK_INT(c.o.sets[0].param, scene_param_find(cloth, "xpbd-compliance"));
    CHECK_MSG(parse_set(&c, "", "splat radius=6px") == 0, "%s", err);
    CHECK_NEAR(c.o.sets[0].value, 6.0, 0.0);
    CHECK_MSG(parse_set(&c, "", "Cloth:Tearing=ON") == 0, "%s", err);
    CHECK_INT(c.o.sets[0].scene, scene_find("cloth"));
    CHECK_NEAR(c.o.sets[0].value, 1.0, 0.0);
    /* A unit that is not the parameter's is no unit of it. */
    CHECK(parse_set(&c, "--scene cloth", "time step=0.01 kg") == -1);
}

TEST(cli_parse_set_says_what_was_likely_meant)
{
    /* A name cut short or mistyped: the parameters it was likely meant for,
     * those that take the value given first. */
    REFUSED("--set cloth:tear=on", "the cloth scene has no parameter 'tear' (did you mean "
                                   "tearing?)");
    REFUSED("--set cloth:tear=2", "no parameter 'tear' (did you mean tear-strain?)");
    REFUSED("--set cloth:tear=-3", "no parameter 'tear' (did you mean tearing or tear-strain?)");
    REFUSED("--set vorticty=3", "the dye scene has no parameter 'vorticty' (did you mean "
                                "vorticity?)");
    REFUSED("--scene pbf --set max-iteration=5", "(did you mean max-iterations?)");
    REFUSED("--set dey:viscosity=1", "no scene 'dey' (did you mean dye?)");
    /* A value: the nearest it takes. */
    REFUSED("--set viscosity=21", "--set viscosity wants 0 to 20, not '21' (did you mean 20?)");
    REFUSED("--set viscosity=-1", "(did you mean 0?)");
    REFUSED("--scene cloth --set tearing=of", "tearing wants on or off, not 'of' (did you "
                                              "mean off?)");
    REFUSED("--scene cloth --set tearing=yess", "(did you mean on?)");
    REFUSED("--scene cloth --set fixed-particles=3", "wants 1, 2 or 4, not '3' (did you mean 2?)");
    REFUSED("--scene cloth --set xpbd-compliance=on", "(did you mean off?)");
    REFUSED("--scene pbf --set max-iterations=600", "(did you mean 500?)");
    REFUSED("--scene cloth --set time-step=1", "wants 0.001 to 0.05, not '1' (did you mean 0.05?)");
    REFUSED("--scene cloth --set tearing=2", "--set tearing wants on or off, not '2'");
    /* A name alone: its values. */
    REFUSED("--set vorticity", "--set wants NAME=VALUE, not 'vorticity' (vorticity=0 to 40)");
}

TEST(cli_parse_set_help_beside_other_sets)
{
    /* --set help, and SCENE:help, go with other --sets (each judged as
     * ever), and ask for the lists: the first scene's, and each named. */
    struct cli c;
    PARSED(c, "--set help --set viscosity=1");
    CHECK_INT(c.run, CLI_SET_HELP);
    CHECK_INT(c.set_help, 1u << 0);
    CHECK_INT(c.o.nsets, 1);
    PARSED(c, "--set cloth:help");
    CHECK_INT(c.run, CLI_SET_HELP);
    CHECK_INT(c.set_help, 1u << scene_find("cloth"));
    PARSED(c, "--set cloth:tearing=on --set pbf:help --set HELP");
    CHECK_INT(c.run, CLI_SET_HELP);
    CHECK_INT(c.set_help, 1u << scene_find("pbf") | 1u << 0);
    CHECK_INT(c.o.nsets, 1);
    REFUSED("--set help --set viscosity=99", "--set viscosity wants 0 to 20, not '99'");
    REFUSED("--set dey:help", "no scene 'dey' (did you mean dye?)");
}

TEST(cli_parse_refuses_what_the_run_would_ignore)
{
    REFUSED("--scene pbf --grid 40x40", "--grid is for the dye scene");
    REFUSED("--demo --scene pbf", "--demo tours every scene: it takes no --scene");
    REFUSED("--preset seed", "--preset seed is for pbf and cloth");
    REFUSED("--overwrite", "--overwrite is for --record FILE");
    REFUSED("--headless --steps 10 --fps 60", "--fps is about drawing");
    REFUSED("--headless --steps 10 --color 256", "--color is about drawing");
    REFUSED("--headless --steps 10 --glyphs ascii", "--glyphs is about drawing");
    REFUSED("--headless --steps 10 --tolerance 3", "--tolerance is about drawing");
    REFUSED("--headless --steps 10 --no-sync --fps 60", "--no-sync is about drawing");
    REFUSED("--headless --steps 10 --fp 60", "--fps is about drawing"); /* its real name */
    REFUSED("--headless", "--headless needs --steps N (statistics) or --record FILE");
    REFUSED("--headless --steps 5 --seconds 2", "--seconds is the length of a recording");
    REFUSED("--headless --steps 5 --record /tmp/swirl-never-written.cast",
            "--steps and --every are for statistics");
    REFUSED("--headless --every 5 --record /tmp/swirl-never-written.cast",
            "--steps and --every are for statistics");
    REFUSED("--steps 5", "--steps, --every, --seconds and --size need --headless");
    REFUSED("--every 5", "need --headless");
    REFUSED("--seconds 5", "need --headless");
    REFUSED("--size 80x24", "need --headless");
    REFUSED("--bench", "unknown option '--bench'"); /* the bench is a program of its own */
    struct cli c;
    /* What a headless run fills in for itself. */
    PARSED(c, "--headless --steps 100");
    CHECK_INT(c.run, CLI_STATS);
    CHECK_INT(c.every, 10);
    CHECK_INT(c.o.color, COLOR_TRUE);
    PARSED(c, "--headless --steps 5");
    CHECK_INT(c.every, 1);
    PARSED(c, "--headless --record /tmp/swirl-never-written.cast --color 16");
    CHECK_INT(c.run, CLI_RECORD);
    CHECK_NEAR(c.seconds, 10.0, 0.0);
    CHECK_INT(c.o.color, COLOR_16);
    CHECK(c.record && strcmp(c.record, "/tmp/swirl-never-written.cast") == 0);
    /* A recording of the tour lasts one tour of the table; --seconds still wins. */
    PARSED(c, "--headless --demo --record /tmp/swirl-never-written.cast");
    CHECK_NEAR(c.seconds, SCENE_COUNT * APP_DEMO_SCENE_SECONDS, 0.0);
    PARSED(c, "--headless --demo --seconds 2 --record /tmp/swirl-never-written.cast");
    CHECK_NEAR(c.seconds, 2.0, 0.0);
}

TEST(cli_parse_help_and_version_short_and_long)
{
    struct cli c;
    PARSED(c, "-h");
    CHECK_INT(c.run, CLI_HELP);
    PARSED(c, "--help");
    CHECK_INT(c.run, CLI_HELP);
    PARSED(c, "--hel");
    CHECK_INT(c.run, CLI_HELP);
    REFUSED("--he", "ambiguous option '--he' (could be --headless or --help)");
    PARSED(c, "-V");
    CHECK_INT(c.run, CLI_VERSION);
    PARSED(c, "--version");
    CHECK_INT(c.run, CLI_VERSION);
    REFUSED("-h --fps 30", "-h takes no other options");
    REFUSED("--fps 30 -V", "-V takes no other options");
    REFUSED("--version junk", "--version takes no other options");
    REFUSED("--help --help", "--help takes no other options");
    REFUSED("-v", "unknown option '-v' (did you mean -V?)");
    REFUSED("-H", "unknown option '-H' (did you mean -h?)");
    REFUSED("-hV", "unknown option '-hV'");
    REFUSED("-x", "unknown option '-x'");
    struct buf help;
    buf_init(&help);
    cli_usage(&help);
    buf_putc(&help, 0);
    CHECK(strstr(help.p, "\n  -h, --help  ") != NULL);
    CHECK(strstr(help.p, "\n  -V, --version  ") != NULL);
    CHECK(strstr(help.p, "\n  --overwrite  ") != NULL);
    buf_free(&help);
}

/* --list-scenes (or a prefix of it) runs alone, as --help does. */
TEST(cli_parse_list_scenes_takes_no_other_options)
{
    struct cli c;
    PARSED(c, "--list-scenes");
    CHECK_INT(c.run, CLI_LIST_SCENES);
    PARSED(c, "--list");
    CHECK_INT(c.run, CLI_LIST_SCENES);
    REFUSED("--list-scenes --fps 30", "--list-scenes takes no other options");
    REFUSED("--scene dye --list-scenes", "--list-scenes takes no other options");
    REFUSED("--list-scenes=dye", "unknown option '--list-scenes=dye'");
}

/* A mistyped option gets the nearest one, as git and cargo suggest: a letter
 * dropped, added, changed or two swapped; a third of the name off at most. */
TEST(cli_parse_suggests_the_nearest_option)
{
    REFUSED("--colr 256", "unknown option '--colr' (did you mean --color?)");
    REFUSED("--colour=256", "unknown option '--colour=256' (did you mean --color?)");
    REFUSED("--fsp 3", "unknown option '--fsp' (did you mean --fps?)");
    REFUSED("--hepl", "unknown option '--hepl' (did you mean --help?)");
    REFUSED("--screensavr", "unknown option '--screensavr' (did you mean --screensaver?)");
    REFUSED("--tolerence 3", "(did you mean --tolerance?)");
    REFUSED("--no-stauts", "(did you mean --no-status?)");
    REFUSED("-color 256", "unknown option '-color' (did you mean --color?)");
    REFUSED("--seeds 3", "(did you mean --seed?)");
    REFUSED("--sede 3", "(did you mean --seed?)"); /* --seed and --set as near: the first */
    REFUSED("--cloth", "unknown option '--cloth' (see --help)");
    REFUSED("--xyzzy", "unknown option '--xyzzy' (see --help)");
    REFUSED("--recordlimit 1M", "(did you mean --record-limit?)");
}

TEST(cli_parse_prefixes_unknown_and_ambiguous_options)
{
    REFUSED("--s", "ambiguous option '--s' (could be --scene, --screensaver, --seed, --set, "
                   "--size, --steps or --seconds)");
    REFUSED("--sc pbf", "ambiguous option '--sc' (could be --scene or --screensaver)");
    REFUSED("--no", "ambiguous option '--no' (could be --no-sync, --no-status or --no-config)");
    REFUSED("--se 1", "ambiguous option '--se' (could be --seed, --set or --seconds)");
    REFUSED("--s=3", "ambiguous option '--s' (could be");
    REFUSED("--bogus", "unknown option '--bogus' (see --help)");
    REFUSED("-q", "unknown option '-q' (see --help)");
    REFUSED("--bogus=3", "unknown option '--bogus=3'");
    REFUSED("--auto=1", "unknown option '--auto=1'");
    REFUSED("--=1", "unknown option '--=1'");
    REFUSED("--fps", "--fps needs a value");
    REFUSED("--auto --se", "ambiguous option '--se'");
    REFUSED("foo", "unexpected argument 'foo' (see --help)");
    REFUSED("--auto foo --fps 30", "unexpected argument 'foo'");
    REFUSED("-- --auto", "unexpected argument '--auto'");
    REFUSED("-", "unexpected argument '-'");
    struct cli c;
    PARSED(c, "--sce pbf --thr 3 --ov --record /tmp/swirl-never-written.cast");
    CHECK_INT(c.o.scene, scene_find("pbf"));
    CHECK_INT(c.o.threads, 3);
    PARSED(c, "--set viscosity=1"); /* a whole name is never ambiguous */
    CHECK_INT(c.o.nsets, 1);
    PARSED(c, "--auto --");
    CHECK(c.o.autopilot);
    /* A value is the next argument, whatever it looks like. */
    REFUSED("--seed -1", "--seed wants");
    REFUSED("--seed --auto", "--seed wants a whole number from 0 to 2147483647, not '--auto'");
    REFUSED("--scene -h", "unknown scene '-h'");
    /* argv is read, never reordered. */
    char *argv[] = {"swirl", "--fps", "30", "stray", "--auto"};
    char *copy[5];
    memcpy(copy, argv, sizeof argv);
    CHECK_INT(parse_argv(&c, 5, argv), -1);
    CHECK(memcmp(copy, argv, sizeof argv) == 0);
}

/* A fresh folder under /tmp for this test's files. */
static void temp_dir(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/swirl-cli-parse-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
}

TEST(cli_parse_record_paths_refused_up_front)
{
    char dir[64], path[128];
    struct cli c;
    temp_dir(dir, sizeof dir);
    char empty[] = "", headless[] = "--headless", rec[] = "--record";
    char *term_empty[] = {"swirl", rec, empty};
    CHECK_INT(parse_argv(&c, 3, term_empty), -1);
    CHECK_MSG(strstr(err, "--record: the file name is empty") != NULL, "%s", err);
    char *head_empty[] = {"swirl", headless, rec, empty};
    CHECK_INT(parse_argv(&c, 4, head_empty), -1);
    CHECK_MSG(strstr(err, "--record: the file name is empty") != NULL, "%s", err);
    REFUSED("--record=", "the file name is empty");
    /* Names in dir: ending in '/' (an existing folder or not), a folder, a file
     * in a folder that does not exist; recorded headless or in the terminal. */
    static const struct {
        const char *run, *name, *says;
    } in_dir[] = {
        {"--headless", "/newdir/", "newdir/ ends in '/': that names a folder, not a file"},
        {"", "/newdir/", "ends in '/'"},
        {"--headless", "/", "is a directory"},
        {"", "", "is a directory"},
        {"--headless", "/newdir/x.cast", "cannot write in"},
        {"", "/newdir/x.cast", "newdir: No such file or directory"},
    };
    for (size_t k = 0; k < sizeof in_dir / sizeof in_dir[0]; k++) {
        snprintf(path, sizeof path, "%s --record %s%s", in_dir[k].run, dir, in_dir[k].name);
        REFUSED(path, in_dir[k].says);
    }
    /* An existing file only with --overwrite; nothing is created meanwhile. */
    snprintf(path, sizeof path, "%s/keep.cast", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    char line[256];
    snprintf(line, sizeof line, "--headless --record %s", path);
    REFUSED(line, "keep.cast exists (--overwrite replaces it)");
    snprintf(line, sizeof line, "--headless --record %s --overwrite", path);
    PARSED(c, line);
    CHECK_INT(c.run, CLI_RECORD);
    snprintf(line, sizeof line, "--headless --record %s/new.cast", dir);
    PARSED(c, line);
    snprintf(path, sizeof path, "%s/new.cast", dir);
    CHECK_MSG(access(path, F_OK) != 0, "the parse created %s", path);
    snprintf(path, sizeof path, "%s/keep.cast", dir);
    remove(path);
    rmdir(dir);
}

/* --record-limit lands in the app's options in bytes, is for --record alone and
 * wants 0 or a size a recording's header fits in; --overwrite reaches the app
 * (the recorder's rule for a file that appeared meanwhile). */
TEST(cli_parse_record_limit_and_overwrite_reach_the_app)
{
    struct cli c;
    PARSED(c, "--record /tmp/swirl-limit.cast --record-limit 1M");
    CHECK_INT(c.o.record_limit, 1 << 20);
    CHECK(!c.o.overwrite);
    PARSED(c, "--record /tmp/swirl-limit.cast --record-limit 0 --overwrite");
    CHECK_INT(c.o.record_limit, 0);
    CHECK(c.o.overwrite);
    PARSED(c, "--record /tmp/swirl-limit.cast");
    CHECK_INT(c.o.record_limit, APP_RECORD_LIMIT);
    REFUSED("--record-limit 1M", "--record-limit is for --record FILE");
    REFUSED("--record /tmp/swirl-limit.cast --record-limit 1K", "at least 4K");
    REFUSED("--record /tmp/swirl-limit.cast --record-limit lots", "not 'lots'");
}

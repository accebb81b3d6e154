/*
 * cli_complete.c — bash, zsh and fish completion scripts for swirl, written
 * from the option table that --help and the parser use (cli_options.h), so a
 * shell completes exactly the options --help lists. Each option completes by
 * its long name (and -h, -V); a value from its list of choices, a file name for
 * --record, nothing for a number. The description a shell shows beside an
 * option is the first line of its --help up to " (" or ";".
 */
#include "cli.h"
#include "cli_options.h"

#include <stdio.h>
#include <string.h>

/* The completions' description of o, into d. */
static void describe(const struct cli_option *o, char *d, size_t n)
{
    struct buf help;
    buf_init(&help);
    cli_text(&help, o->help);
    buf_putc(&help, 0);
    size_t len = strcspn(help.p, "\n;");
    const char *paren = strstr(help.p, " (");
    if (paren && (size_t)(paren - help.p) < len)
        len = (size_t)(paren - help.p);
    if (len >= n)
        len = n - 1;
    memcpy(d, help.p, len);
    d[len] = 0;
    buf_free(&help);
}

/* o's choices with the scene table's words in them, into c. */
static void choices(const struct cli_option *o, char *c, size_t n)
{
    struct buf t;
    buf_init(&t);
    cli_text(&t, o->choices);
    snprintf(c, n, "%.*s", (int)t.len, t.p);
    buf_free(&t);
}

/* s inside a single-quoted shell word: ' closes the word, \' (or, for zsh and
 * bash, '\'') puts one in; fish also reads \\ there. Characters listed in
 * also get a backslash (zsh's specifications). */
static void put_quoted(struct buf *out, const char *s, bool fish, const char *also)
{
    for (; *s; s++) {
        if (*s == '\'')
            buf_puts(out, fish ? "\\'" : "'\\''");
        else if (fish && *s == '\\')
            buf_puts(out, "\\\\");
        else if (!fish && strchr(also, *s))
            buf_putc(out, '\\'), buf_putc(out, *s);
        else
            buf_putc(out, *s);
    }
}

static void bash_names(struct buf *out, bool with_value, bool file, bool values_any)
{
    const char *sep = "";
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        if ((o->value != NULL) != with_value || o->file != file ||
            (values_any && o->choices))
            continue;
        buf_printf(out, "%s--%s", sep, o->name);
        sep = "|";
    }
}

static void bash(struct buf *out)
{
    buf_puts(out, "# bash completion for swirl, written from the option table --help prints\n"
                  "_swirl()\n{\n"
                  "    local cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
                  "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
                  "    # --name=value comes in three words, bash breaking them at '='\n"
                  "    if [[ $cur == = ]]; then\n"
                  "        cur=\n"
                  "    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
                  "        prev=${COMP_WORDS[COMP_CWORD - 2]}\n"
                  "    fi\n"
                  "    case $prev in\n");
    for (int i = 0; i < OPT_COUNT; i++)
        if (cli_options[i].choices) {
            char c[256];
            choices(&cli_options[i], c, sizeof c);
            buf_printf(out, "    --%s) mapfile -t COMPREPLY < <(compgen -W '%s' -- \"$cur\"); "
                            "return ;;\n", cli_options[i].name, c);
        }
    buf_puts(out, "    ");
    bash_names(out, true, true, false);
    buf_puts(out, ")\n        compopt -o filenames 2>/dev/null\n"
                  "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
                  "        return ;;\n    ");
    bash_names(out, true, false, true);
    buf_puts(out, ") COMPREPLY=(); return ;; # a number or a size: nothing to offer\n"
                  "    esac\n"
                  "    mapfile -t COMPREPLY < <(compgen -W '");
    for (int i = 0; i < OPT_COUNT; i++) {
        if (cli_options[i].letter)
            buf_printf(out, "-%c ", cli_options[i].letter);
        buf_printf(out, "--%s%s", cli_options[i].name, i + 1 < OPT_COUNT ? " " : "");
    }
    buf_puts(out, "' -- \"$cur\")\n}\ncomplete -F _swirl swirl\n");
}

static void zsh(struct buf *out)
{
    buf_puts(out, "#compdef swirl\n"
                  "# zsh completion for swirl, written from the option table --help prints\n"
                  "_arguments -S");
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        char d[128];
        describe(o, d, sizeof d);
        for (int form = o->letter ? 0 : 1; form < 2; form++) {
            buf_puts(out, " \\\n    '");
            if (i == OPT_HELP || i == OPT_VERSION || i == OPT_LIST_SCENES)
                buf_puts(out, "(- *)"); /* -h, -V, --list-scenes: nothing else goes with them */
            if (form == 0)
                buf_printf(out, "-%c", o->letter);
            else
                buf_printf(out, "--%s%s", o->name, o->value ? "=" : "");
            buf_putc(out, '[');
            put_quoted(out, d, false, "[]\\");
            buf_putc(out, ']');
            if (o->value) {
                buf_putc(out, ':');
                put_quoted(out, o->value, false, ":\\");
                buf_putc(out, ':');
                if (o->choices) {
                    char c[256];
                    choices(o, c, sizeof c);
                    buf_printf(out, "(%s)", c);
                }
                else if (o->file)
                    buf_puts(out, "_files");
                else
                    buf_putc(out, ' '); /* any value: no action */
            }
            buf_putc(out, '\'');
        }
    }
    buf_putc(out, '\n');
}

static void fish(struct buf *out)
{
    buf_puts(out, "# fish completion for swirl, written from the option table --help prints\n"
                  "complete -c swirl -f\n");
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        char d[128];
        describe(o, d, sizeof d);
        buf_puts(out, "complete -c swirl");
        if (o->letter)
            buf_printf(out, " -s %c", o->letter);
        buf_printf(out, " -l %s", o->name);
        if (o->value)
            buf_puts(out, o->file ? " -r -F" : " -x");
        if (o->choices) {
            char c[256];
            choices(o, c, sizeof c);
            buf_printf(out, " -a '%s'", c);
        }
        buf_puts(out, " -d '");
        put_quoted(out, d, true, "");
        buf_puts(out, "'\n");
    }
}

int cli_completion(const char *shell, struct buf *out)
{
    if (strcmp(shell, "bash") == 0)
        bash(out);
    else if (strcmp(shell, "zsh") == 0)
        zsh(out);
    else if (strcmp(shell, "fish") == 0)
        fish(out);
    else
        return -1;
    return 0;
}

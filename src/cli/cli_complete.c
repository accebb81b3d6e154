/*
 * cli_complete.c — bash, zsh and fish completion scripts for swirl, written
 * from the option table that --help and the parser use (cli_options.h), so a
 * shell completes exactly the options --help lists. Each option completes by
 * its long name (and -h, -V); a value from its list of choices, a file name for
 * --record, nothing for a number; --set its words from the scene table: help,
 * SCENE:help, and each parameter's NAME= (the first scene's, as --scene
 * says on the line) and SCENE:NAME= (every scene's). The description a shell
 * shows beside an option is its whole --help text, its lines joined.
 */
#include "cli.h"
#include "cli_options.h"

#include "param.h"
#include "scene.h"

#include <stdio.h>
#include <string.h>

#define DESC_MAX 512 /* an option's description, at most */

/* The completions' description of o, into d: its --help text whole, its
 * lines joined by one blank. */
static void describe(const struct cli_option *o, char *d, size_t n)
{
    struct buf help;
    buf_init(&help);
    cli_text(&help, o->help);
    size_t k = 0;
    for (size_t i = 0; i < help.len && k + 1 < n; i++) {
        char ch = help.p[i] == '\n' ? ' ' : help.p[i];
        if (ch != ' ' || (k > 0 && d[k - 1] != ' '))
            d[k++] = ch;
    }
    while (k > 0 && d[k - 1] == ' ')
        k--;
    d[k] = 0;
    buf_free(&help);
}

/* Each parameter name of scene i, as --set takes it, into out: before each
 * name pre (a scene's "dye:", or ""), after it post, between two sep. */
static void param_words(struct buf *out, int i, const char *pre, const char *post,
                        const char *sep)
{
    for (int k = 0; k < scenes[i]->nparams; k++) {
        char name[64];
        param_name(&scenes[i]->params[k], name, sizeof name);
        buf_printf(out, "%s%s%s%s", k ? sep : "", pre, name, post);
    }
}

/* Every scene's parameters as SCENE:NAME= with post after each, sep between. */
static void scene_param_words(struct buf *out, const char *post, const char *sep)
{
    for (int i = 0; i < SCENE_COUNT; i++) {
        char pre[40];
        snprintf(pre, sizeof pre, "%s:", scenes[i]->name);
        buf_puts(out, i ? sep : "");
        param_words(out, i, pre, post, sep);
    }
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

/* bash's _swirl_set: --set's words for the word being typed as the line has
 * it (bash breaks words at ':' and '=', and replaces only what follows the
 * last of them, so that part alone is offered). */
static void bash_set(struct buf *out)
{
    buf_puts(out, "# The parameter names of a scene, as --set takes them.\n"
                  "_swirl_params()\n{\n    case $1 in\n");
    for (int i = 0; i < SCENE_COUNT; i++) {
        buf_printf(out, "    %s) echo '", scenes[i]->name);
        param_words(out, i, "", "", " ");
        buf_puts(out, "' ;;\n");
    }
    buf_puts(out, "    esac\n}\n"
                  "# --set's words: help, SCENE:help, NAME= of the first scene (--scene on the\n"
                  "# line, else the first of the table) and SCENE:NAME= of each.\n"
                  "_swirl_set()\n{\n"
                  "    local word=${1#--set=} line=\" ${COMP_LINE:0:COMP_POINT} \" first=");
    buf_puts(out, scenes[0]->name);
    buf_puts(out, " s p words=help\n"
                  "    [[ $line =~ [[:space:]]--scene[=[:space:]]+([^[:space:]]+) ]] && "
                  "first=${BASH_REMATCH[1]}\n"
                  "    for s in");
    for (int i = 0; i < SCENE_COUNT; i++)
        buf_printf(out, " %s", scenes[i]->name);
    buf_puts(out, "; do\n"
                  "        words+=\" $s:help\"\n"
                  "        for p in $(_swirl_params \"$s\"); do words+=\" $s:$p=\"; done\n"
                  "    done\n"
                  "    for p in $(_swirl_params \"$first\"); do words+=\" $p=\"; done\n"
                  "    mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$word\")\n"
                  "    local keep=${word%\"${word##*[:=]}\"}\n"
                  "    COMPREPLY=(\"${COMPREPLY[@]#\"$keep\"}\")\n"
                  "    if [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]]; then\n"
                  "        compopt -o nospace 2>/dev/null # the value goes on at once\n"
                  "    fi\n"
                  "    return 0\n"
                  "}\n");
}

static void bash(struct buf *out)
{
    buf_puts(out, "# bash completion for swirl, written from the option table --help prints\n");
    bash_set(out);
    buf_puts(out, "_swirl()\n{\n"
                  "    # --set's value, as the line has it (bash breaks it at ':' and '=')\n"
                  "    local typed=\"${COMP_LINE:0:COMP_POINT}\" word before\n"
                  "    word=${typed##*[[:space:]]}\n"
                  "    before=${typed%\"$word\"}\n"
                  "    before=${before%\"${before##*[![:space:]]}\"}\n"
                  "    if [[ ${before##*[[:space:]]} == --set || $word == --set=* ]]; then\n"
                  "        _swirl_set \"$word\"\n"
                  "        return\n"
                  "    fi\n"
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
        if (cli_options[i].choices && i != OPT_SET) {
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

/* zsh's _swirl_set: --set's words (as bash's), "NAME=" without a space after. */
static void zsh_set(struct buf *out)
{
    buf_puts(out, "# --set's words: help, SCENE:help, NAME= of the first scene (--scene on the\n"
                  "# line, else the first of the table) and SCENE:NAME= of each.\n"
                  "_swirl_set() {\n"
                  "    local first=");
    buf_puts(out, scenes[0]->name);
    buf_puts(out, " i=${words[(I)--scene]}\n"
                  "    (( i )) && first=${words[i+1]}\n"
                  "    i=${words[(I)--scene=*]}\n"
                  "    (( i )) && first=${words[i]#--scene=}\n"
                  "    local -a names\n"
                  "    case $first in\n");
    for (int i = 0; i < SCENE_COUNT; i++) {
        buf_printf(out, "    %s) names=(", scenes[i]->name);
        param_words(out, i, "", "=", " ");
        buf_puts(out, ") ;;\n");
    }
    buf_puts(out, "    esac\n    names+=(");
    scene_param_words(out, "=", " ");
    buf_puts(out, ")\n    compadd -S '' -- $names\n    compadd -- help");
    for (int i = 0; i < SCENE_COUNT; i++)
        buf_printf(out, " %s:help", scenes[i]->name);
    buf_puts(out, "\n}\n");
}

static void zsh(struct buf *out)
{
    buf_puts(out, "#compdef swirl\n"
                  "# zsh completion for swirl, written from the option table --help prints\n");
    zsh_set(out);
    buf_puts(out, "_arguments -S");
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        char d[DESC_MAX];
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
                if (i == OPT_SET)
                    buf_puts(out, "_swirl_set");
                else if (o->choices) {
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

/* fish's __swirl_set: --set's words (as bash's), each with its values (its
 * range, as --set help writes it) for a description. */
static void fish_set(struct buf *out)
{
    buf_puts(out, "# --set's words: help, SCENE:help, NAME= of the first scene (--scene on the\n"
                  "# line, else the first of the table) and SCENE:NAME= of each.\n"
                  "function __swirl_set\n"
                  "    set -l first ");
    buf_puts(out, scenes[0]->name);
    buf_puts(out, "\n    set -l toks (commandline -opc)\n"
                  "    for i in (seq (count $toks))\n"
                  "        switch $toks[$i]\n"
                  "            case --scene\n"
                  "                set -q toks[(math $i + 1)]; and set first $toks[(math $i + 1)]\n"
                  "            case '--scene=*'\n"
                  "                set first (string replace -- --scene= '' $toks[$i])\n"
                  "        end\n"
                  "    end\n"
                  "    printf 'help\\tthe parameters of the first scene, as set\\n'\n");
    for (int i = 0; i < SCENE_COUNT; i++)
        buf_printf(out, "    printf '%s:help\\tthe parameters of %s, as set\\n'\n",
                   scenes[i]->name, scenes[i]->name);
    buf_puts(out, "    switch $first\n");
    for (int i = 0; i < SCENE_COUNT; i++) {
        buf_printf(out, "        case %s\n", scenes[i]->name);
        for (int k = 0; k < scenes[i]->nparams; k++) {
            char name[64], range[64];
            param_name(&scenes[i]->params[k], name, sizeof name);
            param_range(&scenes[i]->params[k], range, sizeof range);
            buf_printf(out, "            printf '%%s=\\t%%s\\n' %s '", name);
            put_quoted(out, range, true, "");
            buf_puts(out, "'\n");
        }
    }
    buf_puts(out, "    end\n");
    for (int i = 0; i < SCENE_COUNT; i++)
        for (int k = 0; k < scenes[i]->nparams; k++) {
            char name[64], range[64];
            param_name(&scenes[i]->params[k], name, sizeof name);
            param_range(&scenes[i]->params[k], range, sizeof range);
            buf_printf(out, "    printf '%%s=\\t%%s\\n' %s:%s '", scenes[i]->name, name);
            put_quoted(out, range, true, "");
            buf_puts(out, "'\n");
        }
    buf_puts(out, "end\n");
}

static void fish(struct buf *out)
{
    buf_puts(out, "# fish completion for swirl, written from the option table --help prints\n"
                  "complete -c swirl -f\n");
    fish_set(out);
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        char d[DESC_MAX];
        describe(o, d, sizeof d);
        buf_puts(out, "complete -c swirl");
        if (o->letter)
            buf_printf(out, " -s %c", o->letter);
        buf_printf(out, " -l %s", o->name);
        if (o->value)
            buf_puts(out, o->file ? " -r -F" : " -x");
        if (i == OPT_SET)
            buf_puts(out, " -a '(__swirl_set)'");
        else if (o->choices) {
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

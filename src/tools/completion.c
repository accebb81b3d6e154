/*
 * completion.c — swirl-completion SHELL, the build's program that writes the
 * completion script of bash, zsh or fish for swirl to stdout (cli_completion,
 * from the option table --help prints). make builds the three scripts with it
 * and make install puts them where each shell looks; it is never installed.
 */
#include "buf.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    struct buf out;
    buf_init(&out);
    if (argc != 2 || cli_completion(argv[1], &out) != 0) {
        fputs("usage: swirl-completion bash|zsh|fish\n", stderr);
        buf_free(&out);
        return 2;
    }
    size_t n = fwrite(out.p, 1, out.len, stdout);
    bool ok = n == out.len && fflush(stdout) == 0;
    buf_free(&out);
    return ok ? 0 : 1;
}

/*
 * config.h — finding the config file and reading its bytes; what they say is
 * cli.h's (cli_parse_config).
 *
 * The file is $XDG_CONFIG_HOME/swirl/config, or ~/.config/swirl/config when
 * XDG_CONFIG_HOME is unset, empty or not an absolute path (the XDG base
 * directory rules). Messages name it with ~ for the home folder, as the user
 * would type it. Only a regular file is read: a folder, a FIFO, a device or a
 * socket at the path is refused, and none of them is ever opened in a way that
 * could wait (a FIFO with no writer would block swirl before it has the
 * terminal, where q cannot end it).
 */
#ifndef SWIRL_CONFIG_H
#define SWIRL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define CONFIG_MAX (64 * 1024) /* bytes: a config file is a few lines */

/* Where the config file is, from the values of XDG_CONFIG_HOME and HOME (each
 * NULL when unset): its path, and its name for messages (shown). False when
 * there is no home to look in, or the path does not fit np. */
bool config_path(const char *xdg, const char *home, char *path, size_t np, char *shown,
                 size_t ns);

/* Reads the file at path into text[0..cap) (at most cap bytes, NUL bytes and
 * all; *len of them). Returns 1 when there is no file there, 0 when read, -1
 * with one line in err (shown and the reason: not a regular file, longer than
 * cap bytes, the system's word) when it cannot be read whole. Never blocks. */
int config_read(const char *path, const char *shown, char *text, size_t cap, size_t *len,
                char *err, size_t n);

#endif

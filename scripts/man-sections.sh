#!/usr/bin/env bash
# Writes help2man's include file for kalah.1: a COMMANDS section holding every subcommand's
# --help, so the man page documents every option (tools/cli/CMakeLists.txt runs this).
# usage: man-sections.sh KALAH_EXECUTABLE OUTPUT
set -euo pipefail
kalah=$1 out=$2
{
  echo "[COMMANDS]"
  # Every command 'kalah help' lists, so that none is left out of the page.
  for command in $("$kalah" help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
    echo ".SS kalah $command"
    echo ".nf"
    # roff: backslashes doubled, and a line starting with . or ' protected by \&
    "$kalah" "$command" --help | sed -e 's/\\/\\\\/g' -e "s/^\([.']\)/\\\\\&\1/"
    echo ".fi"
  done
  echo "[ENVIRONMENT]"
  echo ".TP"
  echo ".B KALAH_DB"
  echo "the database directory when --db is not given (default: \$XDG_CACHE_HOME/kalah/db, or"
  echo "~/.cache/kalah/db)"
} >"$out"

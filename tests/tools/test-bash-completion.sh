#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The bash completion of hbase-glib (tools/completions/hbase-glib, made by
# tools/bash-completion.sh): sourced into bash, with the words of a command
# line in COMP_WORDS as bash gives them, it completes every command name
# (`hbase-glib help --commands`) and every option each command's --help
# shows.  Needs no server.
. "$top_srcdir/tests/support/tap.sh"
cli=$top_builddir/tools/hbase-glib
completion=$top_builddir/tools/completions/hbase-glib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# complete WORD...: the completions bash offers for the last word of the
# command line WORD... (already split as bash splits it), one a line
complete_words() {
  bash --norc --noprofile -c '
    . "$1" || exit 1
    shift
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    _hbase_glib hbase-glib "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"' bash "$completion" "$@"
}
# offers WANTED WORD...: whether completing WORD... offers WANTED
offers() {
  local wanted=$1; shift
  complete_words "$@" | grep -qxF -- "$wanted"
}

commands=$("$cli" help --commands)
tap_plan 9

if "$cli" --list-commands >"$tmp/table" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
  tap_ok "hbase-glib --list-commands prints the table of every command"
else
  tap_not_ok "hbase-glib --list-commands prints the table of every command"
  sed 's/^/# /' "$tmp/err"
fi

if [ "$(sed -n '2,$s/ .*//p' "$tmp/table")" = "$commands" ] && [ -n "$commands" ]; then
  tap_ok "the table names the commands help --commands names, in order"
else
  tap_not_ok "the table names the commands help --commands names, in order"
fi

missing=
for c in $commands; do
  offers "$c" hbase-glib "${c:0:2}" || missing+=" $c"
done
if [ -z "$missing" ]; then tap_ok "every command completes from its first two letters"
else tap_not_ok "every command completes from its first two letters"; echo "# missing:$missing"; fi

missing=
for c in $commands; do
  offers "$c" hbase-glib --gateways = localhost : 9090 --timeout 500 -v "$c" || missing+=" $c"
done
if [ -z "$missing" ]; then tap_ok "commands complete after connection options and their values"
else tap_not_ok "commands complete after connection options and their values"; echo "# missing:$missing"; fi

missing=
for c in $commands; do
  # the options --help shows: "  -c, --column=..." or "  --limit=N"
  for option in $("$cli" "$c" --help | grep -oE '^  (-[[:alnum:]], )?--[[:alnum:]-]+' | grep -oE -- '--[[:alnum:]-]+$'); do
    offers "$option" hbase-glib "$c" -- || missing+=" $c:$option"
  done
done
if [ -z "$missing" ]; then tap_ok "every option of every command's --help completes after the command"
else tap_not_ok "every option of every command's --help completes after the command"; echo "# missing:$missing"; fi

if offers --version hbase-glib --ver && ! offers --format hbase-glib --f; then
  tap_ok "before the command, only the options of hbase-glib itself complete"
else
  tap_not_ok "before the command, only the options of hbase-glib itself complete"
fi

if offers scan hbase-glib help sc && [ -z "$(complete_words hbase-glib scan sc)" ]; then
  tap_ok "command names complete after help, not after other commands"
else
  tap_not_ok "command names complete after help, not after other commands"
fi

touch "$tmp/settings.conf"
if offers "$tmp/settings.conf" hbase-glib get --config "$tmp/sett" &&
   offers "$tmp/settings.conf" hbase-glib --config = "$tmp/sett"; then
  tap_ok "--config completes file names (--config FILE and --config=FILE)"
else
  tap_not_ok "--config completes file names (--config FILE and --config=FILE)"
fi

if [ -z "$(complete_words hbase-glib scan --limit '')" ] &&
   [ -z "$(complete_words hbase-glib scan t --prefix = '')" ]; then
  tap_ok "no completion is offered for an option's value"
else
  tap_not_ok "no completion is offered for an option's value"
fi
exit $tap_failed

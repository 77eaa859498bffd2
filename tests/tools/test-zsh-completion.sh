#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The zsh completion of hbase-glib (tools/completions/_hbase-glib, made by
# tools/zsh-completion.sh), run in zsh with the words of a command line in
# $words as zsh gives them: compadd, _files and _message are stand-ins
# that print what the completion offers, one a line ("FILES" for file
# names, "VALUE" for a value with no completion).  Needs no server.
. "$top_srcdir/tests/support/tap.sh"
cli=$top_builddir/tools/hbase-glib
completion=$top_builddir/tools/completions/_hbase-glib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v zsh >/dev/null; then
  tap_plan 1
  tap_skip "the zsh completion" "zsh is not installed (scripts/install-deps.sh installs it)"
  exit 0
fi

# complete WORD...: what the completion offers for the last word
complete_words() {
  zsh -f -c '
    compadd () { while [[ $1 != -- ]]; do shift; done; shift; print -rl -- ${(M)@:#${PREFIX}*}; }
    _files () { print -r -- FILES; }
    _message () { print -r -- VALUE; }
    compset () { PREFIX=${PREFIX#*=}; }
    completion=$1
    shift
    words=("$@")
    CURRENT=$#
    PREFIX=${words[CURRENT]}
    source $completion' zsh "$completion" "$@"
}
offers() {
  local wanted=$1; shift
  complete_words "$@" | grep -qxF -- "$wanted"
}

commands=$("$cli" help --commands)
tap_plan 8

if complete_words hbase-glib '' >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && [ -s "$tmp/out" ]; then
  tap_ok "_hbase-glib loads in zsh"
else
  tap_not_ok "_hbase-glib loads in zsh"; sed 's/^/# /' "$tmp/err"
fi
head -n 1 "$completion" | grep -qx '#compdef hbase-glib' && tap_ok "_hbase-glib is a #compdef file" ||
  tap_not_ok "_hbase-glib is a #compdef file"
# compinit finds it in $fpath (as in zsh/vendor-completions) and binds it
registered=$(zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -d "$2"; print -r -- ${_comps[hbase-glib]}' \
  zsh "$(dirname "$completion")" "$tmp/zcompdump" 2>&1)
[ "$registered" = _hbase-glib ] && tap_ok "compinit binds _hbase-glib to hbase-glib" ||
  { tap_not_ok "compinit binds _hbase-glib to hbase-glib"; echo "# $registered"; }

missing=
for c in $commands; do
  offers "$c" hbase-glib "${c:0:2}" || missing+=" $c"
done
if [ -z "$missing" ]; then tap_ok "every command completes from its first two letters"
else tap_not_ok "every command completes from its first two letters"; echo "# missing:$missing"; fi

missing=
for c in $commands; do
  for option in $("$cli" "$c" --help | grep -oE '^  (-[[:alnum:]], )?--[[:alnum:]-]+' | grep -oE -- '--[[:alnum:]-]+$'); do
    offers "$option" hbase-glib --timeout 500 "$c" -- || missing+=" $c:$option"
  done
  offers --gateways hbase-glib "$c" --ga || missing+=" $c:--gateways"
done
if [ -z "$missing" ]; then tap_ok "every option of every command (and the connection options) completes after it"
else tap_not_ok "every option of every command (and the connection options) completes after it"; echo "# missing:$missing"; fi

if offers --version hbase-glib --ver && ! offers --format hbase-glib --f; then
  tap_ok "before the command, only the options of hbase-glib itself complete"
else tap_not_ok "before the command, only the options of hbase-glib itself complete"; fi

if offers scan hbase-glib help sc && [ -z "$(complete_words hbase-glib scan sc)" ]; then
  tap_ok "command names complete after help, not after other commands"
else tap_not_ok "command names complete after help, not after other commands"; fi

if [ "$(complete_words hbase-glib get --config sett)" = FILES ] &&
   [ "$(complete_words hbase-glib --config=sett)" = FILES ] &&
   [ "$(complete_words hbase-glib scan --limit '')" = VALUE ]; then
  tap_ok "--config completes file names, other values nothing"
else tap_not_ok "--config completes file names, other values nothing"; fi
exit $tap_failed

# SPDX-License-Identifier: Apache-2.0
# tools/local.mk: the hbase-glib command, one table of subcommands; its
# manual is tools/hbase-glib.1, mirrored in docs/cli.md.
bin_PROGRAMS += tools/hbase-glib
tools_hbase_glib_SOURCES = tools/hbase-glib.c tools/cli.h \
	tools/cli-options.c tools/cli-session.c tools/cli-output.c \
	tools/cli-data.c tools/cli-admin.c \
	tools/cli-structures.c tools/cli-structures.h tools/cli-set.c tools/cli-zset.c \
	tools/cli-index.c tools/cli-suggest.c tools/cli-schema.c tools/cli-counter.c
tools_hbase_glib_LDADD = $(index_ldadd)
dist_man1_MANS = tools/hbase-glib.1
EXTRA_DIST += docs/cli.md

# The bash completion, made from the command table of the built program
# (hbase-glib --list-commands), installed as completions/hbase-glib.
bashcompletiondir = $(BASH_COMPLETION_DIR)
bashcompletion_DATA = tools/completions/hbase-glib
tools/completions/hbase-glib: tools/hbase-glib$(EXEEXT) $(top_srcdir)/tools/bash-completion.sh
	$(AM_V_GEN)$(MKDIR_P) tools/completions && \
	$(SHELL) $(top_srcdir)/tools/bash-completion.sh tools/hbase-glib$(EXEEXT) > $@.tmp && mv $@.tmp $@
CLEANFILES += tools/completions/hbase-glib
EXTRA_DIST += tools/bash-completion.sh
TESTS += tests/tools/test-bash-completion.sh
EXTRA_DIST += tests/tools/test-bash-completion.sh
tests/tools/test-bash-completion.log: tools/completions/hbase-glib

# The zsh completion, made the same way (tools/zsh-completion.sh), installed
# as zsh/vendor-completions/_hbase-glib.
zshcompletiondir = $(datadir)/zsh/vendor-completions
zshcompletion_DATA = tools/completions/_hbase-glib
tools/completions/_hbase-glib: tools/hbase-glib$(EXEEXT) $(top_srcdir)/tools/zsh-completion.sh
	$(AM_V_GEN)$(MKDIR_P) tools/completions && \
	$(SHELL) $(top_srcdir)/tools/zsh-completion.sh tools/hbase-glib$(EXEEXT) > $@.tmp && mv $@.tmp $@
CLEANFILES += tools/completions/_hbase-glib
EXTRA_DIST += tools/zsh-completion.sh
TESTS += tests/tools/test-zsh-completion.sh
EXTRA_DIST += tests/tools/test-zsh-completion.sh
tests/tools/test-zsh-completion.log: tools/completions/_hbase-glib

# SPDX-License-Identifier: Apache-2.0
# tools/local.mk: the hbase-glib command, one table of subcommands; its
# manual is tools/hbase-glib.1, mirrored in docs/cli.md.
bin_PROGRAMS += tools/hbase-glib
tools_hbase_glib_SOURCES = tools/hbase-glib.c tools/cli.h \
	tools/cli-options.c tools/cli-session.c tools/cli-output.c \
	tools/cli-data.c tools/cli-admin.c \
	tools/cli-structures.c tools/cli-structures.h tools/cli-set.c tools/cli-zset.c \
	tools/cli-index.c
tools_hbase_glib_LDADD = $(index_ldadd)
dist_man1_MANS = tools/hbase-glib.1
EXTRA_DIST += docs/cli.md

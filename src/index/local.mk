# SPDX-License-Identifier: Apache-2.0
# src/index/local.mk: the Redis secondary index, a library of its own
# (libhbase-glib-index-1.0, pkg-config hbase-glib-index-1.0, umbrella
# header <hbase-glib/hbase-glib-index.h>) on top of libhbase-glib-1.0, as
# hiredis keeps its adapters apart: only programs that use the index link
# hiredis.

# The index's code as a convenience library: the installed library is
# made of it, and unit tests of its internal pieces link it directly.
noinst_LTLIBRARIES += src/libhbase-glib-index-internal.la
src_libhbase_glib_index_internal_la_SOURCES = \
	src/index/hbase-index-private.h \
	src/index/hbase-index-error.c \
	src/index/hbase-index-spec.c \
	src/index/hbase-index-encoding.c \
	src/index/hbase-index-reply-private.h \
	src/index/hbase-index-reply.c \
	src/index/hbase-index-password.c \
	src/index/hbase-index-redis.c \
	src/index/hbase-index.c \
	src/index/hbase-index-meta.c \
	src/index/hbase-index-migrate.c \
	src/index/hbase-index-state.c \
	src/index/hbase-index-hooks-private.h \
	src/index/hbase-index-changes.c \
	src/index/hbase-index-hooks.c \
	src/index/hbase-index-repair.c \
	src/index/hbase-index-query-private.h \
	src/index/hbase-index-query.c \
	src/index/hbase-index-query-strings.c \
	src/index/hbase-index-plan.c \
	src/index/hbase-index-materialize.c \
	src/index/hbase-index-page.c \
	src/index/hbase-index-fetch.c \
	src/index/hbase-index-fallback.c \
	src/index/hbase-index-async.c \
	src/index/hbase-index-admin-async.c \
	src/index/hbase-index-maintenance-private.h \
	src/index/hbase-index-maintenance.c \
	src/index/hbase-index-report.c \
	src/index/hbase-index-verify.c \
	src/index/hbase-index-options.c
nodist_src_libhbase_glib_index_internal_la_SOURCES = \
	src/index/hbase-index-script.c \
	$(index_enum_types_c) $(index_enum_types_h)
src_libhbase_glib_index_internal_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/index
src_libhbase_glib_index_internal_la_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)

lib_LTLIBRARIES += src/libhbase-glib-index-1.0.la
src_libhbase_glib_index_1_0_la_SOURCES =
nodist_EXTRA_src_libhbase_glib_index_1_0_la_SOURCES = dummy.c
src_libhbase_glib_index_1_0_la_LIBADD = src/libhbase-glib-index-internal.la \
	src/libhbase-glib-1.0.la $(GLIB_LIBS) $(HIREDIS_LIBS) -lm
src_libhbase_glib_index_1_0_la_LDFLAGS = $(AM_LDFLAGS) \
	-version-info $(HBASE_GLIB_LT_VERSION) \
	-Wl,--version-script=$(top_srcdir)/src/index/libhbase-glib-index-1.0.map -no-undefined
EXTRA_src_libhbase_glib_index_1_0_la_DEPENDENCIES = src/index/libhbase-glib-index-1.0.map
EXTRA_DIST += src/index/libhbase-glib-index-1.0.map

hbaseindexincludedir = $(hbaseincludedir)
hbaseindexinclude_HEADERS = \
	include/hbase-glib/hbase-glib-index.h \
	include/hbase-glib/hbase-index.h \
	include/hbase-glib/hbase-index-query.h

# GTypes of the index's enums and flags (as src/local.mk does for the core).
index_enum_types_h = include/hbase-glib/hbase-index-enum-types.h
index_enum_types_c = src/index/hbase-index-enum-types.c
$(index_enum_types_h): $(hbaseindexinclude_HEADERS) $(top_srcdir)/src/index/hbase-index-enum-types.h.template
	$(AM_V_GEN)$(MKDIR_P) include/hbase-glib && \
	$(GLIB_MKENUMS) --identifier-prefix HBase --symbol-prefix hbase \
	  --template $(top_srcdir)/src/index/hbase-index-enum-types.h.template \
	  `for h in $(hbaseindexinclude_HEADERS); do echo $(top_srcdir)/$$h; done` > $@.tmp && mv $@.tmp $@
$(index_enum_types_c): $(hbaseindexinclude_HEADERS) $(top_srcdir)/src/index/hbase-index-enum-types.c.template
	$(AM_V_GEN)$(MKDIR_P) src/index && \
	$(GLIB_MKENUMS) --identifier-prefix HBase --symbol-prefix hbase \
	  --template $(top_srcdir)/src/index/hbase-index-enum-types.c.template \
	  `for h in $(hbaseindexinclude_HEADERS); do echo $(top_srcdir)/$$h; done` > $@.tmp && mv $@.tmp $@
nodist_hbaseindexinclude_HEADERS = $(index_enum_types_h)
BUILT_SOURCES += $(index_enum_types_h)
CLEANFILES += $(index_enum_types_h) $(index_enum_types_c)
EXTRA_DIST += src/index/hbase-index-enum-types.h.template src/index/hbase-index-enum-types.c.template

# The Lua script the index runs in Redis, compiled in as a string.
src/index/hbase-index-script.c: $(top_srcdir)/src/index/hbase-index.lua
	$(AM_V_GEN)$(MKDIR_P) src/index && \
	{ echo '/* Generated from src/index/hbase-index.lua by src/index/local.mk. */'; \
	  echo 'extern const char _hbase_index_script[];'; \
	  echo 'const char _hbase_index_script[] ='; \
	  $(SED) -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/  "/' -e 's/$$/\\n"/' \
	    $(top_srcdir)/src/index/hbase-index.lua; \
	  echo '  ;'; } > $@.tmp && mv $@.tmp $@
CLEANFILES += src/index/hbase-index-script.c
EXTRA_DIST += src/index/hbase-index.lua docs/index-consistency.md

pkgconfig_DATA += hbase-glib-index-$(API).pc
DISTCLEANFILES += hbase-glib-index-$(API).pc

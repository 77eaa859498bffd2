# SPDX-License-Identifier: Apache-2.0
# src/gir.mk: GObject Introspection data for both libraries, one namespace
# HBase 1.0: HBase-1.0.gir (g-ir-scanner, from the public headers and the
# doc comments of the sources) and HBase-1.0.typelib (g-ir-compiler),
# installed for language bindings.  Built when configure enables
# introspection (--enable-introspection).  Included after src/index/local.mk:
# it reads both libraries' lists of headers and sources.
#
# The generated Thrift layer (hbase_thrift_*, <hbase-glib/hbase-glib-thrift.h>)
# stays out: it is C-only API.  The scanner's warnings (--warn-all) go to
# HBase-1.0.gir.log and are counted; `make gir-warnings` prints the count.

gir_generated_headers = \
	include/hbase-glib/hbase-glib-thrift.h \
	include/hbase-glib/hbase-client-thrift.h \
	include/hbase-glib/hbase-error-thrift.h
gir_headers = \
	$(addprefix $(top_srcdir)/,$(filter-out $(gir_generated_headers),$(hbaseinclude_HEADERS))) \
	$(addprefix $(top_srcdir)/,$(hbaseindexinclude_HEADERS)) \
	$(nodist_hbaseinclude_HEADERS) $(nodist_hbaseindexinclude_HEADERS)
# Only the hand-written sources: their doc comments document the functions.
gir_sources = $(addprefix $(top_srcdir)/,$(filter-out src/core/hbase-thrift-fixes.c,$(filter %.c, \
	$(src_libhbase_glib_internal_la_SOURCES) $(src_libhbase_glib_index_internal_la_SOURCES))))
gir_libraries = src/libhbase-glib-1.0.la src/libhbase-glib-index-1.0.la
gir_log = HBase-1.0.gir.log

# The count of the scanner's warnings in $(gir_log), printed (it reports
# some twice: each counts once).
gir_count_warnings = \
	n=`grep ': Warning: ' $(gir_log) | sort -u | wc -l`; \
	echo "g-ir-scanner --warn-all: $$n warnings (see $(gir_log))"

if ENABLE_INTROSPECTION
# The scanner compiles and runs a program linked with both libraries to
# read their GTypes: it gets the build's compiler flags (sanitizers too,
# without leak checks at its exit).
HBase-1.0.gir: $(gir_libraries) $(gir_headers) $(gir_sources) $(top_srcdir)/src/gir.mk
	$(AM_V_GEN)CC="$(CC)" CFLAGS="$(CFLAGS) $(SANITIZER_FLAGS)" \
	LDFLAGS="$(LDFLAGS) $(SANITIZER_FLAGS)" ASAN_OPTIONS=detect_leaks=0 \
	$(G_IR_SCANNER) --libtool="$(LIBTOOL)" --warn-all \
	  --namespace=HBase --nsversion=$(API) \
	  --identifier-prefix=HBase --symbol-prefix=hbase \
	  --include=GObject-2.0 --include=Gio-2.0 --pkg=gio-2.0 \
	  --pkg-export=hbase-glib-$(API) --pkg-export=hbase-glib-index-$(API) \
	  --c-include=hbase-glib/hbase-glib.h --c-include=hbase-glib/hbase-glib-index.h \
	  $(addprefix --library=,$(gir_libraries)) \
	  --sources-top-dirs=$(abs_top_srcdir) --sources-top-dirs=$(abs_top_builddir) \
	  -I$(top_builddir)/include -I$(top_srcdir)/include -DHBASE_GLIB_COMPILATION \
	  --cflags-begin $(GLIB_CFLAGS) $(THRIFT_CFLAGS) --cflags-end \
	  --output=$@.tmp $(gir_headers) $(gir_sources) > $(gir_log) 2>&1 \
	|| { cat $(gir_log); rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@; $(gir_count_warnings)

HBase-1.0.typelib: HBase-1.0.gir
	$(AM_V_GEN)$(G_IR_COMPILER) --includedir=$(top_builddir) $< -o $@

girdir = $(datadir)/gir-1.0
gir_DATA = HBase-1.0.gir
typelibdir = $(libdir)/girepository-1.0
typelib_DATA = HBase-1.0.typelib
CLEANFILES += HBase-1.0.gir HBase-1.0.typelib $(gir_log) HBase-1.0.gir.tmp

gir-warnings: HBase-1.0.gir
	@$(gir_count_warnings)
else
gir-warnings:
	@echo "g-ir-scanner: introspection is disabled (configure --enable-introspection=yes)"; exit 1
endif
.PHONY: gir-warnings

# tests/test-gir.py (make check) fails while the scanner warns or a public
# symbol has no documentation or no Since: version.

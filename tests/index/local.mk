# SPDX-License-Identifier: Apache-2.0
# tests/index/local.mk: the index's encodings (no server), and the support
# code of the index's stack tests.
index_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/src/index
index_test_cflags = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
# Unit tests of the index's internal pieces: both libraries' code, statically.
index_internal_ldadd = tests/libindex-support.la src/libhbase-glib-index-internal.la \
	$(internal_ldadd) $(HIREDIS_LIBS) -lm

noinst_LTLIBRARIES += tests/libindex-support.la
tests_libindex_support_la_SOURCES = tests/index/index-support.c tests/index/index-support.h
tests_libindex_support_la_CFLAGS = $(index_test_cflags)

check_PROGRAMS += tests/index/test-index-encoding
tests_index_test_index_encoding_CPPFLAGS = $(index_test_cppflags)
tests_index_test_index_encoding_CFLAGS = $(index_test_cflags)
tests_index_test_index_encoding_LDADD = $(index_internal_ldadd)

# GTypes and option structs of the index (through the public API only).
check_PROGRAMS += tests/index/test-index-options
tests_index_test_index_options_CPPFLAGS = $(index_test_cppflags)
tests_index_test_index_options_CFLAGS = $(index_test_cflags)
tests_index_test_index_options_LDADD = $(index_internal_ldadd)

# Redis authentication (ACL user, legacy password, refusals, reconnects,
# no secret in any message) on the stack's redis-server with ACL users.
check_PROGRAMS += tests/index/test-index-auth
tests_index_test_index_auth_CFLAGS = $(index_test_cflags)
tests_index_test_index_auth_LDADD = $(index_stack_ldadd)

# Replies of wrong shapes from an impostor Redis in front of the stack's
# redis-server, for every command the index sends; the hbase-glib command
# against it too.
check_PROGRAMS += tests/index/test-index-impostor
tests_index_test_index_impostor_CPPFLAGS = $(AM_CPPFLAGS) -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_index_test_index_impostor_CFLAGS = $(index_test_cflags)
tests_index_test_index_impostor_LDADD = $(index_stack_ldadd)

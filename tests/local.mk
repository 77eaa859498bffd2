# SPDX-License-Identifier: Apache-2.0
# tests/local.mk: how tests run, their support code, the script tests.  The
# test programs of each folder are in its own local.mk (tests mirror src/).
#
# Every test speaks TAP through automake's tap-driver.  Unit tests need no
# server.  Integration tests use the local stack (scripts/stack.sh start);
# when it is unreachable they skip, except with CI=true, where they fail.
#
# A test program needs one line, `check_PROGRAMS += tests/DIR/test-NAME`:
# its source is tests/DIR/test-NAME.c and it links $(LDADD) (the library
# and tests/libtest-support.la) unless it says otherwise.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh .py
SH_LOG_DRIVER = $(LOG_DRIVER)
PY_LOG_DRIVER = $(LOG_DRIVER)
PY_LOG_COMPILER = $(PYTHON)
AM_TESTS_ENVIRONMENT = \
	export top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	       PYTHON='$(PYTHON)' THRIFT='$(THRIFT)' MAKE='$(MAKE)' CC='$(CC)' \
	       SANITIZER_FLAGS='$(SANITIZER_FLAGS)' \
	       G_DEBUG=gc-friendly,fatal-criticals MALLOC_CHECK_=2 \
	       ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1;

# Unit tests of internal pieces link the library's code statically.
internal_ldadd = tests/libtest-support.la src/libhbase-glib-internal.la $(GLIB_LIBS) $(THRIFT_LIBS) \
	$(PROTOBUF_C_LIBS)

noinst_LTLIBRARIES += tests/libtest-support.la
tests_libtest_support_la_SOURCES = \
	tests/support/test-stack.c tests/support/test-stack.h \
	tests/support/test-waiter.c tests/support/test-waiter.h \
	tests/support/test-rows.c tests/support/test-rows.h \
	tests/support/test-table-fixture.c tests/support/test-table-fixture.h \
	tests/support/test-env.c tests/support/test-env.h \
	tests/support/test-kerberos.c tests/support/test-kerberos.h \
	tests/support/test-fault-proxy.c tests/support/test-fault-proxy.h

TESTS += $(check_PROGRAMS) \
	tests/test-layering.py \
	tests/test-source-files.py \
	tests/test-gir.py \
	tests/test-async-pairs.py \
	tests/thrift/test-check-idl.sh \
	tests/proto/test-check-protos.sh \
	tests/install/test-pkg-config.sh \
	tests/tools/test-cli.sh \
	tests/tools/test-cli-more.sh \
	tests/tools/test-cli-redis-auth.sh \
	tests/tools/test-cli-kerberos.sh \
	tests/examples/test-hello.sh \
	tests/examples/test-dimension-lookup.sh \
	tests/examples/test-module-examples.sh
TESTS += tests/examples/test-tour.sh
# `make install` (tests/install/test-pkg-config.sh) relinks the index
# library inside the build tree, and a test that loads it meanwhile fails
# (status 127): the install test runs after every other test (GNU make's
# filter-out, hence -Wno-portability in configure.ac).
tests/install/test-pkg-config.log: $(filter-out tests/install/test-pkg-config.log,$(TEST_LOGS))

EXTRA_DIST += \
	tests/test-layering.py \
	tests/test-gir.py \
	tests/test-async-pairs.py \
	tests/test-source-files.py \
	tests/thrift/test-check-idl.sh \
	tests/proto/test-check-protos.sh \
	tests/install/test-pkg-config.sh \
	tests/install/outside.c \
	tests/install/outside-core.c \
	tests/install/outside-index.c \
	tests/tools/test-cli.sh \
	tests/tools/test-cli-more.sh \
	tests/tools/test-cli-redis-auth.sh \
	tests/tools/test-cli-kerberos.sh \
	tests/examples/test-hello.sh \
	tests/examples/test-dimension-lookup.sh \
	tests/examples/test-module-examples.sh \
	tests/examples/test-tour.sh \
	tests/integration/test-secure-stack.sh \
	tests/support/tap.sh \
	tests/support/cli-checks.sh \
	tests/skip-allowlist

# SPDX-License-Identifier: Apache-2.0
# tests/valgrind.mk: `make check-valgrind`.  Included last: its rule depends on
# every test program.
# `make check-valgrind` runs every test program and the example under
# valgrind's memcheck (needs the local stack for the integration tests);
# any error or definite leak fails it, and so does a failed test: each
# program's output (TAP, but for the example) is kept in
# PROGRAM.valgrind.out, next to the valgrind log.  Skipped tests are
# listed (SKIP: lines) and counted; scripts/test.sh checks them against
# tests/skip-allowlist.  Randomized tests run with fewer steps there
# (HBASE_GLIB_TEST_QUICK=1), and timing bounds are looser
# (HBASE_GLIB_TEST_UNDER_VALGRIND=1).
VALGRIND_FLAGS = --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --track-origins=yes --num-callers=30 \
	--suppressions=$(abs_top_srcdir)/tests/valgrind.supp
# Programs run VALGRIND_JOBS at a time (default: the number of cores),
# longest first, each by tests/valgrind-run.sh.
VALGRIND_JOBS = $$(nproc)
# the programs that take longest under valgrind, started first so that the
# others fill the remaining slots
VALGRIND_FIRST = tests/integration/test-index-interleavings tests/integration/test-write-buffer \
	tests/integration/test-table tests/integration/test-scanner
check-valgrind: $(check_PROGRAMS) examples/hello
	@results=tests/valgrind-results.txt; \
	{ for prog in $(VALGRIND_FIRST); do echo $$prog; done; \
	  for prog in $(check_PROGRAMS) examples/hello; do \
	    case " $(VALGRIND_FIRST) " in *" $$prog "*) ;; *) echo $$prog ;; esac; \
	  done; } | \
	  env LIBTOOL='$(LIBTOOL)' VALGRIND_FLAGS='$(VALGRIND_FLAGS)' \
	    top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    xargs -P "$(VALGRIND_JOBS)" -n 1 $(SHELL) $(abs_top_srcdir)/tests/valgrind-run.sh | \
	  tee $$results | grep --line-buffered -v '^COUNT: '; \
	passed=$$(grep -c '^PASS: valgrind ' $$results); failed=$$(grep -c '^FAIL: valgrind ' $$results); \
	tests=$$(awk '/^COUNT: / { n += $$3 } END { print n + 0 }' $$results); \
	skipped=$$(awk '/^COUNT: / { n += $$4 } END { print n + 0 }' $$results); \
	expected=$$(echo $(check_PROGRAMS) examples/hello | wc -w); \
	echo "valgrind: $$passed passed, $$failed failed; their tests: $$tests ran, $$skipped skipped"; \
	test $$failed -eq 0 && test $$passed -eq $$expected
clean-local:
	rm -f tests/*/*.valgrind.log tests/*/*.valgrind.out examples/*.valgrind.log examples/*.valgrind.out \
	  tests/valgrind-results.txt
EXTRA_DIST += tests/valgrind.supp tests/valgrind-run.sh
.PHONY: check-valgrind


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
check-valgrind: $(check_PROGRAMS) examples/hello
	@failed=0; passed=0; tests=0; skipped=0; \
	for prog in $(check_PROGRAMS) examples/hello; do \
	  log=$$prog.valgrind.log; out=$$prog.valgrind.out; \
	  if env G_SLICE=always-malloc G_DEBUG=gc-friendly CI=$${CI:-} HBASE_GLIB_TEST_QUICK=1 \
	       HBASE_GLIB_TEST_UNDER_VALGRIND=1 \
	       top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	       $(LIBTOOL) --mode=execute valgrind $(VALGRIND_FLAGS) --log-file=$$log ./$$prog \
	       >$$out 2>/dev/null && ! grep -q '^not ok\|^Bail out!' $$out; then \
	    echo "PASS: valgrind $$prog"; passed=$$((passed + 1)); \
	  else \
	    echo "FAIL: valgrind $$prog (see $$log and $$out)"; failed=$$((failed + 1)); \
	    grep '^not ok\|^Bail out!' $$out | head -n 10; \
	    grep -A20 'ERROR SUMMARY\|definitely lost\|Invalid' $$log | head -n 40; \
	  fi; \
	  grep '^ok .*# *SKIP' $$out | sed "s|^|SKIP: valgrind $$prog: |"; \
	  tests=$$((tests + $$(grep -c '^\(not \)\?ok' $$out))); \
	  skipped=$$((skipped + $$(grep -c '^ok .*# *SKIP' $$out))); \
	done; \
	echo "valgrind: $$passed passed, $$failed failed; their tests: $$tests ran, $$skipped skipped"; \
	test $$failed -eq 0
clean-local:
	rm -f tests/*/*.valgrind.log tests/*/*.valgrind.out examples/*.valgrind.log examples/*.valgrind.out
EXTRA_DIST += tests/valgrind.supp
.PHONY: check-valgrind


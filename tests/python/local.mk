# SPDX-License-Identifier: Apache-2.0
# tests/python/local.mk: the tests of the GObject Introspection bindings.
# Python programs (PyGObject and unittest, nothing else) that load the
# typelib HBase-1.0 and the two libraries from the build tree and use the
# local stack; each prints TAP through tests/python/hbase_gi_test.py.
#
# They run when configure found a Python with PyGObject (PYTHON_GI) and
# introspection is enabled (see configure.ac).  The .log rules below are
# GNU make target-specific variables: these tests run under $(PYTHON_GI),
# the other .py tests under $(PYTHON).
python_gi_tests = \
	tests/python/test_client.py \
	tests/python/test_table.py \
	tests/python/test_scan.py \
	tests/python/test_write_buffer.py \
	tests/python/test_set.py \
	tests/python/test_zset.py \
	tests/python/test_key_schema.py \
	tests/python/test_index.py \
	tests/python/test_errors.py \
	tests/python/test_bare_objects.py
# the tour of examples/tour.c and the string forms of the API
python_gi_tests += tests/python/test_tour.py
python_gi_logs = $(python_gi_tests:.py=.log)

# The typelib the tests load (made by src/gir.mk, in the build directory)
# and the folder of the libraries it names.
python_gi_typelib = HBase-1.0.typelib
python_gi_libdir = $(abs_top_builddir)/src/.libs

# An ASan-instrumented library loads into Python only after the ASan
# runtime; Python's own allocations at exit are no leaks of ours.
if ENABLE_SANITIZERS
python_gi_sanitizer_env = LD_PRELOAD="`$(CC) -print-file-name=libasan.so`" \
	ASAN_OPTIONS=detect_leaks=0
endif

if ENABLE_PYTHON_GI_TESTS
TESTS += $(python_gi_tests)
$(python_gi_logs): $(python_gi_typelib) $(lib_LTLIBRARIES)
$(python_gi_logs): PY_LOG_COMPILER = env \
	GI_TYPELIB_PATH="$(abspath $(dir $(python_gi_typelib)))$${GI_TYPELIB_PATH:+:$$GI_TYPELIB_PATH}" \
	LD_LIBRARY_PATH="$(python_gi_libdir)$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}" \
	PYTHONDONTWRITEBYTECODE=1 \
	$(python_gi_sanitizer_env) $(PYTHON_GI)
endif

EXTRA_DIST += $(python_gi_tests) tests/python/hbase_gi_test.py

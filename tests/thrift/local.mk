# SPDX-License-Identifier: Apache-2.0
# tests/thrift/local.mk: the generated layer.
check_PROGRAMS += tests/thrift/test-generated-types

# Many threads making their first use of the generated types at once, in
# fresh processes (thrift/once-get-type.awk).  Every generated get_type()
# function, listed from the generated headers.
check_PROGRAMS += tests/thrift/test-type-race
nodist_tests_thrift_test_type_race_SOURCES = tests/thrift/generated-get-types.h
tests_thrift_test_type_race_SOURCES = tests/thrift/test-type-race.c
tests_thrift_test_type_race_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/thrift
tests/thrift/generated-get-types.h: $(thrift_gen_dir)/generated.stamp
	$(AM_V_GEN)$(MKDIR_P) tests/thrift && \
	$(SED) -n 's/^GType \(hbase_thrift_[a-z0-9_]*_get_type\) (void);$$/  { "\1", \1 },/p' \
	  $(thrift_gen_dir)/hbase_thrift_hbase_types.h $(thrift_gen_dir)/hbase_thrift_t_h_base_service.h \
	  > $@.tmp && test -s $@.tmp && mv $@.tmp $@
BUILT_SOURCES += tests/thrift/generated-get-types.h
CLEANFILES += tests/thrift/generated-get-types.h

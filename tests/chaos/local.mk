# SPDX-License-Identifier: Apache-2.0
# tests/chaos/local.mk: the workload of scripts/chaos.sh (built here, run by
# that script against a stack of several region servers).
noinst_PROGRAMS += tests/chaos/chaos-workload
tests_chaos_chaos_workload_SOURCES = \
	tests/chaos/chaos-workload.h \
	tests/chaos/chaos-workload.c \
	tests/chaos/chaos-tables.c \
	tests/chaos/chaos-structures.c \
	tests/chaos/chaos-index.c \
	tests/chaos/chaos-cam.c
tests_chaos_chaos_workload_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
tests_chaos_chaos_workload_LDADD = $(index_ldadd) $(HIREDIS_LIBS) -lm
EXTRA_DIST += scripts/chaos.sh scripts/stack/ChaosDriver.java scripts/stack/ClusterLauncher.java

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sorted sets kept in HBase rows through the HBase-1.0 typelib: ZADD,
ZSCORE, ZRANGE by rank and by score, ZRANK, ZINCRBY, ZREM, ZCARD, lex
ranges, ZMSCORE, ZRANDMEMBER, range removals, ZUNION/ZINTER and stores."""
import math

from hbase_gi_test import GLib, HBase, TableTestCase, gbytes, main, to_bytes


def entries(iterator):
    """[(member, score)] of what an iterator still holds."""
    return [(to_bytes(e.member), e.score) for e in iterator.collect(None)]


class ZSetTest(TableTestCase):
    FAMILIES = ("z",)   # the default family of a sorted set

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.scores = HBase.ZSet.new(cls.table, gbytes("scores"), None)
        ok, n_added = cls.scores.add(HBase.ZAddFlags.NONE,
                                     [gbytes("carol"), gbytes("alice"), gbytes("bob"),
                                      gbytes("dave")],
                                     [30.0, 10.0, 20.0, -math.inf], None)
        assert ok and n_added == 4, (ok, n_added)

    def test_score(self):
        ok, found, score = self.scores.score(gbytes("bob"), None)
        self.assertTrue(ok)
        self.assertTrue(found)
        self.assertEqual(score, 20.0)
        ok, found, score = self.scores.score(gbytes("nobody"), None)
        self.assertFalse(found)
        self.assertTrue(math.isnan(score))

    def test_scores(self):
        # ZMSCORE: hbase_zset_scores_array() under the name of the C call
        ok, found, scores = self.scores.scores([gbytes("bob"), gbytes("nobody"),
                                                gbytes("dave")], None)
        self.assertTrue(ok)
        self.assertEqual(list(found), [True, False, True])
        self.assertEqual(scores[0], 20.0)
        self.assertTrue(math.isnan(scores[1]))
        self.assertEqual(scores[2], -math.inf)

    def test_add_takes_one_score_per_member(self):
        # ZADD: hbase_zset_add_array(); a missing score is an error, not a
        # read past the end of the list
        extra = HBase.ZSet.new(self.table, gbytes("extra"), None)
        with self.assertRaises(GLib.Error) as raised:
            extra.add(HBase.ZAddFlags.NONE, [gbytes("x"), gbytes("y")], [1.0], None)
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))
        ok, n_added = extra.add(HBase.ZAddFlags.NONE, [gbytes("x"), gbytes("y")], [0.0, 2.5], None)
        self.assertEqual(n_added, 2)
        ok, found, score = extra.score(gbytes("x"), None)
        self.assertTrue(found)
        self.assertEqual(score, 0.0)

    def test_range_by_rank(self):
        self.assertEqual(entries(self.scores.range_by_rank(0, -1, False)),
                         [(b"dave", -math.inf), (b"alice", 10.0), (b"bob", 20.0),
                          (b"carol", 30.0)])
        self.assertEqual(entries(self.scores.range_by_rank(0, 1, True)),
                         [(b"carol", 30.0), (b"bob", 20.0)])

    def test_range_by_score(self):
        scores = HBase.ScoreRange.new(10.0, True, 30.0, False)   # (10, 30]
        self.assertEqual(entries(self.scores.range_by_score(scores, False, 0, -1)),
                         [(b"bob", 20.0), (b"carol", 30.0)])
        ok, count = self.scores.count(scores, None)
        self.assertEqual(count, 2)

    def test_iterate_one_by_one(self):
        iterator = self.scores.range_by_rank(1, 2, False)
        ok, member, score = iterator.next(None)
        self.assertEqual((to_bytes(member), score), (b"alice", 10.0))
        ok, member, score = iterator.next(None)
        self.assertEqual((to_bytes(member), score), (b"bob", 20.0))
        ok, member, score = iterator.next(None)
        self.assertTrue(ok)
        self.assertIsNone(member)

    def test_rank(self):
        ok, found, rank, score = self.scores.rank(gbytes("carol"), False, None)
        self.assertTrue(found)
        self.assertEqual(rank, 3)
        self.assertEqual(score, 30.0)
        ok, found, rank, score = self.scores.rank(gbytes("carol"), True, None)
        self.assertEqual(rank, 0)

    def test_incr_by_and_remove(self):
        board = HBase.ZSet.new(self.table, gbytes("board"), None)
        ok, score = board.incr_by(gbytes("eve"), 2.5, None)
        self.assertEqual(score, 2.5)
        ok, score = board.incr_by(gbytes("eve"), 4.0, None)
        self.assertEqual(score, 6.5)
        ok, card = board.card(None)
        self.assertEqual(card, 1)
        ok, n_removed = board.remove([gbytes("eve"), gbytes("nobody")], None)
        self.assertEqual(n_removed, 1)
        ok, card = board.card(None)
        self.assertEqual(card, 0)

    def test_add_flags(self):
        flags = HBase.ZSet.new(self.table, gbytes("flags"), None)
        flags.add(HBase.ZAddFlags.NONE, [gbytes("m")], [5.0], None)
        # NX: only new members; m keeps its score
        ok, n_added = flags.add(HBase.ZAddFlags.NX, [gbytes("m"), gbytes("n")], [9.0, 1.0], None)
        self.assertEqual(n_added, 1)
        ok, found, score = flags.score(gbytes("m"), None)
        self.assertEqual(score, 5.0)
        # GT|CH: raise only, count changed members
        ok, n_changed = flags.add(HBase.ZAddFlags.GT | HBase.ZAddFlags.CH,
                                  [gbytes("m"), gbytes("n")], [7.0, 0.5], None)
        self.assertEqual(n_changed, 1)
        self.assertEqual(entries(flags.range_by_rank(0, -1, False)), [(b"n", 1.0), (b"m", 7.0)])

    def test_lex_and_mscore(self):
        words = HBase.ZSet.new(self.table, gbytes("words"), None)
        words.add(HBase.ZAddFlags.NONE, [gbytes(w) for w in "abcde"], [0.0] * 5, None)
        members = words.range_by_lex(gbytes("(a"), gbytes("[d"), True, 0, 2, None)
        self.assertEqual([to_bytes(m) for m in members], [b"d", b"c"])
        ok, count = words.lex_count(gbytes("-"), gbytes("+"), None)
        self.assertEqual(count, 5)
        ok, scores, found = words.mscore([gbytes("b"), gbytes("zz")], None)
        self.assertEqual(scores[0], 0.0)
        self.assertTrue(math.isnan(scores[1]))
        self.assertEqual(list(found), [True, False])
        drawn = words.random_members(-7, None)
        self.assertEqual(len(drawn), 7)
        ok, n_removed = words.remove_range_by_lex(gbytes("[b"), gbytes("+"), None)
        self.assertEqual(n_removed, 4)
        ok, n_removed = words.remove_range_by_rank(0, -1, None)
        self.assertEqual(n_removed, 1)

    def test_union_inter_store(self):
        other = HBase.ZSet.new(self.table, gbytes("other"), None)
        other.add(HBase.ZAddFlags.NONE, [gbytes("bob"), gbytes("zoe")], [1.0, 2.0], None)
        options = HBase.ZCombineOptions.new()
        options.set_weights([2.0, 10.0])
        options.aggregate = HBase.ZAggregate.MAX
        inter = self.scores.inter([other], options, None)
        self.assertEqual([(to_bytes(e.member), e.score) for e in inter], [(b"bob", 40.0)])
        target = HBase.ZSet.new(self.table, gbytes("target"), None)
        ok, card = target.union_store([self.scores, other], None, None)
        self.assertEqual(card, 5)
        self.assertEqual(entries(target.range_by_rank(-1, -1, False)), [(b"carol", 30.0)])


if __name__ == "__main__":
    main()

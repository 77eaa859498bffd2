#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sets kept in HBase rows through the HBase-1.0 typelib: SADD, SISMEMBER,
SMEMBERS, SREM, SCARD and SINTER on members that are arbitrary bytes, and
SPOP, SRANDMEMBER, SMOVE and SUNIONSTORE (synchronous and asynchronous)."""
from hbase_gi_test import HBase, TableTestCase, gbytes, main, to_bytes


class SetTest(TableTestCase):
    FAMILIES = ("s",)   # the default family of a set

    def new_set(self, key):
        return HBase.Set.new(self.table, gbytes(key), None)

    def test_add_and_contains(self):
        colours = self.new_set("colours")
        ok, n_added = colours.add([gbytes("red"), gbytes("green"), gbytes("red")], None)
        self.assertTrue(ok)
        self.assertEqual(n_added, 2)
        ok, n_added = colours.add([gbytes("green"), gbytes("blue")], None)
        self.assertEqual(n_added, 1)
        ok, is_member = colours.contains(gbytes("green"), None)
        self.assertTrue(is_member)
        ok, is_member = colours.contains(gbytes("purple"), None)
        self.assertFalse(is_member)
        ok, card = colours.card(None)
        self.assertEqual(card, 3)

    def test_contains_many(self):
        # SMISMEMBER: hbase_set_contains_many_array() under the name of the
        # C call, whose flags array GObject Introspection cannot size
        shapes = self.new_set("shapes")
        shapes.add([gbytes("circle"), gbytes("square")], None)
        ok, flags = shapes.contains_many([gbytes("square"), gbytes("oval"), gbytes("circle")], None)
        self.assertTrue(ok)
        self.assertEqual(list(flags), [True, False, True])
        ok, flags = shapes.contains_many([], None)
        self.assertEqual(list(flags), [])

    def test_members_sorted_bytes(self):
        members = self.new_set("bytes")
        values = [b"\xff\x00", b"", b"b", b"a\x00z"]
        members.add([gbytes(v) for v in values], None)
        found = [to_bytes(m) for m in members.members().collect(None)]
        self.assertEqual(found, sorted(values))

    def test_remove(self):
        letters = self.new_set("letters")
        letters.add([gbytes(c) for c in "abc"], None)
        ok, n_removed = letters.remove([gbytes("a"), gbytes("z")], None)
        self.assertEqual(n_removed, 1)
        ok, removed = letters.remove_one(gbytes("b"), None)
        self.assertTrue(removed)
        self.assertEqual([to_bytes(m) for m in letters.members().collect(None)], [b"c"])

    def test_iterate_one_by_one(self):
        digits = self.new_set("digits")
        digits.add([gbytes(str(i)) for i in range(10)], None)
        iterator = digits.members()
        seen = []
        while True:
            ok, member = iterator.next(None)
            if member is None:
                break
            seen.append(to_bytes(member))
        self.assertEqual(seen, [str(i).encode() for i in range(10)])

    def test_intersect(self):
        first, second = self.new_set("first"), self.new_set("second")
        first.add([gbytes(c) for c in "abcd"], None)
        second.add([gbytes(c) for c in "bdf"], None)
        both = HBase.Set.intersect([first, second])
        self.assertEqual([to_bytes(m) for m in both.collect(None)], [b"b", b"d"])

    def test_clear(self):
        doomed = self.new_set("doomed")
        doomed.add([gbytes("x")], None)
        self.assertTrue(doomed.clear(None))
        ok, card = doomed.card(None)
        self.assertEqual(card, 0)

    def test_pop(self):
        bag = self.new_set("bag")
        bag.add([gbytes(c) for c in "abcde"], None)
        ok, popped = bag.pop(2, None)
        self.assertTrue(ok)
        self.assertEqual(len(popped), 2)
        ok, one = bag.pop_one(None)
        popped.append(one)
        ok, rest = bag.pop(10, None)
        got = sorted(to_bytes(m) for m in popped + rest)
        self.assertEqual(got, [c.encode() for c in "abcde"])
        ok, none = bag.pop_one(None)
        self.assertIsNone(none)

    def test_random_member(self):
        pick = self.new_set("pick")
        ok, member = pick.random_member(None)
        self.assertIsNone(member)
        pick.add([gbytes("only")], None)
        ok, member = pick.random_member(None)
        self.assertEqual(to_bytes(member), b"only")
        ok, members = pick.random_members(-3, None)
        self.assertEqual([to_bytes(m) for m in members], [b"only"] * 3)

    def test_move_and_union_store(self):
        source, target = self.new_set("source"), self.new_set("target")
        source.add([gbytes("x"), gbytes("y")], None)
        ok, moved = source.move(target, gbytes("x"), None)
        self.assertTrue(moved)
        ok, moved = source.move(target, gbytes("x"), None)
        self.assertFalse(moved)
        ok, card = target.union_store([source, target], None)
        self.assertEqual(card, 2)
        self.assertEqual([to_bytes(m) for m in target.members().collect(None)], [b"x", b"y"])

    def test_pop_async(self):
        from gi.repository import GLib
        jar = self.new_set("jar")
        jar.add([gbytes("p"), gbytes("q")], None)
        loop = GLib.MainLoop()
        found = []

        def done(source, result):
            found.append(source.pop_finish(result))
            loop.quit()

        jar.pop_async(5, None, done)
        loop.run()
        ok, members = found[0]
        self.assertEqual(sorted(to_bytes(m) for m in members), [b"p", b"q"])


if __name__ == "__main__":
    main()

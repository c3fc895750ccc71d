"""kalah.analysis, the handle of a search read as it improves (ctest: python_analysis_test):
its reports are progress's, it ends with the answer analyse() gives, stop() from another thread
ends it within a fraction of a second with the bounds proven, a handle dropped stops its search,
a wrong type is refused at the call, and an error is raised where it is read.

usage: python3 python_analysis_test.py   (with the module on PYTHONPATH)"""
import gc
import threading
import time
import unittest

import kalah

BIG = "6,6,6,6,6,6/6,6,6,6,6,6"  # Kalah(6,6): hours without a database


class AnalysisHandle(unittest.TestCase):
    def test_it_ends_with_analyses_answer(self):
        position = "2,0,1,3/0,1,1,2/3,4"
        with kalah.analysis(position, capture="empty", db=None, threads=1) as a:
            reports = list(a)
        answer = a.wait()
        expected = kalah.analyse(position, capture="empty", db=None, threads=1)
        for k in ("value", "moves", "best_line"):
            self.assertEqual(answer[k], expected[k])
        self.assertTrue(all(r["running"] for r in reports), reports)

    def test_stop_from_another_thread(self):
        with kalah.analysis(BIG, db=None, threads=1) as a:
            threading.Timer(1.0, a.stop).start()
            start = time.monotonic()
            reports = list(a)
            took = time.monotonic() - start
        answer = a.wait()
        self.assertLess(took, 1.5)
        self.assertEqual((answer["interrupted"], answer["stopped"]), (True, "stop"))
        self.assertLessEqual(answer["lower"], answer["upper"])
        # The reports are progress's, each an improvement (a heartbeat repeats none), and the
        # estimate deepens.
        self.assertGreaterEqual(len(reports), 2)
        for r in reports:
            self.assertTrue({"running", "seconds", "nodes", "estimate"} <= r.keys(), r)
        timeless = [{k: v for k, v in r.items() if k != "seconds"} for r in reports]
        self.assertTrue(all(x != y for x, y in zip(timeless, timeless[1:])))
        depths = [r["estimate"]["depth"] for r in reports]
        self.assertEqual(depths, sorted(depths))
        self.assertEqual(list(a), [])  # it stays ended

    def test_leaving_the_with_block_stops_it(self):
        start = time.monotonic()
        with kalah.analysis(BIG, db=None, threads=1) as a:
            next(a)
        self.assertLess(time.monotonic() - start, 2.0)
        self.assertTrue(a.wait()["interrupted"])

    def test_a_dropped_handle_stops_its_search(self):
        a = kalah.analysis(BIG, db=None, threads=1)
        next(a)  # it runs
        del a
        gc.collect()
        start = time.monotonic()
        while any(t.name == "kalah.analysis" for t in threading.enumerate()):
            self.assertLess(time.monotonic() - start, 2.0, "the search outlived its handle")
            time.sleep(0.05)

    def test_wrong_types_are_refused_at_the_call(self):
        for kwargs in ({"threads": "x"}, {"threads": 1.5}, {"timeout": "1"}, {"pie": 1},
                       {"pits": True}):
            with self.assertRaises(TypeError, msg=kwargs):
                kalah.analysis(BIG, db=None, **kwargs)
        self.assertFalse(any(t.name == "kalah.analysis" for t in threading.enumerate()))

    def test_an_error_is_raised_where_it_is_read(self):
        a = kalah.analysis("1,2/3", db=None)
        with self.assertRaises(ValueError):
            list(a)
        with self.assertRaises(ValueError):
            a.wait()


if __name__ == "__main__":
    unittest.main(verbosity=2)

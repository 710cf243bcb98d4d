#!/usr/bin/env python3
"""junit_check.py FILE [FAILING...] - FILE is JUnit XML as Jenkins' junit
plugin and GitLab read it (the elements and attributes their schema,
jenkinsci/xunit-plugin junit-10.xsd, requires): a <testsuites> root of
<testsuite name tests failures errors [skipped] [time]>, each with
<testcase name classname [time]> children holding at most one of
<failure message type>, <error>, <skipped>; the counts agree with the
cases.  With FAILING ("ns/name" ...): exactly those cases fail."""
import sys
import xml.etree.ElementTree as ET


def main(argv):
    root = ET.parse(argv[1]).getroot()
    assert root.tag == "testsuites", root.tag
    failing = []
    for s in root.findall("testsuite"):
        for a in ("name", "tests", "failures", "errors"):
            assert a in s.attrib, "testsuite without " + a
        cases = s.findall("testcase")
        assert int(s.get("tests")) == len(cases), "tests count"
        nf = ns = 0
        for c in cases:
            assert c.get("name") and c.get("classname"), "testcase names"
            kids = [k.tag for k in c]
            assert set(kids) <= {"failure", "error", "skipped",
                                 "system-out", "system-err"}, kids
            assert len([k for k in kids if k != "system-out"]) <= 1, kids
            f = c.find("failure")
            if f is not None:
                assert f.get("message") and f.get("type"), "failure attrs"
                assert (f.text or "").strip(), "failure without text"
                failing.append(c.get("classname") + "/" + c.get("name"))
                nf += 1
            ns += c.find("skipped") is not None
        assert int(s.get("failures")) == nf, "failures count"
        assert int(s.get("skipped", "0")) == ns, "skipped count"
        assert int(s.get("errors")) == 0
    if len(argv) > 2:
        assert sorted(failing) == sorted(argv[2:]), failing
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

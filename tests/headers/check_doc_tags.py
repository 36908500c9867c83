#!/usr/bin/env python3
"""Every public call's documentation carries what the manual promises: a @since tag, a
thread-safety note (@note), and for calls returning llmm_status at least one @retval.
usage: check_doc_tags.py INCLUDE_DIR   (TAP output)"""
import glob
import os
import re
import sys


def main():
    inc = sys.argv[1]
    problems = []
    count = 0
    for path in sorted(glob.glob(os.path.join(inc, '*.h'))):
        text = open(path, encoding='utf-8').read()
        for m in re.finditer(r'/\*\*(.*?)\*/\s*LLMM_API\s+([^;]*?)\b(llmm_\w+)\s*\(', text, re.S):
            doc, ret, name = m.group(1), m.group(2), m.group(3)
            count += 1
            if '@since' not in doc:
                problems.append('%s: no @since' % name)
            if '@note' not in doc:
                problems.append('%s: no thread-safety @note' % name)
            if 'llmm_status' in ret and '@retval' not in doc:
                problems.append('%s: returns llmm_status but lists no @retval' % name)
    print('1..1')
    if problems or count == 0:
        for p in problems:
            print('# ' + p)
        print('not ok 1 - %d public calls, %d documentation problems' % (count, len(problems)))
        return 1
    print('ok 1 - %d public calls: @since, thread-safety @note and @retval present' % count)
    return 0


if __name__ == '__main__':
    sys.exit(main())

"""CHANGELOG.md in Debian's changelog format, for the package's /usr/share/doc/<package>/changelog.gz.

    python3 scripts/lib/debian_changelog.py CHANGELOG.md PACKAGE "MAINTAINER <address>" DATE

Each release section ("## 0.4.0 (2026-11-22, ...)") becomes one entry whose items are the first
sentence of each of its "- " items, under its "### group" name. A release without a date (the one
in progress) is UNRELEASED and dated DATE (RFC 2822), so the package's newest entry is its own
version. Debian policy 12.7: a native package's changelog is changelog.gz in this format.
"""
import re
import sys
import textwrap
from datetime import datetime, timezone
from email.utils import format_datetime


def first_sentence(item):
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', item)  # links keep their text
    text = text.replace('**', '')
    m = re.search(r'(?<=[^\s.])\.(\s|$)', text)
    return text[:m.start() + 1] if m else text


def releases(markdown):
    """(version, date or None, [(group, [item, ...]), ...]) per release, newest first."""
    out = []
    for block in re.split(r'^## ', markdown, flags=re.M)[1:]:
        heading, _, body = block.partition('\n')
        m = re.match(r'(\d+\.\d+\.\d+)\s*\(([^)]*)\)', heading)
        if not m:
            continue
        date = re.search(r'\d{4}-\d{2}-\d{2}', m.group(2))
        groups, group, items = [], None, []
        for line in body.split('\n') + ['### ']:
            if line.startswith('### '):
                if items:
                    groups.append((group, items))
                group, items = line[4:].strip() or None, []
            elif line.startswith('- '):
                items.append(line[2:].strip())
            elif line.startswith('  ') and items:
                items[-1] += ' ' + line.strip()
        out.append((m.group(1), date.group(0) if date else None, groups))
    return out


def main():
    changelog, package, maintainer, today = sys.argv[1:5]
    with open(changelog, encoding='utf-8') as f:
        entries = releases(f.read())
    if not entries:
        sys.exit(f'{changelog}: no release sections')
    for version, date, groups in entries:
        when = (format_datetime(datetime.strptime(date, '%Y-%m-%d').replace(tzinfo=timezone.utc))
                if date else today)
        print(f'{package} ({version}) {"unstable" if date else "UNRELEASED"}; urgency=medium\n')
        for group, items in groups:
            for item in items:
                text = first_sentence(item)
                if group:
                    text = f'{group}: {text}'
                print(textwrap.fill(text, width=78, initial_indent='  * ', subsequent_indent='    '))
        print(f'\n -- {maintainer}  {when}\n')


main()

#!/usr/bin/env bash
# Checks the links of the documentation, without the network:
#   bash scripts/check_links.sh [FILE.md...]   (default: README.md, ARCHITECTURE.md, CHANGELOG.md,
#                                                docs/*.md, tests/README.md, tests/vectors/README.md)
# Every relative link must name a file or directory of the repository, and every #anchor a heading
# of the page it points into (GitHub's slugs). External http(s) links are listed, not fetched.
# Links inside code (fenced blocks and `spans`) are not links. Exits 1 if any link is broken.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
if [ $# -eq 0 ]; then
    set -- README.md ARCHITECTURE.md CHANGELOG.md docs/*.md tests/README.md tests/vectors/README.md
fi

python3 - "$@" <<'PY'
import os, re, sys, unicodedata

FENCE = re.compile(r'^\s*(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')
# [text](target) or ![alt](target); the target ends at the first space or closing parenthesis.
LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')


def prose_lines(path):
    """(number, line) of the lines outside fenced code blocks, with code spans blanked out."""
    inside = False
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield number, CODE_SPAN.sub(lambda m: ' ' * len(m.group(0)), line)


def slug(text):
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed, spaces to '-'."""
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)  # a link in a heading keeps its text
    text = text.replace('`', '').lower()
    kept = ''.join(c for c in text if c in ' -_' or unicodedata.category(c)[0] in 'LN')
    return kept.replace(' ', '-')


anchors_of = {}


def anchors(path):
    if path not in anchors_of:
        seen, found = {}, set()
        inside = False
        with open(path, encoding='utf-8') as f:
            for line in f:
                if FENCE.match(line):
                    inside = not inside
                    continue
                m = None if inside else HEADING.match(line)
                if m:
                    base = slug(m.group(2))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    found.add(base if n == 0 else f'{base}-{n}')
        anchors_of[path] = found
    return anchors_of[path]


broken, external, checked = [], set(), 0
for page in sys.argv[1:]:
    for number, line in prose_lines(page):
        for target in LINK.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                if target.startswith(('http://', 'https://')):
                    external.add(target)
                continue
            checked += 1
            path, _, anchor = target.partition('#')
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = f'{page}:{number}: {target}'
            if not os.path.exists(resolved):
                broken.append(f'{where}: no file {resolved}')
            elif anchor:
                if not resolved.endswith('.md') or os.path.isdir(resolved):
                    broken.append(f'{where}: an anchor into {resolved}, which is not a Markdown page')
                elif anchor not in anchors(resolved):
                    broken.append(f'{where}: {resolved} has no heading #{anchor}')

print(f'links: {checked} relative links in {len(sys.argv) - 1} pages checked, {len(broken)} broken; '
      f'{len(external)} external links listed, not fetched:')
for url in sorted(external):
    print(f'  {url}')
for problem in broken:
    print(f'BROKEN {problem}', file=sys.stderr)
sys.exit(1 if broken else 0)
PY

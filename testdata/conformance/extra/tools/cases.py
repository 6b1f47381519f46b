import sys; sys.path.insert(0, __import__('os').path.dirname(__file__))
from gen import *

# 01 credentials in remotes, document URLs and the knowledge repository are never echoed
case('01-credentials-never-echoed', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('repo:20260901/userpass'), ref('repo:20260901/token'), ref('repo:20260901/sshsecond'),
            ref('repo:20260901/sshuser'), ref('repo:20260901/scp'), ref('lark:20260901/doc'),
            ref('repo-content:kb@' + C40), ref('repo:20260901/query')]),
     ('b', [])])]),
  'sources/repo/index.yaml': f'''sources:
  - name: "20260901"
    modules:
      - name: userpass
        git: {{remote: "https://deploy:s3cret-pass@example.org/team/source.git", ref: "{C40}"}}
      - name: token
        git: {{remote: "https://ghp_s3cretToken@github.com/team/source", ref: "{C40}"}}
      - name: sshsecond
        git: {{remote: "ssh://git@example.org/team/x:s3cret@y", ref: "{C40}"}}
      - name: sshuser
        git: {{remote: "ssh://deploy:s3cret@example.org/team/source", ref: "{C40}"}}
      - name: scp
        git: {{remote: "git@example.org:team/source.git", ref: "{C40}"}}
      - name: query
        git: {{remote: "https://example.org/team/source?private_token=s3cret", ref: "{C40}"}}
''',
  'sources/lark/index.yaml': '''sources:
  - name: "20260901"
    modules:
      - name: doc
        url: "https://user:s3cret@docs.example.org/doc/1"
''',
}, request([item(0, 'knowledge/faq/guide.md', 3, 5)], repository='https://kb:s3cret@example.org/team/kb.git'))

# 02 percent-encoding of cited paths, 64-hex commits, single-line anchors, digests
case('02-percent-encoding-and-64-hex', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('repo:20260901/sha256', path='"docs/My File+v2 (draft)/über#1.md"', s=5, e=5),
            ref('repo:20260901/sha256', path='"src/a%20b/~tilde_ok-.rs"', s=1, e=3),
            ref('repo:20260901/short', path='src/x.ts', s=2, e=2)]),
     ('b', [ref('repo:20260901/sha256', path='"中文/文件.md"', s=7, e=8, digest='sha256:' + 'AB'*32)])])]),
  'sources/repo/index.yaml': f'''sources:
  - name: "20260901"
    modules:
      - name: sha256
        subpath: pkg/sub dir
        git:
          remote: git@github.com:team/sha256-repo.git
          ref: "{C64}"
      - name: short
        git:
          remote: https://github.com/team/short
          ref: 9fceb02
''',
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)], args={'include_digest': True}))

# 03 flat vs namespaced document sources, identities and snapshot paths
case('03-flat-and-namespaced-documents', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('file:ns/mod'), ref('file:ns/mod-id'), ref('file:flat'), ref('file:flat-id'),
            ref('file:ns'), ref('file:dup'), ref('file:escape/mod'), ref('file:badmanifest'),
            ref('file:flatmanifest')]),
     ('b', [ref('lark:both'), ref('lark:none'), ref('lark:ftp'), ref('lark:emptytoken'),
            ref('lark:wiki/page'), ref('lark:ctl')])])]),
  'sources/file/index.yaml': '''sources:
  - name: ns
    modules:
      - name: mod
      - name: other
        id: mod-id
        materializedAt: sources/file/ns/other
        snapshot:
          manifest: sources/file/ns/other/manifest.json
  - name: flat
    id: flat-id
    materializedAt: sources/file/flat/v1
  - name: dup
  - name: duplicate
    id: dup
  - name: escape
    modules:
      - name: mod
        materializedAt: sources/file/escape/../../../etc
  - name: badmanifest
    snapshot:
      manifest: sources/lark/badmanifest/manifest.json
  - name: flatmanifest
    snapshot:
      manifest: sources/file/flatmanifest/manifest.json
''',
  'sources/lark/index.yaml': '''sources:
  - name: both
    url: https://docs.example.org/both
    docToken: doxcnBoth
  - name: none
  - name: ftp
    url: ftp://docs.example.org/x
  - name: emptytoken
    docToken: ""
  - name: wiki
    modules:
      - name: page
        wikiToken: wikcnPage
  - name: ctl
    docToken: "dox\\u0007bell"
''',
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)]))

# 04 unsafe and invalid identities
case('04-unsafe-and-invalid-identities', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('repo:20260901/installer', path='../etc/passwd'),
            ref('repo:../installer'),
            ref('repo:20260901/upward'),
            ref('note:2026091/x.md'), ref('note:20260901/x.txt'), ref('sessions:20260901/a/b.md'),
            ref('note:20260901/missing.md'), ref('note:20260901/present.md'),
            ref('svn:trunk/x'), ref('nocolon'),
            ref('repo:20260901/installer', s=0, e=2), ref('repo:20260901/installer', s=3, e=2),
            ref('repo:20260901/installer', path='""'),
            ref('repo:20260901/installer', path='src/c:d.ts'),
            ref('repo:20260901/installer', digest=None),
            ref('repo:20260901/installer', digest='sha256:' + 'a'*63),
            ref('repo:20260901/installer', digest='SHA256:' + 'a'*64),
            ]),
     ('b', ['          - source_ref: 12\n            locator: {path: x, start_line: 1, end_line: 1}\n            content_digest: ' + D + '\n',
            '          - locator: {path: x, start_line: 1, end_line: 1}\n            content_digest: ' + D + '\n',
            '          - source_ref: "1.50"\n            locator: {path: x, start_line: 1, end_line: 1}\n            content_digest: ' + D + '\n',
            '          - source_ref: yes\n            locator: {path: x, start_line: 1, end_line: 1}\n            content_digest: ' + D + '\n',
            '          - source_ref: repo:20260901/installer\n            locator: {path: x, start_line: "1", end_line: 1}\n            content_digest: ' + D + '\n',
            ])])]),
  'sources/repo/index.yaml': REPO_OK + '''      - name: upward
        subpath: ../outside
        git:
          remote: https://example.org/team/source.git
          ref: main
''',
  'sources/note/20260901/present.md': 'a note\n',
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)]))

# 05 page problems and marker errors: EVIDENCE_UNAVAILABLE, the item keeps no references
MK = lambda body: '# P\n' + body
ok_refs = [ref('repo:20260901/installer')]
pages = {
  'nested.md': MK('<!-- context:section id="a" -->\n<!-- context:section id="b" -->\n<!-- /context:section -->\n<!-- /context:section -->\n'),
  'duplicate.md': MK('<!-- context:section id="a" -->\n<!-- /context:section -->\n<!-- context:section id="a" -->\n<!-- /context:section -->\n'),
  'unmatched.md': MK('<!-- context:section id="a" -->\n<!-- /context:section -->\n<!-- /context:section -->\n'),
  'unclosed.md': MK('<!-- context:section id="a" -->\ntext\n'),
  'legacy.md': MK('<!-- context:section id="a" kind="faq" -->\n<!-- /context:section -->\n'),
}
files = {f'knowledge/faq/{k}': v for k, v in pages.items()}
files['knowledge/faq/latin1.md'] = b'# P\n<!-- context:section id="a" -->\ncaf\xe9\n<!-- /context:section -->\n'
files['knowledge/faq/ok.md'] = MK('<!-- context:section id="a" -->\nA\n<!-- /context:section -->\n')
files['knowledge/notes.txt'] = 'not markdown\n'
files['docs/outside.md'] = MK('<!-- context:section id="a" -->\nA\n<!-- /context:section -->\n')
names = list(pages) + ['latin1.md', 'ok.md']
files['knowledge/structure.yaml'] = structure([(f'faq/{n}', [('a', ok_refs), ('b', ok_refs)]) for n in names])
files['sources/repo/index.yaml'] = REPO_OK
items = [item(i, f'knowledge/faq/{n}', 1, 6) for i, n in enumerate(pages)]
items += [item(5, 'knowledge/faq/latin1.md', 1, 4), item(6, 'knowledge/faq/missing.md', 1, 4),
          item(7, 'knowledge/faq/../faq/ok.md', 1, 4), item(8, 'knowledge/faq/ok.md', 0, 4),
          item(9, 'knowledge/faq/ok.md', 4, 3)]
case('05-page-and-marker-errors', files, request(items))
case('06-skipped-paths', files, request([item(0, 'knowledge/notes.txt', 1, 1), item(1, 'docs/outside.md', 1, 4),
     item(2, 'knowledge/faq/ok.md', 2, 4), item(3, 'Knowledge/faq/ok.md', 1, 4), item(4, 'knowledge', 1, 4)]))

# 07 structure problems
def structure_case(name, text, extra_items=()):
    files = {'knowledge/faq/guide.md': GUIDE, 'sources/repo/index.yaml': REPO_OK}
    if text is not None:
        files['knowledge/structure.yaml'] = text
    case(name, files, request([item(0, 'knowledge/faq/guide.md', 3, 5), item(1, 'knowledge/faq/guide.md', 6, 6)] + list(extra_items)))
good = structure([('faq/guide.md', [('a', ok_refs), ('b', ok_refs)])])
structure_case('07-missing-structure', None)
structure_case('08-invalid-structure-yaml', good + '  - article_id: [unclosed\n')
structure_case('09-duplicate-key-structure', good.replace('    collection: faq\n', '    collection: faq\n    collection: again\n'))
structure_case('10-unsupported-schema', good.replace('approved-structure.v1', 'approved-structure.v2'))
structure_case('11-missing-articles', 'schema_version: context.approved-structure.v1\narticles: {}\n')
structure_case('12-non-string-key-structure', good + '? [a, b]\n: x\n')
structure_case('13-yaml-alias-bomb', 'schema_version: context.approved-structure.v1\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\narticles: *i\n')
structure_case('14-deep-nesting', 'schema_version: context.approved-structure.v1\narticles: ' + '[' * 300 + ']' * 300 + '\n')

# 15 registry problems stay with the references that need them
case('15-registry-problems', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('repo:20260901/installer'), ref('file:ns/doc'), ref('lark:x/y'), ref('note:20260901/n.md')]),
     ('b', [ref('repo:20260901/installer', s=4, e=4)])])]),
  'sources/repo/index.yaml': REPO_OK + '      - name: installer\n',
  'sources/file/index.yaml': 'sources:\n  - name: 20260901\n    modules:\n      - name: other\n  - name: ns\n    modules:\n      - name: doc\n',
  'sources/lark/index.yaml': 'sources: [\n',
  'sources/note/20260901/n.md': 'note\n',
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)]))

# 16 a registry without sources, and a missing registry
case('16-registry-without-sources', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [('a', [ref('repo:20260901/installer'), ref('lark:doc')]), ('b', [])])]),
  'sources/repo/index.yaml': 'modules: []\n',
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)]))

# 17 de-duplication: within a section, across sections, and digest-only differences
case('17-deduplication', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('repo:20260901/installer'), ref('repo:20260901/installer'),
            ref('repo:20260901/installer', digest='sha256:' + 'b'*64), ref('note:20260901/n.md')]),
     ('b', [ref('repo:20260901/installer'), ref('note:20260901/n.md'), ref('repo:20260901/installer', s=1, e=1)])])]),
  'sources/repo/index.yaml': REPO_OK,
  'sources/note/20260901/n.md': 'note\n',
}, request([item(0, 'knowledge/faq/guide.md', 1, 9), item(1, 'knowledge/faq/guide.md', 1, 9, item_id='digests')], args={'include_digest': False}))

case('18-deduplication-with-digests', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('repo:20260901/installer'), ref('repo:20260901/installer'),
            ref('repo:20260901/installer', digest='sha256:' + 'b'*64), ref('repo:20260901/installer', digest='sha256:' + 'B'*64)]),
     ('b', [ref('repo:20260901/installer', digest='sha256:' + 'b'*64)])])]),
  'sources/repo/index.yaml': REPO_OK,
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)], args={'include_digest': True, 'workspace_root': '.'}))

# INVALID_INPUT: one attachment without item_id
ws_min = {'knowledge/faq/guide.md': GUIDE}
many = [item(i, 'knowledge/faq/guide.md', 1, 9) for i in range(11)]
case('20-invalid-input-too-many-files', ws_min, request(many))
case('21-invalid-input-duplicate-ids', ws_min, request([item(0, 'knowledge/faq/guide.md'), item(0, 'knowledge/faq/guide.md')]))
case('22-invalid-input-abi', ws_min, dict(request([item(0, 'knowledge/faq/guide.md')]), abi_version=1))
case('23-invalid-input-workspace-root', ws_min, request([item(0, 'knowledge/faq/guide.md')], args={'workspace_root': '../other'}))
case('24-invalid-input-operation', ws_min, dict(request([item(0, 'knowledge/faq/guide.md')]), operation='write'))
case('25-invalid-input-item-id', ws_min, request([item(0, 'knowledge/faq/guide.md', item_id='bad\u0001id')]))
case('26-invalid-input-long-item-id', ws_min, request([item(0, 'knowledge/faq/guide.md', item_id='é' * 129)]))
case('27-invalid-input-empty-item-id', ws_min, request([item(0, 'knowledge/faq/guide.md', item_id='')]))
case('28-invalid-input-unknown-arg', ws_min, request([item(0, 'knowledge/faq/guide.md')], args={'include_digest': True, 'verbose': True}))
case('29-invalid-input-not-json', ws_min, None, raw_request='{"abi_version": 2, "operation": "read", "files": [')
case('30-invalid-input-missing-lines', ws_min, None, raw_request='{"abi_version":2,"operation":"read","files":[{"item_id":"read-0","path":"knowledge/faq/guide.md","start_line":1}]}')
case('31-valid-minimal-request', {'knowledge/faq/guide.md': GUIDE, 'knowledge/structure.yaml': structure([('faq/guide.md', [('a', [ref('repo:20260901/installer')]), ('b', [])])]), 'sources/repo/index.yaml': REPO_OK},
     None, raw_request='{"abi_version":2,"operation":"read","args":null,"files":[{"item_id":"only","path":"knowledge/faq/guide.md","start_line":4,"end_line":4}]}')
case('32-max-item-id-and-ten-files', {'knowledge/faq/guide.md': GUIDE, 'knowledge/structure.yaml': structure([('faq/guide.md', [('a', [ref('repo:20260901/installer')]), ('b', [])])]), 'sources/repo/index.yaml': REPO_OK},
     request([item(0, 'knowledge/faq/guide.md', 4, 4, item_id='é' * 128)] + [item(i, 'knowledge/faq/guide.md', 8, 8) for i in range(1, 10)]))

# 40 output budget: over 64 KiB of references in one response
long_refs = [ref('repo:20260901/installer', path='src/' + 'deep/' * 40 + f'file{i}.ts') for i in range(300)]
case('40-output-limit', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [('a', long_refs), ('b', [])])]),
  'sources/repo/index.yaml': REPO_OK,
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)]))
# 41 just under the budget: the same references, fewer
case('41-output-under-limit', {
  'knowledge/faq/guide.md': GUIDE,
  'knowledge/structure.yaml': structure([('faq/guide.md', [('a', long_refs[:200]), ('b', [])])]),
  'sources/repo/index.yaml': REPO_OK,
}, request([item(0, 'knowledge/faq/guide.md', 1, 9)]))

# 42 YAML quoting of section ids in diagnostics
ids = ['true', 'False', 'NULL', 'Null', '0o17', '+1', '-2', '.inf', '-.5', '1e3', '0123', '0x1g', 'on', 'off', 'y', 'n',
       '@at', '`tick', '%pct', '&amp;amp', '|pipe', '>gt', '?q', ':colon', ',comma', '[br', '{br', '#hash',
       'a: b', 'a #b', 'ends:', 'a:b', 'a#b', ' lead', 'tab\there', 'emoji 😀', 'line\\nfeed', "it's", '"dq"', '- dash', '--', '---', '...']
body = '# Q\n'
for sid in ids:
    enc = sid.replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;').replace('>', '&gt;')
    body += f'<!-- context:section id="{enc}" -->\nx\n<!-- /context:section -->\n'
case('42-yaml-quoting-of-ids', {
  'knowledge/q.md': body,
  'knowledge/structure.yaml': structure([('q.md', [('registered', [])])]),
}, request([item(0, 'knowledge/q.md', 1, 3 * len(ids) + 1)]))

# 43 a workspace inside a monorepo: paths keep the workspace root, repo-content does not
case('43-monorepo-workspace-root', {
  'docs/kb/knowledge/faq/guide.md': GUIDE,
  'docs/kb/knowledge/structure.yaml': structure([('faq/guide.md', [
     ('a', [ref('file:ns/doc'), ref('note:20260901/n.md'), ref('repo-content:kb@' + C40, path='docs/kb/knowledge/faq/guide.md'),
            ref('repo-content:kb@' + C40 + '+worktree', path='README.md')]),
     ('b', [])])]),
  'docs/kb/sources/file/index.yaml': 'sources:\n  - name: ns\n    modules:\n      - name: doc\n',
  'docs/kb/sources/note/20260901/n.md': 'n\n',
  'sources/note/20260901/n.md': 'decoy at the repository root\n',
}, request([item(0, 'docs/kb/knowledge/faq/guide.md', 3, 3), item(1, 'knowledge/faq/guide.md', 3, 3)],
           args={'workspace_root': 'docs/kb'}, repository='git@github.com:team/monorepo.git'))

# 44 text that only resembles markers: a closing marker with extra text, a backtick fence whose
# info string has backticks (it hides the invalid marker inside it)
case('44-marker-lookalikes', {
  'knowledge/faq/look.md': '# L\n<!-- /context:section x -->\n```js `x`\n<!-- context:section bad -->\n```\n<!-- context:section id="a" -->\nA\n<!-- /context:section -->\n',
  'knowledge/structure.yaml': structure([('faq/look.md', [('a', [ref('repo:20260901/installer')])])]),
  'sources/repo/index.yaml': REPO_OK,
}, request([item(0, 'knowledge/faq/look.md', 1, 8)]))

# 45 hostile nesting that would cost the parser quadratic time is refused up front
structure_case('45-deep-flow-nesting', 'schema_version: context.approved-structure.v1\narticles: ' + '[' * 20000 + ']' * 20000 + '\n')

# 46 CRLF everywhere: page, structure and registry
crlf = lambda t: t.replace('\n', '\r\n')
case('46-crlf-files', {
  'knowledge/faq/guide.md': crlf(GUIDE),
  'knowledge/structure.yaml': crlf(structure([('faq/guide.md', [('a', [ref('repo:20260901/installer', s=4, e=4)]), ('b', [ref('note:20260901/n.md')])])])),
  'sources/repo/index.yaml': crlf(REPO_OK),
  'sources/note/20260901/n.md': crlf('a\nb\n'),
}, request([item(0, 'knowledge/faq/guide.md', 5, 7), item(1, 'knowledge/faq/guide.md', 9, 9)]))

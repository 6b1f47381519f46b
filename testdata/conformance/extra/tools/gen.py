import json, os, shutil
BASE = __import__('os').path.join(__import__('os').path.dirname(__file__), '..', 'cases')
D = 'sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae'
C40 = '9fceb02d0ae598e95dc970b74767f19372d61af8'
C64 = '5d41402abc4b2a76b9719d911017c592ae2f8c1b3c4d5e6f708192a3b4c5d6e7'
GUIDE = '# Guide\n\n<!-- context:section id="a" -->\nA\n<!-- /context:section -->\n\n<!-- context:section id="b" -->\nB\n<!-- /context:section -->\n'

def ref(sr, path='src/x.ts', s=1, e=2, digest=D, extra=''):
    out = f'          - source_ref: {sr}\n'
    out += f'            locator:\n              path: {path}\n              start_line: {s}\n              end_line: {e}\n'
    if digest is not None:
        out += f'            content_digest: {digest}\n'
    return out + extra

def structure(articles):
    s = 'schema_version: context.approved-structure.v1\narticles:\n'
    for path, sections in articles:
        aid = path.replace('/', '-').replace('.md', '')
        s += f'  - article_id: {aid}\n    path: {path}\n    collection: faq\n    visibility: public\n    sections:\n'
        for sid, refs in sections:
            s += f'      - id: {sid}\n'
            if refs is None:
                continue
            if refs == []:
                s += '        references: []\n'
            else:
                s += '        references:\n' + ''.join(refs)
    return s

def item(i, path, s=1, e=9, **kw):
    d = {'item_id': f'read-{i}', 'path': path, 'repository_path': path, 'start_line': s, 'end_line': e,
         'content': '', 'truncated': False, 'has_more': False, 'next_start_line': None}
    d.update(kw)
    return d

def request(files, args=None, repository='team/knowledge', **kw):
    r = {'abi_version': 2, 'operation': 'read_many' if len(files) > 1 else 'read', 'repository': repository,
         'commit': '4b825dc642cb6eb9a060e54bf8d69288fbee4904', 'root': '', 'args': args if args is not None else {}, 'files': files}
    r.update(kw)
    return r

def case(name, files_map, req, raw_request=None):
    d = os.path.join(BASE, name)
    # expected.json is kept: it is reviewed by hand, never regenerated blindly.
    if os.path.exists(os.path.join(d, 'ws')):
        shutil.rmtree(os.path.join(d, 'ws'))
    os.makedirs(os.path.join(d, 'ws'))
    for p, content in files_map.items():
        fp = os.path.join(d, 'ws', p)
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        mode = 'wb' if isinstance(content, bytes) else 'w'
        with open(fp, mode) as f:
            f.write(content)
    if not files_map:
        open(os.path.join(d, 'ws', '.keep'), 'w').close()
    with open(os.path.join(d, 'request.json'), 'w') as f:
        if raw_request is not None:
            f.write(raw_request)
        else:
            json.dump(req, f, indent=2, ensure_ascii=False)
            f.write('\n')

REPO_OK = f'''sources:
  - name: "20260901"
    modules:
      - name: installer
        subpath: module
        git:
          remote: https://example.org/team/source.git
          ref: "{C40}"
'''

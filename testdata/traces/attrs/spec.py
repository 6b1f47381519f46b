S = "/tmp/traces-work/attrs/scripts/"
V = "/tmp/traces-work/venv-attrs/lib/python3.11/site-packages/"
P = "/root/.pyenv/versions/3.11.7/lib/python3.11/"

def rw(script_dir, venv_sp, stdlib=None):
    r = [(S, script_dir), (V, venv_sp)]
    if stdlib:
        r.append((P, stdlib))
    return r

HEADER = "# attrs traceback set: real traces from attrs 22.2.0 scripts, paths rewritten; labelled after reading the pages.\n"
ITEMS = [
    dict(file="server_config.py", rw=rw("/home/mkowalski/infra-tools/config/", "/home/mkowalski/.venvs/infra-tools/lib/python3.11/site-packages/"),
         pre="getting this when APP_PORT comes from the environment:",
         expect=["validators#instance-of-and-callable", "converters#converter-basics"]),
    dict(file="money.py", rw=rw("/home/priya/shop-backend/pricing/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=["immutability#frozen-classes", "immutability#evolve"]),
    dict(file="models.py", rw=rw("/home/jdoe/projects/userdb/", "/home/jdoe/projects/userdb/.venv/lib/python3.11/site-packages/"),
         expect=["class-building#ordering-check-and-transformer", "fields#kw-only"]),
    dict(file="geometry.py", rw=rw("/home/tomas/code/plotter/", "/home/tomas/.virtualenvs/plotter/lib/python3.11/site-packages/"),
         expect=["slotted-classes#slotted-basics", "defining-classes#define-defaults"]),
    dict(file="dedupe.py", rw=rw("/home/ana/geo-dedupe/", "/home/ana/geo-dedupe/venv/lib/python3.11/site-packages/"),
         pre="why can't I put my attrs objects in a set?",
         expect=["comparison-and-hashing#hash-rules", "comparison-and-hashing#hashing-advice"]),
    dict(file="settings.py", rw=rw("/home/lee/worker-svc/app/", "/home/lee/.cache/pypoetry/virtualenvs/worker-svc-Xk2P9aQe-py3.11/lib/python3.11/site-packages/"),
         expect=["converters#converter-basics", "overview#generated-source-and-debugging"]),
    dict(file="contact.py", rw=rw("/home/sofia/crm/", "/home/sofia/crm/.venv/lib/python3.11/site-packages/"),
         expect=["validators#in-and-matches-re", "on-setattr#define-default-hooks", "validators#when-validators-run"]),
    dict(file="tables.py", rw=rw("/home/bwright/ormlite/src/ormlite/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         pre="class definition fails on import:",
         expect=["defining-classes#auto-attribs-guess", "class-building#collecting-own-attributes", "defining-classes#auto-attribs-rules"]),
    dict(file="serialize.py", rw=rw("/home/kenji/deploy-bot/", "/home/kenji/.venvs/deploy-bot/lib/python3.11/site-packages/"),
         expect=["serialization-and-introspection#value-serializer"]),
    dict(file="product.py", rw=rw("/home/marta/catalog/", "/home/marta/catalog/env/lib/python3.11/site-packages/"),
         expect=["fields#field-versus-attrib", "attribute-objects#counting-attr"]),
    # unanswerable
    dict(file="api_response.py", rw=rw("/home/dave/api-gw/handlers/", "/home/dave/api-gw/.venv/lib/python3.11/site-packages/", "/home/dave/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=[]),
    dict(file="worker.py", rw=rw("/home/nina/jobqueue/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         pre="copy.deepcopy of my attrs Worker blows up, how do I copy it?",
         expect=[]),
    dict(file="colors.py", rw=rw("/home/omar/paint-app/", "/home/omar/paint-app/.venv/lib/python3.11/site-packages/", "/home/omar/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=[]),
    dict(file="tree.py", rw=rw("/home/rchen/treeviz/", "/home/rchen/treeviz/.venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         pre="attrs resolve_types fails:",
         expect=[]),
]
